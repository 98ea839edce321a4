package app_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/tournament"
)

var venueAt = time.Date(2026, 11, 21, 14, 2, 11, 0, time.UTC)

// venueEvent makes a tournament "Venue" of 4 players, round 1 paired 1-2
// and 3-4 (the venue approval as given), and returns its id and round 1's
// tokens by table.
func venueEvent(t *testing.T, d *app.Director, approval tournament.VenueApproval) (int64, []app.ReportLink) {
	return namedVenueEvent(t, d, "Venue", approval)
}

// namedVenueEvent is venueEvent's tournament, named name.
func namedVenueEvent(t *testing.T, d *app.Director, name string, approval tournament.VenueApproval) (int64, []app.ReportLink) {
	t.Helper()
	ctx := context.Background()
	s := tournament.DefaultSettings(name, 3)
	s.VenueApproval = approval
	tm, err := d.Create(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.DoForTest(ctx, tm.ID, append(addPlayers(4), func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}}})
	})...); err != nil {
		t.Fatal(err)
	}
	links, err := d.ReportLinks(ctx, tm.ID, 1)
	if err != nil || len(links) != 2 {
		t.Fatalf("ReportLinks: %+v, %v; want 2 games", links, err)
	}
	return tm.ID, links
}

// sent is one report sent from a phone.
type sent struct {
	side    tournament.Color
	in      app.ReportInput
	address string
}

func tokenOf(l app.ReportLink, side tournament.Color, short bool) string {
	k := l.Black
	if side == tournament.White {
		k = l.White
	}
	if short {
		return strings.ToLower(k.Printed()) // as a phone may type it
	}
	return k.Long
}

func score(b, w int) app.ReportInput { return app.ReportInput{Black: b, White: w} }

// TestReportFlow: the venue's rules for the reports of one game (table 1),
// as issue 31 sets them, on the store in memory.
func TestReportFlow(t *testing.T) {
	B, W := tournament.Black, tournament.White
	for _, tc := range []struct {
		name     string
		approval tournament.VenueApproval
		sent     []sent
		state    app.TableState
		result   string // recorded, "" for none
		reports  int    // left in the queue
		same     bool   // disputed for one address
	}{
		{"both agree: recorded", "", []sent{{B, score(40, 24), "10.0.0.1"}, {W, score(40, 24), "10.0.0.2"}}, app.Recorded, "40-24", 0, false},
		{"34-29 is 35-29 (empties to the winner)", "", []sent{{B, score(34, 29), "10.0.0.1"}, {W, score(35, 29), "10.0.0.2"}}, app.Recorded, "35-29", 0, false},
		{"a tie with empties is 32-32", "", []sent{{B, score(31, 31), "10.0.0.1"}, {W, score(32, 32), "10.0.0.2"}}, app.Recorded, "32-32", 0, false},
		{"33-30 is 34-30, not 33-31: disputed", "", []sent{{B, score(33, 30), "10.0.0.1"}, {W, score(33, 31), "10.0.0.2"}}, app.Disputed, "", 2, false},
		{"they differ: disputed", "", []sent{{B, score(40, 24), "10.0.0.1"}, {W, score(24, 40), "10.0.0.2"}}, app.Disputed, "", 2, false},
		{"both from one address: disputed", "", []sent{{B, score(40, 24), "10.0.0.1"}, {W, score(40, 24), "10.0.0.1"}}, app.Disputed, "", 2, true},
		{"one report waits", "", []sent{{W, score(40, 24), "10.0.0.2"}}, app.OneReport, "", 1, false},
		{"a call: in the queue", "", []sent{{B, app.ReportInput{Call: true}, "10.0.0.1"}}, app.Called, "", 1, false},
		{"a call and a score: in the queue", "", []sent{{B, score(40, 24), "10.0.0.1"}, {W, app.ReportInput{Call: true}, "10.0.0.2"}}, app.Called, "", 2, false},
		{"held for the director", tournament.ApproveDirector, []sent{{B, score(40, 24), "10.0.0.1"}, {W, score(40, 24), "10.0.0.2"}}, app.Held, "", 2, false},
		{"re-reported before recording: replaced", "", []sent{{B, score(40, 24), "10.0.0.1"}, {B, score(24, 40), "10.0.0.1"}, {W, score(24, 40), "10.0.0.2"}}, app.Recorded, "24-40", 0, false},
		{"held, then changed: disputed", tournament.ApproveDirector, []sent{{B, score(40, 24), "10.0.0.1"}, {W, score(40, 24), "10.0.0.2"}, {W, score(30, 34), "10.0.0.2"}}, app.Disputed, "", 2, false},
		{"the short token typed", "", []sent{{B, score(40, 24), "short"}, {W, score(40, 24), "10.0.0.2"}}, app.Recorded, "40-24", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			d := app.New(app.Store{Storage: memstore.New()})
			id, links := venueEvent(t, d, tc.approval)
			var last app.Reporting
			for i, s := range tc.sent {
				var err error
				last, err = d.Report(ctx, id, tokenOf(links[0], s.side, s.address == "short"), s.in, s.address, venueAt.Add(time.Duration(i)*time.Minute))
				if err != nil {
					t.Fatalf("report %d: %v", i+1, err)
				}
			}
			if last.Table.State != tc.state || len(last.Table.Reports) != tc.reports || last.Table.SameAddress != tc.same {
				t.Errorf("after the reports: %s, %d reports, same address %v; want %s, %d, %v", last.Table.State, len(last.Table.Reports), last.Table.SameAddress, tc.state, tc.reports, tc.same)
			}
			tables, err := d.VenueTables(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if tables[0].State != tc.state || len(tables[0].Reports) != tc.reports || tables[1].State != app.NoReport {
				t.Errorf("VenueTables: %s with %d reports, table 2 %s; want %s with %d, table 2 no report", tables[0].State, len(tables[0].Reports), tables[1].State, tc.state, tc.reports)
			}
			tm, log, err := d.Log(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			g := tm.Round(1)[0]
			got := ""
			if g.Result != nil {
				got = fmt.Sprintf("%d-%d", g.Result.Black, g.Result.White)
			}
			if got != tc.result {
				t.Errorf("recorded %q; want %q", got, tc.result)
			}
			results := 0
			for _, e := range log {
				if e.Action == tournament.ActResult {
					results++
				}
			}
			if want := min(len(tc.result), 1); results != want {
				t.Errorf("%d result entries in the log; want %d", results, want)
			}
		})
	}
}

// TestReportRecordedSaysWho: a result recorded from two reports is one
// 'result' entry whose actor names both sides, their addresses and times;
// approved by the director, the console session too.
func TestReportRecordedSaysWho(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		approval tournament.VenueApproval
		want     string
	}{
		{"", "report: black from 10.0.0.1 at 14:02:11 (40-24), white from 10.0.0.2 at 14:02:40 (40-24)"},
		{tournament.ApproveDirector, "report: black from 10.0.0.1 at 14:02:11 (40-24), white from 10.0.0.2 at 14:02:40 (40-24); approved by console session 3f2a"},
	} {
		d := app.New(app.Store{Storage: memstore.New()})
		id, links := venueEvent(t, d, tc.approval)
		if _, err := d.Report(ctx, id, links[0].Black.Long, score(40, 24), "10.0.0.1", venueAt); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Report(ctx, id, links[0].White.Long, score(40, 24), "10.0.0.2", venueAt.Add(29*time.Second)); err != nil {
			t.Fatal(err)
		}
		if tc.approval == tournament.ApproveDirector {
			console := d.As(tournament.Actor{Kind: tournament.ByConsole, Session: "3f2a"})
			if _, err := console.Approve(ctx, id, tournament.At(1, 1), ""); err != nil {
				t.Fatal(err)
			}
		}
		_, log, err := d.Log(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		e := log[len(log)-1]
		if e.Action != tournament.ActResult || e.Actor.String() != tc.want {
			t.Errorf("approval %q: the last entry %s by %q; want a result by %q", tc.approval, e.Action, e.Actor, tc.want)
		}
	}
}

// TestRecordOverReports: the director enters the result of a game its
// players reported (both from one address, one with its moves; a call):
// the result's actor is the console session, keeping the reports (none
// chosen), and they are dropped; the log says it.
func TestRecordOverReports(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	console := d.As(tournament.Actor{Kind: tournament.ByConsole, Session: "9063", Login: "password from 127.0.0.1"})
	id, links := venueEvent(t, d, "")
	const wipeout = "d3c3b3d2e1d6d7e3f4" // engine/transcript's: 13-0, 64-0 recorded
	if _, err := d.Report(ctx, id, links[0].Black.Long, app.ReportInput{Black: 13, White: 0, Moves: wipeout}, "10.0.0.1", venueAt); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Report(ctx, id, links[0].White.Long, score(64, 0), "10.0.0.1", venueAt.Add(29*time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Report(ctx, id, links[1].White.Long, app.ReportInput{Call: true}, "10.0.0.3", venueAt); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		table int
		want  string
	}{
		{1, "console session 9063 (password from 127.0.0.1) entered the result; reports: black from 10.0.0.1 at 14:02:11 (13-0 with moves), white from 10.0.0.1 at 14:02:40 (64-0)"},
		{2, "console session 9063 (password from 127.0.0.1) entered the result; reports: white from 10.0.0.3 at 14:02:11 (call)"},
	} {
		if _, err := console.Record(ctx, id, tournament.At(1, tc.table), tournament.ResultInput{Black: 40, White: 24, HasScore: true}); err != nil {
			t.Fatal(err)
		}
		_, log, err := d.Log(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got := log[len(log)-1].Actor.String(); got != tc.want {
			t.Errorf("table %d: the result's actor %q; want %q", tc.table, got, tc.want)
		}
	}
	if tables, _ := d.VenueTables(ctx, id); len(tables[0].Reports)+len(tables[1].Reports) != 0 {
		t.Errorf("the reports are kept once the results are entered: %+v", tables)
	}
}

// TestApproveReject: the director approves a side's report of a dispute, or
// both when they agree (refused when they differ), and rejects reports,
// which drops them.
func TestApproveReject(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	console := d.As(tournament.Actor{Kind: tournament.ByConsole, Session: "s1"})
	id, links := venueEvent(t, d, "")
	ref := tournament.At(1, 1)
	if _, err := console.Approve(ctx, id, ref, ""); !errors.Is(err, app.ErrNoReports) {
		t.Errorf("Approve of no reports: %v; want ErrNoReports", err)
	}
	d.Report(ctx, id, links[0].Black.Long, score(40, 24), "10.0.0.1", venueAt)
	d.Report(ctx, id, links[0].White.Long, score(24, 40), "10.0.0.2", venueAt)
	if _, err := console.Approve(ctx, id, ref, ""); !errors.Is(err, app.ErrReportsDiffer) {
		t.Errorf("Approve of a dispute without a side: %v; want ErrReportsDiffer", err)
	}
	if err := console.Reject(ctx, id, ref); err != nil {
		t.Fatal(err)
	}
	if tables, _ := d.VenueTables(ctx, id); tables[0].State != app.NoReport {
		t.Errorf("after Reject: %s; want no report", tables[0].State)
	}
	if err := console.Reject(ctx, id, ref); !errors.Is(err, app.ErrNoReports) {
		t.Errorf("Reject of no reports: %v; want ErrNoReports", err)
	}
	d.Report(ctx, id, links[0].Black.Long, score(40, 24), "10.0.0.1", venueAt)
	d.Report(ctx, id, links[0].White.Long, score(24, 40), "10.0.0.2", venueAt)
	v, err := console.Approve(ctx, id, ref, tournament.White)
	if err != nil || v.State != app.Recorded || v.Game.Result == nil || v.Game.Result.White != 40 {
		t.Fatalf("Approve white's: %+v, %v; want 24-40 recorded", v, err)
	}
	_, log, _ := d.Log(ctx, id)
	if got, want := log[len(log)-1].Actor.String(), "report: black from 10.0.0.1 at 14:02:11 (40-24), white from 10.0.0.2 at 14:02:11 (24-40, chosen); approved by console session s1"; got != want {
		t.Errorf("the result's actor %q; want %q", got, want)
	}
}

// TestTokenLife: a token reports its own game and side, nothing else; once
// its game is recorded it is refused with ErrRecorded (the web's "recorded:
// only the director can change it now"), Reporting then giving the game as
// recorded (what the phone shows), an undo of the result revives it,
// and re-pairing the round kills the old ones.
func TestTokenLife(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	id, links := venueEvent(t, d, "")
	r, err := d.Reporting(ctx, id, links[1].White.Short)
	if err != nil || r.Side != tournament.White || r.Table.Game.Table != 2 || r.White.Number != 4 || r.Black.Number != 3 || r.Reported != nil {
		t.Fatalf("Reporting of table 2 white: %+v, %v", r, err)
	}
	// Game A's token does nothing to game B.
	if _, err := d.Report(ctx, id, links[1].Black.Long, score(40, 24), "10.0.0.3", venueAt); err != nil {
		t.Fatal(err)
	}
	if tables, _ := d.VenueTables(ctx, id); tables[0].State != app.NoReport || tables[1].State != app.OneReport || tables[1].Reports[0].Side != tournament.Black {
		t.Errorf("after table 2 black's report: %+v", tables)
	}
	for _, bad := range []string{"", "0000000000000", links[0].Black.Long[:12], links[0].Black.Long + "0", "UUUUUUUUUUUUU"} {
		if _, err := d.Report(ctx, id, bad, score(40, 24), "10.0.0.3", venueAt); !errors.Is(err, app.ErrUnknownToken) {
			t.Errorf("token %q: %v; want ErrUnknownToken", bad, err)
		}
	}
	d.Report(ctx, id, links[0].Black.Long, score(40, 24), "10.0.0.1", venueAt)
	d.Report(ctx, id, links[0].White.Long, score(40, 24), "10.0.0.2", venueAt)
	for _, tok := range []string{links[0].Black.Long, links[0].White.Short} {
		if _, err := d.Report(ctx, id, tok, score(24, 40), "10.0.0.2", venueAt); !errors.Is(err, app.ErrRecorded) || !strings.Contains(err.Error(), "recorded: only the director can change it now") {
			t.Errorf("a report after recording: %v; want ErrRecorded", err)
		}
		if r, err := d.Reporting(ctx, id, tok); !errors.Is(err, app.ErrRecorded) || r.Table.State != app.Recorded || r.Table.Game.Table != 1 ||
			r.Table.Game.Result == nil || r.Table.Game.Result.Black != 40 || r.Black.Number != 1 || r.Side == "" {
			t.Errorf("Reporting after recording: %+v, %v; want ErrRecorded with the game recorded 40-24", r, err)
		}
	}
	if _, _, err := d.Undo(ctx, id); err != nil {
		t.Fatal(err)
	}
	if r, err := d.Reporting(ctx, id, links[0].Black.Long); err != nil || r.Table.State != app.NoReport {
		t.Errorf("after the result's undo: %+v, %v; want the token to work, no report", r, err)
	}
	// Re-pair round 1 otherwise: the old tokens are dead, the reports made
	// for the old pairing void.
	if _, err := d.Unpair(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.DoForTest(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 3}, {2, 4}}})
	}); err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		for _, tok := range []string{l.Black.Long, l.Black.Short, l.White.Long, l.White.Short} {
			if _, err := d.Report(ctx, id, tok, score(40, 24), "10.0.0.1", venueAt); !errors.Is(err, app.ErrUnknownToken) {
				t.Errorf("an old token after re-pairing: %v; want ErrUnknownToken", err)
			}
		}
	}
	fresh, err := d.ReportLinks(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if tables, _ := d.VenueTables(ctx, id); tables[1].State != app.NoReport {
		t.Errorf("table 2 re-paired keeps the old pairing's report: %+v", tables[1])
	}
	if _, err := d.Report(ctx, id, fresh[1].White.Long, score(40, 24), "10.0.0.4", venueAt); err != nil {
		t.Fatal(err)
	}
	if tables, _ := d.VenueTables(ctx, id); len(tables[1].Reports) != 1 || tables[1].Reports[0].Side != tournament.White {
		t.Errorf("table 2 re-paired: %+v; want white's new report alone", tables[1])
	}
}

// TestRepairKeepsUnchangedCodes: a code is tied to its game's table, side
// and players (docs/venue.md, 'otd round slips --help'): the round paired
// anew with table 1 as it was and table 2's colours swapped keeps table 1's
// codes and changes table 2's.
func TestRepairKeepsUnchangedCodes(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	id, old := venueEvent(t, d, "")
	if _, err := d.Unpair(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.DoForTest(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {4, 3}}})
	}); err != nil {
		t.Fatal(err)
	}
	fresh, err := d.ReportLinks(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if fresh[0].Black != old[0].Black || fresh[0].White != old[0].White {
		t.Errorf("table 1, paired as it was: its codes changed")
	}
	for _, k := range []app.Token{fresh[1].Black, fresh[1].White} {
		if k == old[1].Black || k == old[1].White {
			t.Errorf("table 2, its colours swapped: a code kept")
		}
	}
}

// TestReportMoves: moves are replayed at once as 'otd result --moves' does:
// moves that contradict the score are refused with the replay's reason
// (*MovesError), moves that give it are kept with the result.
func TestReportMoves(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	id, links := venueEvent(t, d, "")
	// f5d6c3d3c4f4f6f3e6e7d7c5b6: a legal start that does not end the game.
	_, err := d.Report(ctx, id, links[0].Black.Long, app.ReportInput{Black: 40, White: 24, Moves: "f5d6c3d3c4f4"}, "10.0.0.1", venueAt)
	var me *app.MovesError
	if !errors.As(err, &me) || me.Fault() != app.MovesUnfinished || !strings.Contains(me.Fact(), "before the end") || strings.Contains(me.Fact(), "--") {
		t.Errorf("moves that stop before the end: %v; want a *MovesError saying so", err)
	}
	_, err = d.Report(ctx, id, links[0].Black.Long, app.ReportInput{Black: 40, White: 24, Moves: "f5f5"}, "10.0.0.1", venueAt)
	if !errors.As(err, &me) || me.Fault() != app.MovesIllegal {
		t.Errorf("moves that do not replay: %v; want a *MovesError", err)
	}
	if _, err := d.Report(ctx, id, links[0].Black.Long, score(60, 60), "10.0.0.1", venueAt); err == nil {
		t.Error("a score of 120 discs accepted")
	}
	if tables, _ := d.VenueTables(ctx, id); tables[0].State != app.NoReport {
		t.Errorf("refused reports are kept: %+v", tables[0])
	}
	// A whole game: the shortest wipe-out, black wins 13-0 (64-0 recorded).
	const wipeout = "d3c3b3d2e1d6d7e3f4" // engine/transcript's
	if _, err := d.Report(ctx, id, links[0].Black.Long, app.ReportInput{Black: 13, White: 0, Moves: wipeout}, "10.0.0.1", venueAt); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Report(ctx, id, links[0].White.Long, score(64, 0), "10.0.0.2", venueAt); err != nil {
		t.Fatal(err)
	}
	tm, _ := d.Tournament(ctx, id)
	if r := tm.Round(1)[0].Result; r == nil || r.Black != 64 || r.White != 0 || r.Moves != wipeout {
		t.Errorf("recorded %+v; want 64-0 with its moves", r)
	}
}

// TestReportFinalGames: the final phase's games, the open's and a
// category's, have tokens and are reported as a round's.
func TestReportFinalGames(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	s := tournament.DefaultSettings("Championship", 1)
	s.Final = tournament.FinalRules{Qualifiers: 2, BestOf: 1, Level: tournament.LevelSeed, Colour: tournament.ColourLot}
	c := tournament.CategoryFinal
	c.Qualifiers = 2
	s.Categories = []tournament.Category{{Name: "Women", Final: c}}
	tm, err := d.Create(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	ops := addPlayers(4)
	women := []string{"Women"}
	for _, n := range []int{3, 4} {
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
			return t.EnterPlayer(n, tournament.PlayerEntry{Categories: &women})
		})
	}
	ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 3}, {2, 4}}})
	}, result(1, 1, 40, 24), result(1, 2, 40, 24), func(t *tournament.Tournament) (tournament.Change, error) {
		return t.FinalNext(tournament.FinalOptions{})
	})
	if _, _, err := d.DoForTest(ctx, tm.ID, ops...); err != nil {
		t.Fatal(err)
	}
	links, err := d.ReportLinks(ctx, tm.ID, 0)
	if err != nil || len(links) != 2 {
		t.Fatalf("ReportLinks of the final phase: %+v, %v; want 2 games", links, err)
	}
	for i, l := range links {
		d.Report(ctx, tm.ID, l.Black.Long, score(20, 40), "10.0.0.1", venueAt)
		// The round's two tables (recorded), then the final games open.
		if tables, _ := d.VenueTables(ctx, tm.ID); len(tables) != 4-i || tables[2].State != app.OneReport || tables[2].Game.Ref() != l.Game.Ref() {
			t.Errorf("%s after black's report: %+v", l.Game.Where(), tables)
		}
		if _, err := d.Report(ctx, tm.ID, l.White.Short, score(20, 44), "10.0.0.2", venueAt); err != nil {
			t.Fatal(err)
		}
	}
	tm, _ = d.Tournament(ctx, tm.ID)
	for _, g := range tm.FinalGames {
		if g.Result == nil || g.Result.Black != 20 || g.Result.White != 44 {
			t.Errorf("%s: %+v; want 20-44", g.Where(), g.Result)
		}
	}
	if tm.FinalGames[1].Category != "Women" {
		t.Errorf("the second final game is %+v; want the women's", tm.FinalGames[1])
	}
}

// TestDirectorPassword: a password of 8 to 72 bytes, kept as a
// hash: the right one passes, another fails, none set says so; the audit
// trail says it was set and holds neither password nor hash.
func TestDirectorPassword(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	id, _ := venueEvent(t, d, "")
	if err := d.CheckDirectorPassword(ctx, id, "anything"); !errors.Is(err, app.ErrNoDirectorPassword) {
		t.Errorf("no password set: %v", err)
	}
	if err := d.SetDirectorPassword(ctx, id, "short"); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("a password of 5 characters: %v; want refused", err)
	}
	// bcrypt reads 72 bytes: 73 are refused with otd's words, 72 kept.
	long := strings.Repeat("é", 36) // 72 bytes
	if err := d.SetDirectorPassword(ctx, id, long+"x"); !errors.Is(err, tournament.ErrInvalid) || !strings.Contains(err.Error(), "73 bytes, it must have 8 to 72") {
		t.Errorf("a password of 73 bytes: %v; want refused as invalid, saying the bounds", err)
	}
	if err := d.SetDirectorPassword(ctx, id, long); err != nil {
		t.Errorf("a password of 72 bytes: %v", err)
	}
	if err := d.SetDirectorPassword(ctx, id, "correct horse"); err != nil {
		t.Fatal(err)
	}
	if err := d.CheckDirectorPassword(ctx, id, "correct horse"); err != nil {
		t.Errorf("the password: %v", err)
	}
	if err := d.CheckDirectorPassword(ctx, id, "correct horsE"); !errors.Is(err, app.ErrWrongPassword) {
		t.Errorf("another password: %v; want ErrWrongPassword", err)
	}
	if ok, err := d.HasDirectorPassword(ctx, id); !ok || err != nil {
		t.Errorf("HasDirectorPassword: %v, %v", ok, err)
	}
	_, log, _ := d.Log(ctx, id)
	e := log[len(log)-1]
	if e.Action != tournament.ActDirectorPassword || e.Subject != "director password set" || strings.Contains(fmt.Sprintf("%+v", e), "horse") || strings.Contains(fmt.Sprintf("%+v", e), "$2") {
		t.Errorf("the last entry %+v; want 'director password set', no password", e)
	}
	// Not undone: undo reverts the change before it.
	if u, _, err := d.WouldUndo(ctx, id); err != nil || u.Action == tournament.ActDirectorPassword {
		t.Errorf("undo would revert %+v, %v; want the pairing", u, err)
	}
}

// TestSlipStubs: each slip of a round has a stub per side: the QR code's
// URL by the long token, the printed code and its URL by the short one.
func TestSlipStubs(t *testing.T) {
	d := app.New(app.Store{Storage: memstore.New()})
	id, links := venueEvent(t, d, "")
	tm, err := d.Tournament(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	page, err := app.SlipsPage(tm, app.SlipsOptions{Round: app.SlipsRound(tm, app.SlipsOptions{}), PerPage: 2, URL: "http://10.0.0.2:8080/", Links: links})
	if err != nil {
		t.Fatal(err)
	}
	slips := page.Slips.Sheets[0]
	if len(slips) != 2 {
		t.Fatalf("%d slips, want 2", len(slips))
	}
	for i, sl := range slips {
		for j, k := range []app.Token{links[i].Black, links[i].White} {
			want := app.PageStub{Side: []string{"Black", "White"}[j], Player: []string{sl.Black, sl.White}[j],
				URL: "http://10.0.0.2:8080/r/" + k.Long, ShortURL: "http://10.0.0.2:8080/r/" + k.Long[:13], Code: k.Long[:4] + "-" + k.Long[4:8] + "-" + k.Long[8:13]}
			if len(sl.Stubs) != 2 || sl.Stubs[j] != want {
				t.Errorf("table %d's stubs %+v, want %d: %+v", sl.Table, sl.Stubs, j, want)
			}
		}
	}
}
