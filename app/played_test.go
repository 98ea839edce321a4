package app

import (
	"errors"
	"slices"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/tournament"
)

// TestPlayedWords: a game engine/match played reaches the domain in the
// domain's words: each way a game ends is one of tournament's End words, and
// an illegal move's reason names the move's number (the next after those
// played).
func TestPlayedWords(t *testing.T) {
	words := []string{tournament.EndNormal, tournament.EndTime, tournament.EndCrash, tournament.EndIllegal, tournament.EndNoReply}
	for _, e := range []match.End{match.Normal, match.Time, match.Crash, match.Illegal, match.NoReply} {
		if got := played(match.Result{End: e, Err: errors.New("x")}).End; !slices.Contains(words, got) {
			t.Errorf("match.End %d reaches the domain as %q, not one of %q", int(e), got, words)
		}
	}
	f5, d6 := engine.Point{Col: 5, Row: 4}, engine.Point{Col: 3, Row: 5}
	for _, tc := range []struct {
		res  match.Result
		want tournament.Played
	}{
		{match.Result{Moves: []engine.Point{f5, d6}, End: match.Illegal, Fault: engine.Black, Err: errors.New("c9 is off the board")},
			tournament.Played{End: "illegal", Fault: engine.Black, Reason: "c9 is off the board (move 3)"}},
		{match.Result{Moves: []engine.Point{f5}, End: match.Time, Fault: engine.White, Err: errors.New("flag fell")},
			tournament.Played{End: "time", Fault: engine.White, Reason: "flag fell"}},
		{match.Result{Moves: []engine.Point{f5}, End: match.Normal}, tournament.Played{End: "normal"}},
	} {
		got := played(tc.res)
		if got.End != tc.want.End || got.Fault != tc.want.Fault || got.Reason != tc.want.Reason || !slices.Equal(got.Moves, tc.res.Moves) {
			t.Errorf("played(%+v) = %+v; want %+v", tc.res, got, tc.want)
		}
	}
}
