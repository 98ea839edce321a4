package scoring_test

import (
	"testing"

	"github.com/otd-project/otd/scoring"
)

// TestWithdrawnBeforePlaying: RULES.md section 3, a player withdrawn before
// playing any round has played nothing: BQ 0 under every preset but wof
// (where Papp's draws against oneself apply, 32 + c x 0 a round), marked
// withdrawn, ranked below every player who played. Player 5 withdrew before
// round 1; player 6 entered for round 2 and withdrew before it. Two rounds
// planned: c = 32 (nearest, exact), 0 (wof, fewer than 8 rounds).
//
//	round 1: 1-2 40-24, 3-4 10-54
//	round 2: 1-4 33-31, 2-3 20-44
//
// Points: 1 2, 2 0, 3 1, 4 1. Discs: 1 73, 2 44, 3 54, 4 85.
// c = 32: 1: 40+32x0 + 33+32x1 = 105; 2: 24+32x2 + 20+32x1 = 140;
// 3: 10+32x1 + 44+32x0 = 86; 4: 54+32x1 + 31+32x2 = 181; 5, 6: 0.
// c = 0 (wof, 0): the discs; 5 and 6 under wof: 2 x 32 = 64, above 2's 44,
// yet ranked below 2. Japanese: 2 has a disc difference of -40, 5 and 6 of 0,
// yet they rank below 2.
func TestWithdrawnBeforePlaying(t *testing.T) {
	ev := scoring.Event{Rounds: 2, Players: players(1, 2, 3, 4, 5, 6), Games: []scoring.Game{
		game(1, 1, 2, 40, 24), game(1, 3, 4, 10, 54),
		game(2, 1, 4, 33, 31), game(2, 2, 3, 20, 44),
	}}
	ev.Players[4].Withdrawn = true   // before round 1
	ev.Players[5].WithdrawnAfter = 1 // a late entry for round 2, withdrawn before it
	japanese, _ := scoring.ParseTieBreaks("japanese")
	for _, tt := range []struct {
		name  string
		rules scoring.Rules
		want  []string
	}{
		{"nearest", scoring.Rules{}, []string{"1 #1 2 105 73", "4 #2 1 181 85", "3 #3 1 86 54", "2 #4 0 140 44", "5 #5 0 0 0", "6 #5 0 0 0"}},
		{"exact", scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Exact}}, []string{"1 #1 2 105 73", "4 #2 1 181 85", "3 #3 1 86 54", "2 #4 0 140 44", "5 #5 0 0 0", "6 #5 0 0 0"}},
		{"fixed 0", scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Fixed}}, []string{"1 #1 2 73 73", "4 #2 1 85 85", "3 #3 1 54 54", "2 #4 0 44 44", "5 #5 0 0 0", "6 #5 0 0 0"}},
		{"wof", scoring.Rules{BQ: scoring.BQRule{Kind: scoring.WOF}}, []string{"1 #1 2 73 73", "4 #2 1 85 85", "3 #3 1 54 54", "2 #4 0 44 44", "5 #5 0 64 0", "6 #5 0 64 0"}},
		{"japanese", scoring.Rules{TieBreaks: japanese}, []string{"1 #1 2 105 73", "4 #2 1 181 85", "3 #3 1 86 54", "2 #4 0 140 44", "5 #5 0 0 0", "6 #5 0 0 0"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev := ev
			ev.Rules = tt.rules
			checkLines(t, standings(t, ev), tt.want)
			rows, err := ev.Standings()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if want := r.Player >= 5; r.Withdrawn != want {
					t.Errorf("player %d: withdrawn %v, want %v", r.Player, r.Withdrawn, want)
				}
			}
		})
	}

	// Player 5 is withdrawn in every view, even before round 1, and ranks
	// last; player 6 only in the views after round 2, the first they miss.
	for _, tt := range []struct {
		after int
		want  map[int]bool
	}{
		{0, map[int]bool{5: true, 6: false}},
		{1, map[int]bool{5: true, 6: false}},
	} {
		rows, err := ev.AfterRound(tt.after)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if want, ok := tt.want[r.Player]; ok && r.Withdrawn != want {
				t.Errorf("after round %d: player %d withdrawn %v, want %v", tt.after, r.Player, r.Withdrawn, want)
			}
		}
		if last := rows[len(rows)-1]; last.Player != 5 || last.Rank != len(rows) {
			t.Errorf("after round %d: last is player %d, rank %d; want player 5, rank %d", tt.after, last.Player, last.Rank, len(rows))
		}
	}
}
