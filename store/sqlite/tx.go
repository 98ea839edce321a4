package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"github.com/otd-project/otd/app"

	"github.com/otd-project/otd/store/internal/sqltx"
	"github.com/otd-project/otd/tournament"
	driver "modernc.org/sqlite" // the database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.translate(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.translate(err)
	}
	return s.translate(tx.Commit())
}

// sqliteEngine is what the shared transaction code (sqltx) must know of SQLite.
// SQLite lets one write transaction at a time (BEGIN IMMEDIATE): Load locks
// nothing more.
var sqliteEngine = &sqltx.Engine{
	Damaged: ErrDamaged,
	Unique: func(err error) bool {
		var se *driver.Error
		return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
	},
}

// querier is a transaction as sqltx uses it.
type querier struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt // by their SQL: prepared once per transaction, closed with it
}

// Exec runs a statement that Save may run for each of thousands of entities
// (a players file): SQLite parses it once per transaction, not once a row.
func (q *querier) Exec(query string, args ...any) (sql.Result, error) {
	st, ok := q.stmts[query]
	if !ok {
		var err error
		if st, err = q.tx.Prepare(query); err != nil {
			return nil, err
		}
		if q.stmts == nil {
			q.stmts = map[string]*sql.Stmt{}
		}
		q.stmts[query] = st
	}
	return st.Exec(args...)
}

func (q *querier) Insert(query string, args ...any) (int64, error) {
	res, err := q.Exec(query, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

func (q *querier) Query(query string, args ...any) (sqltx.Rows, error) {
	return q.tx.Query(query, args...)
}

// Try runs fn: a statement that fails leaves SQLite's transaction as it was.
func (q *querier) Try(fn func() error) error { return fn() }

func (q *querier) QueryRow(query string, args ...any) sqltx.Row { return q.tx.QueryRow(query, args...) }

var _ tournament.Storage = (*Store)(nil)

// Update runs fn in one write transaction; an error from fn rolls it back.
func (s *Store) Update(ctx context.Context, fn func(tournament.Tx) error) error {
	if s.readOnly {
		return s.readOnlyError()
	}
	return s.tx(ctx, func(tx *sql.Tx) error { return fn(sqltx.New(&querier{tx: tx}, s.now(), true, sqliteEngine)) })
}

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(tournament.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return s.translate(err)
	}
	defer tx.Rollback()
	return s.translate(fn(sqltx.New(&querier{tx: tx}, s.now(), false, sqliteEngine)))
}

// Tables reads the whole database at one moment (app.Mover).
func (s *Store) Tables(ctx context.Context) (tables []app.Table, err error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, s.translate(err)
	}
	defer tx.Rollback()
	tables, err = sqltx.Tables(&querier{tx: tx})
	return tables, s.translate(err)
}

// Replace replaces the whole content of the database with tables, in one
// write transaction (app.Mover), calling before first within it: a
// write transaction of SQLite holds off every other writer, not readers.
func (s *Store) Replace(ctx context.Context, tables []app.Table, before func() error) (n int, err error) {
	if s.readOnly {
		return 0, s.readOnlyError()
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		if before != nil {
			if err := before(); err != nil {
				return err
			}
		}
		n, err = sqltx.Replace(&querier{tx: tx}, tables)
		return err
	})
	return n, err
}
