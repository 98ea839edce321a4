package tournament

import (
	"errors"
	"slices"
	"testing"
)

// TestForbidStands: a standing forbidden pair is obeyed by every later
// Swiss pairing, follows the players' numbers when an earlier player is
// removed, goes with the player it names, and is reverted by undo.
func TestForbidStands(t *testing.T) {
	tm := club(t, 6, 5)
	if _, err := tm.Forbid(2, 2, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("a player forbidden to meet themself: %v", err)
	}
	if _, err := tm.Forbid(2, 9, ""); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("a player who is not there: %v", err)
	}
	c, err := tm.Forbid(6, 3, "  parent  and child ")
	if err != nil {
		t.Fatal(err)
	}
	if want := []ForbiddenPair{{A: 3, B: 6, Reason: "parent and child"}}; !slices.Equal(tm.Forbidden, want) || !slices.Equal(c.After.Forbidden, want) {
		t.Errorf("forbidden %+v, change %+v; want %+v", tm.Forbidden, c.After.Forbidden, want)
	}
	if _, err := tm.Allow(1, 2); !errors.Is(err, ErrNotForbidden) {
		t.Errorf("Allow of a pair not forbidden: %v", err)
	}
	// Removing player 2 renumbers 3-6 to 2-5; removing player 2 again (the
	// former 3) takes the rule with them.
	if _, err := tm.RemovePlayer(2); err != nil {
		t.Fatal(err)
	}
	if want := []ForbiddenPair{{A: 2, B: 5, Reason: "parent and child"}}; !slices.Equal(tm.Forbidden, want) {
		t.Errorf("after removing player 2: %+v; want %+v", tm.Forbidden, want)
	}
	c, err = tm.RemovePlayer(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(tm.Forbidden) != 0 {
		t.Errorf("after removing a player of the pair: %+v", tm.Forbidden)
	}
	if _, err := tm.Undo(1, c); err != nil || len(tm.Forbidden) != 1 || len(tm.Players) != 5 {
		t.Fatalf("undo of the removal: %v, forbidden %+v", err, tm.Forbidden)
	}
	// Four players left but 2 and 5 (of 5): every round pairs them apart.
	for r := 1; r <= 5; r++ {
		if _, err := tm.Pair(PairOptions{}); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		for _, g := range tm.Round(r) {
			if pairKey(g.Black, g.White) == [2]int{2, 5} {
				t.Fatalf("round %d: the forbidden pair meets", r)
			}
		}
		if rr := tm.rulesOf(r); !slices.Equal(rr.Forbidden, [][2]int{{2, 5}}) {
			t.Errorf("round %d's rules: %+v", r, rr)
		}
		finish(t, tm)
	}
}
