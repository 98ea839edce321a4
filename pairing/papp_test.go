package pairing

import (
	"errors"
	"fmt"
	"testing"
)

// scored sets the half-points each game of p gave (2 a win, 0 a loss).
func scored(p Player, pts ...int) Player {
	for i, x := range pts {
		p.Games[i].Points = x
	}
	return p
}

// TestPappTerms prices pairs of small states built by hand, term by term,
// with the values of RULES.md section 4 and Papp 1.37's src/penalties.c and
// src/global.c (each expected value is worked out in the case's comment).
func TestPappTerms(t *testing.T) {
	papp, plain := Options{}, Options{Weights: ptr(Plain())}
	type check func(Terms) error
	field := func(name string, get func(Terms) int64, want int64) check {
		return func(x Terms) error {
			if got := get(x); got != want {
				return fmt.Errorf("%s %d, want %d", name, got, want)
			}
			return nil
		}
	}
	comp := func(w int64) check { return field("compensation", func(x Terms) int64 { return x.Compensation }, w) }
	repeat := func(w int64) check { return field("repeat", func(x Terms) int64 { return x.Repeat }, w) }
	colour := func(w int64) check { return field("colour", func(x Terms) int64 { return x.Colour }, w) }
	same := func(w int64) check { return field("same colour", func(x Terms) int64 { return x.SameColour }, w) }
	elit := func(w int64) check { return field("elitism", func(x Terms) int64 { return x.Elitism }, w) }
	countryIs := func(w int64) check { return field("country", func(x Terms) int64 { return x.Country }, w) }
	rematch := func(w int64) check { return field("rematch", func(x Terms) int64 { return x.Rematch }, w) }
	total := func(w int64) check { return field("total", Terms.Total, w) }
	is := func(w Terms) check {
		return func(x Terms) error {
			if x != w {
				return fmt.Errorf("terms %+v, want %+v", x, w)
			}
			return nil
		}
	}
	// Compensation cases are round 4 unless said: 1 is the player whose
	// floats are looked at, 2 the opponent (no float), 3 and 4 fill the field.
	others := []Player{pl(3, 2, "13w", "14b", "15w"), pl(4, 2, "16b", "17w", "18b")}
	state := func(r int, ps ...Player) Input { return Input{Round: r, Players: append(ps, others...)} }
	tests := []struct {
		name         string
		in           Input
		opt          Options
		black, white int // white 0: the bye to black
		want         []check
	}{
		// -10 compensation only undoes round r-1 (penalties.c, COMPENSATION_FLOATS).
		{"floated down in r-1 and won, floats up: compensated", // 1: won r1, lost r2, 2-0 in r3 (down), won: 4
			state(4, scored(pl(1, 4, "11b", "12w", "13bd"), 2, 0, 2), scored(pl(2, 6, "14w", "15b", "16w"), 2, 2, 2)), papp, 1, 2,
			[]check{comp(-10), repeat(0)}},
		{"floated down in r-1 and lost, floats up: not compensated",
			state(4, scored(pl(1, 2, "11b", "12w", "13bd"), 2, 0, 0), scored(pl(2, 4, "14w", "15b", "16w"), 2, 2, 0)), papp, 1, 2,
			[]check{comp(0), repeat(0)}},
		{"plain: every float back compensated",
			state(4, scored(pl(1, 2, "11b", "12w", "13bd"), 2, 0, 0), scored(pl(2, 4, "14w", "15b", "16w"), 2, 2, 0)), plain, 1, 2,
			[]check{comp(-10)}},
		{"floated up in r-1 and lost, floats down: compensated", // 1: 2-4 in r3 (up), lost: 2; 2 has 0
			state(4, scored(pl(1, 2, "11b", "12w", "13bu"), 2, 0, 0), scored(pl(2, 0, "14w", "15b", "16w"), 0, 0, 0)), papp, 1, 2,
			[]check{comp(-10), repeat(0)}},
		{"floated up in r-1 and won, floats down: not compensated",
			state(4, scored(pl(1, 4, "11b", "12w", "13bu"), 2, 0, 2), scored(pl(2, 2, "14w", "15b", "16w"), 0, 0, 2)), papp, 1, 2,
			[]check{comp(0), repeat(0)}},
		{"never when pairing round 2", // current_round > 1 in penalties.c: rounds 3 on
			Input{Round: 2, Players: []Player{scored(pl(1, 2, "11bd"), 2), pl(2, 4, "12w"), pl(3, 2, "13b"), pl(4, 0, "14w")}}, papp, 1, 2,
			[]check{comp(0)}},
		{"round 2, plain: compensated",
			Input{Round: 2, Players: []Player{scored(pl(1, 2, "11bd"), 2), pl(2, 4, "12w"), pl(3, 2, "13b"), pl(4, 0, "14w")}}, plain, 1, 2,
			[]check{comp(-10)}},
		{"never after a bye (a float down, never a win)", // round 3: 1 lost r1, bye in r2: 2; 2 has 4
			Input{Round: 3, Players: []Player{scored(pl(1, 2, "11b", "bye"), 0), scored(pl(2, 4, "12w", "13b"), 2, 2), pl(3, 2, "14b", "15w"), pl(4, 2, "16w", "17b")}}, papp, 1, 2,
			[]check{comp(0), repeat(0)}},
		{"after a bye, plain: compensated",
			Input{Round: 3, Players: []Player{scored(pl(1, 2, "11b", "bye"), 0), scored(pl(2, 4, "12w", "13b"), 2, 2), pl(3, 2, "14b", "15w"), pl(4, 2, "16w", "17b")}}, plain, 1, 2,
			[]check{comp(-10)}},
		{"absent in r-1 after floating up: Papp's no game is a 0, so compensated", // round 5: last_float kept, wins_history 0
			Input{Round: 5, Players: []Player{scored(pl(1, 2, "11b", "12w", "13bu", "-"), 2, 0, 0, 0), pl(2, 0, "14w", "15b", "16w", "17b"),
				pl(3, 2, "18b", "19w", "20b", "21w"), pl(4, 2, "22w", "23b", "24w", "25b")}}, papp, 1, 2,
			[]check{comp(-10), repeat(0)}},
		{"absent in r-1 after floating down: the float repeated costs 25", // an absence keeps the last float
			Input{Round: 4, Players: []Player{scored(pl(1, 2, "11b", "12wd", "-"), 2, 0, 0), pl(2, 0, "14w", "15b", "16w"), others[0], others[1]}}, papp, 1, 2,
			[]check{comp(0), repeat(25)}},
		// +15 for the colour of round r-1 only.
		{"same colour as round r-1: 15 each", // round 3: 1 W,B; 2 B,W; 1 Black: |d| 1: 20 + 15; 2 White: 20 + 15
			Input{Round: 3, Players: []Player{scored(pl(1, 2, "11w", "12b"), 0, 2), scored(pl(2, 2, "13b", "14w"), 2, 0)}}, papp, 1, 2,
			[]check{colour(40), same(30)}},
		{"a bye in r-1: no 15", // 1 B then the bye, Black again: |d| 2: 105; 2 B then absent, White: |d| 0
			Input{Round: 3, Players: []Player{pl(1, 2, "11b", "bye"), pl(2, 2, "13b", "-")}}, papp, 1, 2,
			[]check{colour(105), same(0)}},
		// The bye: the colour cost of the current imbalance, no 15.
		{"the bye pays the current imbalance", // 1 is +2 and had black last: 105; 0 points, the bye -1: gap 1 = 20000, no elitism
			Input{Round: 3, Players: []Player{pl(1, 0, "11b", "12b"), pl(2, 2, "13w", "14w"), pl(3, 2, "15w", "16b")}}, papp, 1, 0,
			[]check{is(Terms{Gap: 20000, Colour: 105})}},
		{"a second bye costs Papp's infinity", // 1 had the bye in round 1, is -1: 20; gap 1 as above
			Input{Round: 3, Players: []Player{pl(1, 0, "bye", "11w"), pl(2, 2, "13w", "14b"), pl(3, 2, "15b", "16w")}}, papp, 1, 0,
			[]check{is(Terms{Gap: 20000, Colour: 20, Rematch: 10_000_000})}},
		{"the bye again right after one: 1 more", // bye_replay_penalty + immediate_replay_penalty
			Input{Round: 3, Players: []Player{pl(1, 0, "11w", "bye"), pl(2, 2, "13w", "14b"), pl(3, 2, "15b", "16w")}}, papp, 1, 0,
			[]check{rematch(10_000_001), colour(20)}},
		// A round without a game counts as a bye (penalite.c: polar2 == 0,
		// neither a bye nor an absence is a couple): absent_as_bye, Papp's.
		{"an absence costs the bye again: Papp's infinity", // 1 absent in round 1, White in 2: |d| 1: 20
			Input{Round: 3, Players: []Player{pl(1, 0, "-", "11w"), pl(2, 2, "13w", "14b"), pl(3, 2, "15b", "16w")}}, papp, 1, 0,
			[]check{is(Terms{Gap: 20000, Colour: 20, Rematch: 10_000_000})}},
		{"absent in r-1: 1 more", // as the bye in r-1 (penalite_desuite)
			Input{Round: 3, Players: []Player{pl(1, 0, "11w", "-"), pl(2, 2, "13w", "14b"), pl(3, 2, "15b", "16w")}}, papp, 1, 0,
			[]check{rematch(10_000_001), colour(20)}},
		{"a late entry's rounds before it count too", // no game in rounds 1 and 2: 2 x 10,000,000 + 1
			Input{Round: 3, Players: []Player{pl(1, 0), pl(2, 2, "13w", "14b"), pl(3, 2, "15b", "16w")}}, papp, 1, 0,
			[]check{is(Terms{Gap: 20000, Rematch: 20_000_001})}},
		{"plain: an absence is no bye", Input{Round: 3, Players: []Player{pl(1, 0, "11w", "-"), pl(2, 2, "13w", "14b"), pl(3, 2, "15b", "16w")}}, plain, 1, 0,
			[]check{is(Terms{Gap: 20000, Colour: 20})}},
		// Elitism: elitism(round) x (s1 + s2) x |gap| / 2, skipped for a negative score.
		{"elitism in round 4: 200", // 6 and 2 half-points: 200 x 8 x 4 / 2 = 3200
			Input{Round: 4, Players: []Player{pl(1, 6, "11b", "12w", "13b"), pl(2, 2, "14w", "15b", "16w")}}, papp, 1, 2,
			[]check{elit(3200)}},
		{"elitism in round 10: 400", // 400 x (6 + 2) x 4 / 2 = 6400
			Input{Round: 10, Players: []Player{pl(1, 6, "2b"), pl(2, 2, "1w")}}, papp, 2, 1,
			[]check{elit(6400)}},
		{"no elitism in plain", Input{Round: 4, Players: []Player{pl(1, 6, "11b", "12w", "13b"), pl(2, 2, "14w", "15b", "16w")}}, plain, 1, 2,
			[]check{elit(0)}},
		{"elitism with the bye above 0 points", // lowest 2, the bye 1: 100 x (2 + 1) x 1 / 2 = 150
			Input{Round: 3, Players: []Player{pl(1, 2, "11b", "12w"), pl(2, 4, "13w", "14b"), pl(3, 4, "15b", "16w")}}, papp, 1, 0,
			[]check{elit(150), total(20000 + 150)}},
		// Country: a table by round; Papp as run (papp.cfg) 2 in every
		// round, its compiled default (plain's) 2 in round 1, 0 after.
		{"compatriots in round 1: 2", Input{Round: 1, Players: []Player{with(pl(1, 0), country(0, "FRA")), with(pl(2, 0), country(0, "FRA"))}}, papp, 1, 2,
			[]check{countryIs(2)}},
		{"compatriots in round 2: 2", Input{Round: 2, Players: []Player{with(pl(1, 2, "11b"), country(0, "FRA")), with(pl(2, 2, "12w"), country(0, "FRA"))}}, papp, 1, 2,
			[]check{countryIs(2)}},
		{"compatriots in round 9: 2", Input{Round: 9, Players: []Player{with(pl(1, 2, "11b"), country(0, "FRA")), with(pl(2, 2, "12w"), country(0, "FRA"))}}, papp, 1, 2,
			[]check{countryIs(2)}},
		{"compatriots in round 2 under the compiled default: 0", Input{Round: 2, Players: []Player{with(pl(1, 2, "11b"), country(0, "FRA")), with(pl(2, 2, "12w"), country(0, "FRA"))}}, plain, 1, 2,
			[]check{countryIs(0)}},
		{"players with no country are not compatriots", Input{Round: 1, Players: []Player{pl(1, 0), pl(2, 0)}}, papp, 1, 2,
			[]check{countryIs(0)}},
		// Rematches: each earlier meeting costs again.
		{"met with both colours: 10,000,000 + 5,000,000 + 1", // 1 Black repeats round 1; reverses round 2, the previous round
			Input{Round: 3, Players: []Player{pl(1, 2, "2b", "2w"), pl(2, 2, "1w", "1b")}}, papp, 1, 2,
			[]check{rematch(15_000_001)}},
		{"met once, same colours: 10,000,000", Input{Round: 3, Players: []Player{pl(1, 2, "2b", "3w"), pl(2, 2, "1w", "4b")}}, papp, 1, 2,
			[]check{rematch(10_000_000)}},
		{"met once, colours reversed: 5,000,000", Input{Round: 3, Players: []Player{pl(1, 2, "2b", "3w"), pl(2, 2, "1w", "4b")}}, papp, 2, 1,
			[]check{rematch(5_000_000)}},
		{"met in the previous round, reversed: 5,000,001", Input{Round: 3, Players: []Player{pl(1, 2, "3w", "2b"), pl(2, 2, "4b", "1w")}}, papp, 2, 1,
			[]check{rematch(5_000_001)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := PairTerms(tt.in, tt.opt, tt.black, tt.white)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range tt.want {
				if err := c(x); err != nil {
					t.Errorf("%v (terms %+v)", err, x)
				}
			}
		})
	}
}

// TestPappLastResort: "infinity" is a large finite cost, so a round is always
// paired, the least bad way, and the pairing says so.
func TestPappLastResort(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want string
		cost int64
		rule Rule
	}{
		// 3 players, round 4: each has had the bye (rounds 1, 2, 3). The bye
		// again costs 10,000,000 (+1 for 3, who had it in round 3), so it
		// goes to 1 or 2; 1 and 2 met in round 3 (2 Black), 1 and 3 in round 2
		// (1 Black), 2 and 3 in round 1 (2 Black).
		{"a second bye", Input{Round: 4, Players: []Player{
			pl(1, 4, "bye", "3b", "2w"), pl(2, 4, "3b", "bye", "1b"), pl(3, 2, "2w", "1w", "bye"),
		}}, "", 0, RuleSecondBye},
		// Met with both colours: either way 10,000,000 + 5,000,000 + 1 (the
		// previous round) + 20 + 20 (|d| 1 each, no 15: 1 had white last
		// round, 2 black).
		{"a rematch with the same colours", Input{Round: 3, Players: []Player{pl(1, 2, "2b", "2w"), pl(2, 2, "1w", "1b")}}, "", 15_000_041, RuleSameColours},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Swiss(tt.in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Notes) != 1 || p.Notes[0].Rule != tt.rule || p.Notes[0].Text == "" {
				t.Errorf("pairing %v: notes %+v, want one %v", p, p.Notes, tt.rule)
			}
			if tt.cost != 0 && p.Cost != tt.cost {
				t.Errorf("cost %d, want %d", p.Cost, tt.cost)
			}
			if err := complete(tt.in, p); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestPappTermsErrors: who cannot be priced.
func TestPappTermsErrors(t *testing.T) {
	in := Input{Players: []Player{pl(1, 0), pl(2, 0), with(pl(3, 0), func(p *Player) { p.Status = Absent })}, Forbidden: [][2]int{{1, 2}}}
	for _, tt := range []struct {
		b, w int
		want error
	}{{1, 3, ErrInvalidInput}, {9, 1, ErrInvalidInput}, {1, 0, ErrInvalidInput}, {1, 2, ErrNoValidPairing}, {1, 1, ErrInvalidInput}} {
		if _, err := PairTerms(in, Options{}, tt.b, tt.w); !errors.Is(err, tt.want) {
			t.Errorf("PairTerms(%d, %d) = %v, want %v", tt.b, tt.w, err, tt.want)
		}
	}
}

// TestCheckCheaper: Check says a cheaper valid pairing exists when one does.
// Round 2: 1 beat 2 and 3 beat 4, both with black. 1-4 and 3-2 are valid
// (no rematch) but each costs a gap of 2 half-points, 40588, elitism in
// round 2, 100 x (2 + 0) x 2 / 2 = 200, and colours 105 + 15 (black again,
// blacks - whites +2) + 105 + 15 (white again, -2): 41028, 82056 in all. 1-3
// and 2-4 cost 105 + 15 for the one who gets their colour again, 0 for the
// other: 120 each, 240.
func TestCheckCheaper(t *testing.T) {
	in := Input{Players: []Player{pl(1, 2, "2b"), pl(2, 0, "1w"), pl(3, 2, "4b"), pl(4, 0, "3w")}}
	for _, tt := range []struct {
		name    string
		p       []Pair
		cost    int64
		cheaper bool
	}{
		{"floats where none is needed", []Pair{{1, 4}, {3, 2}}, 82056, true},
		{"the best", []Pair{{3, 1}, {4, 2}}, 240, false},
		{"the best, other colours", []Pair{{1, 3}, {2, 4}}, 240, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Check(in, Pairing{Pairs: tt.p}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Valid || r.Cost != tt.cost || r.Cheaper != tt.cheaper || r.Best == nil || r.Best.Cost != 240 || !r.BestValid {
				t.Errorf("valid %v, cost %d, cheaper %v, best %v; want valid, %d, %v, best 240", r.Valid, r.Cost, r.Cheaper, r.Best, tt.cost, tt.cheaper)
			}
		})
	}
}

// TestPappCompensationDecides: round 4, 1 leads alone and one of 2, 3, 4
// (all 2 points, the same colours) must float up to meet 1. 3 floated down
// in round 3 and won: floating up undoes it, -10. 2 floated down and lost: no
// compensation under Papp (-10 under plain). 4 did not float. Every choice
// costs the same otherwise, so Papp floats 3: gap 40588 + elitism 200 x (6 +
// 4) x 2 / 2 = 2000 - 10 + colours 120 + 120 (in each pair one of two players
// at +1 with black last gets black again: 105 + 15) = 42818. Plain floats 2,
// ranked above 3, at 40588 - 10 + 240 = 40818 (no elitism).
func TestPappCompensationDecides(t *testing.T) {
	in := Input{Round: 4, Players: []Player{
		scored(pl(1, 6, "11b", "12w", "13b"), 2, 2, 2),
		scored(pl(2, 4, "14b", "15w", "16bd"), 2, 2, 0),
		scored(pl(3, 4, "17b", "18w", "19bd"), 0, 2, 2),
		scored(pl(4, 4, "20b", "21w", "22b"), 2, 0, 2),
	}}
	for _, tt := range []struct {
		name  string
		opt   Options
		float int
		cost  int64
	}{{"papp", Options{}, 3, 42818}, {"plain", Options{Weights: ptr(Plain())}, 2, 40818}} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Swiss(in, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !paired(p, 1, tt.float) || p.Cost != tt.cost {
				t.Errorf("pairing %v cost %d, want 1 against %d, cost %d", p, p.Cost, tt.float, tt.cost)
			}
		})
	}
}
