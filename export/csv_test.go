package export_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

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

// TestWriteCSVFormats: a sheet for programs (UTF-8, ',', 3.5, as --json),
// and for Excel as a French or German Windows opens a CSV file (UTF-8's
// byte-order mark, ';' its list separator, a decimal comma: 3,5) and as an
// English one does (the mark, ',', 3.5). A field holding the separator is
// quoted; a day stays YYYY-MM-DD, an integer and a boolean as they are.
func TestWriteCSVFormats(t *testing.T) {
	s := export.Sheet{Name: "Standings", Columns: []export.Column{{Title: "Name"}, {Title: "Points"}, {Title: "BQ"}, {Title: "Day"}, {Title: "Games"}, {Title: "Out"}},
		Rows: [][]any{{"Novák, Jan", 3.5, 577.86, time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), 7, false}, {"A;B", 2.0, nil, nil, 0, true}}}
	for _, tc := range []struct{ lang, want string }{
		{"-", "Name,Points,BQ,Day,Games,Out\n\"Novák, Jan\",3.5,577.86,2026-11-21,7,false\nA;B,2,,,0,true\n"},
		{"", "\uFEFFName;Points;BQ;Day;Games;Out\nNovák, Jan;3,5;577,86;2026-11-21;7;false\n\"A;B\";2;;;0;true\n"},
		{"fr", "\uFEFFName;Points;BQ;Day;Games;Out\nNovák, Jan;3,5;577,86;2026-11-21;7;false\n\"A;B\";2;;;0;true\n"},
		{"DE", "\uFEFFName;Points;BQ;Day;Games;Out\nNovák, Jan;3,5;577,86;2026-11-21;7;false\n\"A;B\";2;;;0;true\n"},
		{"en", "\uFEFFName,Points,BQ,Day,Games,Out\n\"Novák, Jan\",3.5,577.86,2026-11-21,7,false\nA;B,2,,,0,true\n"},
	} {
		f := export.CSVFormat{}
		if tc.lang != "-" {
			var err error
			if f, err = export.ExcelCSV(tc.lang); err != nil {
				t.Fatal(err)
			}
		}
		var b bytes.Buffer
		if err := export.WriteCSV(&b, s, f); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("--excel=%s:\n%q\nwant\n%q", tc.lang, b.String(), tc.want)
		}
	}
	if _, err := export.ExcelCSV("it"); err == nil || !strings.Contains(err.Error(), "--excel=it: fr or de") {
		t.Errorf("ExcelCSV(it): %v", err)
	}
}
