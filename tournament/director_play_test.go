package tournament_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/tournament"
)

// engineEvent creates a tournament of built-in engines (random players,
// seeded) and the people named, with round 1 paired.
func engineEvent(t *testing.T, d *tournament.Director, name string, engines int, people ...string) *tournament.Tournament {
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
	tm, _, err = d.Do(ctx, tm.ID, append(ops, pair)...)
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
	for _, g := range tm.Round(1) {
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

var minute = match.TimeControl{Base: time.Minute}

// TestPlayRound plays a round of built-in engines with a person among them:
// every engine game is recorded with a transcript that replays to its score,
// the person's game is left, and a second call plays nothing.
func TestPlayRound(t *testing.T) {
	ctx := context.Background()
	d := tournament.NewDirector(memstore.New())
	tm := engineEvent(t, d, "Bots", 6, "Ann Person", "Bob Person")
	rep, err := d.PlayRound(ctx, tm.ID, tournament.PlayOptions{Time: minute, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	tm, _ = d.Tournament(ctx, tm.ID)
	if played := checkPlayed(t, tm); rep.Played != played || rep.Played+len(rep.Humans) != 4 || rep.Round != 1 {
		t.Errorf("report %+v; %d games recorded, 4 tables", rep, played)
	}
	again, err := d.PlayRound(ctx, tm.ID, tournament.PlayOptions{Time: minute})
	if err != nil || again.Played != 0 || again.Recorded != rep.Played {
		t.Errorf("a second PlayRound: %+v, %v; want nothing played, %d recorded before", again, err, rep.Played)
	}
}

// TestPlayRoundKeepsItsTournament: another tournament created, made current
// and paired while the round is played gets nothing; every game goes to the
// tournament named.
func TestPlayRoundKeepsItsTournament(t *testing.T) {
	ctx := context.Background()
	d := tournament.NewDirector(memstore.New())
	a := engineEvent(t, d, "A", 4)
	var once sync.Once
	var b *tournament.Tournament
	o := tournament.PlayOptions{Time: minute, Progress: func(e tournament.GameEvent) {
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
	d := tournament.NewDirector(memstore.New())
	tm := engineEvent(t, d, "Bots", 4)
	ctx, cancel := context.WithCancel(context.Background())
	o := tournament.PlayOptions{Time: minute, Progress: func(e tournament.GameEvent) {
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
	rep, err = d.PlayRound(context.Background(), tm.ID, tournament.PlayOptions{Time: minute})
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
	d := tournament.NewDirector(memstore.New())
	tm := engineEvent(t, d, "Bots", 2)
	g := tm.Round(1)[0]
	swap := func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{g.White, g.Black}}})
	}
	var once sync.Once
	var events []tournament.GameEvent
	o := tournament.PlayOptions{Time: minute, Progress: func(e tournament.GameEvent) {
		once.Do(func() {
			if _, _, err := d.Undo(ctx, tm.ID); err != nil {
				t.Error(err)
			}
			if _, _, err := d.Do(ctx, tm.ID, swap); err != nil {
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
