package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/otd-project/otd/tournament"
)

// Check tells whether the database is exactly what otd makes
// (app.Checker): its schema is the one otd's migrations make at its
// version, object for object (tables with their columns and constraints,
// indexes, triggers, views: nothing more, nothing less), and SQLite's
// foreign_key_check finds no row referring to a row that does not exist.
// The error wraps tournament.ErrUnsound and says what differs (without
// naming the file).
func (s *Store) Check(ctx context.Context) error {
	if err := checkSchema(ctx, s.db, s.schema); err != nil {
		return s.translate(err)
	}
	return s.translate(foreignKeyCheck(ctx, s.db))
}

// checkSchema compares the schema of db with the one that sch's
// migrations make at db's version, made for the purpose in a database in
// memory.
func checkSchema(ctx context.Context, db *sql.DB, sch *schema) error {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	ref, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return err
	}
	defer ref.Close()
	ref.SetMaxOpenConns(1) // each connection has a database in memory of its own
	r := &Store{db: ref, path: "otd's schema", now: time.Now, schema: sch}
	if err := r.migrate(true, version); err != nil {
		return fmt.Errorf("making otd's schema %d: %w", version, err)
	}
	want, err := readSchema(ctx, ref)
	if err != nil {
		return err
	}
	got, err := readSchema(ctx, db)
	if err != nil {
		return err
	}
	if diff := schemaDiff(got, want); len(diff) > 0 {
		return fmt.Errorf("%w: its schema is not otd's (schema %d): %s", tournament.ErrUnsound, version, strings.Join(diff, "; "))
	}
	return nil
}

// schemaObject is an object of an SQLite schema in the normal form: its
// definition normalised (normSQL), and a table's columns as SQLite reads
// them.
type schemaObject struct {
	typ, name, table, sql string
	columns               []string
}

// readSchema reads every object of db's schema but SQLite's own
// (sqlite_...), by "TYPE NAME".
func readSchema(ctx context.Context, db *sql.DB) (map[string]schemaObject, error) {
	rows, err := db.QueryContext(ctx, `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\'`)
	if err != nil {
		return nil, err
	}
	objects := map[string]schemaObject{}
	for rows.Next() {
		var o schemaObject
		if err := rows.Scan(&o.typ, &o.name, &o.table, &o.sql); err != nil {
			rows.Close()
			return nil, err
		}
		o.sql = normSQL(o.sql)
		objects[o.typ+" "+o.name] = o
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for k, o := range objects {
		if o.typ != "table" {
			continue
		}
		cols, err := db.QueryContext(ctx, `SELECT name, upper(type), "notnull", coalesce(dflt_value, ''), pk, hidden FROM pragma_table_xinfo(?)`, o.name)
		if err != nil {
			return nil, err
		}
		for cols.Next() {
			var name, typ, def string
			var notNull, pk, hidden int
			if err := cols.Scan(&name, &typ, &notNull, &def, &pk, &hidden); err != nil {
				cols.Close()
				return nil, err
			}
			c := name + " " + typ
			if notNull != 0 {
				c += " NOT NULL"
			}
			if def != "" {
				c += " DEFAULT " + normSQL(def)
			}
			if pk != 0 {
				c += fmt.Sprintf(" (primary key %d)", pk)
			}
			if hidden != 0 {
				c += " (generated)"
			}
			o.columns = append(o.columns, c)
		}
		cols.Close()
		if err := cols.Err(); err != nil {
			return nil, err
		}
		objects[k] = o
	}
	return objects, nil
}

// schemaDiff says, in words, how the schema got differs from want.
func schemaDiff(got, want map[string]schemaObject) []string {
	var diff []string
	keys := maps.Clone(got)
	maps.Copy(keys, want)
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		g, inGot := got[k]
		w, inWant := want[k]
		switch {
		case !inWant:
			on := ""
			if g.typ != "table" && g.table != g.name {
				on = " on " + g.table
			}
			diff = append(diff, fmt.Sprintf("it has %s%s, which is not otd's", k, on))
		case !inGot:
			diff = append(diff, "it has no "+k)
		case g.table != w.table:
			diff = append(diff, fmt.Sprintf("its %s is on %s, not %s", k, g.table, w.table))
		case g.sql != w.sql && g.typ == "table":
			diff = append(diff, columnsDiff(k, g.columns, w.columns)...)
		case g.sql != w.sql:
			diff = append(diff, fmt.Sprintf("its %s differs from otd's", k))
		}
	}
	return diff
}

// columnsDiff says how a table's columns differ, or that its constraints
// do when its columns are the same.
func columnsDiff(table string, got, want []string) []string {
	name := func(c string) string { n, _, _ := strings.Cut(c, " "); return n }
	var diff []string
	for _, c := range want {
		i := slices.IndexFunc(got, func(g string) bool { return name(g) == name(c) })
		switch {
		case i < 0:
			diff = append(diff, fmt.Sprintf("its %s has no column %s", table, name(c)))
		case got[i] != c:
			diff = append(diff, fmt.Sprintf("its %s has column %s, not %s", table, got[i], c))
		}
	}
	for _, g := range got {
		if !slices.ContainsFunc(want, func(c string) bool { return name(g) == name(c) }) {
			diff = append(diff, fmt.Sprintf("its %s has column %s, which is not otd's", table, name(g)))
		}
	}
	if len(diff) == 0 {
		diff = append(diff, fmt.Sprintf("the constraints of its %s differ from otd's", table))
	}
	return diff
}

// normSQL is an object's SQL in a normal form: without comments, its
// tokens one space apart, keywords and identifiers in lower case and
// unquoted, string literals as they are.
func normSQL(s string) string {
	word := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case strings.HasPrefix(s[i:], "--"):
			if n := strings.IndexByte(s[i:], '\n'); n >= 0 {
				i += n
			} else {
				i = len(s)
			}
		case strings.HasPrefix(s[i:], "/*"):
			if n := strings.Index(s[i+2:], "*/"); n >= 0 {
				i += n + 4
			} else {
				i = len(s)
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '\'':
			j := i + 1
			for j < len(s) && (s[j] != '\'' || j+1 < len(s) && s[j+1] == '\'') {
				if s[j] == '\'' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			toks = append(toks, s[i:j])
			i = j
		case c == '"' || c == '`' || c == '[':
			end := map[byte]byte{'"': '"', '`': '`', '[': ']'}[c]
			n := strings.IndexByte(s[i+1:], end)
			if n < 0 {
				n = len(s) - i - 1
			}
			toks = append(toks, strings.ToLower(s[i+1:i+1+n]))
			i += n + 2
		case word(c):
			j := i
			for j < len(s) && word(s[j]) {
				j++
			}
			toks = append(toks, strings.ToLower(s[i:j]))
			i = j
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return strings.Join(toks, " ")
}

// foreignKeyCheck runs SQLite's foreign_key_check: a row that refers to a
// row that does not exist makes an error wrapping tournament.ErrUnsound.
func foreignKeyCheck(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var found []string
	n := 0
	for rows.Next() {
		var table, parent string
		var rowid sql.NullInt64
		var fkid int
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return err
		}
		if n++; n <= 3 {
			found = append(found, fmt.Sprintf("row %d of %s refers to a %s that does not exist", rowid.Int64, table, parent))
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n > 3 {
		found = append(found, fmt.Sprintf("and %d more", n-3))
	}
	if n > 0 {
		return fmt.Errorf("%w: %s", tournament.ErrUnsound, strings.Join(found, "; "))
	}
	return nil
}
