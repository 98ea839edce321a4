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
func damagedBase(t *testing.T) string {
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

// TestDamagedDatabases runs every command that reads a tournament on
// databases damaged by hand: none panics, each either works or refuses in one
// line, and none changes the file.
func TestDamagedDatabases(t *testing.T) {
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
		{"a BQ rule that does not parse", "UPDATE tournament SET bq = 'median'"},
		{"more rounds paired than planned", "UPDATE tournament SET rounds = 1"},
		{"absent rounds that do not parse", "UPDATE player SET absent = 'x,y' WHERE number = 1"},
		{"an audit row that does not parse", "UPDATE audit SET after = '{' WHERE id = (SELECT max(id) FROM audit)"},
		{"an audit row of a newer otd", "UPDATE audit SET version = 99 WHERE id = (SELECT max(id) FROM audit)"},
		{"the game table dropped", "DROP TABLE game"},
		{"another program's schema", "DROP TABLE audit; DROP TABLE game; DROP TABLE final_game; DROP TABLE player; DROP TABLE setting; DROP TABLE tournament; PRAGMA application_id = 0; CREATE TABLE invoice (id INTEGER)"},
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
				if _, err := raw.Exec(d.sql); err != nil {
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
