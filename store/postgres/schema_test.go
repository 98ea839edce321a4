package postgres

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/store/sqlite"
)

// TestSchemaMatchesSQLite holds the two engines' migration histories to one
// end: a new database of each, described in one normal form (tables;
// columns with their type, NOT NULL and default; primary, foreign and
// unique keys; the columns each CHECK reads; the triggers, with the tables,
// events and messages of their rules), must give the same description, and
// each rule must refuse (or let pass) the same rows on both (probes). A
// migration added to one engine and not the other fails it.
func TestSchemaMatchesSQLite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "otd.db")
	ls, err := sqlite.Open(path, sqlite.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	ls.Close()
	lite, err := sql.Open("sqlite", path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	url := testenv.Postgres(t)
	ps, err := Open(url, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	ps.Close()
	pg, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)

	want, got := sqliteSchema(t, lite), postgresSchema(t, pg)
	if want != got {
		t.Errorf("the PostgreSQL schema differs from SQLite's (- SQLite, + PostgreSQL):\n%s", lineDiff(want, got))
	}
	if !strings.Contains(want, "table game") || !strings.Contains(want, "trigger game_update_rules") {
		t.Fatalf("the description misses tables or triggers: the test tests nothing:\n%s", want)
	}

	// The rules at work: each probe runs on a fixture, in a transaction
	// rolled back after it; want is "" for a statement that passes, else a
	// part of the error.
	const fixture = `INSERT INTO tournament (id, settings_version, settings, created, name_key) VALUES (1, 2, '{"name":"T"}', 'now', 'T');
	INSERT INTO player (tournament_id, number, name) VALUES (1, 1, 'A'), (1, 2, 'B'), (1, 3, 'C'), (1, 4, 'D');
	INSERT INTO game (tournament_id, round, board, black, white) VALUES (1, 1, 1, 1, 2), (1, 1, 2, 3, 0);
	INSERT INTO game (tournament_id, round, board, match, game, black, white) VALUES (1, 0, 1, 'F', 1, 1, 2)`
	const refused = "refused"
	probes := []struct{ name, stmt, want string }{
		{"name key", "INSERT INTO tournament (settings_version, settings, created, name_key) VALUES (2, '{}', 'now', 'T')", refused},
		{"another name", "INSERT INTO tournament (settings_version, settings, created, name_key) VALUES (2, '{}', 'now', 'U')", ""},
		{"player number", "INSERT INTO player (tournament_id, number, name) VALUES (1, 0, 'Z')", refused},
		{"player name", "INSERT INTO player (tournament_id, number, name) VALUES (1, 5, '')", refused},
		{"player of no tournament", "INSERT INTO player (tournament_id, number, name) VALUES (9, 1, 'Z')", refused},
		{"new id", "UPDATE player SET new_id = 2 WHERE number = 1", refused},
		{"same player twice", "INSERT INTO game (tournament_id, round, board, black, white) VALUES (1, 2, 1, 1, 1)", "otd: a game needs two different players"},
		{"unknown player", "INSERT INTO game (tournament_id, round, board, black, white) VALUES (1, 2, 1, 1, 9)", "otd: a game's players must be registered"},
		{"twice a round", "INSERT INTO game (tournament_id, round, board, black, white) VALUES (1, 1, 3, 4, 1)", "otd: a player plays once a round"},
		{"twice a round, updated", "UPDATE game SET white = 3 WHERE round = 1 AND board = 1", "otd: a player plays once a round"},
		{"a game moved", "UPDATE game SET round = 2 WHERE round = 1 AND board = 1", ""},
		{"kind", "UPDATE game SET black_discs = 33, white_discs = 31, kind = 'draw' WHERE board = 1", "otd: a result is normal (a tie may say who lost it), time-default or forfeit"},
		{"normal with a loser", "UPDATE game SET black_discs = 33, white_discs = 31, kind = 'normal', loser = 'white' WHERE board = 1", "otd: a result is normal (a tie may say who lost it), time-default or forfeit"},
		{"a tie that says who lost", "UPDATE game SET black_discs = 32, white_discs = 32, kind = 'normal', loser = 'white' WHERE board = 1", ""},
		{"no discs, a loser", "UPDATE game SET black_discs = 0, white_discs = 0, kind = 'no-discs', loser = 'black' WHERE board = 1", ""},
		{"no-discs with discs", "UPDATE game SET black_discs = 33, white_discs = 31, kind = 'no-discs' WHERE board = 1", "otd: a result is normal (a tie may say who lost it), time-default or forfeit"},
		{"a result", "UPDATE game SET black_discs = 33, white_discs = 31, kind = 'time-default', loser = 'white' WHERE board = 1", ""},
		{"a bye's result", "UPDATE game SET black_discs = 33, white_discs = 31, kind = 'normal' WHERE board = 2", "otd: a bye has no result"},
		{"half a score", "UPDATE game SET black_discs = 33, kind = 'normal' WHERE board = 1", refused},
		{"too many discs", "UPDATE game SET black_discs = 200, white_discs = 100, kind = 'normal' WHERE board = 1", refused},
		{"a player with games deleted", "DELETE FROM player WHERE number = 1", "otd: the player has games: withdraw them instead"},
		{"a player with games renumbered", "UPDATE player SET number = 9 WHERE number = 1", "otd: the player has games: their number cannot change"},
		{"a player with games renamed", "UPDATE player SET name = 'Ann' WHERE number = 1", ""},
		{"a player without games renumbered", "UPDATE player SET number = 9 WHERE number = 4", ""},
		{"a player without games deleted", "DELETE FROM player WHERE number = 4", ""},
		{"a match's game twice", "INSERT INTO game (tournament_id, round, board, match, game, black, white) VALUES (1, 0, 2, 'F', 1, 2, 1)", refused},
		{"no match, twice", "INSERT INTO game (tournament_id, round, board, match, game, black, white) VALUES (1, 0, 2, '', 1, 2, 1), (1, 0, 3, '', 1, 2, 1)", ""},
		{"final seq", "INSERT INTO game (tournament_id, round, board, match, game, black, white) VALUES (1, 0, 0, 'G', 1, 2, 1)", refused},
		{"a final game with no number", "INSERT INTO game (tournament_id, round, board, match, black, white) VALUES (1, 0, 2, 'G', 2, 1)", refused},
		{"a round's game with a match", "INSERT INTO game (tournament_id, round, board, match, black, white) VALUES (1, 2, 1, 'F', 2, 1)", refused},
		{"a final game of a player of the round", "INSERT INTO game (tournament_id, round, board, match, game, black, white) VALUES (1, 0, 2, 'SF1', 1, 2, 1)", ""},
		{"forbidden pair order", "INSERT INTO forbidden_pair (tournament_id, a, b) VALUES (1, 2, 1)", refused},
		{"forbidden pair", "INSERT INTO forbidden_pair (tournament_id, a, b) VALUES (1, 1, 2)", ""},
		{"manual", "INSERT INTO round_rules (tournament_id, round, manual) VALUES (1, 1, 2)", refused},
	}
	for _, p := range probes {
		for _, e := range []struct {
			name string
			run  func(string) error
		}{
			{"SQLite", func(stmt string) error { return sqliteProbe(lite, fixture, stmt) }},
			{"PostgreSQL", func(stmt string) error { return postgresProbe(ctx, pg, fixture, stmt) }},
		} {
			err := e.run(p.stmt)
			switch {
			case p.want == "" && err != nil:
				t.Errorf("%s: %s: %v; want it to pass", e.name, p.name, err)
			case p.want != "" && err == nil:
				t.Errorf("%s: %s passed; want it refused (%s)", e.name, p.name, p.want)
			case p.want != "" && p.want != refused && !strings.Contains(err.Error(), p.want):
				t.Errorf("%s: %s: %v; want %q", e.name, p.name, err, p.want)
			}
		}
	}
}

func sqliteProbe(db *sql.DB, fixture, stmt string) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(fixture); err != nil {
		return fmt.Errorf("fixture: %w", err)
	}
	_, err = tx.Exec(stmt)
	return err
}

func postgresProbe(ctx context.Context, conn *pgx.Conn, fixture, stmt string) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, fixture); err != nil {
		return fmt.Errorf("fixture: %w", err)
	}
	_, err = tx.Exec(ctx, stmt)
	return err
}

// column is a column in the normal form.
type column struct {
	name, typ string
	notNull   bool
	def       string
}

func (c column) String() string {
	s := c.name + " " + c.typ
	if c.notNull {
		s += " NOT NULL"
	}
	if c.def != "" {
		s += " DEFAULT " + c.def
	}
	return s
}

// normExpr is an expression of a default or an index's WHERE in the normal
// form: without PostgreSQL's casts and parentheses, spaces or case.
func normExpr(e string) string {
	e = regexp.MustCompile(`::[a-z ]+`).ReplaceAllString(e, "")
	return strings.ToLower(strings.NewReplacer("(", "", ")", "", " ", "").Replace(e))
}

var quoted = regexp.MustCompile(`'([^']|'')*'`)
var word = regexp.MustCompile(`[A-Za-z_]+`)

// checkColumns is a CHECK in the normal form: the columns it reads.
func checkColumns(expr string, cols []string) string {
	var read []string
	for _, w := range word.FindAllString(quoted.ReplaceAllString(expr, ""), -1) {
		if slices.Contains(cols, w) && !slices.Contains(read, w) {
			read = append(read, w)
		}
	}
	slices.Sort(read)
	return "CHECK reads " + strings.Join(read, ", ")
}

// messages are the messages a trigger's code raises ('otd: ...').
func messages(code string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`'(otd: ([^']|'')*)'`).FindAllStringSubmatch(code, -1) {
		out = append(out, strings.ReplaceAll(m[1], "''", "'"))
	}
	return out
}

// describe writes the normal form of one table, a line a part, each line
// naming the table.
func describe(b *strings.Builder, table string, cols []column, pk []string, fks, checks, uniques []string) {
	fmt.Fprintf(b, "table %s\n", table)
	slices.SortFunc(cols, func(a, b column) int { return strings.Compare(a.name, b.name) })
	for _, c := range cols {
		if slices.Contains(pk, c.name) {
			c.notNull = true // SQLite's INTEGER PRIMARY KEY says otherwise, and holds no NULL
		}
		fmt.Fprintf(b, "%s: column %s\n", table, c)
	}
	fmt.Fprintf(b, "%s: primary key (%s)\n", table, strings.Join(pk, ", "))
	for _, group := range [][]string{fks, checks, uniques} {
		slices.Sort(group)
		for _, l := range group {
			fmt.Fprintf(b, "%s: %s\n", table, l)
		}
	}
}

func sqliteSchema(t *testing.T, db *sql.DB) string {
	t.Helper()
	strs := func(query string, args ...any) [][]string {
		t.Helper()
		rows, err := db.Query(query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out [][]string
		for rows.Next() {
			vals := make([]sql.NullString, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			row := make([]string, len(cols))
			for i, v := range vals {
				row[i] = v.String
			}
			out = append(out, row)
		}
		return out
	}
	var b strings.Builder
	for _, tb := range strs("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") {
		name, ddl := tb[0], tb[1]
		var cols []column
		var names []string
		for _, c := range strs("SELECT name, upper(type), \"notnull\", coalesce(dflt_value, '') FROM pragma_table_info(?)", name) {
			cols = append(cols, column{name: c[0], typ: c[1], notNull: c[2] == "1", def: normExpr(c[3])})
			names = append(names, c[0])
		}
		var keys []string
		for _, c := range strs("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", name) {
			keys = append(keys, c[0])
		}
		var fks, checks, uniques []string
		for _, f := range strs("SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?)", name) {
			fks = append(fks, fmt.Sprintf("foreign key (%s) references %s (%s) on delete %s", f[0], f[1], f[2], strings.ToLower(f[3])))
		}
		// The CHECKs of the table's SQL, column and table constraints alike.
		for i := strings.Index(ddl, "CHECK"); i >= 0; i = strings.Index(ddl, "CHECK") {
			ddl = ddl[i+len("CHECK"):]
			depth, end := 0, 0
			for j, r := range ddl {
				if r == '(' {
					depth++
				} else if r == ')' {
					if depth--; depth == 0 {
						end = j
						break
					}
				}
			}
			checks = append(checks, checkColumns(ddl[:end+1], names))
		}
		for _, ix := range strs("SELECT l.name, coalesce(m.sql, '') FROM pragma_index_list(?) l JOIN sqlite_master m ON m.name = l.name WHERE l.\"unique\" AND l.origin = 'c'", name) {
			var on []string
			for _, c := range strs("SELECT name FROM pragma_index_info(?) ORDER BY seqno", ix[0]) {
				on = append(on, c[0])
			}
			where := ""
			if _, w, ok := strings.Cut(ix[1], " WHERE "); ok {
				where = " where " + normExpr(w)
			}
			uniques = append(uniques, fmt.Sprintf("unique %s (%s)%s", ix[0], strings.Join(on, ", "), where))
		}
		describe(&b, name, cols, keys, fks, checks, uniques)
	}
	tableMessages := map[string][]string{}
	for _, tr := range strs("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name") {
		head := regexp.MustCompile(`(?s)CREATE TRIGGER \S+ (BEFORE|AFTER) (INSERT|DELETE|UPDATE(?: OF [a-z_, ]+)?) ON`).FindStringSubmatch(tr[2])
		if head == nil {
			t.Fatalf("trigger %s: %s", tr[0], tr[2])
		}
		fmt.Fprintf(&b, "trigger %s %s %s on %s\n", tr[0], strings.ToLower(head[1]), strings.ToLower(strings.TrimSpace(head[2])), tr[1])
		tableMessages[tr[1]] = append(tableMessages[tr[1]], messages(tr[2])...)
	}
	writeMessages(&b, tableMessages)
	return b.String()
}

func writeMessages(b *strings.Builder, byTable map[string][]string) {
	tables := make([]string, 0, len(byTable))
	for tb := range byTable {
		tables = append(tables, tb)
	}
	slices.Sort(tables)
	for _, tb := range tables {
		ms := byTable[tb]
		slices.Sort(ms)
		for _, m := range slices.Compact(ms) {
			fmt.Fprintf(b, "rule of %s: %s\n", tb, m)
		}
	}
}

func postgresSchema(t *testing.T, conn *pgx.Conn) string {
	t.Helper()
	ctx := context.Background()
	strs := func(query string, args ...any) [][]string {
		t.Helper()
		rows, err := conn.Query(ctx, query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out [][]string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			row := make([]string, len(vals))
			for i, v := range vals {
				if v != nil {
					row[i] = fmt.Sprint(v)
				}
			}
			out = append(out, row)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	types := map[string]string{"bigint": "INTEGER", "text": "TEXT"}
	var b strings.Builder
	// otd_schema is the version of the schema (SQLite keeps it in its header).
	for _, tb := range strs("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'otd_schema' ORDER BY tablename") {
		name := tb[0]
		var cols []column
		var names []string
		for _, c := range strs(`SELECT column_name::text, data_type::text, is_nullable::text, coalesce(column_default, '')
			FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`, name) {
			typ, ok := types[c[1]]
			if !ok {
				typ = c[1]
			}
			cols = append(cols, column{name: c[0], typ: typ, notNull: c[2] == "NO", def: normExpr(c[3])})
			names = append(names, c[0])
		}
		var keys []string
		for _, c := range strs(`SELECT a.attname::text FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
			WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`, name) {
			keys = append(keys, c[0])
		}
		var fks, checks, uniques []string
		for _, c := range strs(`SELECT contype::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('f', 'c')`, name) {
			if c[0] == "c" {
				checks = append(checks, checkColumns(c[1], names))
				continue
			}
			m := regexp.MustCompile(`FOREIGN KEY \((\w+)\) REFERENCES (\w+)\((\w+)\)(?: ON DELETE (\w+))?`).FindStringSubmatch(c[1])
			if m == nil {
				t.Fatalf("table %s: foreign key %s", name, c[1])
			}
			fks = append(fks, fmt.Sprintf("foreign key (%s) references %s (%s) on delete %s", m[1], m[2], m[3], strings.ToLower(cmp.Or(m[4], "NO ACTION"))))
		}
		// Unique indexes made by CREATE UNIQUE INDEX (not the primary key's);
		// other indexes are each engine's business.
		for _, ix := range strs(`SELECT c.relname::text, coalesce(pg_get_expr(i.indpred, i.indrelid), ''),
			(SELECT string_agg(a.attname, ', ' ORDER BY array_position(i.indkey::int2[], a.attnum)) FROM pg_attribute a WHERE a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey))
			FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass AND i.indisunique AND NOT i.indisprimary`, name) {
			where := ""
			if ix[1] != "" {
				where = " where " + normExpr(ix[1])
			}
			uniques = append(uniques, fmt.Sprintf("unique %s (%s)%s", ix[0], ix[2], where))
		}
		describe(&b, name, cols, keys, fks, checks, uniques)
	}
	tableMessages := map[string][]string{}
	for _, tr := range strs(`SELECT t.tgname::text, c.relname::text, pg_get_triggerdef(t.oid), p.prosrc FROM pg_trigger t
		JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid WHERE NOT t.tgisinternal ORDER BY t.tgname`) {
		head := regexp.MustCompile(`CREATE TRIGGER \S+ (BEFORE|AFTER) (INSERT|DELETE|UPDATE(?: OF [a-z_, ]+)?) ON`).FindStringSubmatch(tr[2])
		if head == nil {
			t.Fatalf("trigger %s: %s", tr[0], tr[2])
		}
		fmt.Fprintf(&b, "trigger %s %s %s on %s\n", tr[0], strings.ToLower(head[1]), strings.ToLower(strings.TrimSpace(head[2])), tr[1])
		tableMessages[tr[1]] = append(tableMessages[tr[1]], messages(tr[3])...)
	}
	writeMessages(&b, tableMessages)
	return b.String()
}

// lineDiff lists the lines of a not in b (-) and of b not in a (+).
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for _, l := range al {
		if !slices.Contains(bl, l) {
			out = append(out, "- "+l)
		}
	}
	for _, l := range bl {
		if !slices.Contains(al, l) {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
