package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/otd-project/otd/internal/testenv"
)

// TestTablesFit80: 'otd standings' and 'otd round show' fit in 80 columns
// for 101 players with names up to 60 characters (cut with an ellipsis, a
// withdrawn player's marker kept) and for the 98 players and 13 rounds of
// WOC 2023; every player is on the table, and the headers are as written
// ("R1", "Rank"): the crosstable, as wide as its rounds, has each round once.
func TestTablesFit80(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	big := newTestDB(t)
	big.must("tournament", "new", "Big", "--rounds", "3")
	var csv strings.Builder
	for i := 1; i <= 101; i++ {
		name := fmt.Sprintf("Player %d", i)
		if i%3 == 0 {
			name = fmt.Sprintf("Bartholomew-Maximilian Featherstonehaugh-Smythe de la Tour %d", i)
		}
		fmt.Fprintf(&csv, "%s,%d,FRA\n", name, 1000+i)
	}
	players := filepath.Join(t.TempDir(), "players.csv")
	if err := os.WriteFile(players, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	big.must("player", "import", players)
	for r := 1; r <= 3; r++ {
		big.must("round", "pair")
		var games []gameJSON
		big.json(&games, "round", "show", strconv.Itoa(r), "--json")
		for _, g := range games {
			if !g.Bye {
				big.must("result", strconv.Itoa(r), strconv.Itoa(g.Table), "40-24")
			}
		}
		if r == 1 {
			big.must("player", "withdraw", "99")
		}
	}
	woc := newTestDB(t)
	woc.must("import", "elo", filepath.Join(testenv.SharedData(t), "othello-tournaments-wof-elo", "raw", "20231103_WOC_2023.ELO"))
	for _, tc := range []struct {
		name            string
		db              *testDB
		players, rounds int
		cut             bool // some names are cut, a withdrawn player's among them, the marker kept
	}{
		{"101 players", big, 101, 3, true},
		{"WOC 2023", woc, 98, 13, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, cmd := range []string{"standings", "crosstable", "round show"} {
				out := tc.db.must(strings.Fields(cmd)...)
				var blocks [][][]string // tables -> rows -> cells
				for line := range strings.Lines(out) {
					line = strings.TrimRight(line, "\n")
					if w := twwidth.Width(line); w > termWidth && cmd != "crosstable" {
						t.Errorf("%s: a line of %d columns: %q", cmd, w, line)
					}
					if !strings.HasPrefix(line, "│") {
						continue
					}
					var cells []string
					for _, c := range strings.Split(strings.Trim(line, "│"), "│") {
						cells = append(cells, strings.TrimSpace(c))
					}
					if cells[0] == "Rank" || cells[0] == "Table" {
						blocks = append(blocks, nil)
					}
					blocks[len(blocks)-1] = append(blocks[len(blocks)-1], cells)
				}
				var rounds []string
				cut, withdrawnCut := false, false
				for _, b := range blocks {
					want := tc.players + 1
					if cmd == "round show" {
						var games []gameJSON
						tc.db.json(&games, "round", "show", "--json")
						want = len(games) + 1
					}
					if len(b) != want {
						t.Errorf("%s: a table of %d rows for %d players", cmd, len(b), tc.players)
					}
					for _, h := range b[0] {
						if strings.HasPrefix(h, "R") && h != "Rank" {
							rounds = append(rounds, h)
						}
					}
					for _, row := range b[1:] {
						if cmd == "round show" {
							cut = cut || strings.Contains(row[1]+row[3], "…")
							withdrawnCut = true // withdrawn players are not paired
							continue
						}
						cut = cut || strings.Contains(row[2], "…")
						withdrawnCut = withdrawnCut || strings.HasSuffix(row[2], "… (withdrawn)")
					}
				}
				if tc.cut && cmd != "crosstable" && !(cut && withdrawnCut) {
					t.Errorf("%s: names cut %v, a withdrawn player's name cut with its marker kept %v; want both", cmd, cut, withdrawnCut)
				}
				if cmd == "round show" {
					continue
				}
				if want := []string{"Rank", "No", "Name"}; len(blocks) == 0 || !slices.Equal(blocks[0][0][:3], want) {
					t.Errorf("%s: header %v; want it to start %v", cmd, blocks[0][0], want)
				}
				if len(blocks) != 1 {
					t.Errorf("%s: %d tables; want 1", cmd, len(blocks))
				}
				if cmd == "standings" {
					continue
				}
				var want []string
				for r := 1; r <= tc.rounds; r++ {
					want = append(want, "R"+strconv.Itoa(r))
				}
				if !slices.Equal(rounds, want) {
					t.Errorf("crosstable: rounds %v; want %v", rounds, want)
				}
			}
		})
	}
}
