package export_test

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/xuri/excelize/v2"
)

// writeXLSX writes the workbook of tm and opens it again, with its bytes.
func writeXLSX(t *testing.T, tm *tournament.Tournament) (*excelize.File, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := export.WriteXLSX(&b, tm); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, b.Bytes()
}

// numFmt is the number format of a cell's style ("" for none).
func numFmt(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if st.CustomNumFmt == nil {
		return ""
	}
	return *st.CustomNumFmt
}

// TestXLSXNumberFormats: points show one decimal, and BQ the decimals its
// rule gives: none with an even constant, one with an odd one (points come
// in halves), two with a fraction. smallEvent's standings, worked out in
// TestToELO, lead with player 3 (2 points, BQ 141 with c = 32).
func TestXLSXNumberFormats(t *testing.T) {
	for _, tc := range []struct {
		bq     string
		rounds int
		bqFmt  string
	}{
		{"nearest", 2, "0"},   // c = 32
		{"nearest", 3, "0.0"}, // c = 21
		{"exact", 3, "0.00"},  // c = 64/3
		{"exact", 4, "0"},     // c = 16
		{"wof", 2, "0"},       // c = 0
		{"5", 2, "0.0"},
	} {
		t.Run(fmt.Sprintf("%s %d rounds", tc.bq, tc.rounds), func(t *testing.T) {
			tm := smallEvent()
			tm.Rounds = tc.rounds
			var err error
			if tm.BQ, err = scoring.ParseBQRule(tc.bq); err != nil {
				t.Fatal(err)
			}
			f, _ := writeXLSX(t, tm)
			if got := numFmt(t, f, "Standings", "G2"); got != tc.bqFmt {
				t.Errorf("BQ format %q; want %q", got, tc.bqFmt)
			}
			for _, c := range []struct{ sheet, cell string }{{"Standings", "F2"}, {"Crosstable", "D2"}, {"Crosstable", "H2"}, {"Rounds", "E2"}} {
				if got := numFmt(t, f, c.sheet, c.cell); got != "0.0" {
					t.Errorf("%s!%s (points) format %q; want 0.0", c.sheet, c.cell, got)
				}
			}
			if tc.bq == "nearest" && tc.rounds == 2 {
				for cell, want := range map[string]string{"A2": "1", "B2": "3", "F2": "2", "G2": "141", "H2": "77", "J2": "0"} {
					if got, _ := f.GetCellValue("Standings", cell, excelize.Options{RawCellValue: true}); got != want {
						t.Errorf("Standings!%s %q; want %q", cell, got, want)
					}
				}
			}
		})
	}
}

// TestXLSXLayout: every sheet has a bold header row, frozen, with an
// autofilter over the whole sheet, and columns as wide as their text.
func TestXLSXLayout(t *testing.T) {
	tm := smallEvent()
	tm.Players[0].Name = "LEADER, Imre Alexander Bartholomew"
	f, raw := writeXLSX(t, tm)
	z, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	wantSheets := map[string]string{"Tournament": "$A$1:$B$20", "Standings": "$A$1:$J$6", "Crosstable": "$A$1:$Q$6", "Rounds": "$A$1:$O$6", "Players": "$A$1:$I$6"}
	if got := f.GetSheetList(); len(got) != len(wantSheets) || got[0] != "Tournament" {
		t.Fatalf("sheets %v; want Tournament first, then Standings, Crosstable, Rounds, Players", got)
	}
	for i, sheet := range f.GetSheetList() {
		id, err := f.GetCellStyle(sheet, "A1")
		if err != nil {
			t.Fatal(err)
		}
		if st, err := f.GetStyle(id); err != nil || st.Font == nil || !st.Font.Bold {
			t.Errorf("%s!A1: not bold (%v)", sheet, err)
		}
		if p, err := f.GetPanes(sheet); err != nil || !p.Freeze || p.YSplit != 1 || p.TopLeftCell != "A2" {
			t.Errorf("%s panes %+v (%v); want the first row frozen", sheet, p, err)
		}
		fh, err := z.Open(fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1))
		if err != nil {
			t.Fatal(err)
		}
		xml, _ := io.ReadAll(fh)
		fh.Close()
		if want := fmt.Sprintf(`<autoFilter ref="%s">`, wantSheets[sheet]); !bytes.Contains(xml, []byte(want)) {
			t.Errorf("%s: no %s", sheet, want)
		}
	}
	for _, c := range []struct {
		sheet, col string
		text       string
	}{{"Standings", "C", tm.Players[0].Name}, {"Players", "B", tm.Players[0].Name}, {"Tournament", "A", "Standings after round"}, {"Rounds", "K", "time-default"}} {
		if w, err := f.GetColWidth(c.sheet, c.col); err != nil || w < float64(len(c.text)) || w > float64(len(c.text)+5) {
			t.Errorf("%s column %s: width %v (%v); want about %d for %q", c.sheet, c.col, w, err, len(c.text), c.text)
		}
	}
}

// TestXLSXCSVFormulasAreText: text a user typed that a spreadsheet would
// run as a formula (a name "=HYPERLINK(...)", a country, the tournament's
// name, director and city, an engine's note) is text in every sheet of the
// workbook and in every CSV file, with a single quote in front; no cell is
// a formula. A note with XML's specials and control characters leaves the
// workbook readable.
func TestXLSXCSVFormulasAreText(t *testing.T) {
	tm := smallEvent()
	hostile := []string{`=HYPERLINK("http://evil.example/","click")`, "+SUM(1+1)", "-2+3", "@SUM(A1:A9)", "=1+1", "\t=cmd", "-x"}
	tm.Name, tm.Director, tm.City = hostile[0], hostile[6], hostile[3]
	for i, n := range hostile[:4] {
		tm.Players[i].Name = n
	}
	tm.Players[4].Country = hostile[4]
	tm.Games[3].Result.Note = hostile[5]
	tm.Games[4].Result.Note = "<b>&amp; \x1b[2J\x00</b>" // XML's specials and characters it cannot hold
	f, _ := writeXLSX(t, tm)
	found := map[string]int{}
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
				typ, _ := f.GetCellType(sheet, ref)
				if formula, _ := f.GetCellFormula(sheet, ref); formula != "" || typ == excelize.CellTypeFormula {
					t.Errorf("%s!%s: a formula %q", sheet, ref, formula)
				}
				if typ == excelize.CellTypeInlineString && v != "" && strings.ContainsRune("=+-@\t", rune(v[0])) {
					t.Errorf("%s!%s: text %q that a spreadsheet runs", sheet, ref, v)
				}
				found[v]++
			}
		}
	}
	sheets, err := export.Sheets(tm)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sheets {
		var b bytes.Buffer
		if err := export.WriteCSV(&b, s, export.CSVFormat{}); err != nil {
			t.Fatal(err)
		}
		lines, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range lines {
			for _, v := range line {
				if v != "" && strings.ContainsRune("=+-@\t", rune(v[0])) {
					t.Errorf("%s: field %q that a spreadsheet runs", s.CSVName(), v)
				}
				found["csv "+v]++
			}
		}
	}
	for _, h := range hostile {
		if found["'"+h] == 0 || found["csv '"+h] == 0 {
			t.Errorf("%q: %d cells and %d CSV fields hold it with a quote in front; want some of each", h, found["'"+h], found["csv '"+h])
		}
	}
}

// bigEvent is a finished Swiss tournament of 1000 players and 13 rounds,
// built through the domain's operations as a director's actions build it:
// seeded ratings and countries, the Swiss pairing, results drawn from the
// ratings (one in fifty a time default), a withdrawal and an absence a round
// from round 2.
var bigEvent = sync.OnceValues(func() (*tournament.Tournament, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Benchmark Open", 13)}
	countries := []string{"FR", "GB", "JP", "NL", "US", "DE", "IT", "SE"}
	do := func(_ tournament.Change, err error) error { return err }
	for i := range 1000 {
		in := tournament.PlayerInput{Name: fmt.Sprintf("Player %d", i+1), Rating: 1200 + rng.IntN(1400), Country: countries[rng.IntN(len(countries))]}
		if err := do(tm.AddPlayer(in)); err != nil {
			return nil, err
		}
	}
	for r := 1; r <= tm.Rounds; r++ {
		if w, a := 1+rng.IntN(1000), 1+rng.IntN(1000); r > 1 && w != a && tm.Players[w-1].Left == 0 && tm.Players[a-1].Active(r) {
			if err := do(tm.Withdraw(w)); err != nil {
				return nil, err
			}
			if err := do(tm.MarkAbsent(a, r)); err != nil {
				return nil, err
			}
		}
		if err := do(tm.Pair(tournament.PairOptions{})); err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		for _, g := range tm.Round(r) {
			if g.IsBye() {
				continue
			}
			in := tournament.ResultInput{HasScore: true}
			in.Black = pairing.SimulateDiscs(rng, tm.Players[g.Black-1].Rating, tm.Players[g.White-1].Rating)
			in.White = 64 - in.Black
			if rng.IntN(50) == 0 {
				in.TimeDefault = tournament.Black
				if in.Black > 32 {
					in.TimeDefault = tournament.White
				}
			}
			if err := do(tm.RecordResult(tournament.At(r, g.Table), in, false)); err != nil {
				return nil, err
			}
		}
	}
	return tm, nil
})

// BenchmarkWriteXLSX writes the workbook of a finished 1000-player,
// 13-round tournament (about 6,500 games).
func BenchmarkWriteXLSX(b *testing.B) {
	tm, err := bigEvent()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := export.WriteXLSX(io.Discard, tm); err != nil {
			b.Fatal(err)
		}
	}
}
