// Package store keeps tournaments in one SQLite file (modernc.org/sqlite, no
// cgo). It is the only package that knows SQL. The schema is in embedded,
// numbered migrations; a database from an older otd is upgraded in place and
// one from a newer otd is refused. Every director action runs in one
// transaction (BEGIN IMMEDIATE) together with its audit row, so that a crash
// leaves the database as it was before the action or after it.
package store

import (
	"bufio"
	"cmp"
	"context"
	"database/sql"
	"embed"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"modernc.org/sqlite" // the database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var embedded embed.FS

// migrations are the schema's steps, migrations/NNNN_name.sql in order (a
// variable so that tests can add a step, as a later otd would).
var migrations fs.FS = embedded

// applicationID marks an otd database in the SQLite header ("otd1").
const applicationID = 0x6f746431

// Errors of Open and of the transactions.
var (
	ErrNoDatabase   = errors.New("no database")
	ErrNotDatabase  = errors.New("not an SQLite database")
	ErrDamaged      = errors.New("the database file is damaged")
	ErrCannotOpen   = errors.New("cannot open the database file")
	ErrNotOTD       = errors.New("not an otd database")
	ErrNewerSchema  = errors.New("the database was written by a newer otd")
	ErrNoTournament = tournament.ErrNoTournament
	ErrPath         = errors.New("not a database file name")
	ErrDiskFull     = errors.New("the disk is full")
	ErrReadOnly     = errors.New("the database is read-only")
	ErrBusy         = errors.New("the database is in use")
	// ErrChangesPending comes with ErrReadOnly: the latest changes are in
	// the -wal file, which otd may not merge into the file.
	ErrChangesPending = errors.New("changes are pending")
)

// busyTimeout is how long, in milliseconds, a transaction waits for another
// connection's write lock before SQLite reports the database busy (a
// variable so that tests can shorten it).
var busyTimeout = 10000

// writable tells whether this process may write the file at path: a file it
// may not write is opened read-only. It opens no file descriptor (closing
// one would drop SQLite's POSIX locks on the file held by this process). A
// variable so that tests, which run as root, can say no.
var writable = mayWrite

// Store is an open database.
type Store struct {
	db        *sql.DB
	path      string
	now       func() time.Time
	readOnly  bool // opened read-only: with Options.ReadOnly, or otd may not write the file or its folder
	immutable bool // opened in SQLite's immutable mode: no lock, and others' changes are not seen
	poll      time.Duration
}

// Options of Open.
type Options struct {
	Create bool             // create the file if it does not exist
	Now    func() time.Time // the clock of the audit trail; nil: time.Now
	// ReadOnly opens the database for reading only (Update refuses with
	// ErrReadOnly), seeing what other connections commit: 'otd serve'.
	ReadOnly bool
	// Poll is how often Changes looks at the database; 0: DefaultPoll.
	Poll time.Duration
}

// DefaultPoll is how often Changes looks at the database by default: a
// live page shows a result within a quarter of a second.
const DefaultPoll = 250 * time.Millisecond

// Open opens (and, with Create, creates) the database at path, upgrading its
// schema if it comes from an older otd. A database that otd may not write (a
// read-only file, or one in a read-only folder, where SQLite cannot make the
// WAL's side files) is opened read-only: it can be read, and Update refuses
// with ErrReadOnly.
func Open(path string, o Options) (*Store, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	// An empty file is no database either: reading it must not write a schema.
	fi, err := os.Stat(path)
	if (errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode().IsRegular() && fi.Size() == 0) && !o.Create {
		return nil, fmt.Errorf("%s: %w", path, ErrNoDatabase)
	}
	existing := err == nil && fi.Mode().IsRegular() && fi.Size() > 0
	s, err := openDB(path, o, existing && !writable(path))
	if errors.Is(err, ErrReadOnly) && existing && !s.immutable {
		// SQLite may not make the -wal and -shm files beside a database in
		// WAL mode (a read-only folder): read it without them.
		s, err = openDB(path, o, true)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// checkPath refuses a name that SQLite would not take as a plain file name:
// the empty name (a temporary database), ":memory:", a "file:" URI, a name
// with '?' or '#' (the driver reads a query after them) or a NUL byte.
func checkPath(path string) error {
	why := ""
	switch {
	case path == "":
		why = "the path is empty"
	case path == ":memory:":
		why = "SQLite's in-memory database keeps nothing after the command"
	case len(path) >= 5 && strings.EqualFold(path[:5], "file:"):
		why = "otd takes a file's path, not an SQLite URI"
		if !strings.ContainsAny(path, "?#\x00") {
			why += fmt.Sprintf(" (./%s for a file of that very name)", path)
		}
	case strings.ContainsRune(path, 0):
		why = "a database path may not contain a NUL byte"
	case strings.ContainsAny(path, "?#"):
		why = "a database path may not contain '?' or '#'; rename the file"
	default:
		return nil
	}
	return fmt.Errorf("%q: %w: %s", path, ErrPath, why)
}

// openDB opens the database at path: read-only in SQLite's immutable mode,
// which needs no -wal or -shm file and takes no lock, if immutable; read-only
// (mode=ro) with o.ReadOnly. The Store returned is never nil; its readOnly
// and immutable say how it was opened.
func openDB(path string, o Options, immutable bool) (*Store, error) {
	s := &Store{path: path, now: o.Now, poll: cmp.Or(o.Poll, DefaultPoll), readOnly: immutable || o.ReadOnly, immutable: immutable}
	if s.now == nil {
		s.now = time.Now
	}
	// No journal_mode(WAL) here: it would rewrite the header of any SQLite
	// file on connect, another program's included. WAL is set once below, after
	// the file is known to be ours, and persists in the file.
	pragmas := fmt.Sprintf("_pragma=foreign_keys(1)&_pragma=busy_timeout(%d)&_pragma=synchronous(FULL)&_txlock=immediate", busyTimeout)
	dsn := path + "?" + pragmas
	if s.readOnly {
		abs, err := filepath.Abs(path)
		if err != nil {
			return s, fmt.Errorf("%s: %w", path, err)
		}
		dsn = "file:" + strings.ReplaceAll(filepath.ToSlash(abs), "%", "%25") + "?mode=ro&" + pragmas
	}
	if immutable {
		// Changes still in a -wal file would not be seen, and otd may not
		// write the file to merge them in.
		if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
			return s, fmt.Errorf("%s: %w: %w: its latest changes are still in %s-wal and otd may not write the file or its folder to merge them in",
				path, ErrReadOnly, ErrChangesPending, path)
		}
		dsn = strings.Replace(dsn, "?mode=ro&", "?immutable=1&", 1)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	s.db = db
	if immutable {
		// SQLite takes an immutable file as unchanging: a connection keeps
		// the pages it has read for its life. One a transaction, so that each
		// reads the file as it is now (Changes watches it).
		db.SetMaxIdleConns(0)
	}
	if err := s.migrate(o.Create); err != nil {
		db.Close()
		return s, err
	}
	if s.readOnly {
		return s, nil
	}
	if err := s.walMode(); err != nil {
		if d := s.damaged(err); errors.Is(d, ErrReadOnly) {
			// A read-only file not yet in WAL mode (an older otd's): read
			// it as it is.
			s.readOnly = true
			return s, nil
		} else if d != err {
			db.Close()
			return s, d
		}
		db.Close()
		return s, fmt.Errorf("%s: setting WAL mode: %w", path, err)
	}
	return s, nil
}

// walMode puts the database in WAL mode, which then persists in the file.
// SQLite takes the write lock for the switch without calling its busy
// handler, so while another otd holds that lock (creating the same new file)
// the switch is tried again, for up to the busy timeout.
func (s *Store) walMode() error {
	for try := 0; ; try++ {
		_, err := s.db.Exec("PRAGMA journal_mode = WAL")
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || try == 1000 {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) migrate(create bool) error {
	var appID, version, tables int
	// One statement, so that the three come from one state of the file even
	// while another otd creates it.
	err := s.db.QueryRow(`SELECT (SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)`).Scan(&appID, &version, &tables)
	if err != nil {
		if d := s.damaged(err); d != err {
			return d
		}
		return fmt.Errorf("%s: %w", s.path, err)
	}
	// A file is otd's once its header says so. Only Create makes a file otd's,
	// and only a blank one: no table, no owner, no schema version.
	switch {
	case appID == applicationID:
	case tables > 0 || appID != 0 || version != 0:
		return fmt.Errorf("%s: %w: it belongs to another program", s.path, ErrNotOTD)
	case !create:
		return fmt.Errorf("%s: %w: an SQLite database with no otd tables, perhaps another program's", s.path, ErrNotOTD)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	if version > len(names) {
		return fmt.Errorf("%s: %w (schema %d; this otd knows up to %d)", s.path, ErrNewerSchema, version, len(names))
	}
	if s.readOnly && version < len(names) {
		return fmt.Errorf("%s: %w: it was written by an older otd (schema %d) and this otd must upgrade it (schema %d) before reading it",
			s.path, ErrReadOnly, version, len(names))
	}
	for i := version; i < len(names); i++ {
		src, err := fs.ReadFile(migrations, names[i])
		if err != nil {
			return err
		}
		err = s.tx(context.Background(), func(tx *sql.Tx) error {
			// Another otd may have upgraded the file since it was read: look
			// again, inside the write transaction.
			if err := tx.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version > i {
				return err
			}
			if _, err := tx.Exec(string(src)); err != nil {
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
			if step := goSteps[path.Base(names[i])]; step != nil {
				if err := step(tx); err != nil {
					return fmt.Errorf("migration %s: %w", names[i], err)
				}
			}
			_, err := tx.Exec(fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, i+1))
			return err
		})
		if err != nil {
			if translated(err) {
				return err
			}
			return fmt.Errorf("%s: upgrading the schema: %w", s.path, err)
		}
	}
	return nil
}

// goSteps are the parts of migrations that SQL cannot do, by the file they
// follow (run in its transaction, after its SQL).
var goSteps = map[string]func(*sql.Tx) error{
	"0010_name_key.sql": fillNameKeys,
}

// fillNameKeys writes the name key of every tournament (schema 10); two
// whose names are equal but for case, which no otd made, are refused by
// the unique index, named.
func fillNameKeys(tx *sql.Tx) error {
	rows, err := tx.Query("SELECT id, name FROM tournament ORDER BY id")
	if err != nil {
		return err
	}
	names := map[int64]string{}
	var ids []int64
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			rows.Close()
			return err
		}
		names[id] = name
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	seen := map[string]int64{}
	for _, id := range ids {
		key := tournament.NameKey(names[id])
		if other, ok := seen[key]; ok {
			return fmt.Errorf("tournaments %d (%q) and %d (%q) have the same name but for case: rename one with an otd of schema 9", other, names[other], id, names[id])
		}
		seen[key] = id
		if _, err := tx.Exec("UPDATE tournament SET name_key = ? WHERE id = ?", key, id); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.damaged(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.damaged(err)
	}
	return s.damaged(tx.Commit())
}

// damaged turns SQLite's reports of a damaged file, of a file that is not a
// database, of one it cannot open, of a full disk, of a database it may not
// write and of one another connection holds into ErrDamaged, ErrNotDatabase,
// ErrCannotOpen, ErrDiskFull, ErrReadOnly and ErrBusy, each in one line with
// the path and what to do; other errors pass as they are.
func (s *Store) damaged(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("%s: %w (%v)", s.path, ErrDamaged, se)
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%s: %w (damaged, or another kind of file)", s.path, ErrNotDatabase)
	case sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("%s: %w (%v)", s.path, ErrCannotOpen, se)
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%s: %w (or the file has reached its size limit) and nothing was saved", s.path, ErrDiskFull)
	case sqlite3.SQLITE_READONLY:
		return s.readOnlyError()
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("%s: %w: another otd or another program has held it for over %s and nothing was saved",
			s.path, ErrBusy, time.Duration(busyTimeout)*time.Millisecond)
	}
	return err
}

func (s *Store) readOnlyError() error {
	return fmt.Errorf("%s: %w: otd may not write the file or its folder (commands that only read it work)", s.path, ErrReadOnly)
}

// translated tells whether err is already one of damaged's lines.
func translated(err error) bool {
	for _, e := range []error{ErrDamaged, ErrNotDatabase, ErrCannotOpen, ErrDiskFull, ErrReadOnly, ErrBusy} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// Tx is one transaction; it implements tournament.Tx.
type Tx struct {
	tx    *sql.Tx
	now   time.Time
	stmts map[string]*sql.Stmt // by their SQL: prepared once per transaction, closed with it
}

// exec runs a statement that Save may run for each of thousands of entities
// (a players file): SQLite parses it once per transaction, not once a row.
func (t *Tx) exec(query string, args ...any) (sql.Result, error) {
	st, ok := t.stmts[query]
	if !ok {
		var err error
		if st, err = t.tx.Prepare(query); err != nil {
			return nil, err
		}
		if t.stmts == nil {
			t.stmts = map[string]*sql.Stmt{}
		}
		t.stmts[query] = st
	}
	return st.Exec(args...)
}

var _ tournament.Storage = (*Store)(nil)

// Update runs fn in one write transaction; an error from fn rolls it back.
func (s *Store) Update(ctx context.Context, fn func(tournament.Tx) error) error {
	if s.readOnly {
		return s.readOnlyError()
	}
	return s.tx(ctx, func(tx *sql.Tx) error { return fn(&Tx{tx: tx, now: s.now()}) })
}

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(tournament.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return s.damaged(err)
	}
	defer tx.Rollback()
	return s.damaged(fn(&Tx{tx: tx, now: s.now()}))
}

// Current returns the id of the current tournament: the one last created or
// chosen with Use, or the only one.
func (t *Tx) Current() (int64, error) {
	var id int64
	err := t.tx.QueryRow(`SELECT CAST(value AS INTEGER) FROM setting WHERE key = 'current'
		AND CAST(value AS INTEGER) IN (SELECT id FROM tournament)`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = t.tx.QueryRow("SELECT id FROM tournament ORDER BY id DESC LIMIT 1").Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("%w in this database", ErrNoTournament)
		}
	}
	return id, err
}

// Use makes tournament id the current one.
func (t *Tx) Use(id int64) error {
	var n int
	if err := t.tx.QueryRow("SELECT count(*) FROM tournament WHERE id = ?", id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return &tournament.NotFoundError{ID: id}
	}
	_, err := t.tx.Exec("INSERT INTO setting (key, value) VALUES ('current', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", id)
	return err
}

// settingsRow is the settings as the tournament table stores them: each
// option as its text (TextMarshaler), the bye as its half-points.
type settingsRow struct {
	name, system, bq, timeDefault, tiebreaks, firstRound string
	rounds, byeHalfPoints                                int
	seed                                                 int64
	start, end, city, country, director                  string
	pairing, rules, timeControl                          string
	nameKey                                              string // tournament.NameKey(name): unique
}

// settingsColumns are the columns of settingsRow, in the order of fields.
const settingsColumns = `name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed,
	start_date, end_date, city, country, director, pairing, rules, time_control, name_key`

func (r *settingsRow) fields() []any {
	return []any{&r.name, &r.rounds, &r.system, &r.bq, &r.timeDefault, &r.byeHalfPoints, &r.tiebreaks, &r.firstRound, &r.seed,
		&r.start, &r.end, &r.city, &r.country, &r.director, &r.pairing, &r.rules, &r.timeControl, &r.nameKey}
}

// values gives the fields' values, for an INSERT or UPDATE.
func (r *settingsRow) values() []any {
	return []any{r.name, r.rounds, r.system, r.bq, r.timeDefault, r.byeHalfPoints, r.tiebreaks, r.firstRound, r.seed,
		r.start, r.end, r.city, r.country, r.director, r.pairing, r.rules, r.timeControl, r.nameKey}
}

func toRow(s tournament.Settings) (settingsRow, error) {
	r := settingsRow{name: s.Name, rounds: s.Rounds, byeHalfPoints: int(s.ByePoints), seed: int64(s.Seed),
		city: s.City, country: s.Country, director: s.Director, nameKey: tournament.NameKey(s.Name)}
	for _, f := range []struct {
		to *string
		m  encoding.TextMarshaler
	}{{&r.system, s.System}, {&r.bq, s.BQ}, {&r.timeDefault, s.TimeDefault}, {&r.tiebreaks, s.TieBreaks}, {&r.firstRound, s.FirstRound},
		{&r.start, s.Start}, {&r.end, s.End}, {&r.pairing, s.Pairing}, {&r.rules, s.GameRules()}, {&r.timeControl, s.Time}} {
		b, err := f.m.MarshalText()
		if err != nil {
			return r, err
		}
		*f.to = string(b)
	}
	return r, nil
}

func (r settingsRow) settings() (tournament.Settings, error) {
	s := tournament.Settings{Name: r.name, Rounds: r.rounds, ByePoints: scoring.HalfPoints(r.byeHalfPoints), Seed: uint64(r.seed),
		City: r.city, Country: r.country, Director: r.director}
	for _, f := range []struct {
		column, text string
		u            encoding.TextUnmarshaler
	}{{"system", r.system, &s.System}, {"bq", r.bq, &s.BQ}, {"time_default", r.timeDefault, &s.TimeDefault},
		{"tiebreaks", r.tiebreaks, &s.TieBreaks}, {"first_round", r.firstRound, &s.FirstRound},
		{"start_date", r.start, &s.Start}, {"end_date", r.end, &s.End}, {"pairing", r.pairing, &s.Pairing}, {"rules", r.rules, &s.Variant}, {"time_control", r.timeControl, &s.Time}} {
		if err := f.u.UnmarshalText([]byte(f.text)); err != nil {
			return s, fmt.Errorf("%w: column %s: %w", ErrDamaged, f.column, err)
		}
	}
	return s, nil
}

// Create stores a new tournament and makes it the current one.
func (t *Tx) Create(s tournament.Settings) (int64, error) {
	r, err := toRow(s)
	if err != nil {
		return 0, err
	}
	values := append(r.values(), t.now.UTC().Format(time.RFC3339))
	res, err := t.tx.Exec(`INSERT INTO tournament (`+settingsColumns+`, created) VALUES (?`+strings.Repeat(", ?", len(values)-1)+`)`, values...)
	if err != nil {
		return 0, t.duplicate(err, 0, r.nameKey)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	return id, t.Use(id)
}

// duplicate turns err, from writing tournament id's row (0: a new one) with
// name key key, into a *tournament.DuplicateError if it broke the
// uniqueness of name_key; other errors pass as they are.
func (t *Tx) duplicate(err error, id int64, key string) error {
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code() != sqlite3.SQLITE_CONSTRAINT_UNIQUE {
		return err
	}
	d := &tournament.DuplicateError{}
	if t.tx.QueryRow("SELECT id, name FROM tournament WHERE name_key = ? AND id != ?", key, id).Scan(&d.ID, &d.Name) != nil {
		return err
	}
	return d
}

// List lists the tournaments of the database.
func (t *Tx) List() ([]tournament.Summary, error) {
	cur, err := t.Current()
	if err != nil && !errors.Is(err, ErrNoTournament) {
		return nil, err
	}
	rows, err := t.tx.Query(`SELECT id, name, rounds,
		(SELECT count(*) FROM player p WHERE p.tournament_id = t.id),
		(SELECT coalesce(max(round), 0) FROM game g WHERE g.tournament_id = t.id)
		FROM tournament t ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tournament.Summary
	for rows.Next() {
		var s tournament.Summary
		if err := rows.Scan(&s.ID, &s.Name, &s.Rounds, &s.Players, &s.Paired); err != nil {
			return nil, err
		}
		s.Current = s.ID == cur
		out = append(out, s)
	}
	return out, rows.Err()
}

// Load reads a whole tournament.
func (t *Tx) Load(id int64) (*tournament.Tournament, error) {
	tm := &tournament.Tournament{ID: id}
	var r settingsRow
	err := t.tx.QueryRow(`SELECT `+settingsColumns+` FROM tournament WHERE id = ?`, id).Scan(r.fields()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &tournament.NotFoundError{ID: id}
	}
	if err != nil {
		return nil, err
	}
	if tm.Settings, err = r.settings(); err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	rows, err := t.tx.Query(`SELECT number, name, fed_id, rating, country, first_round, left_round, absent, engine
		FROM player WHERE tournament_id = ? ORDER BY number`, id)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var p tournament.Player
		var absent string
		if err := rows.Scan(&p.Number, &p.Name, &p.ID, &p.Rating, &p.Country, &p.FirstRound, &p.Left, &absent, &p.Engine); err != nil {
			rows.Close()
			return nil, err
		}
		for _, f := range strings.Split(absent, ",") {
			if f == "" {
				continue
			}
			r, err := strconv.Atoi(f)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("tournament %d player %d: %w: absent rounds %q", id, p.Number, ErrDamaged, absent)
			}
			p.Absent = append(p.Absent, r)
		}
		tm.Players = append(tm.Players, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = t.tx.Query(`SELECT round, board, black, white, black_discs, white_discs, kind, loser, moves, ending, note
		FROM game WHERE tournament_id = ? ORDER BY round, board`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var g tournament.Game
		var bd, wd sql.NullInt64
		var kind, loser sql.NullString
		var moves, end, note string
		if err := rows.Scan(&g.Round, &g.Table, &g.Black, &g.White, &bd, &wd, &kind, &loser, &moves, &end, &note); err != nil {
			return nil, err
		}
		if bd.Valid {
			g.Result = &tournament.Result{Black: int(bd.Int64), White: int(wd.Int64), Kind: tournament.Kind(kind.String), Loser: tournament.Color(loser.String),
				Moves: moves, End: end, Note: note}
		}
		tm.Games = append(tm.Games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	rows, err = t.tx.Query(`SELECT seq, black, white, black_discs, white_discs FROM final_game WHERE tournament_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		g := tournament.Game{Result: &tournament.Result{Kind: tournament.Normal}}
		if err := rows.Scan(&g.Table, &g.Black, &g.White, &g.Result.Black, &g.Result.White); err != nil {
			return nil, err
		}
		tm.Finals = append(tm.Finals, g)
	}
	return tm, rows.Err()
}

// Save writes change c of tournament id and its audit row: the entities of
// c.After are written over those of c.Before, and those only in c.Before are
// deleted.
func (t *Tx) Save(id int64, c tournament.Change) (int64, error) {
	if c.Version != tournament.ChangeVersion || c.Action == "" {
		return 0, fmt.Errorf("saving a change of version %d, action %q: %w: this otd writes version %d with an action",
			c.Version, c.Action, tournament.ErrInvalid, tournament.ChangeVersion)
	}
	if err := t.put(id, c.Before, c.After); err != nil {
		return 0, fmt.Errorf("saving %s %s: %w", c.Action, c.Subject, err)
	}
	before, err := side(c.Before)
	if err != nil {
		return 0, err
	}
	after, err := side(c.After)
	if err != nil {
		return 0, err
	}
	res, err := t.exec(`INSERT INTO audit (tournament_id, at, version, action, subject, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, t.now.UTC().Format(time.RFC3339Nano), c.Version, string(c.Action), c.Subject, before, after)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// side is one side of a change as the audit table stores it: JSON text, ”
// for nothing.
func side(s tournament.State) (string, error) {
	if s.IsZero() {
		return "", nil
	}
	b, err := json.Marshal(s)
	return string(b), err
}

func (t *Tx) put(id int64, from, to tournament.State) error {
	if s := to.Settings; s != nil {
		r, err := toRow(*s)
		if err != nil {
			return err
		}
		set := strings.ReplaceAll(settingsColumns, ",", " = ?,") + " = ?"
		if _, err := t.exec(`UPDATE tournament SET `+set+` WHERE id = ?`, append(r.values(), id)...); err != nil {
			return t.duplicate(err, id, r.nameKey)
		}
	}
	// What from has and to has not is deleted: sets, as a change may hold
	// all the players or games of a big event.
	players, games := map[int]bool{}, map[[2]int]bool{}
	for _, p := range to.Players {
		players[p.Number] = true
	}
	for _, g := range to.Games {
		games[[2]int{g.Round, g.Table}] = true
	}
	for _, p := range from.Players {
		if !players[p.Number] {
			if _, err := t.exec("DELETE FROM player WHERE tournament_id = ? AND number = ?", id, p.Number); err != nil {
				return err
			}
		}
	}
	for _, p := range to.Players {
		absent := make([]string, len(p.Absent))
		for i, r := range p.Absent {
			absent[i] = strconv.Itoa(r)
		}
		if _, err := t.exec(`INSERT INTO player (tournament_id, number, name, fed_id, rating, country, first_round, left_round, absent, engine)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tournament_id, number) DO UPDATE SET name = excluded.name, fed_id = excluded.fed_id, rating = excluded.rating,
		country = excluded.country, first_round = excluded.first_round, left_round = excluded.left_round, absent = excluded.absent,
		engine = excluded.engine`,
			id, p.Number, p.Name, p.ID, p.Rating, p.Country, p.FirstRound, p.Left, strings.Join(absent, ","), p.Engine); err != nil {
			return err
		}
	}
	for _, g := range from.Games {
		if !games[[2]int{g.Round, g.Table}] {
			if _, err := t.exec("DELETE FROM game WHERE tournament_id = ? AND round = ? AND board = ?", id, g.Round, g.Table); err != nil {
				return err
			}
		}
	}
	for _, g := range to.Games {
		if _, err := t.exec(`INSERT INTO game (tournament_id, round, board, black, white, black_discs, white_discs, kind, loser, moves, ending, note)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, round, board) DO UPDATE SET black = excluded.black, white = excluded.white,
		black_discs = excluded.black_discs, white_discs = excluded.white_discs, kind = excluded.kind, loser = excluded.loser,
		moves = excluded.moves, ending = excluded.ending, note = excluded.note`,
			append([]any{id, g.Round, g.Table, g.Black, g.White}, resultColumns(g.Result)...)...); err != nil {
			return err
		}
	}
	for _, r := range to.Results {
		res, err := t.exec(`UPDATE game SET black_discs = ?, white_discs = ?, kind = ?, loser = ?, moves = ?, ending = ?, note = ?
			WHERE tournament_id = ? AND round = ? AND board = ?`, append(resultColumns(r.Result), id, r.Round, r.Table)...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("round %d table %d: %w", r.Round, r.Table, tournament.ErrNoGame)
		}
	}
	for _, g := range from.Finals {
		if g.Table > len(to.Finals) {
			if _, err := t.exec("DELETE FROM final_game WHERE tournament_id = ? AND seq = ?", id, g.Table); err != nil {
				return err
			}
		}
	}
	for _, g := range to.Finals {
		if g.Result == nil {
			return fmt.Errorf("final game %d-%d: %w: a final game needs its result", g.Black, g.White, tournament.ErrInvalid)
		}
		if _, err := t.exec(`INSERT INTO final_game (tournament_id, seq, black, white, black_discs, white_discs) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (tournament_id, seq) DO UPDATE SET black = excluded.black, white = excluded.white,
			black_discs = excluded.black_discs, white_discs = excluded.white_discs`,
			id, g.Table, g.Black, g.White, g.Result.Black, g.Result.White); err != nil {
			return err
		}
	}
	return nil
}

// resultColumns gives a result as the game table stores it: black_discs,
// white_discs, kind, loser (NULLs for none), moves, ending, note.
func resultColumns(r *tournament.Result) []any {
	if r == nil {
		return []any{nil, nil, nil, nil, "", "", ""}
	}
	var loser any
	if r.Loser != "" {
		loser = string(r.Loser)
	}
	return []any{r.Black, r.White, string(r.Kind), loser, r.Moves, r.End, r.Note}
}

// Log returns the audit trail of a tournament, oldest first; an undo's
// Undoes is read from the entry it undid.
func (t *Tx) Log(id int64) ([]tournament.Entry, error) {
	var out []tournament.Entry
	undid := map[int64]int64{} // undo entry: the entry it undid
	err := t.entries("WHERE tournament_id = ? ORDER BY id", []any{id}, func(e tournament.Entry) bool {
		out = append(out, e)
		if e.UndoneBy != 0 {
			undid[e.UndoneBy] = e.ID
		}
		return true
	})
	for i := range out {
		out[i].Undoes = undid[out[i].ID]
	}
	return out, err
}

// LastUndoable returns the newest entry of an undoable action that has not
// been undone.
func (t *Tx) LastUndoable(id int64) (tournament.Entry, error) {
	var last tournament.Entry
	found := false
	err := t.entries("WHERE tournament_id = ? AND undone = 0 ORDER BY id DESC", []any{id}, func(e tournament.Entry) bool {
		found = e.Action.Undoable()
		last = e
		return !found
	})
	if err == nil && !found {
		err = fmt.Errorf("%w: no change to revert", tournament.ErrNothingToUndo)
	}
	return last, err
}

// Delete removes a tournament and everything of it: players, games, audit trail.
func (t *Tx) Delete(id int64) error {
	// The games first: schema 4 refuses to delete a player who has games.
	if _, err := t.tx.Exec("DELETE FROM game WHERE tournament_id = ?", id); err != nil {
		return err
	}
	res, err := t.tx.Exec("DELETE FROM tournament WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return &tournament.NotFoundError{ID: id}
	}
	return nil
}

// MarkUndone records that entry was undone by entry by.
func (t *Tx) MarkUndone(entry, by int64) error {
	_, err := t.tx.Exec("UPDATE audit SET undone = ? WHERE id = ?", by, entry)
	return err
}

// entries reads audit rows, passing each to fn until it returns false.
func (t *Tx) entries(where string, args []any, fn func(tournament.Entry) bool) error {
	rows, err := t.tx.Query("SELECT id, at, version, action, subject, before, after, undone FROM audit "+where, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var e tournament.Entry
		var at, action, subject, before, after string
		var version int
		if err := rows.Scan(&e.ID, &at, &version, &action, &subject, &before, &after, &e.UndoneBy); err != nil {
			return err
		}
		if e.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return fmt.Errorf("audit entry %d: %w: time %q", e.ID, ErrDamaged, at)
		}
		if e.Change, err = tournament.DecodeChange(version, action, subject, []byte(before), []byte(after)); err != nil {
			return fmt.Errorf("audit entry %d: %w", e.ID, err)
		}
		if !fn(e) {
			return nil
		}
	}
	return rows.Err()
}

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
		return s.damaged(err)
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
		return s.damaged(err)
	}
	if len(found) == 1 && found[0] == "ok" {
		return nil
	}
	return fmt.Errorf("%s: %w: %s", s.path, ErrDamaged, strings.Join(found, "; "))
}
