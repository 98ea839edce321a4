package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/scoring"
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

// create stores a new tournament with settings s and returns its id.
func create(t *testing.T, s *Store, settings tournament.Settings) int64 {
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

// save writes changes of tournament id in one transaction and returns their
// audit entries' ids.
func save(t *testing.T, s *Store, id int64, changes ...tournament.Change) []int64 {
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

// must returns the change of a domain operation, failing the test on an error.
func must(t *testing.T) func(tournament.Change, error) tournament.Change {
	return func(c tournament.Change, err error) tournament.Change {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}

// normTournament and normState make a value comparable with what the store
// reads back: an empty slice is nil, as the store (and JSON's omitempty)
// gives it.
func normTournament(tm tournament.Tournament) tournament.Tournament {
	tm.Players = normPlayers(tm.Players)
	tm.Games = nilIfEmpty(tm.Games)
	tm.FinalGames = nilIfEmpty(tm.FinalGames)
	tm.Forbidden, tm.RoundRules = nilIfEmpty(tm.Forbidden), nilIfEmpty(tm.RoundRules)
	return tm
}

func normState(s tournament.State) tournament.State {
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
		return tm.RecordResult(r, table, tournament.ResultInput{Black: black, White: white, HasScore: true, TimeDefault: timeDefault}, correct)
	}
}

func addPlayer(name string, id, rating int, country string) func(*tournament.Tournament) (tournament.Change, error) {
	return func(tm *tournament.Tournament) (tournament.Change, error) {
		return tm.AddPlayer(tournament.PlayerInput{Name: name, WOFID: id, Rating: rating, Country: country})
	}
}

// TestSaveLoad writes a tournament change by change, a change of every kind,
// each with Save, and after each one reads it back with Load: the store
// holds what the domain holds in memory. At the end, Log gives back every
// change as it was saved.
func TestSaveLoad(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	ctx := context.Background()
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
	tm.ID = create(t, s, tm.Settings)
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
			if i < 0 || string(log[i].Action)+": "+log[i].Subject != e.Subject {
				t.Errorf("undo entry %d (%s): the entry it undid is not marked undone by it", e.ID, e.Subject)
			}
		}
	}
}

// checkEntry checks an audit entry read back against the change saved.
func checkEntry(t *testing.T, e tournament.Entry, want tournament.Change) {
	t.Helper()
	if e.Version != want.Version || e.Version != tournament.ChangeVersion || e.Action != want.Action || e.Subject != want.Subject ||
		!reflect.DeepEqual(normState(e.Before), normState(want.Before)) || !reflect.DeepEqual(normState(e.After), normState(want.After)) {
		t.Errorf("entry %d read back:\n got %+v\nwant %+v", e.ID, e.Change, want)
	}
	if !e.At.Equal(fixed()) {
		t.Errorf("entry %d: at %v, want %v", e.ID, e.At, fixed())
	}
}

// TestSaveLog: a change of every part of a State is read back by Log as it
// was saved, a State with nothing in it included.
func TestSaveLog(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 2)}
	tm.ID = create(t, s, tm.Settings)
	m := must(t)
	old := tm.Settings
	changes := []tournament.Change{
		{Version: tournament.ChangeVersion, Action: tournament.ActTournamentNew, Subject: "Club", After: tournament.State{Settings: &old}},
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Ann \"A\" Ärcher", WOFID: 9, Rating: 1900, Country: "gb"})),
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Bob"})),
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Cy"})),
		m(tm.MarkAbsent(3, 2)),
		m(tm.Pair(tournament.PairOptions{})),
		m(tm.RecordResult(1, 1, tournament.ResultInput{Black: 30, White: 20, HasScore: true, TimeDefault: tournament.Black}, false)),
		m(tm.RecordResult(1, 1, tournament.ResultInput{Forfeit: tournament.White}, true)),
		m(tm.Withdraw(2)),
		m(tm.ChangeSettings(func() tournament.Settings { s := tm.Settings; s.Name = "Club Open"; return s }())),
	}
	ids := save(t, s, tm.ID, changes...)
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

// TestLastUndoable: the newest entry of the tournament that is undoable and
// not undone yet; the creation of a tournament, an import and an undo are
// skipped, and so are the entries of other tournaments.
func TestLastUndoable(t *testing.T) {
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
			s := open(t, filepath.Join(t.TempDir(), "otd.db"))
			ctx := context.Background()
			tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
			tm.ID = create(t, s, tm.Settings)
			other := &tournament.Tournament{Settings: tournament.DefaultSettings("Other", 3)}
			other.ID = create(t, s, other.Settings)
			m := must(t)
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
				ids = append(ids, save(t, s, tm.ID, c)[0])
				changes = append(changes, c)
				if undid >= 0 { // as Director.Undo does, in a transaction of its own here
					if err := s.Update(ctx, func(tx tournament.Tx) error { return tx.MarkUndone(ids[undid], ids[i]) }); err != nil {
						t.Fatal(err)
					}
				}
			}
			// A newer undoable change of another tournament.
			save(t, s, other.ID, m(other.AddPlayer(tournament.PlayerInput{Name: "Elsewhere"})))
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
func TestUpdateRollsBack(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	ctx := context.Background()
	boom := errors.New("boom")
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("A", 1)}
	c := must(t)(tm.AddPlayer(tournament.PlayerInput{Name: "Ann"}))
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
		if _, err := tx.Current(); !errors.Is(err, ErrNoTournament) {
			t.Errorf("Current() after a rolled-back action: %v, want %v", err, ErrNoTournament)
		}
		return nil
	})
	var players, audit int
	if err := s.db.QueryRow("SELECT (SELECT count(*) FROM player), (SELECT count(*) FROM audit)").Scan(&players, &audit); err != nil || players != 0 || audit != 0 {
		t.Errorf("after a rolled-back action: %d players, %d audit rows (%v)", players, audit, err)
	}
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

// Dump is deterministic: the same content gives the same dump, whatever the
// order it was written in, and any change shows.
func TestDump(t *testing.T) {
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
	m := must(t)
	changes := []tournament.Change{
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Ann \"A\"", Rating: 1900, Country: "GB"})),
		m(tm.AddPlayer(tournament.PlayerInput{Name: "Bob"})),
		m(tm.MarkAbsent(2, 2)),
		m(tm.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}}})),
	}
	res := m(tm.RecordResult(1, 1, tournament.ResultInput{Black: 40, White: 24, HasScore: true}, false))
	dump := func(s *Store) string {
		t.Helper()
		var b strings.Builder
		if err := s.Dump(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var dumps []string
	// The players' rows written in the order of registration, then Bob's first.
	for _, order := range [][]int{{0, 1, 2, 3}, {1, 2, 0, 3}} {
		s := open(t, filepath.Join(t.TempDir(), "otd.db"))
		id := create(t, s, tm.Settings)
		for _, i := range order {
			save(t, s, id, changes[i])
		}
		dumps = append(dumps, dump(s))
		if got := dump(s); got != dumps[len(dumps)-1] {
			t.Fatalf("two dumps of one database differ:\n%s\n%s", got, dumps[len(dumps)-1])
		}
		if len(dumps) == 2 {
			save(t, s, id, res)
			if withoutAudit(dump(s)) == withoutAudit(dumps[1]) {
				t.Error("a result recorded does not change the dump")
			}
		}
	}
	if withoutAudit(dumps[0]) != withoutAudit(dumps[1]) {
		t.Errorf("the same content written in another order dumps differently:\n%s\n%s", dumps[0], dumps[1])
	}
	for _, want := range []string{
		"application_id 1869898801\nuser_version 15\n",
		"table player: CREATE TABLE player (",
		`player: tournament_id=1 number=1 name="Ann \"A\"" fed_id=0 rating=1900 country="GBR" first_round=1 left_round=0 absent="" engine="" team="" born=0 categories="" new_id=0` + "\n" +
			`player: tournament_id=1 number=2 name="Bob" fed_id=0 rating=0 country="" first_round=1 left_round=0 absent="2" engine="" team="" born=0 categories="" new_id=0` + "\n",
		`game: tournament_id=1 round=1 board=1 black=1 white=2 black_discs=NULL white_discs=NULL kind=NULL loser=NULL moves="" ending="" note=""` + "\n",
		"audit: id=1 tournament_id=1 at=\"2026-11-22T10:00:00Z\" action=\"player add\" subject=\"player 1 (Ann \\\"A\\\")\"",
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
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Club", 3)}
	tm.ID = create(t, s, tm.Settings)
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
		sqlTx := tx.(*Tx).tx
		if err := sqlTx.QueryRow("SELECT rootpage FROM sqlite_master WHERE name = 'player'").Scan(&root); err != nil {
			return err
		}
		return sqlTx.QueryRow("PRAGMA page_size").Scan(&pageSize)
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
