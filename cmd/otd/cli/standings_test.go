package cli

import (
	"strings"
	"testing"
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
