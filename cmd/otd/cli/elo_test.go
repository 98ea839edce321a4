package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

// TestImportELOStandings imports WOC 2015, 2019 and 2023 with --bq wof and
// checks 'standings --json' against the published standings (the %_% lines,
// flattened in elo_standings.csv): every score and disc count, and the
// published order, which within a score is the order by tie-break.
func TestImportELOStandings(t *testing.T) {
	published := map[string][][]string{}
	for _, row := range testenv.CSV(t, "othello-tournaments-wof-elo/elo_standings.csv")[1:] {
		published[row[0]] = append(published[row[0]], row)
	}
	for _, file := range []string{"20151029_WOC_2015.ELO", "20191009_WOC_2019.ELO", "20231103_WOC_2023.ELO"} {
		t.Run(file, func(t *testing.T) {
			db := newTestDB(t)
			db.must("import", "elo", testenv.SharedFile(t, "othello-tournaments-wof-elo/raw/"+file), "--bq", "wof")
			var got []struct {
				Number int
				Name   string
				Points float64
				Discs  int
			}
			db.json(&got, "standings", "--json")
			want := published[file]
			if len(got) != len(want) {
				t.Fatalf("%d players in the standings, %d published", len(got), len(want))
			}
			for i, s := range got {
				w := want[i] // players are numbered in published order
				score, _ := strconv.ParseFloat(w[7], 64)
				if s.Number != atoi(t, w[2]) || s.Points != score || s.Discs != atoi(t, w[8]) {
					t.Errorf("place %d: %d %s, %v points, %d discs; published %s %s %s, %s points, %s discs",
						i+1, s.Number, s.Name, s.Points, s.Discs, w[2], w[4], w[5], w[7], w[8])
				}
			}
		})
	}
}

// TestELORoundTrip imports every .ELO file of the folder and exports it
// again: the game lines (every round's, and the results added after the
// Swiss rounds) must be those of the original, whitespace aside. Known,
// documented difference: the exporter writes a tie '=', while Papp writes a
// tied final-phase game '<' or '>' for who went through (WOC 2016: two games).
func TestELORoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testenv.SharedData(t), "othello-tournaments-wof-elo", "raw", "*.ELO"))
	if err != nil || len(files) != 11 {
		t.Fatalf("%d .ELO files (%v); want 11", len(files), err)
	}
	tiesWritten := map[string]int{"20161102_WOC_2016.ELO": 2}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			db := newTestDB(t)
			db.must("import", "elo", path, "--bq", "wof")
			out := filepath.Join(t.TempDir(), "out.ELO")
			db.must("export", "elo", out)
			want, got := eloGameLines(t, path), eloGameLines(t, out)
			if len(got) != len(want) {
				t.Fatalf("%d game lines exported, %d in the original", len(got), len(want))
			}
			ties := 0
			for i := range want {
				switch {
				case got[i] == want[i]:
				case got[i] == strings.NewReplacer(")<(", ")=(", ")>(", ")=(").Replace(want[i]):
					ties++ // a final-phase tie written < or > by Papp
				default:
					t.Errorf("line %d: exported %q, original %q", i+1, got[i], want[i])
				}
			}
			if ties != tiesWritten[name] {
				t.Errorf("%d ties written '<' or '>' in the original; want %d", ties, tiesWritten[name])
			}
		})
	}
}

// eloGameLines returns the "%Round: N" and "%%Added results" lines and the
// game lines of an .ELO file, with runs of blanks as one space.
func eloGameLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line != "" && (!strings.HasPrefix(line, "%") || strings.HasPrefix(line, "%Round:") || strings.HasPrefix(line, "%%Added results")) {
			out = append(out, line)
		}
	}
	return out
}

// TestImportELORefuses: a malformed file is refused (exit status 2, an
// unreadable input) with one line naming the file and the problem, and no
// database is created.
func TestImportELORefuses(t *testing.T) {
	const good = `%%Tournament: Club
%_%  11, ONE, Ann, FRA, 1, 40, 2000
%_%  22, TWO, Bob, FRA, 0, 24, 1900
%Round: 1
  11 (40)>(24)   22 B
`
	for _, tc := range []struct{ name, file, want string }{
		{"garbled game", strings.Replace(good, "(40)>(24)", "(40)?(24)", 1), `bad.ELO: line 5: a game line is: black-id (discs)<(discs) white-id B: "  11 (40)?(24)   22 B": not a valid .ELO file`},
		{"sign", strings.Replace(good, "(40)>(24)", "(40)<(24)", 1), "line 5: the discs do not match the sign between them"},
		{"too many discs", strings.Replace(good, "(40)>(24)", "(50)>(24)", 1), "line 5: the discs do not match the sign between them"},
		{"unknown player", strings.Replace(good, "   22 B", "   33 B", 1), "round 1: player id 33 is not in the standings"},
		{"score", strings.Replace(good, "FRA, 1, 40", "FRA, 2, 40", 1), "ONE Ann: published score 2, but the games and byes give 1"},
		{"standings line", strings.Replace(good, ", 2000", "", 1), "line 2: a standings line is %_% id, surname, first name, country, score, discs, rating"},
		{"round number", strings.Replace(good, "%Round: 1", "%Round: 2", 1), "line 4: expected %Round: 1"},
		{"no rounds", "%%Tournament: Club\n", "no %Round line"},
		{"binary", "\x00\x01\x02PK\x03\x04", "a game line is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bad.ELO")
			if err := os.WriteFile(file, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			db := newTestDB(t)
			_, stderr, code := db.run("import", "elo", file)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, file) {
				t.Errorf("exit %d, stderr %q; want one line naming the file with %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(db.path); !os.IsNotExist(err) {
				t.Errorf("a refused import left a database: %v", err)
			}
		})
	}
	// The good file is accepted, so that each case above fails for its own reason.
	file := filepath.Join(t.TempDir(), "good.ELO")
	if err := os.WriteFile(file, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	newTestDB(t).must("import", "elo", file)
}
