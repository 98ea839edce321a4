package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/tournament"
)

var fixed = func() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) }

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{Create: true, Now: fixed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRoundTrip(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	ctx := context.Background()
	want := &tournament.Tournament{
		Settings: tournament.DefaultSettings("Club", 3),
		Players: []tournament.Player{
			{Number: 1, Name: "Ann", Rating: 1900, Country: "GB", FirstRound: 1},
			{Number: 2, Name: "Bob", FirstRound: 1, Left: 3, Absent: []int{1}},
			{Number: 3, Name: "Cy", FirstRound: 2},
		},
		Games: []tournament.Game{
			{Round: 1, Table: 1, Black: 1, White: 3, Result: &tournament.Result{Black: 40, White: 24, Kind: tournament.Normal}},
			{Round: 1, Table: 2, Black: 2, White: 0},
			{Round: 2, Table: 1, Black: 3, White: 1, Result: &tournament.Result{Black: 33, White: 31, Kind: tournament.TimeDefault, Loser: tournament.White}},
		},
	}
	err := s.Update(ctx, func(tx *Tx) error {
		id, err := tx.CreateTournament(want.Settings)
		if err != nil {
			return err
		}
		want.ID = id
		for _, p := range want.Players {
			if err := tx.SavePlayer(id, p); err != nil {
				return err
			}
		}
		return tx.InsertGames(id, want.Games)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx *Tx) error {
		id, err := tx.Current()
		if err != nil || id != want.ID {
			t.Fatalf("Current() = %d, %v", id, err)
		}
		got, err := tx.Load(id)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Load:\n got %+v\nwant %+v", got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAuditAndUndo(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	ctx := context.Background()
	var id, entry int64
	err := s.Update(ctx, func(tx *Tx) (err error) {
		if id, err = tx.CreateTournament(tournament.DefaultSettings("A", 1)); err != nil {
			return err
		}
		entry, err = tx.Audit(id, "result", "round 1 table 1", nil, tournament.Result{Black: 40, White: 24})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Update(ctx, func(tx *Tx) error {
		last, err := tx.LastUndoable(id, "result")
		if err != nil || last.ID != entry || last.After != `{"Black":40,"White":24,"Kind":"","Loser":""}` || !last.At.Equal(fixed()) {
			t.Fatalf("LastUndoable = %+v, %v", last, err)
		}
		return tx.MarkUndone(entry, entry+1)
	})
	s.View(ctx, func(tx *Tx) error {
		if _, err := tx.LastUndoable(id, "result"); !errors.Is(err, tournament.ErrNothingToUndo) {
			t.Errorf("after undo: %v", err)
		}
		return nil
	})
}

// A failed action changes nothing: the transaction rolls back.
func TestUpdateRollsBack(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	ctx := context.Background()
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx *Tx) error {
		if _, err := tx.CreateTournament(tournament.DefaultSettings("A", 1)); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	s.View(ctx, func(tx *Tx) error {
		if l, _ := tx.Tournaments(); len(l) != 0 {
			t.Errorf("tournaments after a rolled-back action: %v", l)
		}
		return nil
	})
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

// Dump is deterministic: the same content gives the same dump, whatever the
// order it was written in, and any change shows.
func TestDump(t *testing.T) {
	ctx := context.Background()
	players := []tournament.Player{
		{Number: 1, Name: "Ann \"A\"", Rating: 1900, Country: "GB", FirstRound: 1},
		{Number: 2, Name: "Bob", FirstRound: 1, Absent: []int{2}},
	}
	dump := func(s *Store) string {
		t.Helper()
		var b strings.Builder
		if err := s.Dump(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var dumps []string
	for _, order := range [][]int{{0, 1}, {1, 0}} {
		s := open(t, filepath.Join(t.TempDir(), "otd.db"))
		err := s.Update(ctx, func(tx *Tx) error {
			id, err := tx.CreateTournament(tournament.DefaultSettings("Club", 3))
			if err != nil {
				return err
			}
			for _, i := range order {
				if err := tx.SavePlayer(id, players[i]); err != nil {
					return err
				}
			}
			return tx.InsertGames(id, []tournament.Game{{Round: 1, Table: 1, Black: 1, White: 2}})
		})
		if err != nil {
			t.Fatal(err)
		}
		dumps = append(dumps, dump(s))
		if got := dump(s); got != dumps[len(dumps)-1] {
			t.Fatalf("two dumps of one database differ:\n%s\n%s", got, dumps[len(dumps)-1])
		}
		if len(dumps) == 2 {
			if err := s.Update(ctx, func(tx *Tx) error {
				return tx.SetResult(1, 1, 1, &tournament.Result{Black: 40, White: 24, Kind: tournament.Normal})
			}); err != nil {
				t.Fatal(err)
			}
			if dump(s) == dumps[1] {
				t.Error("a result recorded does not change the dump")
			}
		}
	}
	if dumps[0] != dumps[1] {
		t.Errorf("the same content written in another order dumps differently:\n%s\n%s", dumps[0], dumps[1])
	}
	for _, want := range []string{
		"application_id 1869898801\nuser_version 1\n",
		"table player: CREATE TABLE player (",
		`player: tournament_id=1 number=1 name="Ann \"A\"" fed_id=0 rating=1900 country="GB" first_round=1 left_round=0 absent=""` + "\n" +
			`player: tournament_id=1 number=2 name="Bob" fed_id=0 rating=0 country="" first_round=1 left_round=0 absent="2"` + "\n",
		"game: tournament_id=1 round=1 board=1 black=1 white=2 black_discs=NULL white_discs=NULL kind=NULL loser=NULL\n",
	} {
		if !strings.Contains(dumps[0], want) {
			t.Errorf("the dump lacks %q:\n%s", want, dumps[0])
		}
	}
}

func TestIntegrityCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	s := open(t, path)
	if err := s.IntegrityCheck(); err != nil {
		t.Fatalf("a new database: %v", err)
	}
	var root, pageSize int64
	err := s.Update(context.Background(), func(tx *Tx) error {
		id, err := tx.CreateTournament(tournament.DefaultSettings("Club", 3))
		if err != nil {
			return err
		}
		for n := 1; n <= 50; n++ {
			if err := tx.SavePlayer(id, tournament.Player{Number: n, Name: fmt.Sprint("Player ", n), FirstRound: 1}); err != nil {
				return err
			}
		}
		if err := tx.tx.QueryRow("SELECT rootpage FROM sqlite_master WHERE name = 'player'").Scan(&root); err != nil {
			return err
		}
		return tx.tx.QueryRow("PRAGMA page_size").Scan(&pageSize)
	})
	if err != nil {
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
