package postgres

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/otd-project/otd/tournament"
)

// Check tells whether the database is exactly what otd makes
// (app.Checker): the objects of its schema (tables with their
// columns, constraints, indexes, triggers and the functions they run, rules,
// policies, views, sequences: nothing more, nothing less; the job queue's,
// River's, aside) are those that otd's PostgreSQL migrations make at its
// version, made for the purpose in a schema of a transaction rolled back;
// and no row refers to a row that does not exist. The error wraps
// tournament.ErrUnsound and says what differs (without naming the database).
func (s *Store) Check(ctx context.Context) error {
	err := s.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var version int
		var schema string
		if err := tx.QueryRow(ctx, "SELECT (SELECT version FROM otd_schema), current_schema()").Scan(&version, &schema); err != nil {
			return err
		}
		got, err := readSchema(ctx, tx, schema)
		if err != nil {
			return err
		}
		want, err := reference(ctx, tx, version)
		if err != nil {
			return fmt.Errorf("making otd's schema %d to compare: %w", version, err)
		}
		if diff := schemaDiff(got, want); len(diff) > 0 {
			return fmt.Errorf("%w: its schema is not otd's (PostgreSQL schema %d): %s", tournament.ErrUnsound, version, strings.Join(diff, "; "))
		}
		return errRollback // the reference goes
	})
	if errors.Is(err, errRollback) {
		err = s.foreignKeyCheck(ctx)
	}
	if err != nil && !translated(err) && !errors.Is(err, tournament.ErrUnsound) {
		return fmt.Errorf("%s: checking the schema: %w", s.name, err)
	}
	return err
}

// errRollback ends a transaction that must leave nothing.
var errRollback = errors.New("rolled back")

// reference makes otd's schema at version in a new schema of tx (which the
// caller rolls back) and reads it (readSchema).
func reference(ctx context.Context, tx pgx.Tx, version int) (map[string][]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	if version > len(names) {
		return nil, fmt.Errorf("%w (schema %d; this otd knows up to %d): upgrade otd", ErrNewerSchema, version, len(names))
	}
	scratch := "otd_reference_" + strings.ToLower(rand.Text()[:12])
	if _, err := tx.Exec(ctx, "CREATE SCHEMA "+scratch+"; SET LOCAL search_path = "+scratch+
		"; CREATE TABLE otd_schema (version bigint NOT NULL); INSERT INTO otd_schema VALUES (0)"); err != nil {
		return nil, err
	}
	for _, name := range names[:version] {
		src, err := fs.ReadFile(migrations, name)
		if err != nil {
			return nil, err
		}
		if _, err := tx.Exec(ctx, string(src)); err != nil {
			return nil, fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return readSchema(ctx, tx, scratch)
}

// readSchema reads the objects of schema in a normal form, each a few lines
// by "KIND NAME [on TABLE]": the schema's name taken out of their
// definitions, River's objects (river_...) left out.
func readSchema(ctx context.Context, tx pgx.Tx, schema string) (map[string][]string, error) {
	const ns = "(SELECT oid FROM pg_namespace WHERE nspname = $1)"
	queries := []string{
		// Relations; a table's or view's lines follow.
		`SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'view'
			WHEN 'S' THEN 'sequence' ELSE 'relation' END || ' ' || c.relname, c.relname,
			CASE WHEN c.relrowsecurity THEN 'row level security' ELSE '' END
			FROM pg_class c WHERE c.relnamespace = ` + ns + ` AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c')`,
		`SELECT 'table ' || c.relname, c.relname, 'column ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) ||
			CASE WHEN a.attnotnull THEN ' not null' ELSE '' END || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') ||
			CASE a.attidentity WHEN '' THEN '' ELSE ' identity ' || a.attidentity::text END || CASE a.attgenerated WHEN '' THEN '' ELSE ' generated' END
			FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
			WHERE c.relnamespace = ` + ns + ` AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
		`SELECT 'view ' || c.relname, c.relname, pg_get_viewdef(c.oid) FROM pg_class c WHERE c.relnamespace = ` + ns + ` AND c.relkind IN ('v', 'm')`,
		`SELECT 'constraint ' || con.conname || ' on ' || c.relname, c.relname,
			pg_get_constraintdef(con.oid) || CASE WHEN con.convalidated THEN '' ELSE ' not valid' END
			FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid WHERE c.relnamespace = ` + ns,
		`SELECT 'index ' || i.relname || ' on ' || c.relname, c.relname, pg_get_indexdef(i.oid)
			FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid WHERE c.relnamespace = ` + ns,
		`SELECT 'trigger ' || t.tgname || ' on ' || c.relname, c.relname, pg_get_triggerdef(t.oid) || ' enabled ' || t.tgenabled::text
			FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = ` + ns,
		`SELECT 'rule ' || r.rulename || ' on ' || c.relname, c.relname, pg_get_ruledef(r.oid)
			FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE r.rulename <> '_RETURN' AND c.relnamespace = ` + ns,
		`SELECT 'policy ' || p.polname || ' on ' || c.relname, c.relname,
			p.polcmd::text || ' ' || p.polpermissive::text || ' ' || coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' ' || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '')
			FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid WHERE c.relnamespace = ` + ns,
		`SELECT 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')', p.proname,
			CASE WHEN p.prokind IN ('f', 'p') THEN pg_get_functiondef(p.oid) ELSE p.prokind::text END
			FROM pg_proc p WHERE p.pronamespace = ` + ns,
		`SELECT 'type ' || t.typname, t.typname, t.typtype::text FROM pg_type t
			WHERE t.typnamespace = ` + ns + ` AND t.typrelid = 0 AND t.typelem = 0`,
	}
	out := map[string][]string{}
	for _, q := range queries {
		rows, err := tx.Query(ctx, q, schema)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var key, owner, def string
			if err := rows.Scan(&key, &owner, &def); err != nil {
				rows.Close()
				return nil, err
			}
			if strings.HasPrefix(owner, "river_") {
				continue
			}
			def = strings.ReplaceAll(def, pgx.Identifier{schema}.Sanitize()+".", "")
			def = strings.ReplaceAll(def, schema+".", "")
			if def = strings.Join(strings.Fields(def), " "); def != "" {
				out[key] = append(out[key], def)
			} else if _, ok := out[key]; !ok {
				out[key] = nil
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	for _, lines := range out {
		slices.Sort(lines)
	}
	return out, nil
}

// schemaDiff says, in words, how the objects got differ from want.
func schemaDiff(got, want map[string][]string) []string {
	keys := maps.Clone(got)
	maps.Copy(keys, want)
	var diff []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		g, inGot := got[k]
		w, inWant := want[k]
		switch {
		case !inWant:
			diff = append(diff, fmt.Sprintf("it has %s, which is not otd's", k))
		case !inGot:
			diff = append(diff, "it has no "+k)
		default:
			for _, l := range g {
				if !slices.Contains(w, l) {
					diff = append(diff, fmt.Sprintf("its %s has %q, which otd's has not", k, l))
				}
			}
			for _, l := range w {
				if !slices.Contains(g, l) {
					diff = append(diff, fmt.Sprintf("its %s lacks %q", k, l))
				}
			}
		}
	}
	return diff
}

// foreignKeyCheck finds the rows that refer to a row that does not exist
// (a foreign key's trigger disabled, or not validated, when they were
// written).
func (s *Store) foreignKeyCheck(ctx context.Context) error {
	type fk struct {
		table, parent string
		cols, pcols   []string
	}
	var fks []fk
	err := s.tx(ctx, readOnly, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT c.relname::text, p.relname::text,
			array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.i),
			array(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.i)
			FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class p ON p.oid = con.confrelid
			WHERE con.contype = 'f' AND c.relnamespace = current_schema()::regnamespace ORDER BY 1, 2`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var f fk
			if err := rows.Scan(&f.table, &f.parent, &f.cols, &f.pcols); err != nil {
				rows.Close()
				return err
			}
			fks = append(fks, f)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		var found []string
		for _, f := range fks {
			var set, match []string
			for i, c := range f.cols {
				col, pcol := pgx.Identifier{c}.Sanitize(), pgx.Identifier{f.pcols[i]}.Sanitize()
				set = append(set, "c."+col+" IS NOT NULL")
				match = append(match, "p."+pcol+" = c."+col)
			}
			var n int
			q := fmt.Sprintf("SELECT count(*) FROM %s c WHERE %s AND NOT EXISTS (SELECT 1 FROM %s p WHERE %s)",
				pgx.Identifier{f.table}.Sanitize(), strings.Join(set, " AND "), pgx.Identifier{f.parent}.Sanitize(), strings.Join(match, " AND "))
			if err := tx.QueryRow(ctx, q).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				verb := "refer"
				if n == 1 {
					verb = "refers"
				}
				found = append(found, fmt.Sprintf("%s of %s %s to a %s that does not exist", tournament.Plural(n, "row"), f.table, verb, f.parent))
			}
		}
		if len(found) > 0 {
			return fmt.Errorf("%w: %s", tournament.ErrUnsound, strings.Join(found, "; "))
		}
		return nil
	})
	return err
}

// SameDatabase tells whether the URLs a and b name the same database,
// however written (another host name or address of the server, other
// parameters), as the servers say: the same cluster (its system
// identifier), the same database in it (its oid) and the same schema, where
// otd keeps its tables.
func SameDatabase(ctx context.Context, a, b string) (bool, error) {
	ida, err := identity(ctx, a)
	if err != nil {
		return false, err
	}
	idb, err := identity(ctx, b)
	if err != nil {
		return false, err
	}
	return ida == idb, nil
}

// identity is what names the database of url on its server, whatever the
// URL's spelling.
func identity(ctx context.Context, url string) (string, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return "", fmt.Errorf("%s: %w", Redact(url), ErrURL)
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return "", (&Store{name: Redact(url), conn: cfg}).translate(err)
	}
	defer conn.Close(ctx)
	var id string
	err = conn.QueryRow(ctx, `SELECT (SELECT system_identifier FROM pg_control_system())::text || '/' ||
		(SELECT oid FROM pg_database WHERE datname = current_database())::text || '/' || current_schema()`).Scan(&id)
	return id, err
}
