package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/storetest"

	"github.com/otd-project/otd/tournament"
)

// withMigrations makes Open use the embedded migrations up to schema upTo
// (0: all of them) followed by extra ones, until the test ends. It returns
// the number of embedded migrations kept.
func withMigrations(t *testing.T, upTo int, extra fstest.MapFS) int {
	t.Helper()
	names, err := fs.Glob(embedded, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if upTo > 0 {
		names = names[:upTo]
	}
	m := fstest.MapFS{}
	for n, f := range extra {
		m[n] = f
	}
	for _, n := range names {
		b, err := fs.ReadFile(embedded, n)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: b}
	}
	old := migrations
	migrations = m
	t.Cleanup(func() { migrations = old })
	return len(names)
}

// TestUpgradeInPlace opens a database made by this otd with a later otd
// that has one more migration: the schema is upgraded, the data kept.
func TestUpgradeInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	s := open(t, path)
	storetest.Create(t, s, tournament.DefaultSettings("Old", 5))
	s.Close()

	n := withMigrations(t, 0, fstest.MapFS{"migrations/9999_later.sql": {Data: []byte("ALTER TABLE tournament ADD COLUMN venue TEXT NOT NULL DEFAULT '';")}})
	s = open(t, path)
	var version int
	var venue string
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != n+1 {
		t.Fatalf("user_version = %d, %v; want %d", version, err, n+1)
	}
	if err := s.db.QueryRow("SELECT venue FROM tournament WHERE name_key = 'OLD'").Scan(&venue); err != nil {
		t.Fatalf("the old tournament after the upgrade: %v", err)
	}
}

// TestUpgradeFromSchema1 opens a database of otd's first schema, with audit
// rows as that otd wrote them (untagged Go structs), with this otd: the
// schema is upgraded, the old rows are version 0 and Log and LastUndoable read
// them as changes of today.
func TestUpgradeFromSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	func() {
		withMigrations(t, 1, nil)
		s := open(t, path)
		defer s.Close()
		// As schema 1's otd wrote a tournament (this otd's Create writes later columns).
		res, err := s.db.Exec(`INSERT INTO tournament (name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed, created)
			VALUES ('Old', 5, 'swiss', 'nearest', 'complete', 2, 'points,bq,discs', 'rating', 1, '2026-11-22T10:00:00Z')`)
		if err != nil {
			t.Fatal(err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range [][3]string{ // action, subject, after, as schema 1's otd wrote them
			{"tournament new", "Old", `{"Name":"Old","Rounds":5,"System":"swiss","BQ":"nearest","TimeDefault":"complete","ByeHalfPoints":2,"Tiebreaks":"points,bq,discs","FirstRound":"rating","Seed":1}`},
			{"player add", "player 1", `{"Number":1,"Name":"Ann","ID":0,"Rating":1900,"Country":"FR","FirstRound":1,"Left":0,"Absent":null}`},
			{"import elo", "x.elo", `{"Players":1}`},
		} {
			if _, err := s.db.Exec(`INSERT INTO audit (tournament_id, at, action, subject, before, after) VALUES (?, '2026-11-22T10:00:00Z', ?, ?, '', ?)`,
				id, row[0], row[1], row[2]); err != nil {
				t.Fatal(err)
			}
		}
		var version int
		if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != 1 {
			t.Fatalf("the old database: user_version = %d, %v; want 1", version, err)
		}
	}()
	n := withMigrations(t, 0, nil)
	s := open(t, path)
	var version int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != n {
		t.Fatalf("user_version = %d, %v; want %d", version, err, n)
	}
	settings := tournament.DefaultSettings("Old", 5)
	settings.Pairing = ""             // written before the model was a setting: plain, the model then
	settings.Variant = engine.Rules{} // written before variants: the zero value, standard Othello
	want := []tournament.Change{
		{Action: tournament.ActTournamentNew, Subject: "Old", After: tournament.State{Settings: &settings}},
		{Action: tournament.ActPlayerAdd, Subject: "player 1", After: tournament.State{Players: []tournament.Player{{Number: 1, Name: "Ann", Rating: 1900, Country: "FR", FirstRound: 1}}}},
		{Action: tournament.ActImport, Subject: "x.elo"},
	}
	err := s.View(context.Background(), func(tx tournament.Tx) error {
		id, err := tx.Current()
		if err != nil {
			return err
		}
		log, err := tx.Log(id)
		if err != nil {
			return err
		}
		if len(log) != len(want) {
			t.Fatalf("Log: %d entries, want %d", len(log), len(want))
		}
		for i, e := range log {
			if e.Version != 0 || e.Action != want[i].Action || e.Subject != want[i].Subject ||
				!reflect.DeepEqual(storetest.NormState(e.Before), want[i].Before) || !reflect.DeepEqual(storetest.NormState(e.After), want[i].After) || !e.At.Equal(fixed()) {
				t.Errorf("entry %d:\n got %+v\nwant %+v", e.ID, e.Change, want[i])
			}
		}
		// The import is not undoable, the player added before it is.
		last, err := tx.LastUndoable(id)
		if err != nil || last.ID != log[1].ID {
			t.Errorf("LastUndoable = entry %d (%s), %v; want entry %d", last.ID, last.Action, err, log[1].ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpgradeKeepsPairingModel: a tournament of schema 4 (before the pairing
// model was a setting) was paired with otd's model then, plain, and keeps it
// after the upgrade; a new one gets papp.
func TestUpgradeKeepsPairingModel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	func() {
		withMigrations(t, 4, nil)
		s := open(t, path)
		defer s.Close()
		if _, err := s.db.Exec(`INSERT INTO tournament (name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed, created)
			VALUES ('Old', 5, 'swiss', 'nearest', 'complete', 2, 'points,bq,discs', 'rating', 1, '2026-11-22T10:00:00Z')`); err != nil {
			t.Fatal(err)
		}
	}()
	withMigrations(t, 0, nil)
	s := open(t, path)
	defer s.Close()
	newID := storetest.Create(t, s, tournament.DefaultSettings("New", 5))
	err := s.View(context.Background(), func(tx tournament.Tx) error {
		for id, want := range map[int64]tournament.PairingModel{1: tournament.PairingPlain, newID: tournament.PairingPapp} {
			tm, err := tx.Load(id)
			if err != nil {
				return err
			}
			if tm.Pairing != want {
				t.Errorf("tournament %d (%s): pairing %q, want %q", id, tm.Name, tm.Pairing, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNameKey: schema 10 gives the tournaments of an older database their
// name keys, by which the unique index then refuses a name that another
// tournament has whatever the case, with a *tournament.DuplicateError
// naming it.
func TestNameKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	func() {
		withMigrations(t, 9, nil)
		s := open(t, path)
		for _, name := range []string{"Łódź Open", "Club"} {
			if _, err := s.db.Exec(`INSERT INTO tournament (name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed, created)
			VALUES (?, 5, 'swiss', 'nearest', 'complete', 2, 'points,bq,discs', 'rating', 1, '2026-11-22T10:00:00Z')`, name); err != nil {
				t.Fatal(err)
			}
		}
	}()
	withMigrations(t, 0, nil)
	s := open(t, path)
	var keys []string
	rows, err := s.db.Query("SELECT name_key FROM tournament ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		rows.Scan(&k)
		keys = append(keys, k)
	}
	rows.Close()
	if want := []string{"ŁÓDŹ OPEN", "CLUB"}; !slices.Equal(keys, want) {
		t.Errorf("name keys after the upgrade %q; want %q", keys, want)
	}
	try := func(fn func(tx tournament.Tx) error) error {
		return s.Update(context.Background(), fn)
	}
	var dup *tournament.DuplicateError
	err = try(func(tx tournament.Tx) error {
		_, err := tx.Create(tournament.DefaultSettings("łódź open", 3))
		return err
	})
	if !errors.As(err, &dup) || dup.ID != 1 || dup.Name != "Łódź Open" || !errors.Is(err, tournament.ErrDuplicate) {
		t.Errorf("a second Łódź Open: %v; want tournament 1's DuplicateError", err)
	}
	// The rest of the names' rules is the Storage contract's (storetest).
}

// TestKeepPappCountry: schema 11 keeps, for the tournaments of older
// databases, the compatriots' cost the papp model had when they were paired
// (2 in round 1, 0 after), written into their models; a model that set it,
// and plain, stay as they were.
func TestKeepPappCountry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	models := []string{"papp", "papp,elitism=none", "papp,country=3", "plain", "plain,gap=1"}
	func() {
		withMigrations(t, 10, nil)
		s := open(t, path)
		for i, m := range models {
			if _, err := s.db.Exec(`INSERT INTO tournament (name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed, created, pairing, name_key)
			VALUES (?, 5, 'swiss', 'nearest', 'complete', 2, 'points,bq,discs', 'rating', 1, '2026-11-22T10:00:00Z', ?, ?)`, fmt.Sprint("T", i), m, fmt.Sprint("t", i)); err != nil {
				t.Fatal(err)
			}
		}
	}()
	withMigrations(t, 0, nil)
	s := open(t, path)
	want := []string{"papp,country=2/0", "papp,country=2/0,elitism=none", "papp,country=3", "plain", "plain,gap=1"}
	err := s.View(context.Background(), func(tx tournament.Tx) error {
		for i, w := range want {
			tm, err := tx.Load(int64(i + 1))
			if err != nil {
				return err
			}
			if string(tm.Pairing) != w {
				t.Errorf("%q after the upgrade: %q; want %q", models[i], tm.Pairing, w)
			}
			weights, err := tm.Pairing.Weights()
			if err != nil {
				return err
			}
			if models[i] == "papp" && !slices.Equal(weights.Country, []int64{2, 0}) {
				t.Errorf("papp's compatriots after the upgrade: %v; want 2/0", weights.Country)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
