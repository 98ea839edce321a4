package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/otd-project/otd/tournament"
)

// TestChanges: a store opened ReadOnly refuses to write, reads what another
// connection commits, and reports each commit on Changes (and nothing
// before it); the channel closes when the context ends.
func TestChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	w := tournament.NewDirector(open(t, path))
	ctx := context.Background()
	club, err := w.Create(ctx, tournament.DefaultSettings("Club", 3))
	if err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := ro.Update(ctx, func(tournament.Tx) error { return nil }); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Update on a read-only store: %v; want ErrReadOnly", err)
	}
	wctx, stop := context.WithCancel(ctx)
	changes, err := ro.Changes(wctx, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-changes:
		t.Fatal("a change before any")
	case <-time.After(100 * time.Millisecond):
	}
	if _, _, err := w.Do(ctx, club.ID, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.AddPlayer(tournament.PlayerInput{Name: "Ann Archer"})
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changes:
	case <-time.After(2 * time.Second):
		t.Fatal("no change reported within 2 s of a commit")
	}
	if tm, err := tournament.NewDirector(ro).Tournament(ctx, club.ID); err != nil || len(tm.Players) != 1 {
		t.Errorf("the read-only store reads %v, %v; want the new player", tm, err)
	}
	stop()
	for range changes { // closed when the context ends
	}
}
