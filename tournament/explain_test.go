package tournament

import (
	"errors"
	"testing"

	"github.com/otd-project/otd/pairing"
)

// TestExplain: four players; round 1 paired by hand 1-3 and 2-4, black wins;
// round 2 paired by the Swiss matching: 1-2 and 3-4 (in some colours). Costs
// by hand from RULES.md section 4 (Papp's weights):
//
//   - 1 v 2: both 1 point, blacks - whites +1, black in round 1: whoever has
//     black is at +2 (105) and repeats round 1's colour (15); the other is at
//     0. Likewise 3 v 4 (both -1, white in round 1). 120 each, 240 the round.
//   - The cheapest swap for 1-2: 1 and 2 against 4 and 3 (not 3 and 4:
//     rematches of round 1). 4 black v 1: gap 2 half-points 40588, elitism
//     100 (round 2) x (2+0) x 2 / 2 = 200, colours 0 (both back to 0, neither
//     as in round 1), no float history in round 2: 40788; 3 v 2 the same.
//     81576 - 240 = 81336 more: gap +81176, elitism +400, colours -210,
//     same colour -30.
func TestExplain(t *testing.T) {
	tm := pairedClub(t, 4, [][2]int{{1, 3}, {2, 4}})
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	rep, err := tm.Explain(2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Round != 2 || rep.Cost != 240 || len(rep.Pairs) != 2 || rep.RoundRobin {
		t.Fatalf("report %+v", rep)
	}
	if check, err := tm.CheckRound(2); err != nil || check.Cost != rep.Cost {
		t.Errorf("round check says cost %d (%v), explain %d", check.Cost, err, rep.Cost)
	}
	for i, p := range rep.Pairs {
		want := pairing.Terms{Colour: 105, SameColour: 15}
		if p.Table != i+1 || p.Cost != 120 || p.Terms != want {
			t.Errorf("table %d: %+v, want cost 120 %+v", i+1, p, want)
		}
	}
	if len(rep.Alternatives) != 2 {
		t.Fatalf("alternatives %+v", rep.Alternatives)
	}
	a := rep.Alternatives[0]
	if a.Delta != 81336 || a.DeltaTerms != (pairing.Terms{Gap: 81176, Elitism: 400, Colour: -210, SameColour: -30}) {
		t.Errorf("alternative %+v", a)
	}
	for _, q := range a.Instead {
		if q.Cost != 40788 || q.Black != 3 && q.Black != 4 {
			t.Errorf("swapped pair %+v, want 4-1 and 3-2 at 40788", q)
		}
	}

	// Round 1, paired by hand: 20 a player for the first colour; every
	// pair is the director's, so no swap is offered.
	rep, err = tm.Explain(1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cost != 80 || rep.Pairs[0].Black != 1 || rep.Pairs[0].White != 3 || len(rep.Alternatives) != 0 || !rep.Rules.Manual {
		t.Errorf("round 1: %+v", rep)
	}

	for _, r := range []int{0, 3} {
		if _, err := tm.Explain(r); !errors.Is(err, ErrNoRound) {
			t.Errorf("Explain(%d): %v, want ErrNoRound", r, err)
		}
	}
}

// TestExplainBye: an odd field; the bye is explained last, at its own table,
// and a player who withdrew after the round was paired is still part of it.
func TestExplainBye(t *testing.T) {
	tm := club(t, 5, 3)
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	bye := tm.Round(1)[2]
	if !bye.IsBye() {
		t.Fatalf("round 1: %+v", tm.Round(1))
	}
	if _, err := tm.Withdraw(tm.Round(1)[0].Black); err != nil {
		t.Fatal(err)
	}
	rep, err := tm.Explain(1)
	if err != nil {
		t.Fatal(err)
	}
	// The bye's score is half a point below 0: gap 1 half-point 20000, no
	// elitism (a negative score), no colour imbalance yet. Two pairs at 40.
	last := rep.Pairs[2]
	if !last.IsBye() || last.Table != bye.Table || last.Black != bye.Black || last.Cost != 20000 || rep.Cost != 20080 {
		t.Errorf("bye %+v, round cost %d", last, rep.Cost)
	}
}
