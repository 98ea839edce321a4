package export

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/otd-project/otd/internal/txt"
)

// TextCell returns a value that a user typed (a name, a country, a
// tournament's name) as a CSV or XLSX cell that a spreadsheet shows as text
// and never runs as a formula: a value starting with =, +, -, @, a tab, a
// carriage return or a line feed gets a single quote in front (OWASP's rule
// against CSV injection: "=cmd|' /C calc'!A0" is written "'=cmd|' /C
// calc'!A0"). Every writer of a CSV or XLSX file passes user text through it;
// numbers that otd computed (points, discs, ranks) are written as they are.
// A control character other than a tab or a line break, whatever the
// database holds, is escaped (txt.PrintableDocument: ESC as \x1b), and a
// byte that is not UTF-8 too, so that the file is UTF-8 text.
func TextCell(s string) string {
	s = txt.PrintableDocument(s)
	if s != "" && strings.ContainsRune("=+-@\t\r\n", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSVFormat is how a CSV file is written. The zero value is the file for
// programs: UTF-8 without a byte-order mark, fields separated by commas,
// numbers as --json writes them (3.5). Excel on Windows opens a CSV file by
// a double click with the computer's regional settings: the ANSI code page
// unless the file starts with a UTF-8 byte-order mark ("NovÃ¡k" for Novák),
// the list separator to split fields (";" in France and Germany: the whole
// line in one column), and the decimal separator to read numbers ("3.5" is
// text, or the 3rd of May, where it is ","). ExcelCSV gives the format it
// opens.
type CSVFormat struct {
	Excel        string // the language of Excel's settings: "fr", "de" or "en"; "" for programs
	BOM          bool   // the file starts with UTF-8's byte-order mark
	Comma        rune   // the field separator (0: ',')
	DecimalComma bool   // 3,5 for 3.5
}

// ExcelCSV returns the CSV format that Excel opens by a double click, with
// accents, one value a column and numbers as numbers, under the regional
// settings of a language: "fr" or "de" (also "", the same) for Excel that
// writes 3,5, as in France, Germany and most of continental Europe (UTF-8
// with a byte-order mark, ";" between fields, a decimal comma); "en" for
// Excel that writes 3.5, as in English-speaking countries and East Asia
// (UTF-8 with a byte-order mark, ",", a decimal point).
func ExcelCSV(lang string) (CSVFormat, error) {
	switch lang = strings.ToLower(lang); lang {
	case "", "fr", "de":
		return CSVFormat{Excel: cmp.Or(lang, "fr"), BOM: true, Comma: ';', DecimalComma: true}, nil
	case "en":
		return CSVFormat{Excel: "en", BOM: true, Comma: ','}, nil
	}
	return CSVFormat{}, fmt.Errorf("--excel=%s: fr or de (3,5: Excel in French, German and most of continental Europe; the default) or en (3.5: Excel in English and East Asia)", lang)
}

// String says what the format is, for a message: "for Excel fr/de: UTF-8
// with BOM, ';' and decimal comma"; "" for programs.
func (f CSVFormat) String() string {
	switch {
	case f.Excel == "":
		return ""
	case f.DecimalComma:
		return fmt.Sprintf("for Excel fr/de: UTF-8 with BOM, '%c' and decimal comma", f.Comma)
	}
	return "for Excel en: UTF-8 with BOM, ',' and decimal point"
}

// Writer returns a CSV writer of the format on w, after the byte-order mark
// if it has one.
func (f CSVFormat) Writer(w io.Writer) (*csv.Writer, error) {
	if f.BOM {
		if _, err := io.WriteString(w, "\uFEFF"); err != nil {
			return nil, err
		}
	}
	cw := csv.NewWriter(w)
	if f.Comma != 0 {
		cw.Comma = f.Comma
	}
	return cw, nil
}

// Decimal writes a number written with a decimal point ("3.5", as --json
// writes it) as the format wants it: "3,5" with a decimal comma.
func (f CSVFormat) Decimal(s string) string {
	if f.DecimalComma {
		return strings.Replace(s, ".", ",", 1)
	}
	return s
}

// WriteCSV writes a sheet as CSV in format f: the header, then a line a
// row; numbers as --json writes them (3.5, 577.86; the decimal separator of
// f), a day YYYY-MM-DD, true or false, and every string through TextCell.
func WriteCSV(w io.Writer, s Sheet, f CSVFormat) error {
	cw, err := f.Writer(w)
	if err != nil {
		return err
	}
	line := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		line[i] = c.Title
	}
	cw.Write(line)
	for _, row := range s.Rows {
		for i, v := range row {
			line[i] = cellText(v)
			if _, ok := v.(float64); ok {
				line[i] = f.Decimal(line[i])
			}
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// CSVName is the name of the sheet's CSV file: "standings.csv",
// "final-phase.csv"; a category's "women.csv" (any character but a letter,
// a digit, '-' and '_' becomes '-').
func (s Sheet) CSVName() string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, strings.ToLower(s.Name)) + ".csv"
}
