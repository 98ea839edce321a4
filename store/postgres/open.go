// Package postgres keeps tournaments in a PostgreSQL database (pgx): it
// implements the domain's tournament.Storage (and its Watcher and Mover) over
// the same tables as store/sqlite, written by the same code (sqltx), so that
// a federation's many events share one database that its directors, its
// rating list and its site use at once. Its schema is in embedded, numbered
// migrations of its own, tested to end at SQLite's schema; a database of an
// older otd is upgraded in place and one of a newer otd refused. Every
// director action runs in one transaction with its audit row, the
// tournament's row locked while it runs: two directors changing one event
// from two laptops act one after the other, the second on what the first
// saved, and none of their changes is lost. Each commit is announced with
// NOTIFY, which Changes listens to.
package postgres

import (
	"context"
	"fmt"
	"github.com/otd-project/otd/app"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/otd-project/otd/tournament"
)

// Store is an open database.
type Store struct {
	pool     *pgxpool.Pool
	conn     *pgx.ConnConfig // how it connects: its messages name the server, user and database
	name     string          // the URL without its password, for messages
	now      func() time.Time
	readOnly bool
	lockWait time.Duration
	q        queue // the job queue of engine games, made at its first use
}

// App returns the database as the application layer takes it: its
// Storage and its features (its own check, its whole content read and
// replaced, changes reported, the job queue of engine games); its backups
// are SQLite files, made by copying (app.Director.CopyTo).
func (s *Store) App() app.Store {
	return app.Store{Storage: s, Check: s, Move: s, Watch: s, Queue: s}
}

// Options of Open.
type Options struct {
	// Create writes otd's tables into an empty database ('tournament new',
	// 'import'); without it, a database without them is refused.
	Create bool
	Now    func() time.Time // the clock of the audit trail; nil: time.Now
	// ReadOnly opens the database for reading only (Update refuses with
	// ErrReadOnly), seeing what others commit: 'otd serve'.
	ReadOnly bool
	// LockWait is how long a change waits for another change of the same
	// tournament to end before it is refused with ErrBusy; 0:
	// DefaultLockWait.
	LockWait time.Duration
}

// DefaultLockWait is how long a change waits for another of the same
// tournament by default (SQLite's busy timeout).
const DefaultLockWait = 10 * time.Second

// connectTimeout is how long Open waits for the server when the URL does not
// say (connect_timeout).
const connectTimeout = 10 * time.Second

// IsURL tells whether name is a PostgreSQL connection URL (postgres:// or
// postgresql://) rather than an SQLite file's path.
func IsURL(name string) bool {
	scheme, _, ok := strings.Cut(name, "://")
	return ok && (strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql"))
}

// Redact returns a PostgreSQL URL without its password, for messages; other
// names as they are.
func Redact(name string) string {
	if !IsURL(name) {
		return name
	}
	u, err := url.Parse(name)
	if err != nil {
		scheme, _, _ := strings.Cut(name, "://")
		return scheme + "://…"
	}
	if _, has := u.User.Password(); has {
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	if q.Has("password") {
		q.Del("password")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// Open connects to the database at url (postgres://user:password@host:port/
// database?options), creating otd's tables in an empty database with
// Create, upgrading the schema if it comes from an older otd.
func Open(url string, o Options) (*Store, error) {
	s := &Store{name: Redact(url), now: o.Now, readOnly: o.ReadOnly, lockWait: o.LockWait}
	if s.now == nil {
		s.now = time.Now
	}
	if s.lockWait <= 0 {
		s.lockWait = DefaultLockWait
	}
	if !IsURL(url) {
		return nil, fmt.Errorf("%q: %w: a PostgreSQL database is named by a URL, postgres://user:password@host:port/database", s.name, ErrURL)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message quotes the URL, its password hidden as best it can: not quoted here.
		why := err.Error()
		if _, after, ok := strings.Cut(why, "`: "); ok {
			why = after
		}
		return nil, fmt.Errorf("%s: %w: %s", s.name, ErrURL, why)
	}
	s.conn = cfg.ConnConfig
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	if !strings.Contains(url, "default_query_exec_mode") {
		// One round trip a statement, none to prepare it: an otd command is
		// a process of a few statements, which a statement cache would
		// prepare for nothing.
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
	}
	params := cfg.ConnConfig.RuntimeParams
	if params["application_name"] == "" {
		params["application_name"] = "otd"
	}
	params["lock_timeout"] = strconv.FormatInt(s.lockWait.Milliseconds(), 10)
	if s.pool, err = pgxpool.NewWithConfig(context.Background(), cfg); err != nil {
		return nil, s.translate(err)
	}
	if err := s.migrate(context.Background(), o.Create); err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the connections.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

var _ tournament.Storage = (*Store)(nil)
