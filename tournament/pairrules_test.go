package tournament

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/pairing"
)

// pairedClub returns a club of n players with the given rounds paired by hand
// (black first) and finished: black wins 40-24.
func pairedClub(t *testing.T, n int, rounds ...[][2]int) *Tournament {
	t.Helper()
	tm := club(t, n, len(rounds)+2)
	for _, pairs := range rounds {
		if _, err := tm.Pair(PairOptions{Manual: true, Forced: pairs}); err != nil {
			t.Fatal(err)
		}
		finish(t, tm)
	}
	return tm
}

// TestForcedRematchColours: a forced pair keeps the director's colours, so one
// that would repeat the colours of an earlier game between the two (an
// absolute rule, RULES.md section 4) is refused, with the orientation to use;
// --manual the same. Colours reversed, a rematch only costs.
func TestForcedRematchColours(t *testing.T) {
	r1 := [][2]int{{1, 2}, {3, 4}}
	r2 := [][2]int{{2, 1}, {4, 3}}
	for _, tc := range []struct {
		name   string
		rounds [][][2]int
		o      PairOptions
		hint   string // in the error; "" for no error
		want   [2]int // a game the round must have
	}{
		{"forced, same colours", [][][2]int{r1}, PairOptions{Forced: [][2]int{{1, 2}}}, "force 2-1", [2]int{}},
		{"forced, no rematch", [][][2]int{r1}, PairOptions{Forced: [][2]int{{1, 4}}}, "", [2]int{1, 4}},
		{"forced, colours reversed", [][][2]int{r1}, PairOptions{Forced: [][2]int{{2, 1}}}, "", [2]int{2, 1}},
		{"forced, white named first", [][][2]int{r1}, PairOptions{Forced: [][2]int{{4, 3}}}, "", [2]int{4, 3}},
		{"forced, met with both colours", [][][2]int{r1, r2}, PairOptions{Forced: [][2]int{{2, 1}}}, "both colours", [2]int{}},
		{"manual, same colours", [][][2]int{r1}, PairOptions{Manual: true, Forced: [][2]int{{2, 1}, {3, 4}}}, "force 4-3", [2]int{}},
		{"manual, colours reversed", [][][2]int{r1}, PairOptions{Manual: true, Forced: [][2]int{{2, 1}, {4, 3}}}, "", [2]int{4, 3}},
		{"manual, met with both colours", [][][2]int{r1, r2}, PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}}}, "both colours", [2]int{}},
		{"manual, new pairs", [][][2]int{r1, r2}, PairOptions{Manual: true, Forced: [][2]int{{1, 3}, {4, 2}}}, "", [2]int{4, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := pairedClub(t, 4, tc.rounds...)
			c, err := tm.Pair(tc.o)
			if tc.hint != "" {
				if !errors.Is(err, ErrBadPairing) || !strings.Contains(err.Error(), tc.hint) {
					t.Fatalf("Pair(%+v) = %v; want %v saying %q", tc.o, err, ErrBadPairing, tc.hint)
				}
				if tm.Paired() != len(tc.rounds) {
					t.Error("a refused pairing changed the tournament")
				}
				return
			}
			if err != nil {
				t.Fatalf("Pair(%+v): %v", tc.o, err)
			}
			if !slices.ContainsFunc(c.After.Games, func(g Game) bool { return g.Black == tc.want[0] && g.White == tc.want[1] }) {
				t.Errorf("round %d = %v: want %d-%d in it", tm.Paired(), c.After.Games, tc.want[0], tc.want[1])
			}
			rep, err := tm.CheckRound(tm.Paired())
			if err != nil || rep.Broken {
				t.Errorf("CheckRound: %+v, %v: the pairing made breaks a rule", rep, err)
			}
		})
	}
}

// TestCheckRoundVerdict: round 2 of 4 players after 1-3 and 2-4 (black won
// both), so 1 and 2 have 2 half-points, 3 and 4 none, and 1, 2 are +1 in
// colours (black last), 3, 4 -1 (white last). Costs by RULES.md section 4
// (Papp's weights, no compatriots): 1-2 and 3-4 in either orientation cost
// 105 + 15 for the player getting the colour they had, 0 for the other: 240
// in all, the best valid pairing. 1-4 and 2-3, black first, cost 120 + 120
// each, a gap of 2 half-points, 40588, and elitism in round 2, 100 x (2 + 0)
// x 2 / 2 = 200: 82056. 1-3 and 2-4 again are
// rematches with the same colours: not valid, whatever the cost of the rest
// (4-2 is a rematch with the colours reversed: 5,000,000, and 1 more as they
// met in the previous round; a gap of 2 half-points, 40588, and elitism,
// 200; no colour cost: 5,040,789).
func TestCheckRoundVerdict(t *testing.T) {
	for _, tc := range []struct {
		name    string
		round2  []Game
		broken  []string // the absolute rules broken
		cheaper bool
		cost    int64
		best    int64 // -1: none reported
	}{
		{"valid, the best", []Game{{Black: 1, White: 2}, {Black: 3, White: 4}}, nil, false, 240, -1},
		{"valid, a cheaper one exists", []Game{{Black: 1, White: 4}, {Black: 2, White: 3}}, nil, true, 82056, 240},
		{"rematches with the same colours", []Game{{Black: 1, White: 3}, {Black: 2, White: 4}}, []string{"rematch with the same colours"}, false, 0, 240},
		{"one rematch with the same colours", []Game{{Black: 1, White: 3}, {Black: 4, White: 2}}, []string{"rematch with the same colours"}, false, 5_040_789, 240},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := pairedClub(t, 4, [][2]int{{1, 3}, {2, 4}})
			for i, g := range tc.round2 { // by hand: Pair refuses a broken pairing
				g.Round, g.Table = 2, i+1
				tm.Games = append(tm.Games, g)
			}
			rep, err := tm.CheckRound(2)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Broken != (len(tc.broken) > 0) || !slices.Equal(rep.BrokenRules, tc.broken) {
				t.Errorf("broken %v, rules %q; want %q", rep.Broken, rep.BrokenRules, tc.broken)
			}
			if rep.Cheaper != tc.cheaper {
				t.Errorf("cheaper %v, want %v (cost %d, best %v)", rep.Cheaper, tc.cheaper, rep.Cost, rep.BestCost)
			}
			if rep.Cost != tc.cost {
				t.Errorf("cost %d, want %d", rep.Cost, tc.cost)
			}
			switch {
			case tc.best < 0 && rep.BestCost != nil:
				t.Errorf("best cost %d reported; want none: no valid pairing is cheaper", *rep.BestCost)
			case tc.best >= 0 && (rep.BestCost == nil || *rep.BestCost != tc.best || rep.Best == ""):
				t.Errorf("best cost %v (%q), want %d", rep.BestCost, rep.Best, tc.best)
			}
		})
	}
}

// TestCheckRoundNoValidPairing: two players who have met with both colours
// cannot meet again; a third game between them is invalid and no valid
// pairing exists to offer instead.
func TestCheckRoundNoValidPairing(t *testing.T) {
	tm := pairedClub(t, 2, [][2]int{{1, 2}}, [][2]int{{2, 1}})
	tm.Games = append(tm.Games, Game{Round: 3, Table: 1, Black: 1, White: 2})
	rep, err := tm.CheckRound(3)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Broken || rep.Cheaper || rep.BestCost != nil || rep.Best != "" || !slices.Equal(rep.BrokenRules, []string{"rematch with the same colours"}) {
		t.Errorf("CheckRound(3) = %+v; want broken (rematch with the same colours), no best pairing", rep)
	}
}

// TestHandByeCost: a round's cost is the same whether the pairing chose its
// bye or the director gave it by hand (round pair --bye). Five players;
// round 1 by hand 1-2, 3-4, the bye to 5; black wins. In round 2 the bye
// goes to 2 or 4 (0 points, white in round 1; 5 has had it). Its cost by
// RULES.md section 4 (Papp's weights): the virtual player is half a point
// below the lowest score (0), a gap of 1 half-point, 20000; elitism skipped
// (a negative score); no float history in round 1 (equal scores), no
// compensation when pairing round 2; the colour cost of the current
// imbalance, |-1|, 20: 20020.
func TestHandByeCost(t *testing.T) {
	tm := club(t, 5, 4)
	if _, err := tm.Pair(PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}}, Bye: 5}); err != nil {
		t.Fatal(err)
	}
	finish(t, tm)
	cost := func() (int64, []Game, ExplainedPair) {
		t.Helper()
		check, err := tm.CheckRound(2)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := tm.Explain(2)
		if err != nil {
			t.Fatal(err)
		}
		if check.Cost != ex.Cost || check.Broken || check.Cheaper {
			t.Errorf("round check %+v, explain cost %d: want the same cost, valid, none cheaper", check, ex.Cost)
		}
		bye := ex.Pairs[len(ex.Pairs)-1]
		return check.Cost, slices.Clone(tm.Round(2)), bye
	}
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	byOTD, games, bye := cost()
	if _, err := tm.Unpair(); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Pair(PairOptions{Bye: bye.Black}); err != nil {
		t.Fatal(err)
	}
	byHand, handGames, handBye := cost()
	if !slices.Equal(games, handGames) {
		t.Fatalf("round 2 by otd %v, with --bye %d %v: not the same pairing", games, bye.Black, handGames)
	}
	if byHand != byOTD {
		t.Errorf("round 2 costs %d with the bye given by hand, %d with the bye chosen by otd", byHand, byOTD)
	}
	want := pairing.PairCost{Black: bye.Black, Terms: pairing.Terms{Gap: 20000, Colour: 20}, Cost: 20020}
	for _, b := range []ExplainedPair{bye, handBye} {
		if b.Black != 2 && b.Black != 4 || b.PairCost != want || b.Table != 3 {
			t.Errorf("the bye: %+v; want %+v at table 3", b, want)
		}
	}
}
