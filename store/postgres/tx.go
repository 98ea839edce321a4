package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/otd-project/otd/internal/testhook"
	"github.com/otd-project/otd/store/internal/sqltx"
	"github.com/otd-project/otd/tournament"
)

// pgEngine is what the shared transaction code (sqltx) must know of
// PostgreSQL: a write transaction's Load locks the tournament's row until
// the transaction ends, so that the changes of one tournament are made one
// after the other, each on what the one before saved (other tournaments'
// go on meanwhile). A change waits for the lock up to Options.LockWait.
var pgEngine = &sqltx.Engine{
	Damaged: ErrDamaged,
	Unique: func(err error) bool {
		var pe *pgconn.PgError
		return errors.As(err, &pe) && pe.Code == "23505"
	},
	Lock: " FOR UPDATE",
}

// changesChannel is the channel of NOTIFY on which each write transaction
// announces itself, at its commit (Changes).
const changesChannel = "otd_changes"

// tx runs fn in a transaction begun with opts, and commits it if fn
// succeeds.
func (s *Store) tx(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	return s.txOn(ctx, s.pool, opts, fn)
}

// txOn is tx on the connections of pool (a worker's).
func (s *Store) txOn(ctx context.Context, pool *pgxpool.Pool, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	return s.translate(pgx.BeginTxFunc(ctx, pool, opts, fn))
}

// nested runs fn in a savepoint of the caller's transaction tx, released if
// fn succeeds and rolled back to if it fails (InTx).
func (s *Store) nested(ctx context.Context, tx pgx.Tx, fn func(pgx.Tx) error) error {
	return s.translate(pgx.BeginFunc(ctx, tx, fn))
}

func (s *Store) readOnlyError() error {
	return fmt.Errorf("%s: %w: opened for reading only", s.name, ErrReadOnly)
}

// readOnly are the options of a read-only transaction: one snapshot for
// all its queries (a tournament is read in several).
var readOnly = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// Update runs fn in one write transaction; an error from fn rolls it back.
func (s *Store) Update(ctx context.Context, fn func(tournament.Tx) error) error {
	if s.readOnly {
		return s.readOnlyError()
	}
	return s.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error { return s.update(ctx, tx, fn) })
}

// update runs fn in tx and announces the change, sent when tx commits.
func (s *Store) update(ctx context.Context, tx pgx.Tx, fn func(tournament.Tx) error) error {
	if err := fn(sqltx.New(&querier{ctx: ctx, tx: tx}, s.now(), true, pgEngine)); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, "SELECT pg_notify($1, '')", changesChannel)
	return err
}

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(tournament.Tx) error) error {
	return s.tx(ctx, readOnly, func(tx pgx.Tx) error {
		return fn(sqltx.New(&querier{ctx: ctx, tx: tx}, s.now(), false, pgEngine))
	})
}

// InTx returns the Storage of tx, a transaction that the caller began on
// this store's Pool and ends itself: a Director over it acts inside tx (a job
// queue's transaction, which completes the job with the result it records),
// each action in a savepoint of its own that a failure rolls back, and its
// changes are announced when the caller commits.
func (s *Store) InTx(tx pgx.Tx) tournament.Storage { return &inTx{s: s, tx: tx} }

type inTx struct {
	s  *Store
	tx pgx.Tx
}

func (t *inTx) Update(ctx context.Context, fn func(tournament.Tx) error) error {
	return t.s.nested(ctx, t.tx, func(tx pgx.Tx) error { return t.s.update(ctx, tx, fn) })
}

func (t *inTx) View(ctx context.Context, fn func(tournament.Tx) error) error {
	return t.s.nested(ctx, t.tx, func(tx pgx.Tx) error {
		return fn(sqltx.New(&querier{ctx: ctx, tx: tx}, t.s.now(), false, pgEngine))
	})
}

// Tables reads the whole database at one moment (app.Mover).
func (s *Store) Tables(ctx context.Context) (tables []app.Table, err error) {
	err = s.tx(ctx, readOnly, func(tx pgx.Tx) error {
		tables, err = sqltx.Tables(&querier{ctx: ctx, tx: tx})
		return err
	})
	return tables, err
}

// Replace replaces the whole content of the database with tables, in one
// transaction (app.Mover); the ids given next follow the copied ones.
// Its tables are locked first against every write (EXCLUSIVE mode, which
// lets others read), then before is called (if not nil).
func (s *Store) Replace(ctx context.Context, tables []app.Table, before func() error) (n int, err error) {
	if s.readOnly {
		return 0, s.readOnlyError()
	}
	err = s.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var names string
		if err := tx.QueryRow(ctx, `SELECT string_agg(quote_ident(relname), ', ') FROM pg_class
			WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') AND relname NOT LIKE 'river\_%'`).Scan(&names); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "LOCK TABLE "+names+" IN EXCLUSIVE MODE"); err != nil {
			return err
		}
		if before != nil {
			if err := before(); err != nil {
				return err
			}
		}
		if n, err = sqltx.Replace(&querier{ctx: ctx, tx: tx}, tables); err != nil {
			return err
		}
		testhook.Stop("restore-replace")
		for _, t := range []string{"tournament", "audit"} {
			if _, err := tx.Exec(ctx, fmt.Sprintf("SELECT setval(pg_get_serial_sequence('%s', 'id'), coalesce((SELECT max(id) FROM %[1]s), 0) + 1, false)", t)); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, "SELECT pg_notify($1, '')", changesChannel)
		return err
	})
	return n, err
}

// querier is a transaction as sqltx uses it: its ? placeholders become
// PostgreSQL's $1, $2... (sent as they are: Open's exec mode prepares none).
type querier struct {
	ctx context.Context
	tx  pgx.Tx
}

func (q *querier) Exec(query string, args ...any) (sql.Result, error) {
	tag, err := q.tx.Exec(q.ctx, rebind(query), args...)
	return rowsAffected(tag.RowsAffected()), err
}

func (q *querier) Insert(query string, args ...any) (id int64, err error) {
	err = q.tx.QueryRow(q.ctx, rebind(query)+" RETURNING id", args...).Scan(&id)
	return id, err
}

func (q *querier) Query(query string, args ...any) (sqltx.Rows, error) {
	rows, err := q.tx.Query(q.ctx, rebind(query), args...)
	if err != nil {
		return nil, err
	}
	return pgRows{rows}, nil
}

func (q *querier) QueryRow(query string, args ...any) sqltx.Row {
	return q.tx.QueryRow(q.ctx, rebind(query), args...)
}

// Try runs fn in a savepoint, rolled back to if fn fails: the transaction
// goes on.
func (q *querier) Try(fn func() error) error {
	return pgx.BeginFunc(q.ctx, q.tx, func(pgx.Tx) error { return fn() })
}

// rowsAffected is the sql.Result of a statement: Insert gives new ids.
type rowsAffected int64

func (n rowsAffected) RowsAffected() (int64, error) { return int64(n), nil }
func (rowsAffected) LastInsertId() (int64, error) {
	return 0, errors.New("postgres: no LastInsertId (Insert returns the id)")
}

// pgRows are pgx's rows as sqltx reads them.
type pgRows struct{ pgx.Rows }

func (r pgRows) Close() error {
	r.Rows.Close()
	return r.Rows.Err()
}

func (r pgRows) Columns() ([]string, error) {
	var names []string
	for _, f := range r.FieldDescriptions() {
		names = append(names, f.Name)
	}
	return names, nil
}

// rebound holds the queries rebind has rewritten, by their text.
var rebound sync.Map

// rebind rewrites a query's ? placeholders as $1, $2... (sqltx's queries
// have no ? but placeholders).
func rebind(query string) string {
	if r, ok := rebound.Load(query); ok {
		return r.(string)
	}
	var b strings.Builder
	n := 0
	for _, part := range strings.SplitAfter(query, "?") {
		if p, ok := strings.CutSuffix(part, "?"); ok {
			n++
			part = p + "$" + strconv.Itoa(n)
		}
		b.WriteString(part)
	}
	rebound.Store(query, b.String())
	return b.String()
}
