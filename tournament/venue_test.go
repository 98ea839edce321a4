package tournament

import (
	"testing"
)

// TestAgree: two reports agree when RULES.md section 2 scores them the
// same: the empty squares go to the winner (34-29 is 35-29), a tie with
// empties is 32-32; a call agrees with nothing.
func TestAgree(t *testing.T) {
	rules := DefaultSettings("Open", 3).Rules()
	r := func(b, w int) Report { return Report{Black: b, White: w} }
	for _, tc := range []struct {
		name string
		a, b Report
		want bool
	}{
		{"the same", r(40, 24), r(40, 24), true},
		{"one empty to the winner", r(34, 29), r(35, 29), true},
		{"white wins with empties", r(20, 40), r(20, 44), true},
		{"the empties are not the loser's", r(20, 40), r(24, 40), false},
		{"a tie with empties is 32-32", r(31, 31), r(32, 32), true},
		{"33-30 is 34-30, not 33-31", r(33, 30), r(33, 31), false},
		{"other winners", r(33, 31), r(31, 33), false},
		{"other scores", r(40, 24), r(39, 25), false},
		{"a call", Report{Call: true}, Report{Call: true}, false},
		{"a call and a score", Report{Call: true}, r(32, 32), false},
		{"an impossible score", r(60, 60), r(60, 60), false},
	} {
		if got := Agree(tc.a, tc.b, rules); got != tc.want {
			t.Errorf("%s: Agree(%d-%d, %d-%d) = %v; want %v", tc.name, tc.a.Black, tc.a.White, tc.b.Black, tc.b.White, got, tc.want)
		}
	}
}

// TestVenueApproval: the setting reads auto or director, "" is auto, and
// anything else is refused by the settings' check.
func TestVenueApproval(t *testing.T) {
	for _, s := range []string{"auto", "director"} {
		if a, err := ParseVenueApproval(s); err != nil || a.String() != s {
			t.Errorf("ParseVenueApproval(%q) = %q, %v", s, a, err)
		}
	}
	if VenueApproval("").String() != "auto" {
		t.Error(`"" is not auto`)
	}
	set := DefaultSettings("Open", 3)
	set.VenueApproval = "sometimes"
	if err := set.Check(); err == nil {
		t.Error("Check accepts venue approval \"sometimes\"")
	}
	set.VenueApproval = ApproveDirector
	if err := set.Check(); err != nil {
		t.Errorf("Check refuses director: %v", err)
	}
}

// TestReportFor: a report holds for its game as paired when it was made, not
// for another game, nor for the same table paired again with others.
func TestReportFor(t *testing.T) {
	g := Game{Round: 2, Table: 3, Black: 5, White: 7}
	r := Report{Game: At(2, 3), Side: Black, ForBlack: 5, ForWhite: 7}
	if !r.For(g) {
		t.Error("a report does not hold for its game")
	}
	for _, other := range []Game{{Round: 2, Table: 4, Black: 5, White: 7}, {Round: 2, Table: 3, Black: 5, White: 8}, {Round: 2, Table: 3, Black: 7, White: 5}} {
		if r.For(other) {
			t.Errorf("a report of %+v holds for %+v", g, other)
		}
	}
}
