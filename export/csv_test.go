package export_test

import (
	"testing"

	"github.com/otd-project/otd/export"
)

// TestTextCell: OWASP's rule against CSV injection, and nothing more.
func TestTextCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"\n=1", "'\n=1"},
		{"LEADER, Imre", "LEADER, Imre"},
		{"FRA", "FRA"},
		{"", ""},
		{"a=b", "a=b"},
		{"'quoted", "'quoted"},
		{"Éric", "Éric"},
	} {
		if got := export.TextCell(tc.in); got != tc.want {
			t.Errorf("TextCell(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}
