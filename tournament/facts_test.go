package tournament_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// TestUnfounded: the final games a change leaves unfounded (facts stay
// facts, DESIGN.md), and those --rederive drops. Four players, one round:
// 1-2 40-24, 3-4 34-30; by points then discs the seeds are 1 (1 point, 40
// discs), 3 (1, 34), 4 (0, 30), 2 (0, 24). Single-game semi-finals, no
// 3rd place, a level match to the higher seed (RULES.md section 7): SF1 1 v
// 2, 1 wins; SF2 3 v 4 drawn 32-32, 3 through as the higher seed; the final
// 1 v 3 paired.
func TestUnfounded(t *testing.T) {
	res := func(b, w int) *tournament.Result {
		return &tournament.Result{Black: b, White: w, Kind: tournament.Normal}
	}
	event := func() *tournament.Tournament {
		s := tournament.DefaultSettings("Final", 1)
		s.TieBreaks = scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs}
		s.Final = tournament.FinalRules{Qualifiers: 4, BestOf: 1, Level: tournament.LevelSeed, Colour: tournament.ColourLot}
		tm := &tournament.Tournament{Settings: s}
		for i := range 4 {
			tm.Players = append(tm.Players, tournament.Player{Number: i + 1, Name: fmt.Sprintf("P%d", i+1), FirstRound: 1})
		}
		tm.Games = []tournament.Game{{Round: 1, Table: 1, Black: 1, White: 2, Result: res(40, 24)}, {Round: 1, Table: 2, Black: 3, White: 4, Result: res(34, 30)}}
		tm.FinalGames = []tournament.Game{
			{FinalRef: tournament.FinalRef{Match: "SF1", Game: 1, Seq: 1}, Black: 1, White: 2, Result: res(40, 24)},
			{FinalRef: tournament.FinalRef{Match: "SF2", Game: 1, Seq: 2}, Black: 3, White: 4, Result: res(32, 32)},
			{FinalRef: tournament.FinalRef{Match: "F", Game: 1, Seq: 3}, Black: 1, White: 3},
		}
		return tm
	}
	settings := func(edit func(*tournament.FinalRules)) func(*tournament.Tournament) error {
		return func(tm *tournament.Tournament) error {
			s := tm.Settings
			edit(&s.Final)
			_, err := tm.ChangeSettings(s)
			return err
		}
	}
	correct := func(ref tournament.GameRef, b, w int) func(*tournament.Tournament) error {
		return func(tm *tournament.Tournament) error {
			_, err := tm.RecordResult(ref, tournament.ResultInput{Black: b, White: w, HasScore: true}, true)
			return err
		}
	}
	for _, c := range []struct {
		name      string
		change    func(*tournament.Tournament) error
		unfounded string // the games named
		dropped   string // the games --rederive drops
	}{
		// More discs for 1: the order stays.
		{"a Swiss result, no order changed", correct(tournament.At(1, 1), 44, 20), "", ""},
		// 4 beats 3: 1 (1, 40), 4 (1, 34), 3 (0, 30), 2: SF2 is 4 v 3, 4
		// the higher seed, through on the draw; the final 1 v 4.
		{"a Swiss result, seeds 2 and 3 swapped", correct(tournament.At(1, 2), 30, 34), "SF2/1 F/1", "SF2/1 F/1"},
		// 2 beats 1 in SF1: the final is 2 v 3; SF2 rests on nothing of SF1.
		{"a semi-final's result", correct(tournament.GameRef{Match: "SF1", Game: 1}, 24, 40), "F/1", "F/1"},
		// A 3rd-place match added: no game played changes.
		{"a 3rd-place match added", settings(func(f *tournament.FinalRules) { f.Third = 1 }), "", ""},
		// One more game for a level match: SF2 is not decided, its
		// outcome (the higher seed's) changes, the final is not paired
		// yet; the game of SF2 stands, played as paired.
		{"level=game", settings(func(f *tournament.FinalRules) { f.Level = tournament.LevelGame }), "SF2/1 F/1", "F/1"},
		// Best of 3: neither semi-final is decided after one game.
		{"bestof=3", settings(func(f *tournament.FinalRules) { f.BestOf = 3 }), "SF1/1 SF2/1 F/1", "F/1"},
		// The top 2: a final 1 v 3 alone, the final paired (the same two,
		// the same seed order, game 1's lot the same); the semi-finals
		// are no match of it.
		{"top=2", settings(func(f *tournament.FinalRules) { f.Qualifiers = 2 }), "SF1/1 SF2/1", "SF1/1 SF2/1"},
		// The top 2 once 2 beat 1 in round 1: a final 2 v 3, the final
		// paired 1 v 3 too.
		{"top=2 and a Swiss result", func(tm *tournament.Tournament) error {
			if err := correct(tournament.At(1, 1), 24, 40)(tm); err != nil {
				return err
			}
			return settings(func(f *tournament.FinalRules) { f.Qualifiers = 2 })(tm)
		}, "SF1/1 SF2/1 F/1", "SF1/1 SF2/1 F/1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm := event()
			before := tm.Clone()
			if err := c.change(tm); err != nil {
				t.Fatal(err)
			}
			got, err := tm.Unfounded(before)
			if err != nil {
				t.Fatal(err)
			}
			if s := refs(got); s != c.unfounded {
				t.Errorf("unfounded %q; want %q", s, c.unfounded)
			}
			dropped, err := tm.Rederive(before)
			if err != nil {
				t.Fatal(err)
			}
			if s := refs(dropped); s != c.dropped {
				t.Errorf("dropped %q; want %q", s, c.dropped)
			}
			if err := tm.Validate(); err != nil {
				t.Errorf("after the games dropped: %v", err)
			}
		})
	}
}

// refs writes final games as "SF1/1 F/1".
func refs(games []tournament.Game) string {
	var out []string
	for _, g := range games {
		out = append(out, fmt.Sprintf("%s/%d", g.Code(), g.Game))
	}
	return strings.Join(out, " ")
}
