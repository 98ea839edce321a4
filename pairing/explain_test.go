package pairing

import (
	"errors"
	"testing"
)

// explainState is round 3 of four players, built by hand (histories need not
// add up to the points: only the pairing's view of them matters), Papp's
// weights (elitism 100 in round 3; compatriots 2 in every round):
//
//	1 A  4 half-points: black v 3 won, white v 4 won (floated down): balance 0, last white, may float back (won)
//	2 B  2 half-points: white v 4 won, black v 3 lost (floated up): balance 0, last black, may float back (lost)
//	3 C  2 half-points: white v 1 lost, white v 2 lost (floated down): balance -2, last white, no compensation (lost)
//	4 D  0 half-points: black v 2 lost, black v 1 lost (floated up): balance +2, last black, may float back (lost)
func explainState() (Input, Options) {
	in := Input{Round: 3, Players: []Player{
		{ID: 1, Points: 4, Country: "FRA", Games: []Game{{Opponent: 3, Colour: Black, Points: 2}, {Opponent: 4, Colour: White, Float: FloatDown, Points: 2}}},
		{ID: 2, Points: 2, Country: "FRA", Games: []Game{{Opponent: 4, Colour: White, Points: 2}, {Opponent: 3, Colour: Black, Float: FloatUp}}},
		{ID: 3, Points: 2, Games: []Game{{Opponent: 1, Colour: White}, {Opponent: 2, Colour: White, Float: FloatDown}}},
		{ID: 4, Points: 0, Games: []Game{{Opponent: 2, Colour: Black}, {Opponent: 1, Colour: Black, Float: FloatUp}}},
	}}
	return in, Options{Seed: 1}
}

// TestExplainTerms: the terms of each pair, computed by hand from RULES.md
// section 4.
func TestExplainTerms(t *testing.T) {
	in, opt := explainState()
	cases := []struct {
		name string
		p    Pairing
		want []PairCost
	}{{
		name: "1-2 3-4",
		p:    Pairing{Pairs: []Pair{{1, 2}, {3, 4}}},
		want: []PairCost{
			// 1 (4) v 2 (2): gap 2 half-points 40588; 1 floats down again +25,
			// 2 up again +25; elitism 100 x (4+2) x 2 / 2 = 600; colours: 1
			// black +1 -> 20, 2 white -1 -> 20, neither as in round 2; both
			// FRA: 2.
			{Black: 1, White: 2, Terms: Terms{Gap: 40588, Repeat: 50, Elitism: 600, Colour: 40, Country: 2}, Cost: 41280},
			// 3 (2) v 4 (0): gap 40588; 3 down again +25, 4 up again +25;
			// elitism 100 x (2+0) x 2 / 2 = 200; 3 black -1 -> 20, 4 white +1 -> 20.
			{Black: 3, White: 4, Terms: Terms{Gap: 40588, Repeat: 50, Elitism: 200, Colour: 40}, Cost: 40878},
		},
	}, {
		name: "3-1 2-4",
		p:    Pairing{Pairs: []Pair{{3, 1}, {2, 4}}},
		want: []PairCost{
			// 3 (2) black v 1 (4): met in round 1 with 1 black, now reversed:
			// 5,000,000 (not in round 2); gap 40588; 1 down again +25, 3 up
			// after down but lost round 2: no compensation; elitism 600; 3
			// black -1 -> 20, 1 white -1 -> 20 and white as in round 2 +15.
			{Black: 3, White: 1, Terms: Terms{Gap: 40588, Repeat: 25, Elitism: 600, Colour: 40, SameColour: 15, Rematch: 5_000_000}, Cost: 5_041_268},
			// 2 (2) black v 4 (0): met in round 1, 2 white: reversed 5,000,000;
			// gap 40588; 2 down after up and lost: -10; 4 up again +25;
			// elitism 200; 2 black +1 -> 20 and black as in round 2 +15, 4
			// white +1 -> 20.
			{Black: 2, White: 4, Terms: Terms{Gap: 40588, Repeat: 25, Compensation: -10, Elitism: 200, Colour: 40, SameColour: 15, Rematch: 5_000_000}, Cost: 5_040_858},
		},
	}, {
		name: "3-2 1-4 (rematches of round 2)",
		p:    Pairing{Pairs: []Pair{{3, 2}, {1, 4}}},
		want: []PairCost{
			// 3 v 2 met in round 2, 2 black: reversed 5,000,000 + 1; equal
			// scores; 3 black -1 -> 20, 2 white -1 -> 20.
			{Black: 3, White: 2, Terms: Terms{Colour: 40, Rematch: 5_000_001}, Cost: 5_000_041},
			// 1 v 4 met in round 2, 1 white: reversed 5,000,001; gap 4
			// half-points 87119; 1 down again +25, 4 up again +25; elitism
			// 100 x (4+0) x 4 / 2 = 800; 1 black +1 -> 20, 4 white +1 -> 20.
			{Black: 1, White: 4, Terms: Terms{Gap: 87119, Repeat: 50, Elitism: 800, Colour: 40, Rematch: 5_000_001}, Cost: 5_088_010},
		},
	}, {
		name: "1-3 4-2 (same colours again)",
		p:    Pairing{Pairs: []Pair{{1, 3}, {4, 2}}},
		want: []PairCost{
			// 1 black v 3 as in round 1: Papp's "infinity" 10,000,000; gap
			// 40588, 1 down again +25, 3 up (no compensation); elitism 600;
			// 1 black +1 -> 20, 3 white -3 -> 225 and white again +15.
			{Black: 1, White: 3, Terms: Terms{Gap: 40588, Repeat: 25, Elitism: 600, Colour: 245, SameColour: 15, Rematch: 10_000_000}, Cost: 10_041_473},
			// 4 black v 2 as in round 1: 10,000,000; gap 40588, 2 down -10,
			// 4 up again +25; elitism 200; 4 black +3 -> 225 and black
			// again +15, 2 white -1 -> 20.
			{Black: 4, White: 2, Terms: Terms{Gap: 40588, Repeat: 25, Compensation: -10, Elitism: 200, Colour: 245, SameColour: 15, Rematch: 10_000_000}, Cost: 10_041_063},
		},
	}}
	for _, c := range cases {
		ex, err := Explain(in, c.p, opt, 3)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var total int64
		for i, want := range c.want {
			if got := ex.Pairs[i]; got != want {
				t.Errorf("%s: pair %d:\n got %+v\nwant %+v", c.name, i, got, want)
			}
			total += want.Cost
		}
		if ex.Cost != total || ex.Round != 3 {
			t.Errorf("%s: round %d cost %d, want round 3 cost %d", c.name, ex.Round, ex.Cost, total)
		}
	}
}

// TestExplainAlternative: the cheapest swap for the dearest pair of the
// optimal pairing 1-2 3-4 (41280 + 40878) is 3-1 2-4 (see TestExplainTerms:
// 5,041,268 + 5,040,858; 1-3 and 4-2 would repeat colours); 3-2 1-4 costs
// 5,000,041 + 5,088,010, more. The difference: 10,082,126 - 82,158.
func TestExplainAlternative(t *testing.T) {
	in, opt := explainState()
	p, err := Swiss(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != "1-2 3-4" || p.Cost != 82158 {
		t.Fatalf("Swiss: %v cost %d, want 1-2 3-4 cost 82158", p, p.Cost)
	}
	ex, err := Explain(in, p, opt, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Alternatives) != 1 {
		t.Fatalf("alternatives: %+v", ex.Alternatives)
	}
	a := ex.Alternatives[0]
	if a.Pair.Black != 1 || a.Other.Black != 3 || a.Instead[0].Black != 3 || a.Instead[0].White != 1 ||
		a.Instead[1].Black != 2 || a.Instead[1].White != 4 || a.Delta != 9_999_968 {
		t.Errorf("alternative %+v", a)
	}
	want := Terms{SameColour: 30, Repeat: -50, Compensation: -10, Rematch: 10_000_000, Country: -2}
	if a.DeltaTerms != want || a.DeltaTerms.Total() != a.Delta {
		t.Errorf("delta terms %+v, want %+v", a.DeltaTerms, want)
	}
	// Posted the other way round, the swap is cheaper by as much: the
	// pairing was not the cheapest, and the explanation says so.
	ex, err = Explain(in, Pairing{Pairs: []Pair{{3, 1}, {2, 4}}}, opt, 1)
	if err != nil {
		t.Fatal(err)
	}
	if a := ex.Alternatives[0]; a.Pair.Black != 3 || a.Delta != -9_999_968 {
		t.Errorf("alternative to 3-1 2-4: %+v", a)
	}
}

// TestExplainBye: round 2 of three players, 3 had the bye in round 1.
func TestExplainBye(t *testing.T) {
	in := Input{Round: 2, Players: []Player{
		{ID: 1, Points: 2, Games: []Game{{Opponent: 2, Colour: Black, Points: 2}}},
		{ID: 2, Points: 0, Games: []Game{{Opponent: 1, Colour: White}}},
		{ID: 3, Points: 2, Games: []Game{{Bye: true, Float: FloatDown}}},
	}}
	ex, err := Explain(in, Pairing{Pairs: []Pair{{1, 2}}, Bye: 3}, Options{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []PairCost{
		// 1 black v 2 again, as in round 1: 10,000,000 + 1 (round 2); gap 2
		// 40588; no floats; elitism 100 x (2+0) x 2 / 2 = 200; 1 black +2 ->
		// 105 and black again +15, 2 white -2 -> 105 and white again +15.
		{Black: 1, White: 2, Terms: Terms{Gap: 40588, Elitism: 200, Colour: 210, SameColour: 30, Rematch: 10_000_001}, Cost: 10_041_029},
		// The bye to 3 again (round 1's): 10,000,000 + 1; the bye's score is
		// -1 half-point: gap 3 62785, 3 floats down again +25, no elitism
		// (a negative score); colours: the current imbalance 0 -> 0.
		{Black: 3, Terms: Terms{Gap: 62785, Repeat: 25, Rematch: 10_000_001}, Cost: 10_062_811},
	}
	for i, w := range want {
		if got := ex.Pairs[i]; got != w {
			t.Errorf("pair %d:\n got %+v\nwant %+v", i, got, w)
		}
	}
	p, err := Swiss(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ex, err = Explain(in, p, Options{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	// 3-1 (3 black +1 -> 20, 1 white 0 -> 0) and the bye to 2: gap 1
	// half-point 20000, the current imbalance -1 -> 20.
	if p.String() != "3-1 bye:2" || ex.Cost != p.Cost || ex.Cost != 20040 {
		t.Errorf("%v: cost %d, explained %d, want 3-1 bye:2 20040", p, p.Cost, ex.Cost)
	}
	if bye := ex.Pairs[1]; bye != (PairCost{Black: 2, Terms: Terms{Gap: 20000, Colour: 20}, Cost: 20020}) {
		t.Errorf("the bye: %+v", bye)
	}
}

// TestExplainCountryForbidden: compatriots cost 2 in round 1; a forbidden
// pair is named, not costed, and no swap breaks a forced pair.
func TestExplainCountryForbidden(t *testing.T) {
	in := Input{Round: 1, Players: []Player{{ID: 1, Country: "FRA"}, {ID: 2, Country: "FRA"}, {ID: 3}, {ID: 4}}}
	ex, err := Explain(in, Pairing{Pairs: []Pair{{1, 2}, {3, 4}}}, Options{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Colours +1 and -1: 20 each; compatriots 2.
	if got := ex.Pairs[0]; got != (PairCost{Black: 1, White: 2, Terms: Terms{Colour: 40, Country: 2}, Cost: 42}) {
		t.Errorf("1-2: %+v", got)
	}
	// The swap 1-3 2-4 saves the country term.
	if a := ex.Alternatives[0]; a.Delta != -2 || a.DeltaTerms != (Terms{Country: -2}) {
		t.Errorf("alternative: %+v", a)
	}
	in.Forbidden = [][2]int{{1, 2}}
	in.Forced = [][2]int{{3, 4}}
	ex, err = Explain(in, Pairing{Pairs: []Pair{{1, 2}, {3, 4}}}, Options{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := ex.Pairs[0]; got.Broken != "forbidden pair" || got.Cost != 0 || ex.Cost != 40 {
		t.Errorf("1-2 forbidden: %+v, total %d", got, ex.Cost)
	}
	if len(ex.Alternatives) != 0 || len(ex.NoAlternative) != 1 {
		t.Errorf("a swap with a forced pair: %+v %+v", ex.Alternatives, ex.NoAlternative)
	}
}

// TestExplainErrors: a pairing that is not one of the input's players.
func TestExplainErrors(t *testing.T) {
	in, opt := explainState()
	for _, p := range []Pairing{
		{Pairs: []Pair{{1, 2}}},
		{Pairs: []Pair{{1, 2}, {3, 9}}},
		{Pairs: []Pair{{1, 2}, {3, 1}}},
		{Pairs: []Pair{{1, 2}, {3, 4}}, Bye: 4},
		{Pairs: []Pair{{1, 2}}, Bye: 3},
	} {
		if _, err := Explain(in, p, opt, 3); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%v: %v, want ErrInvalidInput", p, err)
		}
	}
}

// explainSimInputs calls f with every round's input of a few simulated tournaments,
// with Papp's weights and the plain ones.
func explainSimInputs(t *testing.T, f func(Input, Options)) {
	t.Helper()
	plain := Plain()
	for _, cfg := range []SimConfig{
		{Players: 31, Rounds: 11, Seed: 3},
		{Players: 24, Rounds: 9, Seed: 4, Options: Options{Weights: &plain}},
		{Players: 9, Rounds: 10, Seed: 5},
	} {
		opt := cfg.Options
		opt.Seed = cfg.Seed
		if _, err := simulate(cfg, func(in Input) { f(in, opt) }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTermsSumToCost: for every pair of simulated rounds, the terms Explain
// reports (in the pair's cheaper orientation) add up to the cost the matching
// uses for the pair (its internal cost less the tie-break), and a pair is
// allowed exactly when the matching may use it.
func TestTermsSumToCost(t *testing.T) {
	n := 0
	explainSimInputs(t, func(in Input, opt Options) {
		s, err := newSwiss(in, opt)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCoster(in, opt)
		if err != nil {
			t.Fatal(err)
		}
		x := explainer{c: c}
		for a := range s.v {
			for b := a + 1; b < len(s.v); b++ {
				internal, ok := s.edgeCost(a, b)
				p, okP := x.cheaper(s.v[a].id, s.v[b].id) // the bye's id is 0
				switch {
				case ok != okP:
					t.Fatalf("round %d %d-%d: allowed %v, explained as allowed %v", in.Round, s.v[a].id, s.v[b].id, ok, okP)
				case ok && (internal/s.scale != p.Cost || p.Terms.Total() != p.Cost):
					t.Fatalf("round %d %+v: terms add up to %d, the matching's cost is %d", in.Round, p, p.Terms.Total(), internal/s.scale)
				}
				n++
			}
		}
	})
	if n < 5000 {
		t.Errorf("only %d pairs compared", n)
	}
}

// TestExplainOptimal: for every board of every simulated round paired by
// Swiss, the cheapest partner swap costs no less than the pairing (it is
// the cheapest), and the terms of the boards add up to the pairing's cost.
func TestExplainOptimal(t *testing.T) {
	swaps := 0
	explainSimInputs(t, func(in Input, opt Options) {
		p, err := Swiss(in, opt)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := Explain(in, p, opt, len(in.Players))
		if err != nil {
			t.Fatal(err)
		}
		if ex.Cost != p.Cost {
			t.Errorf("round %d: the terms add up to %d, the pairing costs %d", in.Round, ex.Cost, p.Cost)
		}
		for _, a := range ex.Alternatives {
			if a.Delta < 0 || a.DeltaTerms.Total() != a.Delta {
				t.Errorf("round %d: %+v: a swap %d cheaper than the optimal pairing", in.Round, a, -a.Delta)
			}
			swaps++
		}
	})
	if swaps < 100 {
		t.Errorf("only %d swaps checked", swaps)
	}
}
