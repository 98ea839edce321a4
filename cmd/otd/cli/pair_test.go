package cli

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestStandingForbiddenPairs: a pair forbidden in round 2 never meets in
// any later round (on today's main, 'round pair --forbid' lasted one round);
// 'pair list', 'tournament show' and its --json show the rules, 'otd log'
// has them, and 'otd undo' reverts them. 'round check' of every round of the
// event (standing forbids, a round paired by hand, one-round forces and
// forbids) says the pairing is valid and the cheapest under its rules.
func TestStandingForbiddenPairs(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	d := newTestDB(t)
	d.must("tournament", "new", "Open", "--rounds", "7")
	for i := range 12 {
		d.must("player", "add", fmt.Sprintf("Player %02d", i+1), "--rating", strconv.Itoa(2000-40*i), "--country", []string{"FR", "DE", "NL"}[i%3])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	finish := func(r int) {
		t.Helper()
		for _, gm := range roundGames(d, r) {
			if gm.Bye {
				continue
			}
			b := rng.IntN(65)
			d.must("result", strconv.Itoa(r), strconv.Itoa(gm.Table), fmt.Sprintf("%d-%d", b, 64-b))
		}
	}
	d.must("round", "pair")
	finish(1)
	out := d.must("pair", "forbid", "12", "1", "--reason", "married couple")
	if !strings.Contains(out, "Players 1 Player 01 and 12 Player 12 are not paired together") {
		t.Errorf("pair forbid said %q", out)
	}
	d.must("pair", "forbid", "3", "4")
	d.must("pair", "allow", "4", "3")
	d.must("undo") // the allowing: 3-4 forbidden again
	if _, errs, code := d.run("pair", "forbid", "1", "12"); code != exitFailure || !strings.Contains(errs, "forbidden to meet already") {
		t.Errorf("a pair forbidden twice: exit %d, %q", code, errs)
	}
	if _, errs, code := d.run("pair", "allow", "5", "6"); code != exitFailure || !strings.Contains(errs, "the pair is not forbidden") {
		t.Errorf("allowing a pair not forbidden: exit %d, %q", code, errs)
	}
	if _, errs, code := d.run("round", "pair", "--force", "1-12"); code != exitFailure || !strings.Contains(errs, "'otd pair allow 1 12'") {
		t.Errorf("forcing a forbidden pair: exit %d, %q", code, errs)
	}
	var tj tournamentJSON
	d.json(&tj, "tournament", "show", "--json")
	if len(tj.Forbidden) != 2 || tj.Forbidden[0] != (forbiddenJSON{A: 1, AName: "Player 01", B: 12, BName: "Player 12", Reason: "married couple"}) || tj.Forbidden[1].A != 3 || tj.Forbidden[1].B != 4 {
		t.Errorf("tournament show --json: forbidden %+v", tj.Forbidden)
	}
	if out := d.must("tournament", "show"); !strings.Contains(out, "never paired: 1 Player 01 and 12 Player 12 (married couple)") {
		t.Errorf("tournament show:\n%s", out)
	}
	if out := d.must("pair", "list"); !strings.Contains(out, "married couple") || !strings.Contains(out, "4 Player 04") {
		t.Errorf("pair list:\n%s", out)
	}
	for r := 2; r <= 7; r++ {
		switch r {
		case 3: // by hand: the Swiss pairing with two tables' whites swapped, a dearer one
			d.must("round", "pair")
			games := roundGames(d, 3)
			d.must("round", "unpair")
			met := map[[2]int]bool{{1, 12}: true, {3, 4}: true}
			for q := 1; q < r; q++ {
				for _, gm := range roundGames(d, q) {
					met[[2]int{min(gm.Black, gm.White), max(gm.Black, gm.White)}] = true
				}
			}
			swapped := false
			for i := 0; i+1 < len(games) && !swapped; i++ {
				a, b := games[i], games[i+1]
				if !met[[2]int{min(a.Black, b.White), max(a.Black, b.White)}] && !met[[2]int{min(b.Black, a.White), max(b.Black, a.White)}] {
					games[i].White, games[i+1].White = b.White, a.White
					swapped = true
				}
			}
			if !swapped {
				t.Fatal("no two tables of round 3 to swap")
			}
			args := []string{"round", "pair", "--manual"}
			for _, gm := range games {
				args = append(args, "--force", fmt.Sprintf("%d-%d", gm.Black, gm.White))
			}
			d.must(args...)
		case 4:
			d.must("round", "pair", "--forbid", "5-6", "--force", "2-9")
		default:
			d.must("round", "pair")
		}
		finish(r)
	}
	for r := 1; r <= 7; r++ {
		for _, gm := range roundGames(d, r) {
			if pairKey := [2]int{min(gm.Black, gm.White), max(gm.Black, gm.White)}; r > 1 && (pairKey == [2]int{1, 12} || pairKey == [2]int{3, 4}) {
				t.Errorf("round %d: a forbidden pair meets: %d-%d", r, gm.Black, gm.White)
			}
		}
		out := d.must("round", "check", strconv.Itoa(r))
		if !strings.Contains(out, "no valid pairing is cheaper") {
			t.Errorf("round check %d:\n%s", r, out)
		}
	}
	log := d.must("log", "--json")
	for _, want := range []string{`"pair forbid"`, `"pair allow"`, `"manual": true`, `"forbidden": [`} {
		if !strings.Contains(log, want) {
			t.Errorf("otd log --json lacks %s", want)
		}
	}
}
