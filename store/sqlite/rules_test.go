package sqlite

import (
	"path/filepath"
	"testing"
)

// TestGameRulesBuildNoTable: the triggers that check each game written
// look its players up in indexes and compare its kind, building no
// temporary table for the game, as the lists of values of schema 16 made
// SQLite do ("black IN (NEW.black, NEW.white)" looked up in an index, a
// kind "NOT IN" four): half the cost of inserting a game (issue 28).
// SQLite's EXPLAIN lists the triggers' programs with the statement's.
func TestGameRulesBuildNoTable(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "otd.db"))
	for _, stmt := range []string{
		"INSERT INTO game (tournament_id, round, board, black, white, black_discs, white_discs, kind) VALUES (1, 1, 1, 1, 2, 33, 31, 'normal')",
		"UPDATE game SET black = 3, black_discs = 33, white_discs = 31, kind = 'normal' WHERE tournament_id = 1 AND round = 1 AND board = 1",
	} {
		rows, err := s.db.Query("EXPLAIN " + stmt)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		for i := range vals {
			vals[i] = new(any)
		}
		ops := map[string]int{}
		for rows.Next() {
			if err := rows.Scan(vals...); err != nil {
				t.Fatal(err)
			}
			op, _ := (*vals[1].(*any)).(string)
			ops[op]++
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		if ops["Program"] == 0 {
			t.Fatalf("%s: no trigger program in EXPLAIN (opcodes %v): the test tests nothing", stmt, ops)
		}
		if n := ops["OpenEphemeral"]; n > 0 {
			t.Errorf("%s: the triggers build %d temporary tables for each game", stmt, n)
		}
	}
}
