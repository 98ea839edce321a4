package export

import "strings"

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
