// Package store keeps tournaments in one SQLite file (modernc.org/sqlite, no
// cgo). It is the only package that knows SQL. The schema is in embedded,
// numbered migrations; a database from an older otd is upgraded in place and
// one from a newer otd is refused. Every director action runs in one
// transaction (BEGIN IMMEDIATE) together with its audit row, so that a crash
// leaves the database as it was before the action or after it.
package store

import (
	"bufio"
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

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
	ErrNoTournament = errors.New("no tournament")
)

// Store is an open database.
type Store struct {
	db   *sql.DB
	path string
	now  func() time.Time
}

// Options of Open.
type Options struct {
	Create bool             // create the file if it does not exist
	Now    func() time.Time // the clock of the audit trail; nil: time.Now
}

// Open opens (and, with Create, creates) the database at path, upgrading its
// schema if it comes from an older otd.
func Open(path string, o Options) (*Store, error) {
	// An empty file is no database either: reading it must not write a schema.
	if fi, err := os.Stat(path); (errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode().IsRegular() && fi.Size() == 0) && !o.Create {
		return nil, fmt.Errorf("%s: %w: create a tournament first ('otd tournament new NAME --rounds N') or name the database with --db", path, ErrNoDatabase)
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("%s: a database path may not contain '?' or '#'", path)
	}
	// No journal_mode(WAL) here: it would rewrite the header of any SQLite
	// file on connect, another program's included. WAL is set once below, after
	// the file is known to be ours, and persists in the file.
	dsn := path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &Store{db: db, path: path, now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.walMode(); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: setting WAL mode: %w", path, err)
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

func (s *Store) migrate() error {
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
	if tables > 0 && appID != applicationID {
		return fmt.Errorf("%s: %w: it belongs to another program; name another file with --db", s.path, ErrNotOTD)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	if version > len(names) {
		return fmt.Errorf("%s: %w (schema %d; this otd knows up to %d): upgrade otd", s.path, ErrNewerSchema, version, len(names))
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
			_, err := tx.Exec(fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, i+1))
			return err
		})
		if err != nil {
			return fmt.Errorf("%s: upgrading the schema: %w", s.path, err)
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
// database and of one it cannot open into ErrDamaged, ErrNotDatabase and
// ErrCannotOpen; other errors pass as they are.
func (s *Store) damaged(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("%s: %w (%v): restore it from a backup", s.path, ErrDamaged, se)
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%s: %w (damaged, or another kind of file): name an otd database with --db", s.path, ErrNotDatabase)
	case sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("%s: %w (%v): name a database file that you may read and write with --db", s.path, ErrCannotOpen, se)
	}
	return err
}

// Tx is one director action: everything it changes commits together.
type Tx struct {
	tx  *sql.Tx
	now time.Time
}

// Update runs fn in one write transaction; an error from fn rolls it back.
func (s *Store) Update(ctx context.Context, fn func(*Tx) error) error {
	return s.tx(ctx, func(tx *sql.Tx) error { return fn(&Tx{tx: tx, now: s.now()}) })
}

// View runs fn in a transaction whose changes are rolled back.
func (s *Store) View(ctx context.Context, fn func(*Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return s.damaged(err)
	}
	defer tx.Rollback()
	return s.damaged(fn(&Tx{tx: tx, now: s.now()}))
}

// Summary is one line of the list of tournaments.
type Summary struct {
	ID      int64
	Name    string
	Rounds  int
	Players int
	Paired  int
	Current bool
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
			return 0, fmt.Errorf("%w in this database: create one with 'otd tournament new NAME --rounds N'", ErrNoTournament)
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
		return fmt.Errorf("tournament %d: %w ('otd tournament list' shows them)", id, ErrNoTournament)
	}
	_, err := t.tx.Exec("INSERT INTO setting (key, value) VALUES ('current', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", id)
	return err
}

// CreateTournament stores a new tournament and makes it the current one.
func (t *Tx) CreateTournament(s tournament.Settings) (int64, error) {
	res, err := t.tx.Exec(`INSERT INTO tournament (name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, s.Name, s.Rounds, s.System, s.BQ, s.TimeDefault, s.ByeHalfPoints, s.Tiebreaks, s.FirstRound, int64(s.Seed), t.now.UTC().Format(time.RFC3339))
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	return id, t.Use(id)
}

// Tournaments lists the tournaments of the database.
func (t *Tx) Tournaments() ([]Summary, error) {
	cur, _ := t.Current()
	rows, err := t.tx.Query(`SELECT id, name, rounds,
		(SELECT count(*) FROM player p WHERE p.tournament_id = t.id),
		(SELECT coalesce(max(round), 0) FROM game g WHERE g.tournament_id = t.id)
		FROM tournament t ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Summary
	for rows.Next() {
		var s Summary
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
	s := &tm.Settings
	var seed int64
	err := t.tx.QueryRow(`SELECT name, rounds, system, bq, time_default, bye_half_points, tiebreaks, first_round, seed
		FROM tournament WHERE id = ?`, id).Scan(&s.Name, &s.Rounds, &s.System, &s.BQ, &s.TimeDefault, &s.ByeHalfPoints, &s.Tiebreaks, &s.FirstRound, &seed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("tournament %d: %w ('otd tournament list' shows them)", id, ErrNoTournament)
	}
	if err != nil {
		return nil, err
	}
	s.Seed = uint64(seed)
	rows, err := t.tx.Query(`SELECT number, name, fed_id, rating, country, first_round, left_round, absent
		FROM player WHERE tournament_id = ? ORDER BY number`, id)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var p tournament.Player
		var absent string
		if err := rows.Scan(&p.Number, &p.Name, &p.ID, &p.Rating, &p.Country, &p.FirstRound, &p.Left, &absent); err != nil {
			rows.Close()
			return nil, err
		}
		for _, f := range strings.Split(absent, ",") {
			var r int
			if _, err := fmt.Sscan(f, &r); err == nil {
				p.Absent = append(p.Absent, r)
			}
		}
		tm.Players = append(tm.Players, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = t.tx.Query(`SELECT round, board, black, white, black_discs, white_discs, kind, loser
		FROM game WHERE tournament_id = ? ORDER BY round, board`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var g tournament.Game
		var bd, wd sql.NullInt64
		var kind, loser sql.NullString
		if err := rows.Scan(&g.Round, &g.Table, &g.Black, &g.White, &bd, &wd, &kind, &loser); err != nil {
			return nil, err
		}
		if bd.Valid {
			g.Result = &tournament.Result{Black: int(bd.Int64), White: int(wd.Int64), Kind: tournament.Kind(kind.String), Loser: tournament.Color(loser.String)}
		}
		tm.Games = append(tm.Games, g)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	rows, err = t.tx.Query(`SELECT black, white, black_discs, white_discs FROM final_game WHERE tournament_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		g := tournament.Game{Result: &tournament.Result{Kind: tournament.Normal}}
		if err := rows.Scan(&g.Black, &g.White, &g.Result.Black, &g.Result.White); err != nil {
			return nil, err
		}
		tm.Finals = append(tm.Finals, g)
	}
	return tm, rows.Err()
}

// InsertFinals stores games played after the Swiss rounds, after those stored.
func (t *Tx) InsertFinals(id int64, games []tournament.Game) error {
	for _, g := range games {
		if g.Result == nil {
			return fmt.Errorf("final game %d-%d: %w: a final game needs its result", g.Black, g.White, tournament.ErrInvalid)
		}
		_, err := t.tx.Exec(`INSERT INTO final_game (tournament_id, seq, black, white, black_discs, white_discs)
			VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM final_game WHERE tournament_id = ?), ?, ?, ?, ?)`,
			id, id, g.Black, g.White, g.Result.Black, g.Result.White)
		if err != nil {
			return err
		}
	}
	return nil
}

// SavePlayer inserts or replaces a player.
func (t *Tx) SavePlayer(id int64, p tournament.Player) error {
	absent := make([]string, len(p.Absent))
	for i, r := range p.Absent {
		absent[i] = fmt.Sprint(r)
	}
	_, err := t.tx.Exec(`INSERT INTO player (tournament_id, number, name, fed_id, rating, country, first_round, left_round, absent)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tournament_id, number) DO UPDATE SET name = excluded.name, fed_id = excluded.fed_id, rating = excluded.rating,
		country = excluded.country, first_round = excluded.first_round, left_round = excluded.left_round, absent = excluded.absent`,
		id, p.Number, p.Name, p.ID, p.Rating, p.Country, p.FirstRound, p.Left, strings.Join(absent, ","))
	return err
}

// InsertGames stores the games of a new round.
func (t *Tx) InsertGames(id int64, games []tournament.Game) error {
	st, err := t.tx.Prepare(`INSERT INTO game (tournament_id, round, board, black, white) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, g := range games {
		if _, err := st.Exec(id, g.Round, g.Table, g.Black, g.White); err != nil {
			return err
		}
		if g.Result != nil {
			if err := t.SetResult(id, g.Round, g.Table, g.Result); err != nil {
				return err
			}
		}
	}
	return nil
}

// DeleteRound removes the games of round r.
func (t *Tx) DeleteRound(id int64, r int) error {
	_, err := t.tx.Exec("DELETE FROM game WHERE tournament_id = ? AND round = ?", id, r)
	return err
}

// SetResult records (or, with nil, clears) the result of a game.
func (t *Tx) SetResult(id int64, round, table int, r *tournament.Result) error {
	var bd, wd, kind, loser any
	if r != nil {
		bd, wd, kind = r.Black, r.White, string(r.Kind)
		if r.Loser != "" {
			loser = string(r.Loser)
		}
	}
	res, err := t.tx.Exec(`UPDATE game SET black_discs = ?, white_discs = ?, kind = ?, loser = ?
		WHERE tournament_id = ? AND round = ? AND board = ?`, bd, wd, kind, loser, id, round, table)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("round %d table %d: %w", round, table, tournament.ErrNoGame)
	}
	return nil
}

// AuditRow is one entry of the audit trail.
type AuditRow struct {
	ID      int64
	At      time.Time
	Action  string
	Subject string
	Before  string // JSON, empty when nothing was there
	After   string
	Undone  int64 // the id of the entry that undid this one, or 0
}

// Audit records a change: before and after are stored as JSON (nil: nothing).
func (t *Tx) Audit(id int64, action, subject string, before, after any) (int64, error) {
	enc := func(v any) (string, error) {
		if v == nil {
			return "", nil
		}
		b, err := json.Marshal(v)
		return string(b), err
	}
	b, err := enc(before)
	if err != nil {
		return 0, err
	}
	a, err := enc(after)
	if err != nil {
		return 0, err
	}
	res, err := t.tx.Exec(`INSERT INTO audit (tournament_id, at, action, subject, before, after) VALUES (?, ?, ?, ?, ?, ?)`,
		id, t.now.UTC().Format(time.RFC3339Nano), action, subject, b, a)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// Log returns the audit trail of a tournament, oldest first.
func (t *Tx) Log(id int64) ([]AuditRow, error) {
	return t.audit("WHERE tournament_id = ? ORDER BY id", id)
}

// LastUndoable returns the newest entry of one of the actions that has not
// been undone.
func (t *Tx) LastUndoable(id int64, actions ...string) (AuditRow, error) {
	q := "WHERE tournament_id = ? AND undone = 0 AND action IN (?" + strings.Repeat(", ?", len(actions)-1) + ") ORDER BY id DESC LIMIT 1"
	args := []any{id}
	for _, a := range actions {
		args = append(args, a)
	}
	rows, err := t.audit(q, args...)
	if err != nil {
		return AuditRow{}, err
	}
	if len(rows) == 0 {
		return AuditRow{}, tournament.ErrNothingToUndo
	}
	return rows[0], nil
}

// MarkUndone records that entry was undone by entry by.
func (t *Tx) MarkUndone(entry, by int64) error {
	_, err := t.tx.Exec("UPDATE audit SET undone = ? WHERE id = ?", by, entry)
	return err
}

func (t *Tx) audit(where string, args ...any) ([]AuditRow, error) {
	rows, err := t.tx.Query("SELECT id, at, action, subject, before, after, undone FROM audit "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AuditRow
	for rows.Next() {
		var r AuditRow
		var at string
		if err := rows.Scan(&r.ID, &at, &r.Action, &r.Subject, &r.Before, &r.After, &r.Undone); err != nil {
			return nil, err
		}
		r.At, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, r)
	}
	return out, rows.Err()
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
