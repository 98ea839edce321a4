package tournament

import (
	"errors"
	"fmt"
	"testing"
)

// TestTimeDefaultBoard: RULES.md section 2, a time default entered as the
// board stood: the empty squares go to the player who won on time, never to
// the one whose flag fell, then the 33-31 minimum applies (time-default
// policy complete, the default).
func TestTimeDefaultBoard(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   ResultInput
		want string
	}{
		{"black's flag falls at 19-5 with 40 empty", ResultInput{Black: 19, White: 5, HasScore: true, TimeDefault: Black}, "19-45 (black lost on time)"},
		{"black's flag falls at 40-20 with 4 empty", ResultInput{Black: 40, White: 20, HasScore: true, TimeDefault: Black}, "31-33 (black lost on time)"},
		{"white's flag falls at 5-19 with 40 empty", ResultInput{Black: 5, White: 19, HasScore: true, TimeDefault: White}, "45-19 (white lost on time)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := club(t, 2, 1)
			if _, err := tm.Pair(PairOptions{Forced: [][2]int{{1, 2}}}); err != nil {
				t.Fatal(err)
			}
			c, err := tm.RecordResult(1, 1, tc.in, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.After.Results[0].Result.String(); got != tc.want {
				t.Errorf("recorded %s, want %s", got, tc.want)
			}
		})
	}
}

// TestForfeit: a forfeit needs no score, and one given is refused, not
// dropped; it reads as a forfeit, not as the 32-32 it is recorded with.
func TestForfeit(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   ResultInput
		want string
		err  error
	}{
		{"black did not play", ResultInput{Forfeit: Black}, "forfeit: black did not play, white wins", nil},
		{"white did not play", ResultInput{Forfeit: White}, "forfeit: white did not play, black wins", nil},
		{"with a score", ResultInput{Forfeit: Black, Black: 40, White: 24, HasScore: true}, "", ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := club(t, 2, 1)
			if _, err := tm.Pair(PairOptions{Forced: [][2]int{{1, 2}}}); err != nil {
				t.Fatal(err)
			}
			c, err := tm.RecordResult(1, 1, tc.in, false)
			if !errors.Is(err, tc.err) {
				t.Fatalf("RecordResult: %v, want %v", err, tc.err)
			}
			if err != nil {
				if tm.Games[0].Result != nil {
					t.Errorf("a refused forfeit recorded %s", tm.Games[0].Result)
				}
				return
			}
			if got := c.After.Results[0].Result.String(); got != tc.want {
				t.Errorf("recorded %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWithdrawnBeforeRound1: RULES.md section 3, a player withdrawn before
// round 1 has played nothing: marked withdrawn, BQ 0 (nearest), ranked below
// every player who played, in the standings after round 1 and before it.
func TestWithdrawnBeforeRound1(t *testing.T) {
	tm := club(t, 5, 3)
	if _, err := tm.Withdraw(5); err != nil {
		t.Fatal(err)
	}
	if p := tm.Event().Players[4]; !p.Withdrawn || p.WithdrawnAfter != 0 {
		t.Errorf("player 5 as scoring reads them: %+v, want withdrawn before round 1", p)
	}
	if _, err := tm.Pair(PairOptions{Forced: [][2]int{{1, 2}, {3, 4}}}); err != nil {
		t.Fatal(err)
	}
	// Player 4 loses 10-54 and scores nothing; player 5 must still be below.
	for table, in := range map[int]ResultInput{1: {Black: 40, White: 24, HasScore: true}, 2: {Black: 54, White: 10, HasScore: true}} {
		if _, err := tm.RecordResult(1, table, in, false); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []int{0, 1} {
		t.Run(fmt.Sprintf("after round %d", r), func(t *testing.T) {
			rows, err := tm.Standings(r)
			if err != nil {
				t.Fatal(err)
			}
			last := rows[len(rows)-1]
			if last.Player != 5 || !last.Withdrawn || last.BQ.String() != "0" || last.Rank != len(rows) {
				t.Errorf("last row %+v: want player 5, withdrawn, BQ 0, rank %d", last, len(rows))
			}
			for _, row := range rows[:len(rows)-1] {
				if row.Withdrawn {
					t.Errorf("player %d marked withdrawn", row.Player)
				}
			}
		})
	}
}

// TestView: the standings of a round whose results are not all in are
// provisional; a round with no result is not counted (the standings are
// after the round before); a late entry is not listed before their first
// round.
func TestView(t *testing.T) {
	tm := club(t, 4, 3)
	if _, err := tm.Pair(PairOptions{Forced: [][2]int{{1, 2}, {3, 4}}}); err != nil {
		t.Fatal(err)
	}
	type want struct {
		round, pending, games, players int
		provisional                    bool
	}
	check := func(t *testing.T, asked int, w want) {
		t.Helper()
		v, err := tm.View(asked)
		if err != nil {
			t.Fatal(err)
		}
		got := want{v.Round, v.Pending, v.Games, len(v.Rows), v.Provisional}
		if got != w || v.Asked != asked {
			t.Errorf("View(%d) = %+v (asked %d), want %+v", asked, got, v.Asked, w)
		}
		if len(v.Rows) > 0 && len(v.Rows[0].Rounds) != v.Round {
			t.Errorf("View(%d): %d rounds counted, want %d", asked, len(v.Rows[0].Rounds), v.Round)
		}
	}
	t.Run("round 1 without a result", func(t *testing.T) {
		check(t, 1, want{players: 4})
		check(t, 0, want{players: 4})
	})
	finish(t, tm)
	if _, err := tm.AddPlayer(PlayerInput{Name: "Late"}); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Pair(PairOptions{Manual: true, Forced: [][2]int{{1, 3}, {2, 4}}, Bye: 5}); err != nil {
		t.Fatal(err)
	}
	t.Run("round 2 without a result", func(t *testing.T) {
		check(t, 2, want{round: 1, games: 2, players: 4})
		check(t, 1, want{round: 1, games: 2, players: 4})
		check(t, 0, want{players: 4})
	})
	if _, err := tm.RecordResult(2, 1, ResultInput{Black: 40, White: 24, HasScore: true}, false); err != nil {
		t.Fatal(err)
	}
	t.Run("round 2 with one result of two", func(t *testing.T) {
		check(t, 2, want{round: 2, pending: 1, games: 2, players: 5, provisional: true})
		check(t, 1, want{round: 1, games: 2, players: 4})
	})
	if _, err := tm.RecordResult(2, 2, ResultInput{Black: 40, White: 24, HasScore: true}, false); err != nil {
		t.Fatal(err)
	}
	t.Run("round 2 finished", func(t *testing.T) {
		check(t, 2, want{round: 2, games: 2, players: 5})
	})
	t.Run("errors", func(t *testing.T) {
		if _, err := tm.View(3); !errors.Is(err, ErrNoRound) {
			t.Errorf("View(3), not paired: %v", err)
		}
		if _, err := tm.View(4); !errors.Is(err, ErrNoRound) {
			t.Errorf("View(4), beyond the tournament: %v", err)
		}
	})
}
