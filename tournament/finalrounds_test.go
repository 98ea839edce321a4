package tournament_test

import (
	"fmt"
	"testing"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// TestFinalRounds: the rounds of a final phase, as 'final next' pairs them.
// Four players, one round: 1-2 40-24, 3-4 34-30; by points then discs the
// seeds are 1 (1 point, 40 discs), 3 (1, 34), 4 (0, 30), 2 (0, 24): SF1 1
// v 2, SF2 3 v 4, each won 1-1 after two games. SF2's game 2 was paired
// (alone) before SF1's game 2: it is posted with it all the same, the next
// game of every match. Game 3 of both; then the final and the 3rd-place
// game, paired once both semi-finals are decided. An imported file's games
// whose match was not found make one round.
func TestFinalRounds(t *testing.T) {
	s := tournament.DefaultSettings("Final", 1)
	s.TieBreaks = scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs}
	s.Final = tournament.WOCFinal
	tm := &tournament.Tournament{Settings: s}
	for i := range 4 {
		tm.Players = append(tm.Players, tournament.Player{Number: i + 1, Name: fmt.Sprintf("P%d", i+1), FirstRound: 1})
	}
	res := func(b, w int) *tournament.Result {
		return &tournament.Result{Black: b, White: w, Kind: tournament.Normal}
	}
	tm.Games = []tournament.Game{{Round: 1, Table: 1, Black: 1, White: 2, Result: res(40, 24)}, {Round: 1, Table: 2, Black: 3, White: 4, Result: res(34, 30)}}
	for i, g := range []tournament.Game{
		{FinalRef: tournament.FinalRef{Match: "SF1", Game: 1}, Black: 1, White: 2, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "SF2", Game: 1}, Black: 3, White: 4, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "SF2", Game: 2}, Black: 4, White: 3, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "SF1", Game: 2}, Black: 2, White: 1, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "SF1", Game: 3}, Black: 1, White: 2, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "SF2", Game: 3}, Black: 3, White: 4, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "F", Game: 1}, Black: 1, White: 3},
		{FinalRef: tournament.FinalRef{Match: "3P", Game: 1}, Black: 2, White: 4},
	} {
		g.Seq = i + 1
		tm.FinalGames = append(tm.FinalGames, g)
	}
	if got, want := seqs(tm.FinalRounds()), "[[1 2] [3 4] [5 6] [7 8]]"; got != want {
		t.Errorf("rounds %s; want %s", got, want)
	}
	imported := &tournament.Tournament{Settings: tournament.DefaultSettings("Imported", 1), Players: tm.Players, Games: tm.Games}
	for i := range 3 {
		imported.FinalGames = append(imported.FinalGames, tournament.Game{FinalRef: tournament.FinalRef{Seq: i + 1}, Black: 1 + i, White: 4 - i, Result: res(33, 31)})
	}
	if got, want := seqs(imported.FinalRounds()), "[[1 2 3]]"; got != want {
		t.Errorf("imported games' rounds %s; want %s", got, want)
	}
}

// seqs writes rounds of final games by their Seq.
func seqs(rounds [][]tournament.Game) string {
	var out [][]int
	for _, r := range rounds {
		var s []int
		for _, g := range r {
			s = append(s, g.Seq)
		}
		out = append(out, s)
	}
	return fmt.Sprint(out)
}

// TestDescribeFinalGames: the audit trail ('otd log') shows a final game's
// result as a round's ("no result", then "40-24"; the subject names the
// game), and a pairing by its games (or how many, past two).
func TestDescribeFinalGames(t *testing.T) {
	g := tournament.Game{FinalRef: tournament.FinalRef{Match: "SF1", Game: 2, Seq: 3}, Black: 2, White: 1}
	won := g
	won.Result = &tournament.Result{Black: 40, White: 24, Kind: tournament.Normal}
	lost := g
	lost.Result = &tournament.Result{Black: 24, White: 40, Kind: tournament.Normal}
	women := tournament.Game{FinalRef: tournament.FinalRef{Category: "women", Match: "F", Game: 1, Seq: 4}, Black: 5, White: 6}
	for _, tc := range []struct {
		name          string
		before, after []tournament.Game
		want          [2]string
	}{
		{"final next", nil, []tournament.Game{g, women}, [2]string{"-", "SF1 game 2: 2-1; women:F game 1: 5-6"}},
		{"final start of 3", nil, []tournament.Game{g, women, {FinalRef: tournament.FinalRef{Match: "SF2", Game: 1, Seq: 5}, Black: 3, White: 4}}, [2]string{"-", "3 final games"}},
		{"result", []tournament.Game{g}, []tournament.Game{won}, [2]string{"no result", "40-24"}},
		{"correction", []tournament.Game{won}, []tournament.Game{lost}, [2]string{"40-24", "24-40"}},
	} {
		c := tournament.Change{Before: tournament.State{FinalGames: tc.before}, After: tournament.State{FinalGames: tc.after}}
		if b, a := c.Describe(); b != tc.want[0] || a != tc.want[1] {
			t.Errorf("%s: %q / %q; want %q", tc.name, b, a, tc.want)
		}
	}
}
