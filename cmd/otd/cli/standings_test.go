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
