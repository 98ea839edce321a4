package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"github.com/otd-project/otd/tournament"
	"io/fs"
	"sort"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var embedded embed.FS

// migrations are the schema's steps, migrations/NNNN_name.sql in order (a
// variable so that tests can add a step, as a later otd would).
var migrations fs.FS = embedded

// migrationLock is the key of the advisory lock under which one otd at a
// time upgrades a database ("otd1", SQLite's application id of otd's files).
const migrationLock = 0x6f746431

// migrate checks that the database is otd's and upgrades its schema:
// otd_schema, a table of one row, holds the number of migrations applied
// (SQLite's user_version). Only Create writes otd's tables, and only into a
// database without tables.
func (s *Store) migrate(ctx context.Context, create bool) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	version, tables, err := schemaVersion(ctx, s.pool)
	if err != nil {
		return s.translate(err)
	}
	switch {
	case version >= 0:
	case tables > 0:
		return fmt.Errorf("%s: %w: it holds %d tables of another program and none of otd's: give otd a database of its own (createdb otd)", s.name, ErrNotOTD, tables)
	case !create:
		return fmt.Errorf("%s: %w: 'otd tournament new NAME --rounds N' makes them, or 'otd --db FILE backup --to URL' copies an event's file into it", s.name, ErrNoSchema)
	}
	if version > len(names) {
		return fmt.Errorf("%s: %w (schema %d; this otd knows up to %d): upgrade otd", s.name, ErrNewerSchema, version, len(names))
	}
	if s.readOnly && version < len(names) {
		return fmt.Errorf("%s: %w: it was written by an older otd (schema %d) and %w (schema %d) before reading it: run any other otd command on it once",
			s.name, ErrReadOnly, max(version, 0), tournament.ErrUpgrade, len(names))
	}
	for i := max(version, 0); i < len(names); i++ {
		src, err := fs.ReadFile(migrations, names[i])
		if err != nil {
			return err
		}
		err = s.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
			// Another otd may have upgraded the database since it was read:
			// look again, under the lock.
			if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLock); err != nil {
				return err
			}
			v := -1
			var otd bool
			if err := tx.QueryRow(ctx, "SELECT to_regclass('otd_schema') IS NOT NULL").Scan(&otd); err != nil {
				return err
			}
			if otd {
				if err := tx.QueryRow(ctx, "SELECT version FROM otd_schema").Scan(&v); err != nil || v > i {
					return err
				}
			}
			if v < 0 {
				if _, err := tx.Exec(ctx, "CREATE TABLE otd_schema (version bigint NOT NULL); INSERT INTO otd_schema VALUES (0)"); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(ctx, string(src)); err != nil {
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
			_, err = tx.Exec(ctx, "UPDATE otd_schema SET version = $1", i+1)
			return err
		})
		if err != nil && !translated(err) {
			return fmt.Errorf("%s: making or upgrading otd's tables: %w", s.name, err)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// schemaVersion reads otd's schema version, -1 where the database has no
// otd_schema, and then the number of tables in the schema where otd writes
// them (the first of the search path).
func schemaVersion(ctx context.Context, q *pgxpool.Pool) (version, tables int, err error) {
	err = q.QueryRow(ctx, "SELECT version FROM otd_schema").Scan(&version)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42P01" { // undefined_table
		return version, 0, err
	}
	err = q.QueryRow(ctx, "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()").Scan(&tables)
	return -1, tables, err
}
