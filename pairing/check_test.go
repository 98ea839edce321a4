package pairing

import (
	"fmt"
	"slices"
	"testing"
)

func TestCheck(t *testing.T) {
	// Round 3 of a small event: 7 withdrew; 2 and 3 must not meet.
	base := Input{Players: []Player{
		pl(1, 4, "2b", "3w"),
		pl(2, 2, "1w", "5b"),
		pl(3, 2, "5w", "1b"),
		pl(4, 2, "6b", "bye"),
		with(pl(5, 0, "3b", "2w"), country(0, "FRA")),
		with(pl(6, 0, "4w", "-"), country(0, "FRA")),
		with(pl(7, 0, "-", "-"), func(p *Player) { p.Status = Withdrawn }),
	}, Forbidden: [][2]int{{2, 3}}}
	forced := base
	forced.Forced = [][2]int{{4, 5}}
	odd := base
	odd.Players = append(slices.Clone(base.Players), pl(8, 0, "-", "-"))
	runs := Input{Players: []Player{pl(1, 2, "3w", "4w", "5b", "6b"), pl(2, 2, "7b", "8b", "9w", "10w")}}
	tests := []struct {
		name  string
		in    Input
		p     []Pair
		bye   int
		rules []Rule
		valid bool
	}{
		{"rematch with the same colours", base, []Pair{{1, 2}, {3, 4}, {5, 6}}, 0, []Rule{RuleSameColours}, false},
		{"rematch, colours reversed", base, []Pair{{2, 1}, {4, 3}, {5, 6}}, 0, []Rule{RuleRematch}, true}, // compatriots cost nothing after round 1
		{"forbidden", base, []Pair{{1, 4}, {3, 2}, {5, 6}}, 0, []Rule{RuleForbidden}, false},
		{"unknown, withdrawn, twice, unpaired", base, []Pair{{1, 9}, {7, 4}, {1, 5}}, 0,
			[]Rule{RuleUnknown, RuleNotActive, RuleTwice, RuleUnpaired}, false},
		{"a bye in an even field", base, []Pair{{1, 4}, {3, 5}}, 6, []Rule{RuleBye}, false},
		{"no bye in an odd field", odd, []Pair{{1, 4}, {3, 5}, {2, 6}}, 0, []Rule{RuleBye, RuleUnpaired}, false},
		{"second bye", odd, []Pair{{1, 8}, {3, 5}, {2, 6}}, 4, []Rule{RuleSecondBye, RuleScoreGap}, false},
		{"score gap, colour imbalance, colours swapped", base, []Pair{{1, 5}, {4, 3}, {6, 2}}, 0,
			[]Rule{RuleScoreGap, RuleColour, RuleColourSwap}, true},
		{"forced pair broken", forced, []Pair{{1, 4}, {3, 5}, {6, 2}}, 0, []Rule{RuleForced}, false},
		{"third colour running", runs, []Pair{{1, 2}}, 0, []Rule{RuleColourRun}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Check(tt.in, Pairing{Pairs: tt.p, Bye: tt.bye}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []Rule
			for _, v := range r.Violations {
				got = append(got, v.Rule)
				if v.Rule.Absolute() && v.Cost != 0 || v.String() == "" {
					t.Errorf("violation %v", v)
				}
			}
			for _, want := range tt.rules {
				if !slices.Contains(got, want) {
					t.Errorf("violations %v lack %v", r.Violations, want)
				}
			}
			if r.Valid != tt.valid || r.Best == nil || !r.Cheaper && !slices.Contains(tt.rules, RuleColourRun) {
				t.Errorf("valid %v (want %v), best %v, cheaper %v: %v", r.Valid, tt.valid, r.Best, r.Cheaper, r.Violations)
			}
		})
	}
}

// TestCheckNoValidPairing: 1 and 2 have met with both colours; a third game
// breaks the same-colour rule either way, and the least bad pairing (the same
// game, Papp's finite "infinity") is no cheaper: 1 Black costs 10,000,000
// (round 1's colours) + 5,000,000 (round 2's reversed) + 1 (met last round) +
// 20 + 20 (|d| = 1 each); 2 Black the same.
func TestCheckNoValidPairing(t *testing.T) {
	in := Input{Players: []Player{pl(1, 2, "2b", "2w"), pl(2, 2, "1w", "1b")}}
	r, err := Check(in, Pairing{Pairs: []Pair{{1, 2}}}, Options{})
	if err != nil || r.Valid || r.Best == nil || r.BestValid || r.Cheaper || r.Best.Cost != 15_000_041 || len(r.Best.Notes) != 1 {
		t.Errorf("Check = %+v, %v; want invalid, the least bad best (15,000,041, noted), not cheaper", r, err)
	}
}

func TestRuleString(t *testing.T) {
	for r := RuleUnknown; r <= RuleCountry; r++ {
		if s := r.String(); s == "" || s[0] == 'r' && s[:5] == "rule(" {
			t.Errorf("rule %d has no name", r)
		}
	}
	if s := Rule(99).String(); s != "rule(99)" {
		t.Errorf("Rule(99) = %q", s)
	}
}

func ExampleCheck() {
	in := Input{Players: []Player{
		{ID: 1, Points: 2, Games: []Game{{Opponent: 2, Colour: Black}}},
		{ID: 2, Points: 0, Games: []Game{{Opponent: 1, Colour: White}}},
		{ID: 3, Points: 2, Games: []Game{{Opponent: 4, Colour: Black}}},
		{ID: 4, Points: 0, Games: []Game{{Opponent: 3, Colour: White}}},
	}}
	// A director's proposal: a rematch, and the winners' colours repeated.
	r, _ := Check(in, Pairing{Pairs: []Pair{{1, 2}, {3, 4}}}, Options{})
	for _, v := range r.Violations {
		fmt.Println(v)
	}
	fmt.Println("valid:", r.Valid, "cheaper:", r.Cheaper, "best:", r.Best, "cost", r.Best.Cost)
	// Output:
	// rematch with the same colours 1-2: 1 had black before
	// rematch with the same colours 3-4: 3 had black before
	// valid: false cheaper: true best: 3-1 4-2 cost 240
}
