package app_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/tournament"
)

// engineEvent creates a tournament of built-in engines (random players,
// seeded) and the people named, with round 1 paired.
func engineEvent(t *testing.T, d *app.Director, name string, engines int, people ...string) *tournament.Tournament {
	t.Helper()
	ctx := context.Background()
	tm, err := d.Create(ctx, tournament.DefaultSettings(name, 2))
	if err != nil {
		t.Fatal(err)
	}
	var ops []tournament.Op
	for i := range engines {
		in := tournament.PlayerInput{Name: fmt.Sprintf("Random %d", i+1), Engine: fmt.Sprintf("builtin:random:%d", i+1), Rating: 1500 + i}
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) })
	}
	for _, n := range people {
		in := tournament.PlayerInput{Name: n, Rating: 1000}
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) })
	}
	tm, _, err = d.DoForTest(ctx, tm.ID, append(ops, pair)...)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// checkPlayed checks that every engine-versus-engine game of round 1 has a
// result whose transcript replays legally to the score recorded, and that
// every game with a person has none.
func checkPlayed(t *testing.T, tm *tournament.Tournament) (played int) {
	t.Helper()
	return checkRound(t, tm, 1)
}

// checkRound is checkPlayed for round r.
func checkRound(t *testing.T, tm *tournament.Tournament, r int) (played int) {
	t.Helper()
	for _, g := range tm.Round(r) {
		if g.IsBye() {
			continue
		}
		if tm.Players[g.Black-1].Engine == "" || tm.Players[g.White-1].Engine == "" {
			if g.Result != nil {
				t.Errorf("table %d, with a person, was played: %+v", g.Table, g.Result)
			}
			continue
		}
		if g.Result == nil {
			t.Errorf("table %d not recorded", g.Table)
			continue
		}
		played++
		game, err := transcript.ParseMoves(g.Result.Moves)
		if err != nil {
			t.Fatalf("table %d: moves %q: %v", g.Table, g.Result.Moves, err)
		}
		rep := transcript.Replay(game)
		if !rep.Legal() || !rep.Over || rep.Score.Black != g.Result.Black || rep.Score.White != g.Result.White {
			t.Errorf("table %d: the transcript replays to %v (legal %v, over %v); recorded %d-%d",
				g.Table, rep.Score, rep.Legal(), rep.Over, g.Result.Black, g.Result.White)
		}
	}
	return played
}

var minute = engine.TimeControl{Base: time.Minute}

// TestPlayRound plays a round of built-in engines with a person among them:
// every engine game is recorded with a transcript that replays to its score,
// the person's game is left, and a second call plays nothing.
func TestPlayRound(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 6, "Ann Person", "Bob Person")
	rep, err := d.PlayRound(ctx, tm.ID, app.PlayOptions{Time: minute, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	tm, _ = d.Tournament(ctx, tm.ID)
	if played := checkPlayed(t, tm); rep.Played != played || rep.Played+len(rep.Humans) != 4 || rep.Round != 1 {
		t.Errorf("report %+v; %d games recorded, 4 tables", rep, played)
	}
	again, err := d.PlayRound(ctx, tm.ID, app.PlayOptions{Time: minute})
	if err != nil || again.Played != 0 || again.Recorded != rep.Played {
		t.Errorf("a second PlayRound: %+v, %v; want nothing played, %d recorded before", again, err, rep.Played)
	}
}

// TestPlayRoundKeepsItsTournament: another tournament created, made current
// and paired while the round is played gets nothing; every game goes to the
// tournament named.
func TestPlayRoundKeepsItsTournament(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	a := engineEvent(t, d, "A", 4)
	var once sync.Once
	var b *tournament.Tournament
	o := app.PlayOptions{Time: minute, Progress: func(e app.GameEvent) {
		once.Do(func() { b = engineEvent(t, d, "B", 4) })
	}}
	rep, err := d.PlayRound(ctx, a.ID, o)
	if err != nil || rep.Played != 2 {
		t.Fatalf("PlayRound(A) = %+v, %v; want 2 games played", rep, err)
	}
	if cur, _ := d.Current(ctx); cur != b.ID {
		t.Fatalf("the current tournament is %d; want B, %d", cur, b.ID)
	}
	a, _ = d.Tournament(ctx, a.ID)
	b, _ = d.Tournament(ctx, b.ID)
	if n := checkPlayed(t, a); n != 2 {
		t.Errorf("A has %d games recorded; want 2", n)
	}
	for _, g := range b.Games {
		if g.Result != nil {
			t.Errorf("B's table %d got a result: %+v", g.Table, g.Result)
		}
	}
}

// TestPlayRoundStopped: a round stopped as its first game starts records
// nothing and says how to go on; the next call plays every game.
func TestPlayRoundStopped(t *testing.T) {
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 4)
	ctx, cancel := context.WithCancel(context.Background())
	o := app.PlayOptions{Time: minute, Progress: func(e app.GameEvent) {
		if !e.Done {
			cancel()
		}
	}}
	rep, err := d.PlayRound(ctx, tm.ID, o)
	if !errors.Is(err, context.Canceled) || rep.Played != 0 {
		t.Fatalf("a stopped round: %+v, %v; want nothing played, context.Canceled", rep, err)
	}
	if got, _ := d.Tournament(context.Background(), tm.ID); checkPlayedNone(got) != 0 {
		t.Fatal("a stopped round recorded a game")
	}
	rep, err = d.PlayRound(context.Background(), tm.ID, app.PlayOptions{Time: minute})
	if err != nil || rep.Played != 2 {
		t.Fatalf("the round played again: %+v, %v; want 2 games", rep, err)
	}
}

func checkPlayedNone(tm *tournament.Tournament) (n int) {
	for _, g := range tm.Games {
		if g.Result != nil {
			n++
		}
	}
	return n
}

// TestPlayRoundRepaired: a round paired again while its game is played
// (undone and paired with other colours) refuses the stale result.
func TestPlayRoundRepaired(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 2)
	g := tm.Round(1)[0]
	swap := func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{g.White, g.Black}}})
	}
	var once sync.Once
	var events []app.GameEvent
	o := app.PlayOptions{Time: minute, Progress: func(e app.GameEvent) {
		once.Do(func() {
			if _, _, err := d.Undo(ctx, tm.ID); err != nil {
				t.Error(err)
			}
			if _, _, err := d.DoForTest(ctx, tm.ID, swap); err != nil {
				t.Error(err)
			}
		})
		events = append(events, e)
	}}
	rep, err := d.PlayRound(ctx, tm.ID, o)
	if err == nil || rep.Failed != 1 || len(events) != 2 || !errors.Is(events[1].Err, tournament.ErrChanged) {
		t.Errorf("PlayRound over a round paired again: %+v, %v, events %+v; want the game refused (ErrChanged)", rep, err, events)
	}
	if got, _ := d.Tournament(ctx, tm.ID); checkPlayedNone(got) != 0 {
		t.Error("the stale game was recorded")
	}
}

// runLog records what Run says of each round.
type runLog struct {
	paired []int
	played []app.PlayReport
}

// options returns PlayOptions that record into l.
func (l *runLog) options() app.PlayOptions {
	return app.PlayOptions{Time: minute, Concurrency: 2,
		Paired: func(r int, _ []string) { l.paired = append(l.paired, r) },
		Played: func(rep app.PlayReport) { l.played = append(l.played, rep) }}
}

// rounds returns, for each round played, "round:played/recorded before".
func (l *runLog) rounds() string {
	var s []string
	for _, rep := range l.played {
		s = append(s, fmt.Sprintf("%d:%d/%d", rep.Round, rep.Played, rep.Recorded))
	}
	return strings.Join(s, " ")
}

// TestRun: Run plays the round paired, pairs and plays the next, to the
// last round; run again on a finished event it does nothing. Four engines
// play two games a round.
func TestRun(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 4)
	var l runLog
	if err := d.Run(ctx, tm.ID, l.options()); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(l.paired) != "[2]" || l.rounds() != "1:2/0 2:2/0" {
		t.Errorf("Run paired rounds %v and played %s; want [2] and 1:2/0 2:2/0", l.paired, l.rounds())
	}
	tm, _ = d.Tournament(ctx, tm.ID)
	if tm.Paired() != 2 || tm.Finished() != 2 || checkRound(t, tm, 1) != 2 || checkRound(t, tm, 2) != 2 {
		t.Errorf("after Run: %d rounds paired, %d finished; want 2 and 2, every game played", tm.Paired(), tm.Finished())
	}
	l = runLog{}
	if err := d.Run(ctx, tm.ID, l.options()); err != nil || len(l.paired)+len(l.played) != 0 {
		t.Errorf("Run on a finished event: %v, paired %v, played %s; want nothing done", err, l.paired, l.rounds())
	}
}

// TestRunStopsAtAPerson: Run stops at a round whose game with a person has
// no result, having played its engine game; run again before the result is
// in, it stops there again; once it is in, it goes on to the next round.
func TestRunStopsAtAPerson(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Mixed", 3, "Ann Person")
	enter := func(r int) {
		t.Helper()
		for _, g := range tm.Round(r) {
			if tm.Players[g.Black-1].Engine == "" || tm.Players[g.White-1].Engine == "" {
				rec := func(t *tournament.Tournament) (tournament.Change, error) {
					return t.RecordResult(tournament.At(r, g.Table), tournament.ResultInput{Black: 40, White: 24, HasScore: true}, false)
				}
				if _, _, err := d.DoForTest(ctx, tm.ID, rec); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, step := range []struct {
		enter  int    // the round whose person's result is entered first; 0: none
		paired string // the rounds Run pairs
		played string // the rounds Run plays, "round:played/recorded before"
		stop   string // in Run's error; "": none
	}{
		{0, "[]", "1:1/0", "round 1: games with a person wait for their results: enter 1 result"},
		{0, "[]", "1:0/1", "round 1: games with a person wait for their results: enter 1 result"},
		{1, "[2]", "2:1/0", "round 2: games with a person wait for their results: enter 1 result"},
		{2, "[]", "", ""},
	} {
		if step.enter > 0 {
			enter(step.enter)
		}
		var l runLog
		err := d.Run(ctx, tm.ID, l.options())
		if step.stop == "" && err != nil || step.stop != "" && (!errors.Is(err, app.ErrHumanGames) || err.Error() != step.stop) {
			t.Errorf("Run: %v; want %q", err, step.stop)
		}
		if fmt.Sprint(l.paired) != step.paired || l.rounds() != step.played {
			t.Errorf("Run paired %v and played %q; want %s and %q", l.paired, l.rounds(), step.paired, step.played)
		}
		tm, _ = d.Tournament(ctx, tm.ID)
	}
	if tm.Finished() != 2 || checkPlayedNone(tm) != 4 {
		t.Errorf("%d rounds finished, %d results; want 2 rounds, 4 results", tm.Finished(), checkPlayedNone(tm))
	}
}

// TestRunStopped: Run stopped (Ctrl-C) as the first game of round 2 starts
// records nothing of round 2 and says how to go on; run again, it plays
// round 2 without pairing it again.
func TestRunStopped(t *testing.T) {
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 4)
	ctx, cancel := context.WithCancel(context.Background())
	var l runLog
	o := l.options()
	o.Progress = func(e app.GameEvent) {
		if e.Round == 2 && !e.Done {
			cancel()
		}
	}
	if err := d.Run(ctx, tm.ID, o); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "round 2 stopped") {
		t.Fatalf("a stopped Run: %v; want round 2 stopped, context.Canceled", err)
	}
	if fmt.Sprint(l.paired) != "[2]" || l.rounds() != "1:2/0" {
		t.Errorf("the stopped Run paired %v and played %s; want [2] and 1:2/0", l.paired, l.rounds())
	}
	got, _ := d.Tournament(context.Background(), tm.ID)
	if got.Paired() != 2 || len(got.Round(2)) != 2 || checkPlayedNone(got) != 2 {
		t.Fatalf("after the stop: %d rounds paired, %d results; want round 2 paired, only round 1's 2 results", got.Paired(), checkPlayedNone(got))
	}
	l = runLog{}
	if err := d.Run(context.Background(), tm.ID, l.options()); err != nil {
		t.Fatal(err)
	}
	if len(l.paired) != 0 || l.rounds() != "2:2/0" {
		t.Errorf("Run again paired %v and played %s; want none and 2:2/0", l.paired, l.rounds())
	}
}

// TestRunResumes: Run on a round half played (a run killed after its first
// game) plays the rest of it, then the next round.
func TestRunResumes(t *testing.T) {
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 4)
	ctx, cancel := context.WithCancel(context.Background())
	o := app.PlayOptions{Time: minute, Progress: func(e app.GameEvent) {
		if e.Done {
			cancel()
		}
	}}
	if rep, err := d.PlayRound(ctx, tm.ID, o); !errors.Is(err, context.Canceled) || rep.Played != 1 {
		t.Fatalf("the round killed after its first game: %+v, %v; want 1 game played", rep, err)
	}
	var l runLog
	if err := d.Run(context.Background(), tm.ID, l.options()); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(l.paired) != "[2]" || l.rounds() != "1:1/1 2:2/0" {
		t.Errorf("Run paired %v and played %s; want [2] and 1:1/1 2:2/0", l.paired, l.rounds())
	}
	tm, _ = d.Tournament(context.Background(), tm.ID)
	if checkRound(t, tm, 1) != 2 || checkRound(t, tm, 2) != 2 {
		t.Error("not every game was played")
	}
}

// TestRunPlaysTheFinalPhase: Run plays a Swiss of built-in engines, then its
// final phase (a top-2 final of 3 games, level by discs, and nothing for a
// person to enter), recording every final game with its transcript.
func TestRunPlaysTheFinalPhase(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 4)
	s := tm.Settings
	s.Final = tournament.FinalRules{Qualifiers: 2, BestOf: 3, Level: tournament.LevelDiscs, Colour: tournament.ColourLot}
	if _, _, err := d.DoForTest(ctx, tm.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.ChangeSettings(s) }); err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, tm.ID, app.PlayOptions{Time: minute}); err != nil {
		t.Fatal(err)
	}
	tm, _ = d.Tournament(ctx, tm.ID)
	ph, err := tm.Phase("")
	if err != nil || !ph.Over || len(ph.Matches) != 1 || len(tm.FinalGames) < 2 {
		t.Fatalf("the final phase after Run: %+v, %v, games %v", ph, err, tm.FinalGames)
	}
	for _, g := range tm.FinalGames {
		if g.Result == nil || g.Result.Moves == "" {
			t.Errorf("final game %s was not played by otd: %+v", g, g.Result)
		}
	}
}

// TestPlayRoundStoppedSaysWhatIsKept: a round stopped (Ctrl-C) after its
// first game returns a *StoppedError that says, in words, what is kept and
// what is left (not "context canceled", issue 21 item 10); the games stopped
// or not started are no failures.
func TestPlayRoundStoppedSaysWhatIsKept(t *testing.T) {
	d := app.New(app.Store{Storage: memstore.New()})
	tm := engineEvent(t, d, "Bots", 6) // 3 tables, played one at a time in table order
	ctx, cancel := context.WithCancel(context.Background())
	var stopped []int // the tables whose game ended with an error
	o := app.PlayOptions{Time: minute, Concurrency: 1, Progress: func(e app.GameEvent) {
		switch {
		case e.Done && e.Err == nil:
			cancel()
		case e.Done && errors.Is(e.Err, app.ErrStopped):
			stopped = append(stopped, e.Table)
		case e.Done:
			t.Errorf("table %d: %v; want ErrStopped", e.Table, e.Err)
		}
	}}
	rep, err := d.PlayRound(ctx, tm.ID, o)
	var se *app.StoppedError
	const want = "round 1 stopped: 1 game played and recorded, kept (table 1); 2 engine games without a result (tables 2 and 3): the games running were stopped, not recorded"
	if !errors.As(err, &se) || !errors.Is(err, context.Canceled) || !errors.Is(err, app.ErrStopped) || err.Error() != want {
		t.Fatalf("a round stopped after its first game: %v; want %q, context.Canceled and ErrStopped", err, want)
	}
	if fmt.Sprint(se.Round, se.Recorded, se.Left) != "1 [1] [2 3]" || rep.Played != 1 || rep.Failed != 0 {
		t.Errorf("round %d, recorded %v, left %v, report %+v; want round 1, [1], [2 3], 1 played, none failed", se.Round, se.Recorded, se.Left, rep)
	}
	if len(stopped) > 1 || len(stopped) == 1 && stopped[0] != 2 {
		t.Errorf("games stopped at tables %v; want table 2 at most (started as the round stopped)", stopped)
	}
	if got, _ := d.Tournament(context.Background(), tm.ID); checkPlayedNone(got) != 1 {
		t.Errorf("%d games recorded; want 1", checkPlayedNone(got))
	}
}
