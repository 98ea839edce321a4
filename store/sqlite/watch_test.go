package sqlite

import (
	"context"
	"github.com/otd-project/otd/app"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/storetest"
	"github.com/otd-project/otd/tournament"
)

// TestChangesUnwritable: a database that otd may not write is opened in
// SQLite's immutable mode, which sees no commit by itself. Its store reports
// another otd's commit once that otd has closed the database (the -wal file
// merged into the file), and reads it then; a file moved over it (a copy
// restored) is a change too.
func TestChangesUnwritable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "otd.db")
	ctx := context.Background()
	players := func(s *Store) int {
		t.Helper()
		tm, err := app.New(s.App()).Tournament(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		return len(tm.Players)
	}
	add := func(s *Store, name string) {
		t.Helper()
		if _, _, err := app.New(s.App()).DoForTest(ctx, 1, func(t *tournament.Tournament) (tournament.Change, error) {
			return t.AddPlayer(tournament.PlayerInput{Name: name})
		}); err != nil {
			t.Fatal(err)
		}
	}
	w := open(t, path)
	storetest.Create(t, w, tournament.DefaultSettings("Club", 3))
	w.Close()

	old := writable
	writable = func(string) bool { return false }
	ro, err := Open(path, Options{ReadOnly: true, Poll: 10 * time.Millisecond})
	writable = old
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if !ro.immutable {
		t.Fatal("a file otd may not write is not opened in immutable mode")
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	changes, err := ro.Changes(wctx)
	if err != nil {
		t.Fatal(err)
	}
	wait := func(what string) {
		t.Helper()
		select {
		case <-changes:
		case <-time.After(time.Minute): // a guard against a hang
			t.Fatalf("no change reported within a minute of %s", what)
		}
	}

	// Another otd adds a player and keeps the database open: the commit is
	// in its -wal file, which an immutable reader does not read.
	w = open(t, path)
	add(w, "Ann Archer")
	if st, err := statFile(path); err != nil || st.walSize == 0 {
		t.Fatalf("the commit is not in the -wal file (%v): the test tests nothing", err)
	}
	select {
	case <-changes:
		t.Fatal("a change reported while it is in the -wal file only")
	case <-time.After(100 * time.Millisecond):
	}
	if n := players(ro); n != 0 {
		t.Errorf("%d players read before the change is in the file; want 0", n)
	}
	w.Close() // the last connection merges the -wal file into the file
	wait("the writer's close")
	if n := players(ro); n != 1 {
		t.Errorf("%d players read after the change; want 1", n)
	}

	// A copy moved over the database, with another player more.
	copyPath := filepath.Join(dir, "copy.db")
	c := open(t, copyPath)
	storetest.Create(t, c, tournament.DefaultSettings("Club", 3))
	add(c, "Ann Archer")
	add(c, "Ben Bell")
	c.Close()
	if err := os.Rename(copyPath, path); err != nil {
		t.Fatal(err)
	}
	wait("a file moved over the database")
	if n := players(ro); n != 2 {
		t.Errorf("%d players read after a copy was moved over the database; want 2", n)
	}
}

// TestSync: Sync makes Changes look at once: a commit of the store's own
// process is sent before Sync returns, once (a second Sync finds nothing
// new), though the watcher's tick is an hour away.
func TestSync(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "otd.db"), Options{Create: true, Now: fixed, Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.Create(t, s, tournament.DefaultSettings("Club", 3))
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	changes, err := s.Changes(wctx)
	if err != nil {
		t.Fatal(err)
	}
	pending := func() bool {
		select {
		case <-changes:
			return true
		default:
			return false
		}
	}
	if err := s.Sync(ctx); err != nil || pending() {
		t.Fatalf("Sync before any change: %v, a change sent: %v", err, !pending())
	}
	if _, _, err := app.New(s.App()).DoForTest(ctx, 1, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.AddPlayer(tournament.PlayerInput{Name: "Ann Archer"})
	}); err != nil {
		t.Fatal(err)
	}
	s.Sync(ctx)
	if !pending() {
		t.Fatal("a commit of this process: nothing sent after Sync")
	}
	s.Sync(ctx)
	if pending() {
		t.Error("a second Sync sent the same change again")
	}
}
