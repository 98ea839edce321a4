package app_test

import (
	"context"
	"fmt"
	"github.com/otd-project/otd/app"
	"reflect"
	"slices"
	"testing"

	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// TestFinalPhase plays a WOC final phase through the Director, each action
// undone once and done again (the undo must give back the exact earlier
// state). Six players, one round, tie-breaks points then discs, so the
// Swiss order is plain: 3 (1 point, 50 discs), 1 (40), 5 (33), then the
// 0-pointers 6 (31), 2 (24), 4 (14).
//   - The top 4 qualify: 3, 1, 5 and the 4th place, tied on 0 points across
//     it: a play-off between the two best of the tied by tie-break, 6 and 2
//     (RULES.md section 7). 2 wins it: seeds 3, 1, 5, 2.
//   - SF1 = seed 1 v 4 = 3 v 2, best of 3: a draw (1-1 in half-points), 3
//     wins (3-1: 2 can still draw level with one game left, 3 > 1 + 2 is
//     false), 3 wins (5-1): decided in 3 games with a draw.
//   - SF2 = 2 v 3 = 1 v 5: 1 wins twice (4-0 after 2 games, 4 > 0 + 2):
//     decided, no 3rd game.
//   - F = 3 v 1: 3 wins, 1 wins, a draw: 1.5-1.5, level; the rule set here
//     (level=seed; the WOC's is the discs) is the higher Swiss seed: 3.
//   - 3P = 2 v 5, one game: 5 wins.
//
// The final ranking: 3, 1, 5, 2, then the Swiss order: 6, 4.
func TestFinalPhase(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	s := tournament.DefaultSettings("Championship", 1)
	s.TieBreaks = scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs}
	s.Final = tournament.WOCFinal
	s.Final.Level = tournament.LevelSeed
	tm, err := d.Create(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	id := tm.ID
	var ops []tournament.Op
	for i := range 6 {
		in := tournament.PlayerInput{Name: fmt.Sprintf("P%d", i+1)}
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) })
	}
	ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}, {5, 6}}})
	})
	if _, _, err := d.DoForTest(ctx, id, ops...); err != nil {
		t.Fatal(err)
	}
	// act does op, undoes it (the state must come back exactly), does it again.
	act := func(name string, op tournament.Op) *tournament.Tournament {
		t.Helper()
		before, err := d.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := d.DoForTest(ctx, id, op); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, _, err := d.Undo(ctx, id); err != nil {
			t.Fatalf("undo of %s: %v", name, err)
		}
		if back, _ := d.Tournament(ctx, id); !reflect.DeepEqual(back, before) {
			t.Fatalf("undo of %s did not restore the state:\n%+v\nwant\n%+v", name, back, before)
		}
		after, _, err := d.DoForTest(ctx, id, op)
		if err != nil {
			t.Fatalf("%s again: %v", name, err)
		}
		return after
	}
	next := func(black map[string]int) *tournament.Tournament {
		return act("final next", func(t *tournament.Tournament) (tournament.Change, error) {
			return t.FinalNext(tournament.FinalOptions{Black: black})
		})
	}
	result := func(code string, n, b, w int) *tournament.Tournament {
		return act(fmt.Sprintf("result %s %d", code, n), func(t *tournament.Tournament) (tournament.Change, error) {
			return t.RecordResult(tournament.GameRef{Match: code, Game: n}, tournament.ResultInput{Black: b, White: w, HasScore: true}, false)
		})
	}
	if _, _, err := d.DoForTest(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.FinalNext(tournament.FinalOptions{})
	}); err == nil {
		t.Error("the final phase paired before the Swiss is over")
	}
	for _, r := range [][3]int{{1, 40, 24}, {2, 50, 14}, {3, 33, 31}} {
		act("swiss result", func(t *tournament.Tournament) (tournament.Change, error) {
			return t.RecordResult(tournament.At(1, r[0]), tournament.ResultInput{Black: r[1], White: r[2], HasScore: true}, false)
		})
	}
	tm = next(map[string]int{"PO": 2})
	ph, _ := tm.Phase("")
	if !slices.Equal(ph.Seeds, []int{3, 1, 5}) || !slices.Equal(ph.Tied, []int{6, 2, 4}) || len(ph.Matches) != 1 || ph.Matches[0].A != 6 || ph.Matches[0].B != 2 {
		t.Fatalf("qualification: seeds %v, tied %v, matches %+v", ph.Seeds, ph.Tied, ph.Matches)
	}
	result("PO", 1, 40, 24) // 2 black wins
	tm = next(map[string]int{"SF1": 3, "SF2": 1})
	ph, _ = tm.Phase("")
	if !slices.Equal(ph.Seeds, []int{3, 1, 5, 2}) {
		t.Fatalf("seeds after the play-off %v; want 3 1 5 2", ph.Seeds)
	}
	result("SF1", 1, 32, 32) // 3 black: a draw
	result("SF2", 1, 40, 24) // 1 black wins
	tm = next(nil)           // game 2: colours swap
	if g, _ := tm.FinalGame("SF1", 2); g.Black != 2 || g.White != 3 {
		t.Errorf("SF1 game 2: %d-%d; want 2-3, the colours of game 1 swapped", g.Black, g.White)
	}
	result("SF1", 2, 20, 44) // 3 white wins
	result("SF2", 2, 24, 40) // 1 white wins: SF2 decided
	tm = next(nil)
	if _, err := tm.FinalGame("SF2", 3); err == nil {
		t.Error("SF2, decided 4-0 after 2 games, got a 3rd game")
	}
	result("SF1", 3, 40, 24) // 3 black again (alternating) wins
	tm = next(map[string]int{"F": 3, "3P": 2})
	result("F", 1, 40, 24)  // 3 wins
	result("3P", 1, 20, 44) // 2 black, 5 white wins
	tm = next(nil)
	result("F", 2, 40, 24) // 1 black wins
	tm = next(nil)
	tm = result("F", 3, 32, 32) // a draw: 1.5-1.5
	ph, _ = tm.Phase("")
	f := ph.Matches[len(ph.Matches)-2]
	if f.Code != "F" || f.Winner != 3 || f.APoints != 3 || f.BPoints != 3 || f.How.String() != "level: the higher Swiss seed" {
		t.Errorf("the final: %+v", f)
	}
	order, over, err := tm.FinalRanking()
	if err != nil || !over || !slices.Equal(order, []int{3, 1, 5, 2, 6, 4}) {
		t.Errorf("final ranking %v (over %v, %v); want 3 1 5 2 6 4", order, over, err)
	}
	if _, _, err := d.DoForTest(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.FinalNext(tournament.FinalOptions{})
	}); err == nil {
		t.Error("final next after the end: no error")
	}
}

// TestCategoryWaitsForThePlayOff: a category's final phase is not played
// when one of its members is in the open semi-finals (RULES.md section 7);
// while a member plays the open play-off, which may take them there, it
// waits, and no game of it is paired. Six players, one round, tie-breaks
// points then discs, as in TestFinalPhase: 3, 1, 5 qualify, the play-off
// is 6 v 2 (0 points, 31 and 24 discs). The youth are 6 and 4 (born 2012
// and 2011), their final the top 2: 6 v 4. If 6 wins the play-off, 6 is a
// semi-finalist and the youth final is not played; if 2 wins it, the youth
// final is paired with the semi-finals.
func TestCategoryWaitsForThePlayOff(t *testing.T) {
	for _, tc := range []struct {
		name       string
		po         [2]int // the play-off game's discs, 6 black
		skipped    string
		youthFinal bool // the youth final paired after the play-off
	}{
		{name: "the youth wins the play-off", po: [2]int{40, 24}, skipped: "player 6 (P6), of the category, reached the open semi-finals"},
		{name: "the youth loses it", po: [2]int{24, 40}, youthFinal: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			d := app.New(app.Store{Storage: memstore.New()})
			s := tournament.DefaultSettings("Championship", 1)
			s.TieBreaks = scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs}
			s.Final = tournament.WOCFinal
			s.Categories = []tournament.Category{{Name: "youth", BornFrom: 2011, Final: tournament.FinalRules{Qualifiers: 2, BestOf: 1, Level: tournament.LevelSeed, Colour: tournament.ColourLot}}}
			tm, err := d.Create(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			var ops []tournament.Op
			for i := range 6 {
				in := tournament.PlayerInput{Name: fmt.Sprintf("P%d", i+1)}
				ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) })
			}
			for n, born := range map[int]int{6: 2012, 4: 2011} {
				ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
					return t.EnterPlayer(n, tournament.PlayerEntry{Born: new(tournament.BornIn(born))})
				})
			}
			ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
				return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}, {5, 6}}})
			})
			for _, r := range [][3]int{{1, 40, 24}, {2, 50, 14}, {3, 33, 31}} {
				ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
					return t.RecordResult(tournament.At(1, r[0]), tournament.ResultInput{Black: r[1], White: r[2], HasScore: true}, false)
				})
			}
			next := func(t *tournament.Tournament) (tournament.Change, error) {
				return t.FinalNext(tournament.FinalOptions{Black: map[string]int{"PO": 6}})
			}
			if tm, _, err = d.DoForTest(ctx, tm.ID, append(ops, next)...); err != nil {
				t.Fatal(err)
			}
			if len(tm.FinalGames) != 1 || tm.FinalGames[0].Match != "PO" {
				t.Fatalf("final start paired %v; want the play-off alone, the youth final waiting", tm.FinalGames)
			}
			youth, _ := tm.Phase("youth")
			if want := "player 6 (P6), of the category, plays the open PO, which may take them to the semi-finals"; youth.Waiting.String() != want || len(youth.Matches) != 0 {
				t.Errorf("the youth phase during the play-off: waiting %q, matches %v; want %q, none", youth.Waiting, youth.Matches, want)
			}
			tm, _, err = d.DoForTest(ctx, tm.ID, func(t *tournament.Tournament) (tournament.Change, error) {
				return t.RecordResult(tournament.GameRef{Match: "PO", Game: 1}, tournament.ResultInput{Black: tc.po[0], White: tc.po[1], HasScore: true}, false)
			}, func(t *tournament.Tournament) (tournament.Change, error) {
				return t.FinalNext(tournament.FinalOptions{})
			})
			if err != nil {
				t.Fatal(err)
			}
			youth, _ = tm.Phase("youth")
			_, err = tm.FinalGame("youth:F", 1)
			if youth.Skipped.String() != tc.skipped || !youth.Waiting.IsZero() || (err == nil) != tc.youthFinal {
				t.Errorf("after the play-off: skipped %q, waiting %q, youth:F game 1 paired %v; want skipped %q, paired %v",
					youth.Skipped, youth.Waiting, err == nil, tc.skipped, tc.youthFinal)
			}
		})
	}
}

// TestFinalWentThrough: a final game drawn on the board may say who went
// through (Result.Loser: the colour that did not), as a file records it
// (WOC 2016's women's semi-final, line 685: 32-32 written '<', the lower
// seed, white, through to the final). Two players, one round: 1 beats 2, so
// 1 is seed 1; a top-2 single-game final, 2 black against 1.
//   - Drawn, nothing recorded: level, the rule (the higher seed) gives 1.
//   - Drawn, black (2) did not go through: 1 wins, as recorded.
//   - Drawn, white (1) did not go through: 2 wins, against the seed rule.
//
// Validate takes such a draw in a final game only: a Swiss game's normal
// result has no loser, nor has a final game won on the board.
func TestFinalWentThrough(t *testing.T) {
	base := func(r tournament.Result) *tournament.Tournament {
		tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Final", 1)}
		tm.Final = tournament.FinalRules{Qualifiers: 2, BestOf: 1, Level: tournament.LevelSeed, Colour: tournament.ColourLot}
		tm.Players = []tournament.Player{{Number: 1, Name: "ONE", FirstRound: 1}, {Number: 2, Name: "TWO", FirstRound: 1}}
		tm.Games = []tournament.Game{{Round: 1, Table: 1, Black: 1, White: 2, Result: &tournament.Result{Black: 40, White: 24, Kind: tournament.Normal}}}
		tm.FinalGames = []tournament.Game{{FinalRef: tournament.FinalRef{Match: "F", Game: 1, Seq: 1}, Black: 2, White: 1, Result: &r}}
		return tm
	}
	for _, tc := range []struct {
		loser  tournament.Color
		winner int
		how    string
	}{
		{"", 1, "level: the higher Swiss seed"},
		{tournament.Black, 1, "level: went through as recorded"},
		{tournament.White, 2, "level: went through as recorded"},
	} {
		tm := base(tournament.Result{Black: 32, White: 32, Kind: tournament.Normal, Loser: tc.loser})
		if err := tm.Validate(); err != nil {
			t.Errorf("loser %q: %v", tc.loser, err)
		}
		ph, err := tm.Phase("")
		if err != nil {
			t.Fatal(err)
		}
		if m := ph.Matches[0]; m.Winner != tc.winner || m.How.String() != tc.how || m.APoints != scoring.Half || m.BPoints != scoring.Half {
			t.Errorf("loser %q: winner %d (%s), %v-%v; want %d (%s), 0.5-0.5", tc.loser, m.Winner, m.How, m.APoints, m.BPoints, tc.winner, tc.how)
		}
	}
	won := base(tournament.Result{Black: 40, White: 24, Kind: tournament.Normal, Loser: tournament.White})
	if err := won.Validate(); err == nil {
		t.Errorf("a final game won on the board with a loser: valid")
	}
	// A Swiss game tied on the board may say who lost it too (a Japanese
	// .ELO file's "(32)>(32)"): the win is the other colour's.
	swiss := base(tournament.Result{Black: 32, White: 32, Kind: tournament.Normal})
	swiss.Games[0].Result = &tournament.Result{Black: 32, White: 32, Kind: tournament.Normal, Loser: tournament.Black}
	if err := swiss.Validate(); err != nil {
		t.Errorf("a Swiss tie with a loser: %v", err)
	}
	rows, err := swiss.Standings(1)
	if err != nil || rows[0].Player != 2 || rows[0].Points != scoring.Point || rows[0].Discs != 32 || rows[1].Points != 0 {
		t.Errorf("a Swiss tie that black lost: %+v, %v; want player 2 first with 1 point and 32 discs, player 1 no point", rows, err)
	}
}
