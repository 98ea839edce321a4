package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	// the database/sql driver "sqlite"
)

// Dump writes a deterministic logical dump of the database: its schema
// version and application id, the definition of every schema object, and the
// rows of every table ordered by primary key. Two databases with the same
// content give the same dump.
func (s *Store) Dump(w io.Writer) error {
	tx, err := s.db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var appID, version int64
	if err := tx.QueryRow("PRAGMA application_id").Scan(&appID); err != nil {
		return err
	}
	if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "application_id %d\nuser_version %d\n", appID, version)
	type object struct{ typ, name, sql string }
	var objects []object
	rows, err := tx.Query("SELECT type, name, coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
	if err != nil {
		return err
	}
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.typ, &o.name, &o.sql); err != nil {
			rows.Close()
			return err
		}
		objects = append(objects, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, o := range objects {
		fmt.Fprintf(bw, "%s %s: %s\n", o.typ, o.name, o.sql)
	}
	for _, o := range objects {
		if o.typ != "table" || strings.HasPrefix(o.name, "sqlite_") {
			continue
		}
		if err := dumpTable(tx, bw, o.name); err != nil {
			return fmt.Errorf("dump of table %s: %w", o.name, err)
		}
	}
	return bw.Flush()
}

// dumpTable writes the rows of a table, ordered by its primary key (the
// rowid if it has none).
func dumpTable(tx *sql.Tx, w io.Writer, table string) error {
	quote := func(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }
	rows, err := tx.Query("SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", table)
	if err != nil {
		return err
	}
	var key []string
	for rows.Next() {
		var name string
		var pk int
		if err := rows.Scan(&name, &pk); err != nil {
			rows.Close()
			return err
		}
		key = append(key, quote(name))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(key) == 0 {
		key = []string{"rowid"}
	}
	rows, err = tx.Query("SELECT * FROM " + quote(table) + " ORDER BY " + strings.Join(key, ", "))
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s:", table)
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				fmt.Fprintf(w, " %s=NULL", cols[i])
			case []byte:
				fmt.Fprintf(w, " %s=x'%x'", cols[i], v)
			case string:
				fmt.Fprintf(w, " %s=%q", cols[i], v)
			default:
				fmt.Fprintf(w, " %s=%v", cols[i], v)
			}
		}
		fmt.Fprintln(w)
	}
	return rows.Err()
}

// IntegrityCheck runs SQLite's integrity check of the whole file; an error
// wrapping ErrDamaged lists what it found.
func (s *Store) IntegrityCheck() error {
	rows, err := s.db.Query("PRAGMA integrity_check")
	if err != nil {
		return s.translate(err)
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var msg string
		if err := rows.Scan(&msg); err != nil {
			return err
		}
		found = append(found, msg)
	}
	if err := rows.Err(); err != nil {
		return s.translate(err)
	}
	if len(found) == 1 && found[0] == "ok" {
		return nil
	}
	return fmt.Errorf("%s: %w: %s", s.path, ErrDamaged, strings.Join(found, "; "))
}
