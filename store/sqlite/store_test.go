package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/storetest"
	"github.com/otd-project/otd/tournament"
)

// TestStorage runs the suite of the tournament.Storage contract on SQLite
// files, each in a test's temporary folder.
func TestStorage(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Open {
		path := filepath.Join(t.TempDir(), "otd.db")
		return func(t *testing.T, o storetest.Options) app.Store {
			s, err := Open(path, Options{Create: true, Now: o.Now, ReadOnly: o.ReadOnly, Poll: 10 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s.App()
		}
	})
}

var fixed = storetest.Fixed

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{Create: true, Now: fixed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	// A newer schema.
	newer := filepath.Join(dir, "newer.db")
	open(t, newer).Close()
	db, _ := sql.Open("sqlite", newer)
	db.Exec("PRAGMA user_version = 99")
	db.Close()
	// Another program's database.
	foreign := filepath.Join(dir, "foreign.db")
	db, _ = sql.Open("sqlite", foreign)
	db.Exec("CREATE TABLE t (x)")
	db.Close()
	// Not a database at all.
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte("this is not a database, just some text that is long enough to fill a header ............"), 0o644)
	// An empty file, as 'touch' leaves it: a read must not write a schema into it.
	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	for _, tc := range []struct {
		name, path string
		create     bool
		want       error
	}{
		{"newer", newer, false, ErrNewerSchema},
		{"foreign", foreign, false, ErrNotOTD},
		{"junk", junk, false, ErrNotDatabase},
		{"missing", filepath.Join(dir, "none.db"), false, ErrNoDatabase},
		{"empty", empty, false, ErrNoDatabase},
		{"folder", dir, true, ErrCannotOpen},
		// A device: SQLite would make /dev/null-journal beside it.
		{"device", os.DevNull, true, ErrPath},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.ReadFile(tc.path)
			s, err := Open(tc.path, Options{Create: tc.create})
			if !errors.Is(err, tc.want) {
				t.Errorf("Open: %v, want %v", err, tc.want)
			}
			if err == nil {
				s.Close()
			}
			// A refused file is left as it was (no switch to WAL mode).
			if after, _ := os.ReadFile(tc.path); !bytes.Equal(before, after) {
				t.Error("Open changed the file it refused")
			}
		})
	}
}

// TestDump: the dump gives the schema's version, owner and objects, then the
// rows of every table; two dumps of one database are the same. (That the same
// content gives the same rows whatever the order it was written in is the
// suite's: storetest, Tables.)
func TestDump(t *testing.T) {
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
	m := storetest.Must(t)
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	id := storetest.Create(t, s, tm.Settings)
	storetest.Save(t, s, id, m(tm.AddPlayer(tournament.PlayerInput{Name: "Ann \"A\"", Rating: 1900, Country: "GB"})),
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Bob"})), m(tm.MarkAbsent(2, 2)),
		m(tm.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}}})))
	dump := func() string {
		t.Helper()
		var b strings.Builder
		if err := s.Dump(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	got := dump()
	if again := dump(); again != got {
		t.Fatalf("two dumps of one database differ:\n%s\n%s", got, again)
	}
	for _, want := range []string{
		"application_id 1869898801\nuser_version 19\n",
		"table player: CREATE TABLE player (",
		`player: tournament_id=1 number=1 name="Ann \"A\"" fed_id=0 rating=1900 country="GBR" first_round=1 left_round=0 absent="" engine="" team="" born=0 categories="" new_id=0 born_date=""` + "\n" +
			`player: tournament_id=1 number=2 name="Bob" fed_id=0 rating=0 country="" first_round=1 left_round=0 absent="2" engine="" team="" born=0 categories="" new_id=0 born_date=""` + "\n",
		`game: tournament_id=1 round=1 board=1 category="" match="" game=0 black=1 white=2 black_discs=NULL white_discs=NULL kind=NULL loser=NULL moves="" ending="" note=""` + "\n",
		"audit: id=1 tournament_id=1 at=\"2026-11-22T10:00:00Z\" action=\"player add\" subject=\"player 1 (Ann \\\"A\\\")\"",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the dump lacks %q:\n%s", want, got)
		}
	}
}

func TestIntegrityCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	s := open(t, path)
	if err := s.IntegrityCheck(); err != nil {
		t.Fatalf("a new database: %v", err)
	}
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
	tm.ID = storetest.Create(t, s, tm.Settings)
	var root, pageSize int64
	err := s.Update(context.Background(), func(tx tournament.Tx) error {
		for n := 1; n <= 50; n++ {
			c, err := tm.AddPlayer(tournament.PlayerInput{Name: fmt.Sprint("Player ", n)})
			if err != nil {
				return err
			}
			if _, err := tx.Save(tm.ID, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow("SELECT rootpage FROM sqlite_master WHERE name = 'player'").Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	if err := s.IntegrityCheck(); err != nil {
		t.Fatalf("a database with players: %v", err)
	}
	s.Close() // checkpoints the WAL into the file
	// Damage the players' table, leaving the schema on page 1 readable.
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, int(pageSize)), (root-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s = open(t, path)
	if err := s.IntegrityCheck(); !errors.Is(err, ErrDamaged) {
		t.Errorf("a damaged database: IntegrityCheck() = %v, want %v", err, ErrDamaged)
	}
}
