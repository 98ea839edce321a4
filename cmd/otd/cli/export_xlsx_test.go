package cli

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/export"
	"github.com/xuri/excelize/v2"
)

// readSheet reads a sheet of an XLSX file back, each cell as its type says:
// a number as float64 (a cell with no type is a number), a boolean as bool,
// text as string, an empty cell as nil. A formula fails the test.
func readSheet(t *testing.T, f *excelize.File, sheet string) [][]any {
	t.Helper()
	rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatalf("sheet %s: %v", sheet, err)
	}
	out := make([][]any, len(rows))
	for r, row := range rows {
		out[r] = make([]any, len(row))
		for c, v := range row {
			if v == "" {
				continue
			}
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			typ, err := f.GetCellType(sheet, ref)
			if err != nil {
				t.Fatal(err)
			}
			if formula, _ := f.GetCellFormula(sheet, ref); formula != "" || typ == excelize.CellTypeFormula {
				t.Fatalf("%s!%s: a formula %q", sheet, ref, formula)
			}
			switch typ {
			case excelize.CellTypeUnset, excelize.CellTypeNumber:
				n, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("%s!%s: number %q: %v", sheet, ref, v, err)
				}
				out[r][c] = n
			case excelize.CellTypeBool:
				out[r][c] = v == "1"
			case excelize.CellTypeInlineString, excelize.CellTypeSharedString:
				out[r][c] = v
			default:
				t.Fatalf("%s!%s: a cell of type %v", sheet, ref, typ)
			}
		}
	}
	return out
}

// compareSheet compares a sheet's rows (header left out) with want, a row a
// line; nil in want is an empty cell, and trailing empty cells are not
// stored.
func compareSheet(t *testing.T, sheet string, got [][]any, header []string, want [][]any) {
	t.Helper()
	if len(got) == 0 || fmt.Sprint(got[0]) != fmt.Sprint(toAny(header)) {
		t.Errorf("%s header: %v; want %v", sheet, got[:min(len(got), 1)], header)
		return
	}
	got = got[1:]
	if len(got) != len(want) {
		t.Errorf("%s: %d rows; want %d", sheet, len(got), len(want))
		return
	}
	for i := range want {
		w := want[i]
		for len(w) > 0 && w[len(w)-1] == nil {
			w = w[:len(w)-1]
		}
		if !reflect.DeepEqual(got[i], w) {
			t.Errorf("%s row %d:\n got %#v\nwant %#v", sheet, i+2, got[i], w)
		}
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// num reads a JSON number as the float64 of a number cell.
func num(n json.Number) float64 {
	f, err := n.Float64()
	if err != nil {
		panic(err)
	}
	return f
}

// nonZero is a number cell, empty for 0; text, a text cell, empty for "".
func nonZero(n int) any {
	if n == 0 {
		return nil
	}
	return float64(n)
}

func text(s string) any {
	if s == "" {
		return nil
	}
	return export.TextCell(s)
}

// checkXLSXExport exports the current tournament of db to XLSX and to CSV
// and reads every sheet back: each cell must be what 'otd standings
// --json', 'otd crosstable --json', 'otd round show --json', 'otd player
// list --json' and 'otd tournament show --json' give, numbers as number
// cells, every text through export.TextCell; and each CSV file must hold the
// same cells as its sheet. more are the sheets it has besides, before
// Players (a championship's).
func checkXLSXExport(t *testing.T, db *testDB, more ...string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "out.xlsx")
	db.must("export", "xlsx", file)
	db.must("export", "csv", filepath.Join(dir, "csv"))
	f, err := excelize.OpenFile(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, want := f.GetSheetList(), slices.Concat([]string{"Tournament", "Standings", "Crosstable", "Rounds"}, more, []string{"Players"}); !reflect.DeepEqual(got, want) {
		t.Fatalf("sheets %v; want %v", got, want)
	}
	var tm tournamentJSON
	db.json(&tm, "tournament", "show", "--json")
	var players []playerJSON
	db.json(&players, "player", "list", "--json")
	var standings []standingJSON
	db.json(&standings, "standings", "--json")
	var cross []crosstableJSON
	db.json(&cross, "crosstable", "--json")
	sheets := map[string][][]any{}
	for _, name := range f.GetSheetList() {
		sheets[name] = readSheet(t, f, name)
	}

	// The first sheet: items checked by name (the settings are the
	// tournament's); a day is a number, a date, written YYYY-MM-DD in CSV.
	items := map[string]any{}
	for _, row := range sheets["Tournament"][1:] {
		if d, ok := row[len(row)-1].(float64); ok && (row[0] == "Start" || row[0] == "End") {
			day, err := excelize.ExcelDateToTime(d, false)
			if err != nil {
				t.Fatal(err)
			}
			row[1] = day.Format(time.DateOnly)
		}
		if len(row) > 1 {
			items[row[0].(string)] = row[1]
		}
	}
	after := 0
	if len(standings) > 0 {
		after = standings[0].Round
	}
	for item, want := range map[string]any{"Name": text(tm.Name), "Players": float64(tm.Players), "Rounds": float64(tm.Rounds),
		"Rounds paired": float64(tm.Paired), "Standings after round": float64(after), "Time default": tm.TimeDefault,
		"Bye points": num(tm.ByePoints), "Tie-breaks": tm.TieBreaks, "Pairing model": tm.Pairing, "Director": text(tm.Director),
		"Start": text(tm.Start), "End": text(tm.End), "City": text(tm.City), "Country": text(tm.Country)} {
		if got := items[item]; got != want {
			t.Errorf("Tournament %s: %#v; want %#v", item, got, want)
		}
	}
	if got, _ := items["BQ rule"].(string); !strings.HasPrefix(got, tm.BQ+" (c = ") {
		t.Errorf("Tournament BQ rule %q; want %s (c = ...)", got, tm.BQ)
	}

	var want [][]any
	for _, s := range standings {
		want = append(want, []any{float64(s.Rank), float64(s.Number), text(s.Name), text(s.Country), nonZero(players[s.Number-1].Rating),
			num(s.Points), num(s.BQ), float64(s.Discs), float64(s.Games), s.Withdrawn})
	}
	compareSheet(t, "Standings", sheets["Standings"], []string{"Rank", "No", "Name", "Country", "Rating", "Points", "BQ", "Discs", "Games", "Withdrawn"}, want)

	want = nil
	header := []string{"Rank", "No", "Name", "Points", "Withdrawn"}
	for i, x := range cross {
		row := []any{float64(x.Rank), float64(x.Number), text(x.Name), num(x.Points), x.Withdrawn}
		for _, c := range x.Rounds {
			var colour any
			if c.Opponent != 0 {
				colour = c.Colour
			}
			row = append(row, nonZero(c.Opponent), colour, num(c.Points), float64(c.Discs), float64(c.OpponentDiscs), c.Kind)
			if i == 0 {
				r := fmt.Sprintf("R%d ", c.Round)
				header = append(header, r+"opp", r+"colour", r+"points", r+"discs", r+"opp discs", r+"kind")
			}
		}
		want = append(want, row)
	}
	compareSheet(t, "Crosstable", sheets["Crosstable"], header, want)

	want = nil
	for r := 1; r <= tm.Paired; r++ {
		var games []gameJSON
		db.json(&games, "round", "show", strconv.Itoa(r), "--json")
		for _, g := range games {
			row := []any{float64(g.Round), float64(g.Table), float64(g.Black), text(players[g.Black-1].Name), num(g.BlackPoints),
				nil, nil, nil, nil, nil, "bye", text(g.Loser), text(g.End), text(g.Note), text(g.Moves)}
			if !g.Bye {
				row[5], row[6], row[7], row[10] = float64(g.White), text(players[g.White-1].Name), num(g.WhitePoints), nil
			}
			if g.BlackDiscs != nil {
				row[8], row[9], row[10] = float64(*g.BlackDiscs), float64(*g.WhiteDiscs), cmp.Or(g.Kind, "normal")
			}
			want = append(want, row)
		}
	}
	compareSheet(t, "Rounds", sheets["Rounds"], []string{"Round", "Table", "Black", "Black name", "Black points", "White", "White name",
		"White points", "Black discs", "White discs", "Result", "Loser", "End", "Note", "Moves"}, want)

	want = nil
	for _, p := range players {
		var absent []string
		for _, r := range p.Absent {
			absent = append(absent, strconv.Itoa(r))
		}
		want = append(want, []any{float64(p.Number), text(p.Name), nonZero(p.FedID), nonZero(p.Rating), text(p.Country), float64(p.FirstRound),
			nonZero(p.Left), text(strings.Join(absent, ", ")), text(p.Engine)})
	}
	compareSheet(t, "Players", sheets["Players"], []string{"No", "Name", "WOF id", "Rating", "Country", "First round",
		"Withdrawn before round", "Absent", "Engine"}, want)

	// The CSV files: the same cells, numbers as JSON writes them.
	for _, name := range f.GetSheetList() {
		fh, err := os.Open(filepath.Join(dir, "csv", export.Sheet{Name: name}.CSVName()))
		if err != nil {
			t.Fatal(err)
		}
		lines, err := csv.NewReader(fh).ReadAll()
		fh.Close()
		if err != nil {
			t.Fatalf("%s.csv: %v", name, err)
		}
		sheet := sheets[name]
		if len(lines) != len(sheet) {
			t.Errorf("%s.csv: %d lines; the sheet has %d rows", name, len(lines), len(sheet))
			continue
		}
		for i, line := range lines {
			cells := make([]string, len(line))
			for j, v := range sheet[i] {
				switch v := v.(type) {
				case float64:
					cells[j] = strconv.FormatFloat(v, 'f', -1, 64)
				case nil:
				default:
					cells[j] = fmt.Sprint(v)
				}
			}
			if !reflect.DeepEqual(line, cells) {
				t.Errorf("%s.csv line %d: %q; the sheet has %q", name, i+1, line, cells)
			}
		}
	}
}

// TestExportXLSXOthers: the checks of checkXLSXExport on the databases of
// testdata/audit-v0 (made by an older otd: byes, forfeits, time defaults, a
// withdrawal), and on a tournament whose texts a spreadsheet would run: a
// name "=HYPERLINK(...)" is text in the XLSX file and in the CSV files, with
// a single quote in front, and never a formula.
func TestExportXLSXOthers(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	t.Run("golden.db", func(t *testing.T) {
		db := newTestDB(t)
		copyFile(t, filepath.Join("testdata", "audit-v0", "golden.db"), db.path)
		checkXLSXExport(t, db)
	})
	// import.db holds the Belgian championship 2025's .ELO file: its two
	// added results, "270069 (26)<(38) 5900" and "270074 (24)<(40) 270033",
	// are games after the Swiss whose match is not known: a Final phase sheet
	// (and no final ranking: no final phase's rules).
	t.Run("import.db", func(t *testing.T) {
		db := newTestDB(t)
		copyFile(t, filepath.Join("testdata", "audit-v0", "import.db"), db.path)
		checkXLSXExport(t, db, "Final phase")
		f, err := excelize.OpenReader(strings.NewReader(db.must("export", "xlsx", "-")))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		compareSheet(t, "Final phase", readSheet(t, f, "Final phase"), []string{"Round", "Category", "Match", "Game", "Black", "Black name", "White",
			"White name", "Black discs", "White discs", "Result", "Loser", "End", "Note", "Moves", "Match winner", "Winner name", "Winner points",
			"Loser points", "Decided by"}, [][]any{
			{1.0, nil, nil, 1.0, 4.0, "DE MOOR, Nadja", 3.0, "REUNES, Nick", 26.0, 38.0, "normal"},
			{1.0, nil, nil, 2.0, 17.0, "BURNAY, Sacha", 15.0, "SCHOTTE, Wout", 24.0, 40.0, "normal"},
		})
	})
	t.Run("formulas", func(t *testing.T) {
		const link = `=HYPERLINK("http://evil.example/","click")`
		db := newTestDB(t)
		db.must("tournament", "new", link, "--rounds", "2", "--director", "@SUM(A1)", "--start", "2026-11-21", "--end", "2026-11-22")
		for _, n := range []string{link, "+SUM(1+1)", "-2+3", "Di"} {
			db.must("player", "add", "--", n)
		}
		db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
		db.must("result", "1", "1", "40-24")
		db.must("result", "1", "2", "20-40", "--time-default", "white")
		checkXLSXExport(t, db)
		f, err := excelize.OpenReader(strings.NewReader(db.must("export", "xlsx", "-")))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, c := range []struct{ sheet, cell string }{{"Tournament", "B2"}, {"Players", "B2"}, {"Standings", "C2"}} {
			v, _ := f.GetCellValue(c.sheet, c.cell)
			typ, _ := f.GetCellType(c.sheet, c.cell)
			if formula, _ := f.GetCellFormula(c.sheet, c.cell); v != "'"+link || typ != excelize.CellTypeInlineString || formula != "" {
				t.Errorf("%s!%s: %q of type %v, formula %q; want the text %q", c.sheet, c.cell, v, typ, formula, "'"+link)
			}
		}
		rows, err := csv.NewReader(strings.NewReader(db.must("crosstable", "--csv"))).ReadAll()
		if err != nil || len(rows) != 5 || rows[1][2] != "'"+link {
			t.Errorf("crosstable --csv: %q, %v; want %q as the first player's name", rows, err, "'"+link)
		}
	})
}
