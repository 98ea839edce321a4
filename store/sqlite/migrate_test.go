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
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"

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

// TestUpgradeToOneGameTable: a database of schema 16 (two game tables, a
// column per setting), as otd 2d7bbec wrote it, opens with every figure:
// the settings of every kind (a seed above the largest int64, stored
// negative), the rounds' games and the final phases' with their results,
// and an audit row of a final game's result, which still undoes.
func TestUpgradeToOneGameTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	func() {
		withMigrations(t, 16, nil)
		s := open(t, path)
		defer s.Close()
		for _, q := range []string{
			`INSERT INTO tournament (id, name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed, created,
				start_date, end_date, city, country, director, pairing, rules, time_control, name_key, final, categories, teams, new_ids, bye_discs)
			VALUES (1, 'Old Open', 2, 'swiss', 'wof', 'fixed', 1, 'points,discs', 'random', -2, '2026-11-22T10:00:00Z',
				'2024-05-01', '2024-05-02', 'Paris', 'FRA', 'Ann D', 'plain', 'othello', '5m+2s', 'OLD OPEN', 'top=2,bestof=1,third=0,playoff=0,level=seed,colour=seed',
				'[{"name":"women","final":"none"}]', '"best=2"', '50321-59999', 40)`,
			`INSERT INTO player (tournament_id, number, name, categories) VALUES (1, 1, 'Ann', '["women"]'), (1, 2, 'Bob', ''), (1, 3, 'Cid', '')`,
			`INSERT INTO game (tournament_id, round, board, black, white, black_discs, white_discs, kind, loser) VALUES
				(1, 1, 1, 1, 2, 40, 24, 'normal', NULL), (1, 1, 2, 3, 0, NULL, NULL, NULL, NULL),
				(1, 2, 1, 3, 1, 33, 31, 'time-default', 'white'), (1, 2, 2, 2, 0, NULL, NULL, NULL, NULL)`,
			`INSERT INTO final_game (tournament_id, seq, category, match, game, black, white, black_discs, white_discs, kind, moves) VALUES
				(1, 1, '', 'F', 1, 1, 3, 30, 34, 'normal', 'f5d6')`,
			`INSERT INTO audit (tournament_id, at, version, action, subject, before, after) VALUES (1, '2026-11-22T10:00:00Z', 1, 'result', 'F game 1',
				'{"final_games":[{"match":"F","game":1,"seq":1,"black":1,"white":3}]}',
				'{"final_games":[{"match":"F","game":1,"seq":1,"black":1,"white":3,"result":{"black":30,"white":34,"kind":"normal","moves":"f5d6"}}]}')`,
		} {
			if _, err := s.db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}()
	withMigrations(t, 0, nil)
	s := open(t, path)
	var tm *tournament.Tournament
	if err := s.View(context.Background(), func(tx tournament.Tx) (err error) { tm, err = tx.Load(1); return err }); err != nil {
		t.Fatal(err)
	}
	want := tournament.Settings{Name: "Old Open", Rounds: 2, System: tournament.Swiss, BQ: scoring.BQRule{Kind: scoring.WOF},
		TimeDefault: scoring.TimeFixed, ByePoints: scoring.Half, ByeDiscs: 40, TieBreaks: scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs},
		FirstRound: pairing.Random, Seed: 1<<64 - 2, Pairing: "plain", City: "Paris", Country: "FRA", Director: "Ann D",
		NewIDs:     tournament.IDRange{From: 50321, To: 59999},
		Final:      tournament.FinalRules{Qualifiers: 2, BestOf: 1, Level: tournament.LevelSeed, Colour: tournament.ColourSeed},
		Categories: []tournament.Category{{Name: "women"}}, TeamRules: tournament.TeamRules{Best: 2}}
	var err error
	if want.Start, err = tournament.ParseDate("2024-05-01"); err == nil {
		want.End, err = tournament.ParseDate("2024-05-02")
	}
	if err == nil {
		want.Variant, err = engine.ParseRules("othello")
	}
	if err == nil {
		err = want.Time.UnmarshalText([]byte("5m+2s")) // 5 minutes a side, 2 seconds a move
	}
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tm.Settings, want) {
		t.Errorf("settings after the upgrade:\n got %+v\nwant %+v", tm.Settings, want)
	}
	res := func(b, w int, k tournament.Kind, loser tournament.Color) *tournament.Result {
		return &tournament.Result{Black: b, White: w, Kind: k, Loser: loser}
	}
	wantGames := []tournament.Game{{Round: 1, Table: 1, Black: 1, White: 2, Result: res(40, 24, tournament.Normal, "")}, {Round: 1, Table: 2, Black: 3},
		{Round: 2, Table: 1, Black: 3, White: 1, Result: res(33, 31, tournament.TimeDefault, tournament.White)}, {Round: 2, Table: 2, Black: 2}}
	final := res(30, 34, tournament.Normal, "")
	final.Moves = "f5d6"
	wantFinals := []tournament.Game{{FinalRef: tournament.FinalRef{Match: "F", Game: 1, Seq: 1}, Black: 1, White: 3, Result: final}}
	if !reflect.DeepEqual(tm.Games, wantGames) || !reflect.DeepEqual(tm.FinalGames, wantFinals) {
		t.Errorf("games after the upgrade:\n got %+v %+v\nwant %+v %+v", tm.Games, tm.FinalGames, wantGames, wantFinals)
	}
	// The old audit row of the final's result undoes it.
	err = s.Update(context.Background(), func(tx tournament.Tx) error {
		e, err := tx.LastUndoable(1)
		if err != nil {
			return err
		}
		u, err := tm.Undo(e.ID, e.Change)
		if err != nil {
			return err
		}
		_, err = tx.Save(1, u)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.View(context.Background(), func(tx tournament.Tx) (err error) { tm, err = tx.Load(1); return err }); err != nil {
		t.Fatal(err)
	}
	if len(tm.FinalGames) != 1 || tm.FinalGames[0].Result != nil {
		t.Errorf("the final game after the undo: %+v; want it without its result", tm.FinalGames)
	}
}

// TestOneGamesTable: a game, a Swiss round's or a final match's, is a row of
// one table: no other table of the schema holds a tournament's games (its
// players by colour). PostgreSQL's schema is held to this one
// (TestSchemaMatchesSQLite).
func TestOneGamesTable(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	storetest.Create(t, s, tournament.DefaultSettings("One", 5))
	rows, err := s.db.Query(`SELECT m.name FROM sqlite_schema m WHERE m.type = 'table'
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'tournament_id')
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'black')
		AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'white')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tables, []string{"game"}) {
		t.Errorf("the tables of a tournament's games: %v; want one, game", tables)
	}
}
