package tournament

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
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
			c, err := tm.RecordResult(At(1, 1), tc.in, false)
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
			c, err := tm.RecordResult(At(1, 1), tc.in, false)
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
		if _, err := tm.RecordResult(At(1, table), in, false); err != nil {
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
	if _, err := tm.RecordResult(At(2, 1), ResultInput{Black: 40, White: 24, HasScore: true}, false); err != nil {
		t.Fatal(err)
	}
	t.Run("round 2 with one result of two", func(t *testing.T) {
		check(t, 2, want{round: 2, pending: 1, games: 2, players: 5, provisional: true})
		check(t, 1, want{round: 1, games: 2, players: 4})
	})
	if _, err := tm.RecordResult(At(2, 2), ResultInput{Black: 40, White: 24, HasScore: true}, false); err != nil {
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

// TestTimeDefaultPolicies: RULES.md section 2. Under fixed (33-31) and
// wipeout (64-0) a time default needs no score; under complete it does. A
// score given is a board under every policy: 0-0 is refused under each (one
// rule, where fixed took it before).
func TestTimeDefaultPolicies(t *testing.T) {
	for _, tc := range []struct {
		policy string
		in     ResultInput
		want   string // "" refused
	}{
		{"fixed", ResultInput{TimeDefault: White}, "33-31 (white lost on time)"},
		{"wipeout", ResultInput{TimeDefault: Black}, "0-64 (black lost on time)"},
		{"complete", ResultInput{TimeDefault: White}, ""},
		{"fixed", ResultInput{TimeDefault: White, HasScore: true, Black: 10, White: 50}, "33-31 (white lost on time)"},
		{"fixed", ResultInput{TimeDefault: White, HasScore: true}, ""},
		{"wipeout", ResultInput{TimeDefault: White, HasScore: true}, ""},
		{"complete", ResultInput{TimeDefault: White, HasScore: true}, ""},
		{"wipeout", ResultInput{TimeDefault: White, HasScore: true, Black: 40, White: 30}, ""},
	} {
		t.Run(fmt.Sprintf("%s %+v", tc.policy, tc.in), func(t *testing.T) {
			tm := club(t, 2, 1)
			s := tm.Settings
			if err := s.TimeDefault.UnmarshalText([]byte(tc.policy)); err != nil {
				t.Fatal(err)
			}
			if _, err := tm.ChangeSettings(s); err != nil {
				t.Fatal(err)
			}
			if _, err := tm.Pair(PairOptions{Forced: [][2]int{{1, 2}}}); err != nil {
				t.Fatal(err)
			}
			c, err := tm.RecordResult(At(1, 1), tc.in, false)
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("recorded %s; want it refused", c.After.Results[0].Result)
			case tc.want != "" && err != nil:
				t.Errorf("refused: %v; want %s", err, tc.want)
			case tc.want != "" && c.After.Results[0].Result.String() != tc.want:
				t.Errorf("recorded %s; want %s", c.After.Results[0].Result, tc.want)
			}
		})
	}
}

// TestTimeDefaultPolicyLock: the time-default policy decides only the
// scores of time defaults as they are recorded: it changes after round 1 is
// paired, until the first time default is recorded, and again once that is
// undone; the refusal names the game and says so. The options that decide
// pairings stay fixed from round 1, saying why.
func TestTimeDefaultPolicyLock(t *testing.T) {
	tm := club(t, 4, 3)
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	set := func(policy string) error {
		s := tm.Settings
		if err := s.TimeDefault.UnmarshalText([]byte(policy)); err != nil {
			t.Fatal(err)
		}
		_, err := tm.ChangeSettings(s)
		return err
	}
	if err := set("fixed"); err != nil {
		t.Fatalf("the policy after round 1 is paired, before any time default: %v", err)
	}
	if _, err := tm.RecordResult(At(1, 1), ResultInput{HasScore: true, Black: 40, White: 24}, false); err != nil {
		t.Fatal(err)
	}
	c, err := tm.RecordResult(At(1, 2), ResultInput{TimeDefault: Black}, false)
	if err != nil {
		t.Fatal(err)
	}
	err = set("wipeout")
	if !errors.Is(err, ErrSettingFixed) || !strings.Contains(err.Error(), "round 1 table 2 has one recorded (31-33 (black lost on time)) under fixed") ||
		!strings.Contains(err.Error(), "until the first time default is recorded") {
		t.Errorf("the policy after a time default: %v", err)
	}
	if _, err := tm.Undo(1, c); err != nil {
		t.Fatal(err)
	}
	if err := set("wipeout"); err != nil {
		t.Errorf("the policy once the time default is undone: %v", err)
	}
	s := tm.Settings
	s.Seed++
	if _, err := tm.ChangeSettings(s); !errors.Is(err, ErrSettingFixed) || !strings.Contains(err.Error(), "--seed: the setting can no longer change: it decides the pairings' random choices") {
		t.Errorf("the seed after round 1: %v", err)
	}
}

// TestCorrectAndRepair: a correction made after the next round is paired
// says so; with that round still without results, CorrectAndRepair pairs it
// again on the corrected scores in the same change, which undo reverts as a
// whole; once the round has a result, the correction says it stands.
func TestCorrectAndRepair(t *testing.T) {
	tm := club(t, 6, 4)
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, g := range tm.Round(1) {
		if _, err := tm.RecordResult(At(1, g.Table), ResultInput{Black: 40, White: 24, HasScore: true}, false); err != nil {
			t.Fatal(err)
		}
	}
	// want: round 2 as it is paired when the correction comes first.
	want := tm.clone()
	if _, err := want.RecordResult(At(1, 1), ResultInput{Black: 24, White: 40, HasScore: true}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := want.Pair(PairOptions{Forbidden: [][2]int{{1, 3}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Pair(PairOptions{Forbidden: [][2]int{{1, 3}}}); err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(tm.Round(2), want.Round(2)) {
		t.Fatal("the correction changes nothing of round 2's pairing: choose another")
	}
	before := tm.clone()
	c, err := tm.RecordResult(At(1, 1), ResultInput{Black: 24, White: 40, HasScore: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"round 2 was paired on the result before this correction", "it has no result yet: 'otd result 1 1 24-40 --correct --repair' pairs it again on the corrected scores"}; c.Subject != "round 1 table 1 (1 PA - 4 PD)" || !slices.Equal(c.Notes, want) {
		t.Errorf("the correction says %q, notes %q", c.Subject, c.Notes)
	}
	if _, err := tm.Undo(1, c); err != nil {
		t.Fatal(err)
	}
	c, err = tm.CorrectAndRepair(1, 1, ResultInput{Black: 24, White: 40, HasScore: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tm.Round(2), want.Round(2)) {
		t.Errorf("round 2 paired again: %v; want %v, as paired after the correction", tm.Round(2), want.Round(2))
	}
	if !slices.Equal(tm.rulesOf(2).Forbidden, [][2]int{{1, 3}}) {
		t.Errorf("round 2's rules after pairing again: %+v", tm.rulesOf(2))
	}
	if _, err := tm.Undo(2, c); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tm.Games, before.Games) || !reflect.DeepEqual(tm.RoundRules, before.RoundRules) {
		t.Errorf("undo did not restore both the result and round 2:\n%v\nwant\n%v", tm.Games, before.Games)
	}
	if _, err := tm.RecordResult(At(2, 1), ResultInput{Black: 40, White: 24, HasScore: true}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.CorrectAndRepair(1, 1, ResultInput{Black: 24, White: 40, HasScore: true}); err == nil || !strings.Contains(err.Error(), "round 2 has results") {
		t.Errorf("pairing again a round under way: %v", err)
	}
	if c, err := tm.RecordResult(At(1, 1), ResultInput{Black: 24, White: 40, HasScore: true}, true); err != nil || !slices.Contains(c.Notes, "it stands (round 2 has results)") {
		t.Errorf("a correction under a round under way: %q, %v", c.Notes, err)
	}
}
