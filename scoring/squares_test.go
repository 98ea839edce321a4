package scoring

import (
	"errors"
	"testing"
)

// TestBoardSquares: on a board of another size (issue 13), a score adds up
// to its playable squares, empty squares go to the winner, a bye and a
// forfeit count half of them, a time default's minimal win is half plus
// one, and BQ's c is round(squares / rounds) (RULES.md sections 2 and 3).
// Each expected value is worked out from those rules in its comment.
func TestBoardSquares(t *testing.T) {
	six := Rules{Squares: 36}
	for _, tc := range []struct {
		name  string
		r     Result
		rules Rules
		want  Score
	}{
		{"6x6: empties to the winner", Result{BlackDiscs: 20, WhiteDiscs: 14}, six, Score{22, 14, Point, 0}},                                             // 36-14
		{"6x6: a tie with empties", Result{BlackDiscs: 17, WhiteDiscs: 17}, six, Score{18, 18, Half, Half}},                                              // 36/2 each
		{"6x6: a bye", Result{Kind: Bye}, six, Score{18, 18, Point, 0}},                                                                                  // 36/2
		{"6x6: a forfeit", Result{Kind: Forfeit, Outcome: WhiteWins}, six, Score{18, 18, 0, Point}},                                                      // as a bye
		{"6x6: time default, fixed", Result{Kind: TimeDefault, Outcome: BlackWins}, Rules{Squares: 36, TimeDefault: TimeFixed}, Score{19, 17, Point, 0}}, // 36/2+1
		{"6x6: time default, wipeout", Result{Kind: TimeDefault, Outcome: WhiteWins}, Rules{Squares: 36, TimeDefault: TimeWipeout}, Score{0, 36, 0, Point}},
		// Black's flag falls at 10-5 (21 empty): white wins 36-10 = 26.
		{"6x6: time default, board as it stood", Result{Kind: TimeDefault, Outcome: WhiteWins, BlackDiscs: 10, WhiteDiscs: 5}, six, Score{10, 26, 0, Point}},
		// White's flag falls at 20-15 on 10x10 with 65 empty: black 100-15 = 85.
		{"10x10: time default, board as it stood", Result{Kind: TimeDefault, Outcome: BlackWins, BlackDiscs: 20, WhiteDiscs: 15}, Rules{Squares: 100}, Score{85, 15, Point, 0}},
		// 8Stars, 88 squares: black's flag falls at 50-30: white gets the minimal win 45-43.
		{"8stars: minimal win", Result{Kind: TimeDefault, Outcome: WhiteWins, BlackDiscs: 50, WhiteDiscs: 30}, Rules{Squares: 88}, Score{43, 45, 0, Point}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ScoreGame(tc.r, tc.rules)
			if err != nil || got != tc.want {
				t.Errorf("ScoreGame = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		rules            Rules
		rounds, num, den int
	}{
		{Rules{Squares: 36}, 5, 7, 1}, // round(7.2)
		{Rules{Squares: 36, BQ: BQRule{Kind: Exact}}, 5, 36, 5},
		{Rules{Squares: 100}, 7, 14, 1}, // round(14.29)
		{Rules{Squares: 100}, 8, 13, 1}, // round(12.5): half up
		{Rules{Squares: 88}, 9, 10, 1},  // round(9.78)
		{Rules{}, 13, 5, 1},             // 64/13 = 4.92
	} {
		if num, den := tc.rules.Constant(tc.rounds); num != tc.num || den != tc.den {
			t.Errorf("%d squares, %d rounds: c = %d/%d, want %d/%d", tc.rules.squares(), tc.rounds, num, den, tc.num, tc.den)
		}
	}
	for _, bad := range []Rules{{Squares: 5}, {Squares: 2}, {Squares: 36, ByeDiscs: 40}, {Squares: 36, BQ: BQRule{Kind: Fixed, C: 37}}} {
		if err := bad.Validate(); !errors.Is(err, ErrOption) {
			t.Errorf("%+v: %v, want ErrOption", bad, err)
		}
	}
	if _, err := ScoreGame(Result{BlackDiscs: 30, WhiteDiscs: 10}, six); !errors.Is(err, ErrDiscs) {
		t.Errorf("30-10 on 36 squares: %v, want ErrDiscs", err)
	}
}
