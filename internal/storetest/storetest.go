// Package storetest is the test suite of the tournament.Storage contract,
// run by every store against its engine (store/sqlite, store/postgres,
// internal/memstore): Save and Load of every kind of entity, the audit trail
// and undo, unique names, rolled-back updates, and, where the store has them,
// Changes (app.Watcher), Backup and Restore (app.Backuper) and
// the engine-neutral copy (app.Mover). What is one engine's own (files,
// migrations, the server's errors) is tested beside that engine.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// Options of an Open.
type Options struct {
	Now      func() time.Time // the audit trail's clock
	ReadOnly bool             // a store that refuses to write and sees what others commit
}

// Open opens a store on one database, closed when the test ends, with the
// features the store hands over (its App); a zero Store for options the
// engine has not (ReadOnly of a store in memory).
type Open func(t *testing.T, o Options) app.Store

// NewDB makes a new, empty database for a test and returns how to open it.
type NewDB func(t *testing.T) Open

// Run runs the suite: each test on databases that newDB makes.
func Run(t *testing.T, newDB NewDB) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, NewDB)
	}{
		{"SaveLoad", testSaveLoad},
		{"SaveLog", testSaveLog},
		{"LastUndoable", testLastUndoable},
		{"UpdateRollsBack", testUpdateRollsBack},
		{"CurrentUseDelete", testCurrentUseDelete},
		{"NamesUnique", testNamesUnique},
		{"ConcurrentDirectors", testConcurrentDirectors},
		{"Changes", testChanges},
		{"BackupRestore", testBackupRestore},
		{"Tables", testTables},
		{"CopyTo", testCopyTo},
		{"Venue", testVenue},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, newDB) })
	}
}

// Fixed is the suite's audit clock.
var Fixed = func() time.Time { return time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC) }

// open makes a new database and opens it with the Fixed clock.
func open(t *testing.T, newDB NewDB) app.Store {
	t.Helper()
	return newDB(t)(t, Options{Now: Fixed})
}

// Create stores a new tournament with settings s and returns its id.
func Create(t *testing.T, s tournament.Storage, settings tournament.Settings) int64 {
	t.Helper()
	var id int64
	if err := s.Update(context.Background(), func(tx tournament.Tx) (err error) {
		id, err = tx.Create(settings)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return id
}

// Save writes changes of tournament id in one transaction and returns their
// audit entries' ids.
func Save(t *testing.T, s tournament.Storage, id int64, changes ...tournament.Change) []int64 {
	t.Helper()
	var ids []int64
	if err := s.Update(context.Background(), func(tx tournament.Tx) error {
		for _, c := range changes {
			e, err := tx.Save(id, c)
			if err != nil {
				return err
			}
			ids = append(ids, e)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return ids
}

// Must returns the change of a domain operation, failing the test on an error.
func Must(t *testing.T) func(tournament.Change, error) tournament.Change {
	return func(c tournament.Change, err error) tournament.Change {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}

// normTournament and NormState make a value comparable with what the store
// reads back: an empty slice is nil, as the store (and JSON's omitempty)
// gives it.
func normTournament(tm tournament.Tournament) tournament.Tournament {
	tm.Players = normPlayers(tm.Players)
	tm.Games = nilIfEmpty(tm.Games)
	tm.FinalGames = nilIfEmpty(tm.FinalGames)
	tm.Forbidden, tm.RoundRules = nilIfEmpty(tm.Forbidden), nilIfEmpty(tm.RoundRules)
	return tm
}

func NormState(s tournament.State) tournament.State {
	s.Players = normPlayers(s.Players)
	s.Games = nilIfEmpty(s.Games)
	s.Results = nilIfEmpty(s.Results)
	s.FinalGames = nilIfEmpty(s.FinalGames)
	s.Forbidden, s.RoundRules = nilIfEmpty(s.Forbidden), nilIfEmpty(s.RoundRules)
	return s
}

func normPlayers(ps []tournament.Player) []tournament.Player {
	if len(ps) == 0 {
		return nil
	}
	ps = slices.Clone(ps)
	for i := range ps {
		ps[i].Absent = nilIfEmpty(ps[i].Absent)
	}
	return ps
}

func nilIfEmpty[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}

// step is one change of TestSaveLoad: a domain operation on the tournament
// in memory, or, with undo, the undo of the newest undoable audit entry,
// which must be of that kind.
type step struct {
	name string
	op   func(*tournament.Tournament) (tournament.Change, error)
	undo tournament.Action
}

func result(r, table, black, white int, timeDefault tournament.Color, correct bool) func(*tournament.Tournament) (tournament.Change, error) {
	return func(tm *tournament.Tournament) (tournament.Change, error) {
		return tm.RecordResult(tournament.At(r, table), tournament.ResultInput{Black: black, White: white, HasScore: true, TimeDefault: timeDefault}, correct)
	}
}

func addPlayer(name string, id, rating int, country string) func(*tournament.Tournament) (tournament.Change, error) {
	return func(tm *tournament.Tournament) (tournament.Change, error) {
		return tm.AddPlayer(tournament.PlayerInput{Name: name, WOFID: id, Rating: rating, Country: country})
	}
}

// testSaveLoad writes a tournament change by change, a change of every kind,
// each with Save, and after each one reads it back with Load: the store
// holds what the domain holds in memory. At the end, Log gives back every
// change as it was saved.
// born is the op that enters player n's birth b.
func born(n int, b tournament.Born) tournament.Op {
	return func(tm *tournament.Tournament) (tournament.Change, error) {
		return tm.EnterPlayer(n, tournament.PlayerEntry{Born: &b})
	}
}

func testSaveLoad(t *testing.T, newDB NewDB) {
	s := open(t, newDB)
	ctx := context.Background()
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
	tm.ID = Create(t, s, tm.Settings)
	cyd, rating := "Cyd", 1500
	steps := []step{
		{name: "add Ann", op: addPlayer("Ann", 1234, 1900, "GB")},
		{name: "add Bob", op: addPlayer("Bob", 0, 1700, "")},
		{name: "add Cy", op: addPlayer("Cy", 0, 0, "FR")},
		{name: "add Dee", op: addPlayer("Dee", 0, 1600, "NL")},
		{name: "edit Cy", op: func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.EditPlayer(3, tournament.PlayerEdit{Name: &cyd, Rating: &rating})
		}},
		{name: "remove Bob", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.RemovePlayer(2) }},
		{name: "undo the removal", undo: tournament.ActPlayerRemove},
		{name: "remove Bob again", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.RemovePlayer(2) }},
		{name: "add Bob last", op: addPlayer("Bob", 0, 1700, "")},
		{name: "Cyd absent round 1", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.MarkAbsent(2, 1) }},
		// A birth is kept as given: a date, or a year alone.
		{name: "Cyd born 2009-05-01", op: born(2, tournament.Born{Year: 2009, Month: 5, Day: 1})},
		{name: "Dee born 1961", op: born(3, tournament.BornIn(1961))},
		{name: "Dee born 1961-12-31", op: born(3, tournament.Born{Year: 1961, Month: 12, Day: 31})},
		{name: "undo Dee's date", undo: tournament.ActPlayerEdit},
		{name: "settings", op: func(tm *tournament.Tournament) (tournament.Change, error) {
			s := tm.Settings
			s.Name, s.Rounds, s.BQ, s.ByePoints = "Club Open", 4, scoring.BQRule{Kind: scoring.WOF}, scoring.Half
			s.TieBreaks = scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs}
			s.NewIDs = tournament.IDRange{From: 50321, To: 59999}
			return tm.ChangeSettings(s)
		}},
		{name: "pair round 1", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Pair(tournament.PairOptions{}) }},
		{name: "unpair round 1", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Unpair() }},
		{name: "undo the unpairing", undo: tournament.ActRoundUnpair},
		{name: "result", op: result(1, 1, 33, 31, tournament.White, false)},
		{name: "correction", op: result(1, 1, 40, 24, "", true)},
		{name: "undo the correction", undo: tournament.ActResultCorrect},
		{name: "withdraw Ann", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Withdraw(1) }},
		{name: "late entry", op: addPlayer("Eve", 77, 2000, "JP")},
		{name: "pair round 2", op: func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{5, 2}, {3, 4}}})
		}},
		{name: "undo the pairing", undo: tournament.ActRoundPair},
		{name: "undo the late entry", undo: tournament.ActPlayerAdd},
		{name: "forbid 2-4", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Forbid(4, 2, "travel together") }},
		{name: "forbid 3-4", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Forbid(3, 4, "") }},
		{name: "allow 3-4", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Allow(4, 3) }},
		{name: "undo the allowing", undo: tournament.ActPairAllow},
		{name: "pair round 2 under the rules", op: func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.Pair(tournament.PairOptions{Forbidden: [][2]int{{3, 4}}})
		}},
		{name: "unpair round 2", op: func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Unpair() }},
		{name: "undo the unpairing of round 2", undo: tournament.ActRoundUnpair},
	}
	var saved []tournament.Change
	for _, st := range steps {
		err := s.Update(ctx, func(tx tournament.Tx) error {
			var c tournament.Change
			var err error
			var undone tournament.Entry
			if st.undo == "" {
				c, err = st.op(tm)
			} else {
				if undone, err = tx.LastUndoable(tm.ID); err != nil {
					return err
				}
				if undone.Action != st.undo {
					return fmt.Errorf("the newest undoable entry is %d (%s %s), want a %s", undone.ID, undone.Action, undone.Subject, st.undo)
				}
				c, err = tm.Undo(undone.ID, undone.Change)
			}
			if err != nil {
				return err
			}
			e, err := tx.Save(tm.ID, c)
			if err != nil {
				return err
			}
			saved = append(saved, c)
			if st.undo != "" {
				return tx.MarkUndone(undone.ID, e)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if err := tm.Validate(); err != nil {
			t.Fatalf("%s: the tournament in memory: %v", st.name, err)
		}
		if err := s.View(ctx, func(tx tournament.Tx) error {
			got, err := tx.Load(tm.ID)
			if err != nil {
				return err
			}
			if g, w := normTournament(*got), normTournament(*tm); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: Load:\n got %+v\nwant %+v", st.name, g, w)
			}
			return nil
		}); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
	}
	// The tournament went through every kind of entity.
	if tm.Paired() != 2 || len(tm.Players) != 4 || tm.Players[0].Left != 2 || !slices.Equal(tm.Players[1].Absent, []int{1}) ||
		tm.Games[0].Result == nil || tm.Games[0].Result.Kind != tournament.TimeDefault || tm.Players[0].WOFID != 1234 ||
		len(tm.Forbidden) != 2 || len(tm.RoundRules) != 1 || !slices.Equal(tm.RoundRules[0].Forbidden, [][2]int{{2, 4}, {3, 4}}) {
		t.Errorf("the steps did not leave the tournament expected: %+v", tm)
	}

	var log []tournament.Entry
	if err := s.View(ctx, func(tx tournament.Tx) (err error) {
		log, err = tx.Log(tm.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(log) != len(saved) {
		t.Fatalf("Log: %d entries, want %d", len(log), len(saved))
	}
	for i, e := range log {
		checkEntry(t, e, saved[i])
		if i > 0 && e.ID <= log[i-1].ID {
			t.Errorf("Log: entry %d after entry %d: not oldest first", e.ID, log[i-1].ID)
		}
		// Each undo marks the entry it undid, and only that one.
		if e.Action == tournament.ActUndo {
			i := slices.IndexFunc(log, func(f tournament.Entry) bool { return f.UndoneBy == e.ID })
			if i < 0 || string(log[i].Action)+": "+log[i].Summary() != e.Subject {
				t.Errorf("undo entry %d (%s): the entry it undid is not marked undone by it", e.ID, e.Subject)
			}
		}
	}
}

// checkEntry checks an audit entry read back against the change saved.
func checkEntry(t *testing.T, e tournament.Entry, want tournament.Change) {
	t.Helper()
	if e.Version != want.Version || e.Version != tournament.ChangeVersion || e.Action != want.Action || e.Subject != want.Subject ||
		!reflect.DeepEqual(e.Actor, want.Actor) || !slices.Equal(e.Notes, want.Notes) || !reflect.DeepEqual(NormState(e.Before), NormState(want.Before)) || !reflect.DeepEqual(NormState(e.After), NormState(want.After)) {
		t.Errorf("entry %d read back:\n got %+v\nwant %+v", e.ID, e.Change, want)
	}
	if !e.At.Equal(Fixed()) {
		t.Errorf("entry %d: at %v, want %v", e.ID, e.At, Fixed())
	}
}

// testSaveLog: a change of every part of a State is read back by Log as it
// was saved, a State with nothing in it included.
func testSaveLog(t *testing.T, newDB NewDB) {
	s := open(t, newDB)
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 2)}
	tm.ID = Create(t, s, tm.Settings)
	m := Must(t)
	old := tm.Settings
	changes := []tournament.Change{
		{Version: tournament.ChangeVersion, Action: tournament.ActTournamentNew, Subject: "Club", After: tournament.State{Settings: &old}},
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Ann \"A\" Ärcher", WOFID: 9, Rating: 1900, Country: "gb"})),
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Bob"})),
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Cy"})),
		m(tm.MarkAbsent(3, 2)),
		m(tm.Pair(tournament.PairOptions{})),
		m(tm.RecordResult(tournament.At(1, 1), tournament.ResultInput{Black: 30, White: 20, HasScore: true, TimeDefault: tournament.Black}, false)),
		m(tm.RecordResult(tournament.At(1, 1), tournament.ResultInput{Forfeit: tournament.White}, true)),
		m(tm.Withdraw(2)),
		m(tm.ChangeSettings(func() tournament.Settings { s := tm.Settings; s.Name = "Club Open"; return s }())),
	}
	// Who made each change, and its notes, are read back as they were.
	changes[5].Actor = tournament.Actor{Kind: tournament.ByReport, Side: tournament.Black, Game: "round 1 table 1", Address: "192.168.1.7"}
	changes[6].Notes = []string{"a note; with its own semicolon", "another"}
	changes[7].Actor = tournament.Actor{Kind: tournament.ByCommandLine, Name: "alice"}
	changes[8].Actor = tournament.Actor{Kind: tournament.ByWorker, Name: "w1@host"}
	ids := Save(t, s, tm.ID, changes...)
	if err := s.View(context.Background(), func(tx tournament.Tx) error {
		log, err := tx.Log(tm.ID)
		if err != nil {
			return err
		}
		if len(log) != len(changes) {
			t.Fatalf("Log: %d entries, want %d", len(log), len(changes))
		}
		for i, e := range log {
			if e.ID != ids[i] || e.UndoneBy != 0 {
				t.Errorf("entry %d: id %d, undone by %d; want id %d, not undone", i, e.ID, e.UndoneBy, ids[i])
			}
			checkEntry(t, e, changes[i])
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// testLastUndoable: the newest entry of the tournament that is undoable and
// not undone yet; the creation of a tournament, an import and an undo are
// skipped, and so are the entries of other tournaments.
func testLastUndoable(t *testing.T, newDB NewDB) {
	// One database for all the cases: each has tournaments of its own.
	s := open(t, newDB)
	for _, tc := range []struct {
		name  string
		steps []string // new, import, add, undo (the newest add not undone), mark (the newest add marked undone)
		want  int      // the index of the step expected, -1: ErrNothingToUndo
	}{
		{"nothing", nil, -1},
		{"only the creation", []string{"new"}, -1},
		{"only an import", []string{"import"}, -1},
		{"the newest", []string{"new", "add", "add"}, 2},
		{"after an import", []string{"import", "add"}, 1},
		{"an import after a change", []string{"new", "add", "import"}, 1},
		{"an undo and what it undid", []string{"new", "add", "add", "undo"}, 1},
		{"two undos", []string{"new", "add", "add", "undo", "undo"}, -1},
		{"marked undone", []string{"new", "add", "mark"}, -1},
		{"an undone entry under a newer one", []string{"new", "add", "add", "undo", "add"}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club "+tc.name, 3)}
			tm.ID = Create(t, s, tm.Settings)
			other := &tournament.Tournament{Settings: tournament.DefaultSettings("Other "+tc.name, 3)}
			other.ID = Create(t, s, other.Settings)
			m := Must(t)
			var ids []int64
			var changes []tournament.Change
			var adds []int // steps of the adds not undone, newest last
			for i, st := range tc.steps {
				var c tournament.Change
				undid := -1 // the step this one undoes
				switch st {
				case "new": // as Director.Create writes it
					settings := tm.Settings
					c = tournament.Change{Version: tournament.ChangeVersion, Action: tournament.ActTournamentNew, Subject: tm.Name, After: tournament.State{Settings: &settings}}
				case "import": // as Director.Import writes it
					c = m(tm.AddPlayer(tournament.PlayerInput{Name: fmt.Sprint("Imported ", i)}))
					c.Action, c.Subject = tournament.ActImport, "players.elo"
				case "add":
					c = m(tm.AddPlayer(tournament.PlayerInput{Name: fmt.Sprint("Player ", i)}))
					adds = append(adds, i)
				case "undo":
					undid, adds = adds[len(adds)-1], adds[:len(adds)-1]
					c = m(tm.Undo(ids[undid], changes[undid]))
				case "mark": // an entry marked undone without an undo entry of this tournament
					a := adds[len(adds)-1]
					adds = adds[:len(adds)-1]
					if err := s.Update(ctx, func(tx tournament.Tx) error { return tx.MarkUndone(ids[a], ids[a]+1000) }); err != nil {
						t.Fatal(err)
					}
					ids, changes = append(ids, 0), append(changes, tournament.Change{})
					continue
				default:
					t.Fatalf("step %q", st)
				}
				ids = append(ids, Save(t, s, tm.ID, c)[0])
				changes = append(changes, c)
				if undid >= 0 { // as Director.Undo does, in a transaction of its own here
					if err := s.Update(ctx, func(tx tournament.Tx) error { return tx.MarkUndone(ids[undid], ids[i]) }); err != nil {
						t.Fatal(err)
					}
				}
			}
			// A newer undoable change of another tournament.
			Save(t, s, other.ID, m(other.AddPlayer(tournament.PlayerInput{Name: "Elsewhere"})))
			err := s.View(ctx, func(tx tournament.Tx) error {
				last, err := tx.LastUndoable(tm.ID)
				if tc.want < 0 {
					if !errors.Is(err, tournament.ErrNothingToUndo) {
						t.Errorf("LastUndoable = entry %d (%s), %v; want %v", last.ID, last.Action, err, tournament.ErrNothingToUndo)
					}
					return nil
				}
				if err != nil {
					return err
				}
				if last.ID != ids[tc.want] || last.UndoneBy != 0 {
					t.Errorf("LastUndoable = entry %d (%s %s, undone by %d); want entry %d", last.ID, last.Action, last.Subject, last.UndoneBy, ids[tc.want])
				}
				checkEntry(t, last, changes[tc.want])
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A failed action changes nothing: the transaction rolls back, the tournament
// created, the change saved and its audit row alike.
func testUpdateRollsBack(t *testing.T, newDB NewDB) {
	s := open(t, newDB)
	ctx := context.Background()
	boom := errors.New("boom")
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("A", 1)}
	c := Must(t)(tm.AddPlayer(tournament.PlayerInput{Name: "Ann"}))
	err := s.Update(ctx, func(tx tournament.Tx) error {
		id, err := tx.Create(tm.Settings)
		if err != nil {
			return err
		}
		if _, err := tx.Save(id, c); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	s.View(ctx, func(tx tournament.Tx) error {
		if l, err := tx.List(); len(l) != 0 || err != nil {
			t.Errorf("tournaments after a rolled-back action: %v, %v", l, err)
		}
		if _, err := tx.Current(); !errors.Is(err, tournament.ErrNoTournament) {
			t.Errorf("Current() after a rolled-back action: %v, want %v", err, tournament.ErrNoTournament)
		}
		return nil
	})
	if s.Move != nil {
		tables, err := s.Move.Tables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range tables {
			if len(tb.Rows) != 0 {
				t.Errorf("after a rolled-back action: %d rows in table %s", len(tb.Rows), tb.Name)
			}
		}
	}
	// The name is free again, and nothing of the rolled-back change is its.
	id := Create(t, s, tm.Settings)
	s.View(ctx, func(tx tournament.Tx) error {
		got, err := tx.Load(id)
		log, err2 := tx.Log(id)
		if err != nil || err2 != nil || len(got.Players) != 0 || len(log) != 0 {
			t.Errorf("the tournament made again after the rollback: %v, %v, %+v, log %v", err, err2, got, log)
		}
		return nil
	})
}

// testCurrentUseDelete: the current tournament is the one last created or
// chosen with Use, else the newest; Use and Delete of an unknown id are
// refused with a *tournament.NotFoundError; Delete takes a tournament with
// its players, games and audit trail, and leaves the others.
func testCurrentUseDelete(t *testing.T, newDB NewDB) {
	s := open(t, newDB)
	ctx := context.Background()
	current := func() (id int64, err error) {
		err = s.View(ctx, func(tx tournament.Tx) (err error) { id, err = tx.Current(); return err })
		return id, err
	}
	if _, err := current(); !errors.Is(err, tournament.ErrNoTournament) {
		t.Errorf("Current() of an empty database: %v; want ErrNoTournament", err)
	}
	d := app.New(s)
	a, err := d.Create(ctx, tournament.DefaultSettings("A", 3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Create(ctx, tournament.DefaultSettings("B", 3))
	if err != nil {
		t.Fatal(err)
	}
	if id, err := current(); id != b.ID || err != nil {
		t.Errorf("Current() after creating B: %d, %v; want %d", id, err, b.ID)
	}
	if err := d.Use(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if id, err := current(); id != a.ID || err != nil {
		t.Errorf("Current() after Use(A): %d, %v; want %d", id, err, a.ID)
	}
	var nf *tournament.NotFoundError
	if err := d.Use(ctx, 99); !errors.As(err, &nf) || nf.ID != 99 {
		t.Errorf("Use(99): %v; want tournament 99 not found", err)
	}
	for _, name := range []string{"Ann", "Bob"} {
		if _, _, err := d.DoForTest(ctx, a.ID, func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.AddPlayer(tournament.PlayerInput{Name: name})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := d.DoForTest(ctx, a.ID, func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Pair(tournament.PairOptions{}) },
		func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.RecordResult(tournament.At(1, 1), tournament.ResultInput{Black: 40, White: 24, HasScore: true}, false)
		}); err != nil {
		t.Fatal(err)
	}
	if err := d.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Tournament(ctx, a.ID); !errors.As(err, &nf) {
		t.Errorf("a deleted tournament read: %v; want not found", err)
	}
	if err := d.Delete(ctx, a.ID); !errors.As(err, &nf) {
		t.Errorf("a deleted tournament deleted again: %v; want not found", err)
	}
	if list, err := d.Tournaments(ctx); err != nil || len(list) != 1 || list[0].ID != b.ID || !list[0].Current {
		t.Errorf("the tournaments after deleting A: %+v, %v; want B alone, current", list, err)
	}
	if _, log, err := d.Log(ctx, b.ID); err != nil || len(log) != 1 {
		t.Errorf("B's log after deleting A: %v, %v; want its creation alone", log, err)
	}
}

// testNamesUnique: a name that another tournament has, whatever the case, is
// refused at creation and at a rename, with a *tournament.DuplicateError
// naming it; a tournament may take its own name in another case, and other
// names pass.
func testNamesUnique(t *testing.T, newDB NewDB) {
	s := open(t, newDB)
	ctx := context.Background()
	lodz := Create(t, s, tournament.DefaultSettings("Łódź Open", 5))
	club := Create(t, s, tournament.DefaultSettings("Club", 5))
	try := func(fn func(tx tournament.Tx) error) error { return s.Update(ctx, fn) }
	var dup *tournament.DuplicateError
	err := try(func(tx tournament.Tx) error {
		_, err := tx.Create(tournament.DefaultSettings("łódź open", 3))
		return err
	})
	if !errors.As(err, &dup) || dup.ID != lodz || dup.Name != "Łódź Open" || !errors.Is(err, tournament.ErrDuplicate) {
		t.Errorf("a second Łódź Open: %v; want tournament %d's DuplicateError", err, lodz)
	}
	rename := func(id int64, name string) error {
		s := tournament.DefaultSettings(name, 5)
		c := tournament.Change{Version: tournament.ChangeVersion, Action: tournament.ActSettings, Subject: "name", After: tournament.State{Settings: &s}}
		return try(func(tx tournament.Tx) error { _, err := tx.Save(id, c); return err })
	}
	if err := rename(lodz, "CLUB"); !errors.As(err, &dup) || dup.ID != club {
		t.Errorf("a rename to another's name: %v; want tournament %d's DuplicateError", err, club)
	}
	if err := rename(club, "club"); err != nil {
		t.Errorf("a tournament renamed to its own name in another case: %v", err)
	}
	if err := try(func(tx tournament.Tx) error {
		_, err := tx.Create(tournament.DefaultSettings("Lodz Open", 3))
		return err
	}); err != nil {
		t.Errorf("another name: %v", err)
	}
}

// testConcurrentDirectors: two Directors, each over its own store on one
// database, add players to one tournament at once; each addition numbers the
// player after those it reads, so a change made on a stale read would take
// another's number and lose it. None is lost: every player is there, once,
// numbered in order, with its audit entry.
func testConcurrentDirectors(t *testing.T, newDB NewDB) {
	const each = 25
	db := newDB(t)
	ctx := context.Background()
	first := app.New(db(t, Options{Now: Fixed}))
	tm, err := first.Create(ctx, tournament.DefaultSettings("Club", 3))
	if err != nil {
		t.Fatal(err)
	}
	directors := []*app.Director{first, app.New(db(t, Options{Now: Fixed}))}
	var wg sync.WaitGroup
	errs := make(chan error, 2*each)
	for i, d := range directors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				name := fmt.Sprintf("Player %c%d", 'A'+i, n)
				add := func(tm *tournament.Tournament) (tournament.Change, error) {
					return tm.AddPlayer(tournament.PlayerInput{Name: name})
				}
				for {
					_, _, err := d.DoForTest(ctx, tm.ID, add)
					if !errors.Is(err, tournament.ErrBusy) { // refused: try again
						errs <- err
						break
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, log, err := first.Log(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for i, p := range got.Players {
		if p.Number != i+1 || names[p.Name] {
			t.Errorf("player %d: %+v (numbered out of order or twice)", i+1, p)
		}
		names[p.Name] = true
	}
	if len(names) != 2*each || len(log) != 2*each+1 {
		t.Errorf("%d players, %d audit entries after %d additions; want %d and %d", len(names), len(log), 2*each, 2*each, 2*each+1)
	}
}

// testChanges: a store (read-only where the engine has that) reports on
// Changes each change another store commits to the database, and nothing
// before it, and reads it; the channel closes when the context ends. A
// read-only store refuses to write.
func testChanges(t *testing.T, newDB NewDB) {
	db := newDB(t)
	w := app.New(db(t, Options{Now: Fixed}))
	ctx := context.Background()
	club, err := w.Create(ctx, tournament.DefaultSettings("Club", 3))
	if err != nil {
		t.Fatal(err)
	}
	ro := db(t, Options{Now: Fixed, ReadOnly: true})
	if ro.Storage == nil {
		ro = db(t, Options{Now: Fixed})
	} else if err := ro.Update(ctx, func(tournament.Tx) error { return nil }); !errors.Is(err, tournament.ErrReadOnly) {
		t.Errorf("Update on a read-only store: %v; want ErrReadOnly", err)
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	changes, err := app.New(ro).Changes(wctx)
	if errors.Is(err, app.ErrNoWatch) {
		t.Skipf("%T reports no changes", ro)
	}
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-changes:
		t.Fatal("a change before any")
	case <-time.After(100 * time.Millisecond):
	}
	if _, _, err := w.DoForTest(ctx, club.ID, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.AddPlayer(tournament.PlayerInput{Name: "Ann Archer"})
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changes:
	case <-time.After(2 * time.Second):
		t.Fatal("no change reported within 2 s of a commit")
	}
	if tm, err := app.New(ro).Tournament(ctx, club.ID); err != nil || len(tm.Players) != 1 {
		t.Errorf("the watching store reads %v, %v; want the new player", tm, err)
	}
	stop()
	for range changes { // closed when the context ends
	}
}

// event writes a small event through the Director: players, a round paired
// and played, a forbidden pair, an undo, a second tournament.
func event(t *testing.T, s app.Store) *app.Director {
	t.Helper()
	ctx := context.Background()
	d := app.New(s)
	tm, err := d.Create(ctx, tournament.DefaultSettings("Club Open", 3))
	if err != nil {
		t.Fatal(err)
	}
	ops := []tournament.Op{
		func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.AddPlayer(tournament.PlayerInput{Name: "Ann \"A\" Ärcher", WOFID: 9, Rating: 1900, Country: "GB"})
		},
		func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.AddPlayer(tournament.PlayerInput{Name: "Bob"})
		},
		func(tm *tournament.Tournament) (tournament.Change, error) {
			return tm.AddPlayer(tournament.PlayerInput{Name: "Cy"})
		},
		func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Forbid(1, 3, "family") },
		func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Pair(tournament.PairOptions{}) },
	}
	for _, op := range ops {
		if _, _, err := d.DoForTest(ctx, tm.ID, op); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := d.DoForTest(ctx, tm.ID, func(tm *tournament.Tournament) (tournament.Change, error) {
		g := tm.Round(1)[0]
		return tm.RecordResult(tournament.At(1, g.Table), tournament.ResultInput{Black: 33, White: 31, HasScore: true, TimeDefault: tournament.White}, false)
	}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Undo(ctx, tm.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx tournament.Tx) error {
		tm, err := tx.Load(tm.ID)
		if err != nil {
			return err
		}
		g := tm.Round(1)[0]
		if err := tx.PutVenueKeys(tm.ID, venueKeys); err != nil {
			return err
		}
		return tx.PutReport(tm.ID, tournament.Report{Game: g.Ref(), Side: tournament.White, Black: 30, White: 34, Moves: "f5d6",
			ForBlack: g.Black, ForWhite: g.White, Address: "192.168.1.9", At: Fixed()})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Create(ctx, tournament.DefaultSettings("Other", 5)); err != nil {
		t.Fatal(err)
	}
	return d
}

// venueKeys are the event's venue keys.
var venueKeys = tournament.VenueKeys{Secret: []byte{0, 1, 2, 0xfe, 0xff}, PasswordHash: []byte("$2a$10$abcdefghijklmnopqrstuv"),
	CertPEM: []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), KeyPEM: []byte("-----BEGIN PRIVATE KEY-----\nBBBB\n-----END PRIVATE KEY-----\n")}

// content is what a Director reads of every tournament of s: settings,
// players, games, rules and audit trail, its venue keys and reports, as text.
func content(t *testing.T, db app.Store) string {
	t.Helper()
	ctx := context.Background()
	d := app.New(db)
	list, err := d.Tournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.Encode(list)
	for _, s := range list {
		tm, log, err := d.Log(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		enc.Encode(normTournament(*tm))
		for _, e := range log {
			enc.Encode(e)
		}
		if err := db.View(ctx, func(tx tournament.Tx) error {
			k, err := tx.VenueKeys(s.ID)
			if err != nil {
				return err
			}
			rs, err := tx.Reports(s.ID)
			enc.Encode(k)
			enc.Encode(rs)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// testBackupRestore: a backup taken while the store is open is a file that
// holds something; a store restored from another one (a snapshot of the
// event, later changed) holds what that one holds, every tournament and its
// audit trail, over its own later changes; before runs first, and its error
// stops the restore.
func testBackupRestore(t *testing.T, newDB NewDB) {
	s := open(t, newDB)
	if s.Backup == nil {
		t.Skipf("%T makes no backups", s.Storage)
	}
	ctx := context.Background()
	d := event(t, s)
	path := filepath.Join(t.TempDir(), "backup")
	if err := d.Backup(ctx, path); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("the backup file: %v, %v", fi, err)
	}
	snap := open(t, newDB)
	snapshot := event(t, snap)
	want := content(t, snap)
	if !strings.Contains(want, `"Address":"192.168.1.9"`) || !strings.Contains(want, `"CertPEM"`) {
		t.Fatalf("the event's content lacks its venue keys or report:\n%s", want)
	}
	if _, err := d.Create(ctx, tournament.DefaultSettings("Later", 3)); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	if _, err := d.Restore(ctx, snapshot, func() error { return stop }); !errors.Is(err, stop) {
		t.Errorf("Restore with before failing: %v; want its error", err)
	}
	if n, err := d.Restore(ctx, snapshot, nil); err != nil || n != 2 {
		t.Fatalf("Restore: %d, %v; want 2 tournaments", n, err)
	}
	if got := content(t, s); got != want {
		t.Errorf("restored:\n%s\nwant:\n%s", got, want)
	}
}

// Dump is a database's whole content as text, the same for the same content
// whatever the engine (app.Mover's Tables, a line a row: "table:
// column=value ..."); it skips the test for a store that gives no tables.
func Dump(t *testing.T, s app.Store) string {
	t.Helper()
	if s.Move == nil {
		t.Skipf("%T gives no tables", s.Storage)
	}
	tables, err := s.Move.Tables(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tb := range tables {
		for _, row := range tb.Rows {
			b.WriteString(tb.Name + ":")
			for i, v := range row {
				switch v := v.(type) {
				case nil:
					fmt.Fprintf(&b, " %s=NULL", tb.Columns[i])
				case string:
					fmt.Fprintf(&b, " %s=%q", tb.Columns[i], v)
				default:
					fmt.Fprintf(&b, " %s=%v", tb.Columns[i], v)
				}
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// withoutAudit drops the audit rows of a dump, which record the order in
// which the changes were made.
func withoutAudit(dump string) string {
	var out []string
	for _, l := range strings.SplitAfter(dump, "\n") {
		if !strings.HasPrefix(l, "audit:") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// testTables: the tables are deterministic: the same content gives the same
// tables, whatever the order it was written in, and any change shows; rows
// hold what was saved, every column by name.
func testTables(t *testing.T, newDB NewDB) {
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
	m := Must(t)
	changes := []tournament.Change{
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Ann \"A\"", Rating: 1900, Country: "GB"})),
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Bob"})),
		m(tm.MarkAbsent(2, 2)),
		m(tm.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}}})),
	}
	res := m(tm.RecordResult(tournament.At(1, 1), tournament.ResultInput{Black: 40, White: 24, HasScore: true}, false))
	var dumps []string
	// The players' rows written in the order of registration, then Bob's first.
	for _, order := range [][]int{{0, 1, 2, 3}, {1, 2, 0, 3}} {
		s := open(t, newDB)
		id := Create(t, s, tm.Settings)
		for _, i := range order {
			Save(t, s, id, changes[i])
		}
		dumps = append(dumps, Dump(t, s))
		if got := Dump(t, s); got != dumps[len(dumps)-1] {
			t.Fatalf("two dumps of one database differ:\n%s\n%s", got, dumps[len(dumps)-1])
		}
		if len(dumps) == 2 {
			Save(t, s, id, res)
			if withoutAudit(Dump(t, s)) == withoutAudit(dumps[1]) {
				t.Error("a result recorded does not change the dump")
			}
		}
	}
	if withoutAudit(dumps[0]) != withoutAudit(dumps[1]) {
		t.Errorf("the same content written in another order dumps differently:\n%s\n%s", dumps[0], dumps[1])
	}
	for _, want := range []string{
		`player: absent="" born=0 born_date="" categories="" country="GBR" engine="" fed_id=0 first_round=1 left_round=0 name="Ann \"A\"" new_id=0 number=1 rating=1900 team="" tournament_id=1` + "\n" +
			`player: absent="2" born=0 born_date="" categories="" country="" engine="" fed_id=0 first_round=1 left_round=0 name="Bob" new_id=0 number=2 rating=0 team="" tournament_id=1` + "\n",
		`game: black=1 black_discs=NULL board=1 category="" ending="" game=0 kind=NULL loser=NULL match="" moves="" note="" round=1 tournament_id=1 white=2 white_discs=NULL` + "\n",
		"audit: action=\"player add\" after=",
		`at="2026-11-22T10:00:00Z" before="" id=1 subject="player 1 (Ann \"A\")" tournament_id=1 undone=0 version=`,
		`setting: key="current" value="1"` + "\n",
		`tournament: created="2026-11-22T10:00:00Z" id=1 name_key="CLUB" settings="{\"name\":\"Club\",\"rounds\":3,\"system\":\"swiss\",\"bq\":\"nearest\",\"time_default\":\"complete\",\"bye_points\":1,\"tiebreaks\":\"points,bq,discs\",\"first_round\":\"rating\",\"seed\":1,\"pairing\":\"papp\",\"rules\":\"othello\"}" settings_version=2`,
	} {
		if !strings.Contains(dumps[0], want) {
			t.Errorf("the dump lacks %q:\n%s", want, dumps[0])
		}
	}
}

// testCopyTo: an event copied into a new database reads back the same and
// dumps the same, ids and audit trail included; the copy goes on numbering
// tournaments and audit entries after the copied ones; a copy over a
// database replaces all it held.
func testCopyTo(t *testing.T, newDB NewDB) {
	ctx := context.Background()
	src := open(t, newDB)
	if src.Move == nil {
		t.Skipf("%T gives no tables", src.Storage)
	}
	d := event(t, src)
	dst := open(t, newDB)
	to := app.New(dst)
	if _, err := to.Create(ctx, tournament.DefaultSettings("Replaced", 3)); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	if _, err := d.CopyTo(ctx, to, func() error { return stop }); !errors.Is(err, stop) {
		t.Errorf("CopyTo with before failing: %v; want its error", err)
	}
	n, err := d.CopyTo(ctx, to, nil)
	if err != nil || n != 2 {
		t.Fatalf("CopyTo: %d, %v; want 2 tournaments", n, err)
	}
	if got, want := Dump(t, dst), Dump(t, src); got != want {
		t.Errorf("the copy dumps\n%s\nwant\n%s", got, want)
	}
	if got, want := content(t, dst), content(t, src); got != want {
		t.Errorf("the copy reads\n%s\nwant\n%s", got, want)
	}
	list, err := d.Tournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, log, err := d.Log(ctx, list[len(list)-1].ID) // the newest tournament, with the newest entries
	if err != nil {
		t.Fatal(err)
	}
	later, err := to.Create(ctx, tournament.DefaultSettings("Later", 3))
	if err != nil {
		t.Fatal(err)
	}
	_, laterLog, err := to.Log(ctx, later.ID)
	if err != nil {
		t.Fatal(err)
	}
	if later.ID <= list[len(list)-1].ID || laterLog[0].ID <= log[len(log)-1].ID {
		t.Errorf("after the copy, a new tournament %d with audit entry %d; want them after the copied ones (%d, %d)",
			later.ID, laterLog[0].ID, list[len(list)-1].ID, log[len(log)-1].ID)
	}
}

// testVenue: a tournament's venue keys and reports (issue 31): none at
// first; keys read back as written, bytes for bytes, and replaced whole;
// a report replaces its game and side's, reports come back by game (the
// rounds' before the final games') and side, DeleteReports deletes the
// game's alone; a failed transaction leaves none; deleting the tournament
// deletes them.
func testVenue(t *testing.T, newDB NewDB) {
	ctx := context.Background()
	s := open(t, newDB)
	id := Create(t, s, tournament.DefaultSettings("Venue", 3))
	other := Create(t, s, tournament.DefaultSettings("Other", 3))
	read := func(id int64) (k tournament.VenueKeys, rs []tournament.Report) {
		t.Helper()
		if err := s.View(ctx, func(tx tournament.Tx) (err error) {
			if k, err = tx.VenueKeys(id); err != nil {
				return err
			}
			rs, err = tx.Reports(id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return k, rs
	}
	write := func(fn func(tx tournament.Tx) error) {
		t.Helper()
		if err := s.Update(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	if k, rs := read(id); !k.IsZero() || len(rs) != 0 {
		t.Fatalf("a new tournament has keys %+v, reports %+v; want none", k, rs)
	}
	write(func(tx tournament.Tx) error { return tx.PutVenueKeys(id, venueKeys) })
	if k, _ := read(id); !reflect.DeepEqual(k, venueKeys) {
		t.Errorf("keys read back %+v; want %+v", k, venueKeys)
	}
	if k, _ := read(other); !k.IsZero() {
		t.Errorf("another tournament has keys %+v", k)
	}
	onlySecret := tournament.VenueKeys{Secret: []byte("another secret of 32 bytes......")}
	write(func(tx tournament.Tx) error { return tx.PutVenueKeys(id, onlySecret) })
	if k, _ := read(id); !reflect.DeepEqual(k, onlySecret) {
		t.Errorf("keys replaced read back %+v; want %+v", k, onlySecret)
	}

	at := Fixed()
	r := func(g tournament.GameRef, side tournament.Color, b, w int, addr string) tournament.Report {
		return tournament.Report{Game: g, Side: side, Black: b, White: w, ForBlack: 3, ForWhite: 4, Address: addr, At: at}
	}
	final := tournament.GameRef{Match: "women:SF1", Game: 2}
	call := tournament.Report{Game: tournament.At(2, 1), Side: tournament.Black, Call: true, Moves: "f5d6c3", ForBlack: 1, ForWhite: 2, Address: "::1", At: at.Add(time.Second)}
	write(func(tx tournament.Tx) error {
		for _, x := range []tournament.Report{r(final, tournament.White, 20, 44, "10.0.0.5"), r(tournament.At(2, 1), tournament.White, 33, 31, "10.0.0.2"),
			r(tournament.At(2, 1), tournament.Black, 40, 24, "10.0.0.1"), call, r(tournament.At(1, 7), tournament.White, 64, 0, "10.0.0.3")} {
			if err := tx.PutReport(id, x); err != nil {
				return err
			}
		}
		return tx.PutReport(other, r(tournament.At(1, 7), tournament.Black, 1, 2, "10.0.0.9"))
	})
	want := []tournament.Report{r(tournament.At(1, 7), tournament.White, 64, 0, "10.0.0.3"), call,
		r(tournament.At(2, 1), tournament.White, 33, 31, "10.0.0.2"), r(final, tournament.White, 20, 44, "10.0.0.5")}
	if _, rs := read(id); !reflect.DeepEqual(rs, want) {
		t.Errorf("reports read back\n%+v\nwant\n%+v", rs, want)
	}
	boom := errors.New("boom")
	if err := s.Update(ctx, func(tx tournament.Tx) error {
		if err := tx.PutReport(id, r(tournament.At(3, 3), tournament.Black, 32, 32, "x")); err != nil {
			return err
		}
		if err := tx.DeleteReports(id, final); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, rs := read(id); !reflect.DeepEqual(rs, want) {
		t.Errorf("after a failed transaction, reports\n%+v\nwant\n%+v", rs, want)
	}
	write(func(tx tournament.Tx) error { return tx.DeleteReports(id, tournament.At(2, 1)) })
	if _, rs := read(id); !reflect.DeepEqual(rs, []tournament.Report{want[0], want[3]}) {
		t.Errorf("after deleting round 2 table 1's, reports\n%+v\nwant\n%+v", rs, []tournament.Report{want[0], want[3]})
	}
	write(func(tx tournament.Tx) error { return tx.Delete(id) })
	if k, rs := read(id); !k.IsZero() || len(rs) != 0 {
		t.Errorf("a deleted tournament keeps keys %+v, reports %+v", k, rs)
	}
	if _, rs := read(other); len(rs) != 1 {
		t.Errorf("deleting a tournament leaves the other's reports %+v; want its one", rs)
	}
}
