package tournament

import (
	"errors"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

func TestNormalizeCountry(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"FR", "FRA"}, {"fr", "FRA"}, {"FRA", "FRA"}, {" fra ", "FRA"}, {"GB", "GBR"}, {"UK", "GBR"},
		{"NL", "NLD"}, {"JP", "JPN"}, {"TW", "TWN"}, {"HK", "HKG"}, {"IL", "ISR"}, {"UAE", "ARE"}, {"", ""},
		// Issue 30: the IOC's and the archive's codes, as the ISO code of the
		// country (the published rating list's NLD, DEU, DNK, CHE).
		{"NED", "NLD"}, {"ned", "NLD"}, {"GER", "DEU"}, {"SUI", "CHE"}, {"DEN", "DNK"}, {"URU", "URY"},
		{"J", "JPN"}, {"F", "FRA"}, {"I", "ITA"}, {"S", "SWE"}, {"CZ", "CZE"}, {"ROK", "KOR"}, {"CDN", "CAN"},
		{"JAP", "JPN"}, {"SIN", "SGP"}, {"SPA", "ESP"}, {"GRE", "GRC"},
	} {
		if got, err := NormalizeCountry(tc.in); got != tc.want || err != nil {
			t.Errorf("NormalizeCountry(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"XX", "FRN", "FRANCE", "X", "G1", "ÉÉ", "USA2", "{I}"} {
		if got, err := NormalizeCountry(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("NormalizeCountry(%q) = %q, %v; want ErrInvalid", in, got, err)
		}
	}
}

// TestNormalizeCountryWOF: every country of the real WOF rating files is
// accepted as it is written there (UAE, not an ISO code, as ARE).
func TestNormalizeCountryWOF(t *testing.T) {
	for _, row := range testenv.CSV(t, "othello-tournaments-wof-elo/elo_standings.csv")[1:] {
		c := row[6]
		want := c
		if c == "UAE" {
			want = "ARE"
		}
		if got, err := NormalizeCountry(c); got != want || err != nil {
			t.Errorf("%s %s: country %q gives %q, %v", row[4], row[5], c, got, err)
		}
	}
}

// TestCountryAliases: no alias hides an ISO 3166-1 code, and each stands
// for one.
func TestCountryAliases(t *testing.T) {
	for a, c := range countryAliases {
		if _, ok := iso3166[a]; ok || alpha3[a] || !alpha3[c] {
			t.Errorf("alias %s -> %s: an alias is no ISO code and stands for an ISO alpha-3 code", a, c)
		}
	}
}

// TestNormalizeCountryArchive: the country codes of the WOF archive's
// players ("%_%" lines) and of the rating list Papp ships ("pays =") that
// name a country are each read as its ISO alpha-3 code. Left out: PG,
// which the rating list and one .ELO file use for computer programs.
func TestNormalizeCountryArchive(t *testing.T) {
	for code, want := range map[string]string{
		// the archive's .ELO files, by how many players' lines have them
		"J": "JPN", "NL": "NLD", "F": "FRA", "I": "ITA", "CZ": "CZE", "IL": "ISR", "GB": "GBR", "S": "SWE",
		"B": "BEL", "N": "NOR", "DK": "DNK", "D": "DEU", "E": "ESP", "HK": "HKG", "IT": "ITA", "PL": "POL",
		"GR": "GRC", "ROK": "KOR", "CDN": "CAN", "CN": "CHN", "NED": "NLD", "URU": "URY", "T": "THA",
		"GER": "DEU", "MAL": "MYS", "JAP": "JPN", "RI": "IDN", "DEN": "DNK", "CH": "CHE", "SPA": "ESP",
		"SIN": "SGP", "SG": "SGP", "GRE": "GRC", "BR": "BRA", "CND": "CAN", "A": "AUT", "SVE": "SWE",
		"SUI": "CHE", "RO": "ROU", "MAD": "MDG", "H": "HUN", "CRO": "HRV", "UAE": "ARE", "DE": "DEU",
		"mng": "MNG", "Aus": "AUS", "swe": "SWE",
	} {
		if got, err := NormalizeCountry(code); got != want || err != nil {
			t.Errorf("NormalizeCountry(%q) = %q, %v; want %q", code, got, err, want)
		}
	}
}

func TestPlayerWOFID(t *testing.T) {
	tm := club(t, 2, 3)
	id := 79
	if _, err := tm.EditPlayer(1, PlayerEdit{WOFID: &id}); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.EditPlayer(2, PlayerEdit{WOFID: &id}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a second player with WOF id 79: %v", err)
	}
	if _, err := tm.AddPlayer(PlayerInput{Name: "X", WOFID: 79}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a new player with WOF id 79: %v", err)
	}
	if _, err := tm.EditPlayer(1, PlayerEdit{WOFID: &id}); err != nil { // their own id again
		t.Errorf("player 1 keeps WOF id 79: %v", err)
	}
	if tm.Players[0].WOFID != 79 {
		t.Errorf("player 1 has WOF id %d; want 79", tm.Players[0].WOFID)
	}
}
