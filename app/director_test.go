package app_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"reflect"
	"testing"

	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/tournament"
)

// addPlayers is the op that registers people named P1, P2...
func addPlayers(n int) []tournament.Op {
	var ops []tournament.Op
	for i := range n {
		in := tournament.PlayerInput{Name: fmt.Sprintf("P%d", i+1), Rating: 2000 - 10*i}
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) })
	}
	return ops
}

func pair(t *tournament.Tournament) (tournament.Change, error) {
	return t.Pair(tournament.PairOptions{})
}

func result(r, table, b, w int) tournament.Op {
	return func(t *tournament.Tournament) (tournament.Change, error) {
		return t.RecordResult(tournament.At(r, table), tournament.ResultInput{Black: b, White: w, HasScore: true}, false)
	}
}

// newEvent creates a tournament of n players with round 1 paired.
func newEvent(t *testing.T, d *app.Director, name string, n int) *tournament.Tournament {
	t.Helper()
	ctx := context.Background()
	tm, err := d.Create(ctx, tournament.DefaultSettings(name, 3))
	if err != nil {
		t.Fatal(err)
	}
	tm, _, err = d.DoForTest(ctx, tm.ID, append(addPlayers(n), pair)...)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestDirectorActsOnTheTournamentNamed: every action acts on the tournament
// its id names, never on the current one.
func TestDirectorActsOnTheTournamentNamed(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	a := newEvent(t, d, "A", 4)
	b := newEvent(t, d, "B", 4) // the current tournament now
	if cur, err := d.Current(ctx); err != nil || cur != b.ID {
		t.Fatalf("Current = %d, %v; want B's id %d", cur, err, b.ID)
	}
	if _, _, err := d.DoForTest(ctx, a.ID, result(1, 1, 40, 24)); err != nil {
		t.Fatal(err)
	}
	gotA, err := d.Tournament(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	gotB, err := d.Tournament(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g := gotA.Round(1)[0]; g.Result == nil || g.Result.Black != 40 {
		t.Errorf("A's table 1: %+v; want 40-24", g.Result)
	}
	if g := gotB.Round(1)[0]; g.Result != nil {
		t.Errorf("B's table 1 got a result: %+v", g.Result)
	}
	// Undo and the log are A's too.
	if _, _, err := d.DoForTest(ctx, b.ID, result(1, 2, 30, 34)); err != nil {
		t.Fatal(err)
	}
	last, _, err := d.Undo(ctx, a.ID)
	if err != nil || last.Action != tournament.ActResult {
		t.Fatalf("Undo(A) = %+v, %v; want A's result undone", last, err)
	}
	if tm, _ := d.Tournament(ctx, b.ID); tm.Round(1)[1].Result == nil {
		t.Error("Undo(A) undid B's result")
	}
	_, log, err := d.Log(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if e.Subject == "B" {
			t.Errorf("A's log has B's entry %+v", e)
		}
	}
	for _, err := range []error{
		func() error { _, err := d.Tournament(ctx, 99); return err }(),
		func() error { _, _, err := d.DoForTest(ctx, 99, pair); return err }(),
		func() error { _, _, err := d.Undo(ctx, 99); return err }(),
	} {
		if !errors.Is(err, tournament.ErrNoTournament) {
			t.Errorf("an action on tournament 99: %v; want ErrNoTournament", err)
		}
	}
}

// TestDirectorAllOrNothing: an action whose op fails, whose result breaks an
// invariant, or whose save fails leaves the tournament as it was.
func TestDirectorAllOrNothing(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	d := app.New(app.Store{Storage: st})
	tm := newEvent(t, d, "A", 4)
	before, _ := d.Tournament(ctx, tm.ID)
	_, beforeLog, _ := d.Log(ctx, tm.ID)
	failing := func(*tournament.Tournament) (tournament.Change, error) {
		return tournament.Change{}, errors.New("refused")
	}
	breaking := func(t *tournament.Tournament) (tournament.Change, error) {
		c, err := t.RecordResult(tournament.At(1, 1), tournament.ResultInput{Black: 40, White: 24, HasScore: true}, false)
		t.Players[0].Number = 7 // an invariant broken behind the op's back
		return c, err
	}
	for name, ops := range map[string][]tournament.Op{
		"an op fails":         {result(1, 1, 40, 24), failing},
		"an invariant breaks": {breaking},
	} {
		if _, _, err := d.DoForTest(ctx, tm.ID, ops...); err == nil {
			t.Errorf("%s: the action succeeded", name)
		}
	}
	st.BeforeSave = func(c tournament.Change) error {
		if c.Action == tournament.ActResult {
			return errors.New("disk full")
		}
		return nil
	}
	if _, _, err := d.DoForTest(ctx, tm.ID, result(1, 1, 40, 24), result(1, 2, 30, 34)); err == nil {
		t.Error("a failing save: the action succeeded")
	}
	after, _ := d.Tournament(ctx, tm.ID)
	_, afterLog, _ := d.Log(ctx, tm.ID)
	if !reflect.DeepEqual(after, before) || len(afterLog) != len(beforeLog) {
		t.Errorf("refused actions changed the tournament or its log:\n%+v\n%+v", after, before)
	}
}

// TestDirectorUndoRestoresExactly: each action undone, newest first, gives
// back the tournament exactly as it was before it.
func TestDirectorUndoRestoresExactly(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm, err := d.Create(ctx, tournament.DefaultSettings("A", 3))
	if err != nil {
		t.Fatal(err)
	}
	actions := append(addPlayers(5), pair, result(1, 1, 40, 24), result(1, 2, 33, 31),
		func(t *tournament.Tournament) (tournament.Change, error) {
			return t.RecordResult(tournament.At(1, 1), tournament.ResultInput{Black: 20, White: 44, HasScore: true}, true)
		},
		func(t *tournament.Tournament) (tournament.Change, error) { return t.Withdraw(5) })
	var states []*tournament.Tournament
	for _, op := range actions {
		s, _ := d.Tournament(ctx, tm.ID)
		states = append(states, s)
		if _, _, err := d.DoForTest(ctx, tm.ID, op); err != nil {
			t.Fatal(err)
		}
	}
	for i := len(states) - 1; i >= 0; i-- {
		if _, _, err := d.Undo(ctx, tm.ID); err != nil {
			t.Fatalf("undo of action %d: %v", i+1, err)
		}
		got, _ := d.Tournament(ctx, tm.ID)
		if !reflect.DeepEqual(got, states[i]) {
			t.Fatalf("after the undo of action %d:\n%+v\nwant\n%+v", i+1, got, states[i])
		}
	}
	if _, _, err := d.Undo(ctx, tm.ID); !errors.Is(err, tournament.ErrNothingToUndo) {
		t.Errorf("undo past the creation: %v; want ErrNothingToUndo", err)
	}
}

// TestDirectorNames: names are unique whatever the case, at creation and at
// a rename.
func TestDirectorNames(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	a := newEvent(t, d, "Paris Open", 2)
	newEvent(t, d, "Club Night", 2)
	if _, err := d.Create(ctx, tournament.DefaultSettings("PARIS OPEN", 3)); !errors.Is(err, tournament.ErrDuplicate) {
		t.Errorf("a second Paris Open: %v; want ErrDuplicate", err)
	}
	rename := func(t *tournament.Tournament) (tournament.Change, error) {
		s := t.Settings
		s.Name = "club night"
		return t.ChangeSettings(s)
	}
	if _, _, err := d.DoForTest(ctx, a.ID, rename); !errors.Is(err, tournament.ErrDuplicate) {
		t.Errorf("a rename to another's name: %v; want ErrDuplicate", err)
	}
}

// TestDirectorStampsItsActor: every change a Director saves (a creation, an
// action, an undo) says who made it, as the Director was told (As); a
// Director told nothing writes an unknown actor, and As leaves it so.
func TestDirectorStampsItsActor(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	alice := tournament.Actor{Kind: tournament.ByCommandLine, Name: "alice"}
	w1 := tournament.Actor{Kind: tournament.ByWorker, Name: "w1@host"}
	tm := newEvent(t, d.As(alice), "Open", 4)
	if _, _, err := d.As(w1).DoForTest(ctx, tm.ID, result(1, 1, 40, 24)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.As(alice).Undo(ctx, tm.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.DoForTest(ctx, tm.ID, result(1, 2, 30, 34)); err != nil {
		t.Fatal(err)
	}
	_, log, err := d.Log(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range log {
		got = append(got, fmt.Sprintf("%s: %s", e.Action, e.Actor))
	}
	want := []string{"tournament new: command line (alice)", "player add: command line (alice)", "player add: command line (alice)",
		"player add: command line (alice)", "player add: command line (alice)", "round pair: command line (alice)",
		"result: worker w1@host", "undo: command line (alice)", "result: -"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the log's actors:\n%q\nwant\n%q", got, want)
	}
}
