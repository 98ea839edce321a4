package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/tournament"
)

// While a round is paired but has no result yet, the standings and the
// crosstable of that round count the rounds played (the crosstable used to
// slice past them and panic).
func TestStandingsRoundInProgress(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "3")
	for _, n := range []string{"A", "B", "C", "D"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	db.must("result", "1", "1", "40-24")
	db.must("result", "1", "2", "24-40")
	db.must("round", "pair")
	for _, args := range [][]string{{"crosstable", "--round", "2"}, {"crosstable", "--round", "2", "--json"}, {"standings", "--round", "2"}} {
		out := db.must(args...)
		if strings.Contains(out, "R 2") || strings.Contains(out, `"round": 2`) {
			t.Errorf("otd %s shows round 2, which has no result:\n%s", strings.Join(args, " "), out)
		}
	}
}

// TestStandingsRoundRange: a --round the tournament does not have is wrong
// usage (exit 2) saying the rounds it has; -1 was taken for the default,
// the final standings (issue 21, item 10).
func TestStandingsRoundRange(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "3")
	for _, n := range []string{"A", "B"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair")
	db.must("result", "1", "1", "40-24")
	for _, cmd := range []string{"standings", "crosstable"} {
		for _, r := range []string{"-2", "-1", "4"} {
			out, errs, code := db.run(cmd, "--round", r)
			want := "otd: " + cmd + " --round " + r + ": no such round: give 1 to 3 (0: before round 1), or no --round for the last round finished; see 'otd " + cmd + " --help'\n"
			if code != 2 || out != "" || errs != want {
				t.Errorf("otd %s --round %s: exit %d, %q, %q; want exit 2, %q", cmd, r, code, out, errs, want)
			}
		}
		for _, r := range []string{"0", "1", "3"} { // 3: not paired, another error
			if _, _, code := db.run(cmd, "--round", r); code == 2 {
				t.Errorf("otd %s --round %s: exit 2", cmd, r)
			}
		}
	}
}

// TestFitTableCutsOnlyAsNeeded: a table of long names at 80 columns cuts a
// name only as far as it must (issue 21, item 10: standings cut "Hansen, …
// (withdrawn)" short with room to spare). The widths below are counted by
// hand: a table of k columns takes 1 + 3k columns besides its cells.
func TestFitTableCutsOnlyAsNeeded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header []string
		rows   [][]string
		names  []int
		want   []string // cells as shown, row by row, in the name columns
		head   string   // the header line's words
		width  int      // of every line
	}{
		{
			// 8 columns: 25 of borders and padding; Rank 4, No 2 and the
			// headers shortened, Ctry 4, Pts 3, BQ 5, Discs 5, Gms 3 = 26:
			// 29 for the name, 34 long: its first 16 columns, "…", " (withdrawn)".
			name:   "standings",
			header: []string{"Rank", "No", "Name", "Country", "Points", "BQ", "Discs", "Games"},
			rows: [][]string{
				{"1", "5", "Li, Wei", "CHN", "4", "700", "300", "7"},
				{"2", "23", "Hansen, Mette Kristine (withdrawn)", "NOR", "4.5", "888.5", "320", "7"},
			},
			names: []int{2},
			want:  []string{"Li, Wei", "Hansen, Mette Kr… (withdrawn)"},
			head:  "Rank No Name Ctry Pts BQ Discs Gms",
			width: 80,
		},
		{
			// Names that fit are not cut, and the headers stay whole.
			name:   "standings of short names",
			header: []string{"Rank", "No", "Name", "Country", "Points", "BQ", "Discs", "Games"},
			rows:   [][]string{{"1", "23", "Li, Wei (withdrawn)", "NOR", "4.5", "888.5", "320", "7"}},
			names:  []int{2},
			want:   []string{"Li, Wei (withdrawn)"},
			head:   "Rank No Name Country Points BQ Discs Games",
			width:  1 + 3*8 + 4 + 2 + 19 + 7 + 6 + 5 + 5 + 5,
		},
		{
			// A pairing sheet: 6 columns, 19 of borders and padding; Table 5,
			// Pts 3, Pts 3, Result 6: 44 for the names. White needs 9, which
			// leaves 35 to Black: the 31 of Van der Berg whole, the 40 of
			// Ødegaard cut to its first 34 columns and "…".
			name:   "two name columns",
			header: []string{"Table", "Black", "Pts", "White", "Pts", "Result"},
			rows: [][]string{
				{"1", "1 Van der Berg, Johannes Petrus", "0", "2 Li, Wei", "0", ""},
				{"2", "3 Ødegaard, Kristian Andreas Nilsen-Berg", "0", "BYE", "", ""},
			},
			names: []int{1, 3},
			want:  []string{"1 Van der Berg, Johannes Petrus", "2 Li, Wei", "3 Ødegaard, Kristian Andreas Nilse…", "BYE"},
			head:  "Table Black Pts White Pts Result",
			width: 80,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := fitTable(&b, tc.header, tc.rows, tc.names...); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			for _, l := range lines {
				if n := utf8.RuneCountInString(l); n != tc.width {
					t.Errorf("a line of %d columns; want %d:\n%s", n, tc.width, b.String())
					break
				}
			}
			if head := strings.Join(strings.Fields(strings.ReplaceAll(lines[1], "│", " ")), " "); head != tc.head {
				t.Errorf("header %q; want %q", head, tc.head)
			}
			var got []string
			for _, l := range lines[3 : len(lines)-1] {
				cells := strings.Split(l, "│")
				for _, n := range tc.names {
					got = append(got, strings.TrimSpace(cells[n+1]))
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("names %q; want %q:\n%s", got, tc.want, b.String())
			}
		})
	}
}

func TestStandingsFlags(t *testing.T) {
	type o = standingsOptions
	type v = viewOptions
	checkFlags(t, newStandingsCmd, []flagCase[o]{
		{args: []string{"standings"}, want: o{viewOptions: v{Round: -1}}},
		{args: []string{"standings", "--round", "3", "--json"}, want: o{viewOptions: v{Round: 3, RoundGiven: true, JSON: true}}},
		// A round the tournament has not is its to refuse; -1 given is one.
		{args: []string{"standings", "--round", "-1"}, want: o{viewOptions: v{Round: -1, RoundGiven: true}}},
		{args: []string{"standings", "--final", "--csv"}, want: o{viewOptions: v{Round: -1, CSV: true}, Final: true}},
		{args: []string{"standings", "--excel"}, want: o{viewOptions: v{Round: -1, CSV: true, Format: export.CSVFormat{Excel: "fr", BOM: true, Comma: ';', DecimalComma: true}}}},
		{args: []string{"standings", "--excel=en", "--csv"}, want: o{viewOptions: v{Round: -1, CSV: true, Format: export.CSVFormat{Excel: "en", BOM: true, Comma: ','}}}},
		{args: []string{"standings", "--json", "--csv"}, code: exitUsage, err: "standings: --json or --csv, not both"},
		{args: []string{"standings", "--json", "--excel"}, code: exitUsage, err: "standings: --json or --csv, not both"},
		{args: []string{"standings", "--excel=es"}, code: exitUsage, err: "--excel=es: fr or de"},
		{args: []string{"standings", "--round", "last"}, code: exitUsage, err: `--round "last": not a whole number`},
		{args: []string{"standings", "3"}, code: exitUsage, err: `unknown command "3"`},
	})
}

func TestCrosstableFlags(t *testing.T) {
	type o = crosstableOptions
	type v = viewOptions
	checkFlags(t, newCrosstableCmd, []flagCase[o]{
		{args: []string{"crosstable"}, want: o{viewOptions: v{Round: -1}}},
		{args: []string{"crosstable", "--round", "0", "--csv"}, want: o{viewOptions: v{Round: 0, RoundGiven: true, CSV: true}}},
		{args: []string{"crosstable", "--excel=de"}, want: o{viewOptions: v{Round: -1, CSV: true, Format: export.CSVFormat{Excel: "de", BOM: true, Comma: ';', DecimalComma: true}}}},
		{args: []string{"crosstable", "--csv", "--json"}, code: exitUsage, err: "crosstable: --json or --csv, not both"},
	})
}

func TestUndoFlags(t *testing.T) {
	type o = undoOptions
	checkFlags(t, newUndoCmd, []flagCase[o]{
		{args: []string{"undo"}, want: o{}},
		{args: []string{"undo", "--dry-run"}, want: o{DryRun: true}},
		{args: []string{"undo", "2"}, code: exitUsage, err: `unknown command "2"`},
	})
	// 'result undo' undoes a result, entered or corrected, alone.
	results := []tournament.Action{tournament.ActResult, tournament.ActResultCorrect}
	checkFlags(t, newResultUndoCmd, []flagCase[o]{
		{args: []string{"result", "undo"}, want: o{Kinds: results}},
		{args: []string{"result", "undo", "--dry-run"}, want: o{DryRun: true, Kinds: results}},
	})
}
