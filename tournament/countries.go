package tournament

import (
	"strings"
)

// NormalizeCountry returns the one stored form of a country code: the
// three-letter ISO 3166-1 alpha-3 code that the WOF rating files use. It
// accepts the alpha-2 code (FR), the alpha-3 code (FRA), an alias of one
// (countryAliases: NED for NLD, F for FRA), in any case, and "" (no
// country). Unknown codes are refused with ErrInvalid.
func NormalizeCountry(s string) (string, error) {
	c := strings.ToUpper(strings.TrimSpace(s))
	if c == "" {
		return "", nil
	}
	if a, ok := countryAliases[c]; ok {
		return a, nil
	}
	switch len(c) {
	case 2:
		if a, ok := iso3166[c]; ok {
			return a, nil
		}
		return "", invalidf("country %q: not an ISO 3166 two-letter code; a country is a 2- or 3-letter code such as FR or GBR", s)
	case 3:
		if alpha3[c] {
			return c, nil
		}
		return "", invalidf("country %q: not an ISO 3166 three-letter code; a country is a 2- or 3-letter code such as FR or GBR", s)
	}
	return "", invalidf("country %q: a country is a 2- or 3-letter code such as FR or GBR", s)
}

// countryAliases are the codes in use that are not ISO 3166-1, as the WOF
// archive's .ELO files, its rating list and directors write them, with the
// ISO code they stand for: the IOC's (NED, GER, SUI, DEN, URU, ...), the
// international vehicle registration codes of older files (J, F, I, S,
// CDN, ROK, RI, ...) and a few of the archive's own (JAP, SIN, SPA, SVE).
// None is an ISO 3166-1 code (TestCountryAliases).
var countryAliases = map[string]string{
	"UK": "GBR", "UAE": "ARE",
	// IOC codes
	"NED": "NLD", "GER": "DEU", "SUI": "CHE", "DEN": "DNK", "URU": "URY", "GRE": "GRC", "CRO": "HRV",
	"MAD": "MDG", "MAS": "MYS", "INA": "IDN", "POR": "PRT", "RSA": "ZAF",
	// vehicle registration codes
	"A": "AUT", "B": "BEL", "D": "DEU", "E": "ESP", "F": "FRA", "H": "HUN", "I": "ITA", "J": "JPN",
	"N": "NOR", "S": "SWE", "T": "THA", "CDN": "CAN", "ROK": "KOR", "RI": "IDN",
	// the archive's own
	"JAP": "JPN", "SIN": "SGP", "SPA": "ESP", "SVE": "SWE", "CND": "CAN", "MAL": "MYS",
}

// alpha3 is the set of the ISO 3166-1 alpha-3 codes.
var alpha3 = func() map[string]bool {
	m := make(map[string]bool, len(iso3166))
	for _, a := range iso3166 {
		m[a] = true
	}
	return m
}()

// iso3166 maps every ISO 3166-1 alpha-2 code to its alpha-3 code.
var iso3166 = map[string]string{
	"AD": "AND", "AE": "ARE", "AF": "AFG", "AG": "ATG", "AI": "AIA", "AL": "ALB", "AM": "ARM", "AO": "AGO",
	"AQ": "ATA", "AR": "ARG", "AS": "ASM", "AT": "AUT", "AU": "AUS", "AW": "ABW", "AX": "ALA", "AZ": "AZE",
	"BA": "BIH", "BB": "BRB", "BD": "BGD", "BE": "BEL", "BF": "BFA", "BG": "BGR", "BH": "BHR", "BI": "BDI",
	"BJ": "BEN", "BL": "BLM", "BM": "BMU", "BN": "BRN", "BO": "BOL", "BQ": "BES", "BR": "BRA", "BS": "BHS",
	"BT": "BTN", "BV": "BVT", "BW": "BWA", "BY": "BLR", "BZ": "BLZ", "CA": "CAN", "CC": "CCK", "CD": "COD",
	"CF": "CAF", "CG": "COG", "CH": "CHE", "CI": "CIV", "CK": "COK", "CL": "CHL", "CM": "CMR", "CN": "CHN",
	"CO": "COL", "CR": "CRI", "CU": "CUB", "CV": "CPV", "CW": "CUW", "CX": "CXR", "CY": "CYP", "CZ": "CZE",
	"DE": "DEU", "DJ": "DJI", "DK": "DNK", "DM": "DMA", "DO": "DOM", "DZ": "DZA", "EC": "ECU", "EE": "EST",
	"EG": "EGY", "EH": "ESH", "ER": "ERI", "ES": "ESP", "ET": "ETH", "FI": "FIN", "FJ": "FJI", "FK": "FLK",
	"FM": "FSM", "FO": "FRO", "FR": "FRA", "GA": "GAB", "GB": "GBR", "GD": "GRD", "GE": "GEO", "GF": "GUF",
	"GG": "GGY", "GH": "GHA", "GI": "GIB", "GL": "GRL", "GM": "GMB", "GN": "GIN", "GP": "GLP", "GQ": "GNQ",
	"GR": "GRC", "GS": "SGS", "GT": "GTM", "GU": "GUM", "GW": "GNB", "GY": "GUY", "HK": "HKG", "HM": "HMD",
	"HN": "HND", "HR": "HRV", "HT": "HTI", "HU": "HUN", "ID": "IDN", "IE": "IRL", "IL": "ISR", "IM": "IMN",
	"IN": "IND", "IO": "IOT", "IQ": "IRQ", "IR": "IRN", "IS": "ISL", "IT": "ITA", "JE": "JEY", "JM": "JAM",
	"JO": "JOR", "JP": "JPN", "KE": "KEN", "KG": "KGZ", "KH": "KHM", "KI": "KIR", "KM": "COM", "KN": "KNA",
	"KP": "PRK", "KR": "KOR", "KW": "KWT", "KY": "CYM", "KZ": "KAZ", "LA": "LAO", "LB": "LBN", "LC": "LCA",
	"LI": "LIE", "LK": "LKA", "LR": "LBR", "LS": "LSO", "LT": "LTU", "LU": "LUX", "LV": "LVA", "LY": "LBY",
	"MA": "MAR", "MC": "MCO", "MD": "MDA", "ME": "MNE", "MF": "MAF", "MG": "MDG", "MH": "MHL", "MK": "MKD",
	"ML": "MLI", "MM": "MMR", "MN": "MNG", "MO": "MAC", "MP": "MNP", "MQ": "MTQ", "MR": "MRT", "MS": "MSR",
	"MT": "MLT", "MU": "MUS", "MV": "MDV", "MW": "MWI", "MX": "MEX", "MY": "MYS", "MZ": "MOZ", "NA": "NAM",
	"NC": "NCL", "NE": "NER", "NF": "NFK", "NG": "NGA", "NI": "NIC", "NL": "NLD", "NO": "NOR", "NP": "NPL",
	"NR": "NRU", "NU": "NIU", "NZ": "NZL", "OM": "OMN", "PA": "PAN", "PE": "PER", "PF": "PYF", "PG": "PNG",
	"PH": "PHL", "PK": "PAK", "PL": "POL", "PM": "SPM", "PN": "PCN", "PR": "PRI", "PS": "PSE", "PT": "PRT",
	"PW": "PLW", "PY": "PRY", "QA": "QAT", "RE": "REU", "RO": "ROU", "RS": "SRB", "RU": "RUS", "RW": "RWA",
	"SA": "SAU", "SB": "SLB", "SC": "SYC", "SD": "SDN", "SE": "SWE", "SG": "SGP", "SH": "SHN", "SI": "SVN",
	"SJ": "SJM", "SK": "SVK", "SL": "SLE", "SM": "SMR", "SN": "SEN", "SO": "SOM", "SR": "SUR", "SS": "SSD",
	"ST": "STP", "SV": "SLV", "SX": "SXM", "SY": "SYR", "SZ": "SWZ", "TC": "TCA", "TD": "TCD", "TF": "ATF",
	"TG": "TGO", "TH": "THA", "TJ": "TJK", "TK": "TKL", "TL": "TLS", "TM": "TKM", "TN": "TUN", "TO": "TON",
	"TR": "TUR", "TT": "TTO", "TV": "TUV", "TW": "TWN", "TZ": "TZA", "UA": "UKR", "UG": "UGA", "UM": "UMI",
	"US": "USA", "UY": "URY", "UZ": "UZB", "VA": "VAT", "VC": "VCT", "VE": "VEN", "VG": "VGB", "VI": "VIR",
	"VN": "VNM", "VU": "VUT", "WF": "WLF", "WS": "WSM", "XK": "XKX", "YE": "YEM", "YT": "MYT", "ZA": "ZAF",
	"ZM": "ZMB", "ZW": "ZWE",
}
