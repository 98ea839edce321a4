package cli

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damagedBase builds a small tournament (6 players, round 1 with results,
// round 2 paired) and returns its database file's path.
func damagedBase(t testing.TB) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "base.db")
	otdRun(t, db, "tournament", "new", "Base", "--rounds", "3")
	for _, p := range []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay"} {
		otdRun(t, db, "player", "add", p)
	}
	otdRun(t, db, "round", "pair")
	for table, score := range []string{"40-24", "33-31", "32-32"} {
		otdRun(t, db, "result", "1", string(rune('1'+table)), score)
	}
	otdRun(t, db, "round", "pair")
	return db
}

// dropTriggers removes the triggers by which schema 4 refuses hand edits.
const dropTriggers = `DROP TRIGGER IF EXISTS game_insert_rules; DROP TRIGGER IF EXISTS game_update_rules;
	DROP TRIGGER IF EXISTS player_delete_rules; DROP TRIGGER IF EXISTS player_renumber_rules; `

// TestHandEditsRefused: the edits by hand that would break a tournament's
// games are refused by the database itself (schema 4), and leave it as it was.
func TestHandEditsRefused(t *testing.T) {
	base := damagedBase(t)
	for _, tc := range []struct{ name, sql, want string }{
		{"player with games deleted", "DELETE FROM player WHERE number = 3", "the player has games"},
		{"player renumbered", "UPDATE player SET number = 9 WHERE number = 2", "their number cannot change"},
		{"player twice in a round", "UPDATE game SET white = (SELECT black FROM game WHERE round = 1 AND board = 1) WHERE round = 1 AND board = 2", "a player plays once a round"},
		{"a game against oneself", "UPDATE game SET white = black WHERE round = 1 AND board = 2", "two different players"},
		{"an unregistered player", "INSERT INTO game (tournament_id, round, board, black, white) VALUES (1, 2, 9, 42, 1)", "players must be registered"},
		{"an unknown kind of result", "UPDATE game SET kind = 'walkover' WHERE round = 1 AND board = 1", "otd: a result is normal (a tie may say who lost it), time-default or forfeit"},
		{"a time default without its loser", "UPDATE game SET kind = 'time-default' WHERE round = 1 AND board = 1", "with its loser"},
		{"a bye with a result", "UPDATE game SET white = 0 WHERE round = 1 AND board = 3", "a bye has no result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "edited.db")
			copyFile(t, base, db)
			before := tables(t, db)
			raw, err := sql.Open("sqlite", db)
			if err != nil {
				t.Fatal(err)
			}
			_, err = raw.Exec(tc.sql)
			raw.Close()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s: %v; want a refusal saying %q", tc.sql, err, tc.want)
			}
			if tables(t, db) != before {
				t.Error("a refused edit changed the tables")
			}
		})
	}
}

// TestDamagedDatabases runs every command that reads a tournament on
// databases damaged by hand: none panics, each either works or refuses in one
// line, and none changes the file.
func TestDamagedDatabases(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	base := damagedBase(t)
	damages := []struct {
		name string
		sql  string // run on a copy of the base; "" for an empty file
	}{
		{"player with games deleted", "DELETE FROM player WHERE number = 3"},
		{"player renumbered", "UPDATE player SET number = 9 WHERE number = 2"},
		{"player twice in a round", "UPDATE game SET white = (SELECT black FROM game WHERE round = 1 AND board = 1) WHERE round = 1 AND board = 2"},
		{"a round missing", "UPDATE game SET round = 5 WHERE round = 2"},
		{"a table missing", "DELETE FROM game WHERE round = 1 AND board = 1"},
		{"a result taken from a finished round", "UPDATE game SET black_discs = NULL, white_discs = NULL, kind = NULL WHERE round = 1 AND board = 2"},
		{"an unknown kind of result", "UPDATE game SET kind = 'walkover' WHERE round = 1 AND board = 1"},
		{"a bye with a result", "UPDATE game SET white = 0 WHERE round = 1 AND board = 3"},
		{"a BQ rule that does not parse", "UPDATE tournament SET settings = replace(settings, '\"bq\":\"nearest\"', '\"bq\":\"median\"')"},
		{"more rounds paired than planned", "UPDATE tournament SET settings = replace(settings, '\"rounds\":3', '\"rounds\":1')"},
		{"absent rounds that do not parse", "UPDATE player SET absent = 'x,y' WHERE number = 1"},
		{"an audit row that does not parse", "UPDATE audit SET after = '{' WHERE id = (SELECT max(id) FROM audit)"},
		{"an audit row of a newer otd", "UPDATE audit SET version = 99 WHERE id = (SELECT max(id) FROM audit)"},
		{"the game table dropped", "DROP TABLE game"},
		{"another program's schema", "DROP TABLE audit; DROP TABLE game; DROP TABLE player; DROP TABLE setting; DROP TABLE tournament; PRAGMA application_id = 0; CREATE TABLE invoice (id INTEGER)"},
		{"an empty file", ""},
	}
	reads := [][]string{
		{"tournament", "show"}, {"tournament", "list"}, {"player", "list"}, {"player", "list", "--json"},
		{"round", "show"}, {"round", "show", "1"}, {"round", "check"}, {"round", "check", "1"},
		{"standings"}, {"standings", "--round", "1", "--json"}, {"crosstable"}, {"log"}, {"log", "--json"},
	}
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "damaged.db")
			if d.sql == "" {
				if err := os.WriteFile(db, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				copyFile(t, base, db)
				raw, err := sql.Open("sqlite", db)
				if err != nil {
					t.Fatal(err)
				}
				// As a program that ignores otd's rules would: without the
				// triggers of schema 4 (TestHandEditsRefused tests them).
				if _, err := raw.Exec(dropTriggers + d.sql); err != nil {
					t.Fatalf("damaging: %v", err)
				}
				raw.Close()
			}
			before, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			refused := 0
			for _, args := range append(reads, []string{"export", "elo", filepath.Join(t.TempDir(), "out.elo")}) {
				var out, errb bytes.Buffer
				code := Run(append([]string{"--db", db}, args...), nil, &out, &errb)
				if code != 0 {
					refused++
					if msg := errb.String(); !strings.HasPrefix(msg, "otd: ") || strings.Count(msg, "\n") != 1 {
						t.Errorf("otd %v: exit %d, stderr %q: want one line 'otd: ...'", args, code, msg)
					}
				}
			}
			if refused == 0 {
				t.Error("every command took the damaged database as it is")
			}
			if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, before) {
				t.Errorf("the database file changed (%v)", err)
			}
		})
	}
}

// mutable are the columns FuzzDamagedDatabase may change, by table.
var mutable = []struct {
	table   string
	columns []string
}{
	{"tournament", []string{"settings_version", "settings", "name_key", "created"}},
	{"player", []string{"number", "name", "fed_id", "rating", "country", "first_round", "left_round", "absent"}},
	{"game", []string{"round", "board", "black", "white", "black_discs", "white_discs", "kind", "loser", "category", "match", "game"}},
	{"audit", []string{"version", "action", "subject", "before", "after", "undone", "at"}},
	{"setting", []string{"key", "value"}},
}

// FuzzDamagedDatabase changes one value of one row of a tournament's
// database, as a hand edit would (the triggers of schema 4 dropped), and runs
// every command that reads it: none may panic, each works or refuses in one
// line, and none changes the file.
func FuzzDamagedDatabase(f *testing.F) {
	f.Add(uint8(1), uint8(2), uint8(0), "9")
	f.Add(uint8(2), uint8(1), uint8(3), "2")
	f.Add(uint8(2), uint8(0), uint8(6), "walkover")
	f.Add(uint8(0), uint8(0), uint8(3), "median")
	f.Add(uint8(0), uint8(0), uint8(1), "-4")
	f.Add(uint8(1), uint8(0), uint8(7), "1,,x")
	f.Add(uint8(3), uint8(4), uint8(4), `{"players":[{"number":-1}]}`)
	f.Add(uint8(2), uint8(3), uint8(0), "0")
	f.Add(uint8(4), uint8(0), uint8(1), "77")
	base := damagedBase(f)
	f.Fuzz(func(t *testing.T, table, row, column uint8, value string) {
		m := mutable[int(table)%len(mutable)]
		col := m.columns[int(column)%len(m.columns)]
		db := filepath.Join(t.TempDir(), "fuzz.db")
		copyFile(t, base, db)
		raw, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		_, err = raw.Exec(dropTriggers+`UPDATE "`+m.table+`" SET "`+col+`" = ? WHERE rowid = (SELECT rowid FROM "`+m.table+`" LIMIT 1 OFFSET ?)`, value, int(row)%8)
		raw.Close()
		if err != nil {
			return // a constraint of the schema refused the edit
		}
		before, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"tournament", "show"}, {"player", "list", "--json"}, {"round", "show"}, {"round", "check"},
			{"standings"}, {"crosstable", "--json"}, {"log"}} {
			var out, errb bytes.Buffer
			if code := Run(append([]string{"--db", db}, args...), nil, &out, &errb); code != 0 {
				if msg := errb.String(); !strings.HasPrefix(msg, "otd: ") || strings.Count(msg, "\n") != 1 {
					t.Errorf("otd %v after %s.%s = %q: exit %d, stderr %q", args, m.table, col, value, code, msg)
				}
			}
		}
		if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, before) {
			t.Errorf("after %s.%s = %q: the database file changed (%v)", m.table, col, value, err)
		}
	})
}
