package export

import (
	"encoding/csv"
	"io"
	"strings"
)

// TextCell returns a value that a user typed (a name, a country, a
// tournament's name) as a CSV or XLSX cell that a spreadsheet shows as text
// and never runs as a formula: a value starting with =, +, -, @, a tab, a
// carriage return or a line feed gets a single quote in front (OWASP's rule
// against CSV injection: "=cmd|' /C calc'!A0" is written "'=cmd|' /C
// calc'!A0"). Every writer of a CSV or XLSX file passes user text through it;
// numbers that otd computed (points, discs, ranks) are written as they are.
func TextCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r\n", rune(s[0])) {
		return "'" + s
	}
	return s
}

// WriteCSV writes a sheet as CSV: the header, then a line a row; numbers as
// --json writes them (3.5, 577.86), a day YYYY-MM-DD, true or false, and
// every string through TextCell.
func WriteCSV(w io.Writer, s Sheet) error {
	cw := csv.NewWriter(w)
	line := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		line[i] = c.Title
	}
	cw.Write(line)
	for _, row := range s.Rows {
		for i, v := range row {
			line[i] = cellText(v)
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// CSVName is the name of the sheet's CSV file: "standings.csv".
func (s Sheet) CSVName() string { return strings.ToLower(s.Name) + ".csv" }
