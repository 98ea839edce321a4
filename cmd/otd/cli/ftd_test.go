package cli

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

// TestFTDTournaments recreates the four FlipTheDisc tournaments of
// ../shared/data/othello-tournaments-ftd through the commands (players, the
// real pairings with 'round pair --manual', every result, the withdrawal) and
// checks that 'standings --json' with --bq exact gives every published point
// total and every published mbq (the BQ rounded to the nearest integer).
// (The .ELO file of each: export.TestELORoundTripFTD.)
func TestFTDTournaments(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	standings := testenv.CSV(t, "othello-tournaments-ftd/ftd_standings.csv")[1:]
	games := testenv.CSV(t, "othello-tournaments-ftd/ftd_games.csv")[1:]
	var ids []string
	players, rounds := map[string][][]string{}, map[string][][]string{}
	for _, row := range standings {
		if players[row[0]] == nil {
			ids = append(ids, row[0])
		}
		players[row[0]] = append(players[row[0]], row)
	}
	for _, row := range games {
		if row[2] == "swiss" {
			rounds[row[0]] = append(rounds[row[0]], row)
		}
	}
	if len(ids) != 4 || len(standings) != 46 {
		t.Fatalf("%d tournaments, %d players; want 4 and 46", len(ids), len(standings))
	}
	checked := 0
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			ps := players[id]
			db := newTestDB(t)
			db.must("tournament", "new", ps[0][1], "--rounds", ps[0][2], "--bq", "exact")
			num := map[string]string{} // FTD player id -> otd number
			for _, p := range ps {
				num[p[4]] = strings.TrimSpace(db.must("player", "add", p[5]+", "+p[6], "--country", p[7]))
			}
			gs := rounds[id]
			slices.SortStableFunc(gs, func(a, b []string) int {
				return cmp.Or(cmp.Compare(atoi(t, a[1]), atoi(t, b[1])), cmp.Compare(atoi(t, a[3]), atoi(t, b[3])))
			})
			for r := 1; r <= atoi(t, ps[0][2]); r++ {
				round := slices.DeleteFunc(slices.Clone(gs), func(g []string) bool { return atoi(t, g[1]) != r })
				args := []string{"round", "pair", "--manual"}
				for _, g := range round {
					if g[6] == "-1" {
						args = append(args, "--bye", num[g[4]])
					} else {
						args = append(args, "--force", num[g[4]]+"-"+num[g[6]])
					}
				}
				db.must(args...)
				var sheet []struct{ Table, Black, White int }
				db.json(&sheet, "round", "show", strconv.Itoa(r), "--json")
				table := map[[2]int]int{}
				for _, s := range sheet {
					table[[2]int{s.Black, s.White}] = s.Table
				}
				for _, g := range round {
					if g[6] == "-1" {
						continue
					}
					tb, ok := table[[2]int{atoi(t, num[g[4]]), atoi(t, num[g[6]])}]
					if !ok {
						t.Fatalf("round %d: %s-%s is not on the pairing sheet", r, g[5], g[7])
					}
					db.must("result", strconv.Itoa(r), strconv.Itoa(tb), g[8]+"-"+g[9])
				}
				for _, p := range ps {
					if p[10] == strconv.Itoa(r) {
						db.must("player", "withdraw", num[p[4]])
					}
				}
			}
			var got []struct {
				Number    int
				Points    float64
				BQ        float64
				BQRounded int `json:"bq_rounded"`
				Withdrawn bool
			}
			db.json(&got, "standings", "--json")
			byNum := map[int]int{}
			for i, s := range got {
				byNum[s.Number] = i
			}
			for _, p := range ps {
				s := got[byNum[atoi(t, num[p[4]])]]
				points, _ := strconv.ParseFloat(p[8], 64)
				mbq := atoi(t, p[9])
				if s.Points != points || s.BQRounded != mbq || math.Round(s.BQ) != float64(mbq) {
					t.Errorf("%s %s: points %v, BQ %v (%d); published %v, mbq %d", p[5], p[6], s.Points, s.BQ, s.BQRounded, points, mbq)
				}
				if s.Withdrawn != (p[10] != "") {
					t.Errorf("%s %s: withdrawn %v; published left after round %q", p[5], p[6], s.Withdrawn, p[10])
				}
				checked++
			}
			checkXLSXExport(t, db) // and its XLSX and CSV files what the commands print
		})
	}
	if checked != len(standings) {
		t.Errorf("checked %d players of %d", checked, len(standings))
	}
}

func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
