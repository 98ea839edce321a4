// Package sqltx is otd's tournament.Tx written once for every SQL engine of
// package store (SQLite, PostgreSQL): the same statements, the same rows, the
// same audit trail, over the small Querier each engine gives it. Queries are
// written with ? placeholders and in the SQL both engines take.
package sqltx

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/tournament"
)

// Querier is one transaction of an engine, as Tx uses it.
type Querier interface {
	// Exec runs a statement that Save may run for each of thousands of
	// entities (a players file): an engine may prepare it once per
	// transaction.
	Exec(query string, args ...any) (sql.Result, error)
	// Insert runs an INSERT into a table whose key is a column id given by
	// the engine, and returns the id of the new row.
	Insert(query string, args ...any) (int64, error)
	Query(query string, args ...any) (Rows, error)
	QueryRow(query string, args ...any) Row
	// Try runs fn, a statement that may break a unique key, so that the
	// transaction goes on if it fails (PostgreSQL ends a transaction at
	// any failed statement: a savepoint), and returns fn's error.
	Try(fn func() error) error
}

// Rows are the rows of a query (database/sql's *sql.Rows is one).
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Columns() ([]string, error)
	Err() error
	Close() error
}

// Row is the one row of a query (database/sql's *sql.Row is one); its Scan
// returns an error wrapping sql.ErrNoRows when there is none.
type Row interface {
	Scan(dest ...any) error
}

// Engine is what Tx must know of an engine beyond its queries.
type Engine struct {
	// Damaged is the engine's error for a value otd cannot read, which
	// Tx's errors of such values wrap.
	Damaged error
	// Unique tells whether err reports a row that breaks a unique key.
	Unique func(err error) bool
	// Lock ends the query by which a write transaction's Load reads the
	// tournament's row, to hold that row until the transaction ends (" FOR
	// UPDATE"): two directors changing one tournament then act one after
	// the other, the second on what the first saved. "" for an engine that
	// lets one write transaction at a time (SQLite).
	Lock string
}

// Tx is one transaction; it implements tournament.Tx.
type Tx struct {
	tx    Querier
	now   time.Time
	eng   *Engine
	write bool
}

// New returns the tournament.Tx of transaction q of engine e, whose audit
// clock reads now; write says it may write (Load then holds the tournament
// as Engine.Lock says).
func New(q Querier, now time.Time, write bool, e *Engine) *Tx {
	return &Tx{tx: q, now: now, eng: e, write: write}
}

func (t *Tx) exec(query string, args ...any) (sql.Result, error) { return t.tx.Exec(query, args...) }

// Current returns the id of the current tournament: the one last created or
// chosen with Use, or the only one.
func (t *Tx) Current() (int64, error) {
	var id int64
	err := t.tx.QueryRow(`SELECT id FROM tournament WHERE CAST(id AS TEXT) = (SELECT value FROM setting WHERE key = 'current')`).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = t.tx.QueryRow("SELECT id FROM tournament ORDER BY id DESC LIMIT 1").Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("%w in this database", tournament.ErrNoTournament)
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
	_, err := t.tx.Exec("INSERT INTO setting (key, value) VALUES ('current', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", strconv.FormatInt(id, 10))
	return err
}

// settingsColumns are the tournament's columns that hold its settings:
// the record's version and the record (tournament.EncodeSettings), and the
// name's key, unique.
const settingsColumns = `settings_version, settings, name_key`

// settingsValues gives the values of settingsColumns for s.
func settingsValues(s tournament.Settings) ([]any, error) {
	b, err := tournament.EncodeSettings(s)
	return []any{tournament.SettingsVersion, string(b), tournament.NameKey(s.Name)}, err
}

// settings reads a settings' record; one otd cannot read is an error
// wrapping damaged.
func settings(version int, record string, damaged error) (tournament.Settings, error) {
	s, err := tournament.DecodeSettings(version, []byte(record))
	if err != nil {
		return s, fmt.Errorf("%w: %w", damaged, err)
	}
	return s, nil
}

// jsonColumn is v as JSON text, "" when empty.
func jsonColumn(v any, empty bool) (string, error) {
	if empty {
		return "", nil
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// Create stores a new tournament and makes it the current one.
func (t *Tx) Create(s tournament.Settings) (int64, error) {
	values, err := settingsValues(s)
	if err != nil {
		return 0, err
	}
	key := tournament.NameKey(s.Name)
	// A name taken is refused before the row is written, so that an id of
	// PostgreSQL's sequence is not spent on it; the unique key refuses
	// one taken meanwhile.
	if d := t.taken(0, key); d != nil {
		return 0, d
	}
	values = append(values, t.now.UTC().Format(time.RFC3339))
	var id int64
	err = t.tx.Try(func() (err error) {
		id, err = t.tx.Insert(`INSERT INTO tournament (`+settingsColumns+`, created) VALUES (?`+strings.Repeat(", ?", len(values)-1)+`)`, values...)
		return err
	})
	if err != nil {
		return 0, t.duplicate(err, 0, key)
	}
	return id, t.Use(id)
}

// duplicate turns err, from writing tournament id's row (0: a new one) with
// name key key, into a *tournament.DuplicateError if it broke the
// uniqueness of name_key; other errors pass as they are.
func (t *Tx) duplicate(err error, id int64, key string) error {
	if !t.eng.Unique(err) {
		return err
	}
	if d := t.taken(id, key); d != nil {
		return d
	}
	return err
}

// taken returns the *tournament.DuplicateError of the tournament, other
// than id, whose name key is key; nil if there is none.
func (t *Tx) taken(id int64, key string) error {
	d := &tournament.DuplicateError{}
	var version int
	var record string
	if t.tx.QueryRow("SELECT id, settings_version, settings FROM tournament WHERE name_key = ? AND id != ?", key, id).Scan(&d.ID, &version, &record) != nil {
		return nil
	}
	s, _ := tournament.DecodeSettings(version, []byte(record))
	d.Name = s.Name
	return d
}

// List lists the tournaments of the database.
func (t *Tx) List() ([]tournament.Summary, error) {
	cur, err := t.Current()
	if err != nil && !errors.Is(err, tournament.ErrNoTournament) {
		return nil, err
	}
	rows, err := t.tx.Query(`SELECT id, settings_version, settings,
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
		var version int
		var record string
		if err := rows.Scan(&s.ID, &version, &record, &s.Players, &s.Paired); err != nil {
			return nil, err
		}
		set, err := settings(version, record, t.eng.Damaged)
		if err != nil {
			return nil, fmt.Errorf("tournament %d: %w", s.ID, err)
		}
		s.Name, s.Rounds = set.Name, set.Rounds
		s.Current = s.ID == cur
		out = append(out, s)
	}
	return out, rows.Err()
}

// Load reads a whole tournament; in a write transaction, it holds the
// tournament's row until the transaction ends (Engine.Lock).
func (t *Tx) Load(id int64) (*tournament.Tournament, error) {
	tm := &tournament.Tournament{ID: id}
	var version int
	var record string
	lock := ""
	if t.write {
		lock = t.eng.Lock
	}
	err := t.tx.QueryRow(`SELECT settings_version, settings FROM tournament WHERE id = ?`+lock, id).Scan(&version, &record)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &tournament.NotFoundError{ID: id}
	}
	if err != nil {
		return nil, err
	}
	if tm.Settings, err = settings(version, record, t.eng.Damaged); err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	rows, err := t.tx.Query(`SELECT number, name, fed_id, new_id, rating, country, first_round, left_round, absent, engine, team, born, born_date, categories
		FROM player WHERE tournament_id = ? ORDER BY number`, id)
	if err != nil {
		return nil, err
	}
	// The scan's targets are made once a query, not once a row: passed
	// through the Rows interface, they live on the heap.
	var p tournament.Player
	var absent, cats, bornDate string
	var newID int
	dest := []any{&p.Number, &p.Name, &p.WOFID, &newID, &p.Rating, &p.Country, &p.FirstRound, &p.Left, &absent, &p.Engine, &p.Team, &p.Born.Year, &bornDate, &cats}
	for rows.Next() {
		p = tournament.Player{}
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return nil, err
		}
		p.NewID = newID != 0
		if bornDate != "" {
			if p.Born, err = tournament.ParseBorn(bornDate); err != nil {
				rows.Close()
				return nil, fmt.Errorf("tournament %d player %d: %w: born_date %q", id, p.Number, t.eng.Damaged, bornDate)
			}
		}
		if cats != "" {
			if err := json.Unmarshal([]byte(cats), &p.Categories); err != nil {
				rows.Close()
				return nil, fmt.Errorf("tournament %d player %d: %w: categories %q", id, p.Number, t.eng.Damaged, cats)
			}
		}
		for _, f := range strings.Split(absent, ",") {
			if f == "" {
				continue
			}
			r, err := strconv.Atoi(f)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("tournament %d player %d: %w: absent rounds %q", id, p.Number, t.eng.Damaged, absent)
			}
			p.Absent = append(p.Absent, r)
		}
		tm.Players = append(tm.Players, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// The rounds' games, then the final phases' (round 0, board their Seq).
	rows, err = t.tx.Query(`SELECT round, board, category, match, game, black, white, black_discs, white_discs, kind, loser, moves, ending, note
		FROM game WHERE tournament_id = ? ORDER BY round = 0, round, board`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var g tournament.Game
	var res resultCols
	dest = append([]any{&g.Round, &g.Table, &g.Category, &g.Match, &g.Game, &g.Black, &g.White}, res.dest()...)
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		g.Result = res.result()
		if g.IsFinal() {
			g.Seq, g.Table = g.Table, 0
			tm.FinalGames = append(tm.FinalGames, g)
		} else {
			tm.Games = append(tm.Games, g)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if err := t.loadRules(tm); err != nil {
		return nil, err
	}
	return tm, rows.Err()
}

// resultCols receives a game's result as the game tables keep it (see
// resultColumns).
type resultCols struct {
	black, white     sql.NullInt64
	kind, loser      sql.NullString
	moves, end, note string
}

// dest are the scan's targets, in resultColumns' order.
func (r *resultCols) dest() []any {
	return []any{&r.black, &r.white, &r.kind, &r.loser, &r.moves, &r.end, &r.note}
}

// result is the result received, nil for none.
func (r *resultCols) result() *tournament.Result {
	if !r.black.Valid {
		return nil
	}
	return &tournament.Result{Black: int(r.black.Int64), White: int(r.white.Int64), Kind: tournament.Kind(r.kind.String),
		Loser: tournament.Color(r.loser.String), Moves: r.moves, End: r.end, Note: r.note}
}

// Save writes change c of tournament id and its audit row: the entities of
// c.After are written over those of c.Before, and those only in c.Before are
// deleted.
func (t *Tx) Save(id int64, c tournament.Change) (int64, error) {
	r, err := tournament.NewAuditRow(c)
	if err != nil {
		return 0, err
	}
	if err := t.put(id, c.Before, c.After); err != nil {
		return 0, fmt.Errorf("saving %s %s: %w", c.Action, c.Subject, err)
	}
	return t.tx.Insert(`INSERT INTO audit (tournament_id, at, version, action, subject, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, t.now.UTC().Format(time.RFC3339Nano), r.Version, r.Action, r.Subject, string(r.Before), string(r.After))
}

func (t *Tx) put(id int64, from, to tournament.State) error {
	if s := to.Settings; s != nil {
		values, err := settingsValues(*s)
		if err != nil {
			return err
		}
		set := strings.ReplaceAll(settingsColumns, ",", " = ?,") + " = ?"
		if err := t.tx.Try(func() error {
			_, err := t.exec(`UPDATE tournament SET `+set+` WHERE id = ?`, append(values, id)...)
			return err
		}); err != nil {
			return t.duplicate(err, id, tournament.NameKey(s.Name))
		}
	}
	// What from has and to has not is deleted: sets, as a change may hold
	// all the players or games of a big event.
	players, games := map[int]bool{}, map[[2]int][2]int{}
	for _, p := range to.Players {
		players[p.Number] = true
	}
	for _, g := range slices.Concat(to.Games, to.FinalGames) {
		games[gameKey(g)] = [2]int{g.Black, g.White}
	}
	for _, p := range from.Players {
		if !players[p.Number] {
			if _, err := t.exec("DELETE FROM player WHERE tournament_id = ? AND number = ?", id, p.Number); err != nil {
				return err
			}
		}
	}
	if err := t.insertRows(`player (tournament_id, number, name, fed_id, new_id, rating, country, first_round, left_round, absent, engine, team, born, born_date, categories)`,
		`ON CONFLICT (tournament_id, number) DO UPDATE SET name = excluded.name, fed_id = excluded.fed_id, new_id = excluded.new_id, rating = excluded.rating,
		country = excluded.country, first_round = excluded.first_round, left_round = excluded.left_round, absent = excluded.absent,
		engine = excluded.engine, team = excluded.team, born = excluded.born, born_date = excluded.born_date, categories = excluded.categories`,
		len(to.Players), func(i int) ([]any, error) {
			p := to.Players[i]
			absent := make([]string, len(p.Absent))
			for i, r := range p.Absent {
				absent[i] = strconv.Itoa(r)
			}
			cats, err := jsonColumn(p.Categories, len(p.Categories) == 0)
			return []any{id, p.Number, p.Name, p.WOFID, boolInt(p.NewID), p.Rating, p.Country, p.FirstRound, p.Left, strings.Join(absent, ","), p.Engine, p.Team, p.Born.Year, p.Born.Date(), cats}, err
		}); err != nil {
		return err
	}
	// A game of from that to lacks goes, and so does one that to pairs
	// otherwise (a round paired again): its players may sit at another of
	// to's tables, which the one-game-a-round trigger checks row by row. A
	// final phase's game is keyed as the table keys it: round 0, its Seq.
	for _, g := range slices.Concat(from.Games, from.FinalGames) {
		if pair, ok := games[gameKey(g)]; !ok || pair != [2]int{g.Black, g.White} {
			k := gameKey(g)
			if _, err := t.exec("DELETE FROM game WHERE tournament_id = ? AND round = ? AND board = ?", id, k[0], k[1]); err != nil {
				return err
			}
		}
	}
	put := slices.Concat(to.Games, to.FinalGames)
	if err := t.insertRows(`game (tournament_id, round, board, category, match, game, black, white, black_discs, white_discs, kind, loser, moves, ending, note)`,
		`ON CONFLICT (tournament_id, round, board) DO UPDATE SET category = excluded.category, match = excluded.match, game = excluded.game,
		black = excluded.black, white = excluded.white, black_discs = excluded.black_discs, white_discs = excluded.white_discs,
		kind = excluded.kind, loser = excluded.loser, moves = excluded.moves, ending = excluded.ending, note = excluded.note`,
		len(put), func(i int) ([]any, error) {
			g := put[i]
			k := gameKey(g)
			return append([]any{id, k[0], k[1], g.Category, g.Match, g.Game, g.Black, g.White}, resultColumns(g.Result)...), nil
		}); err != nil {
		return err
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
	return t.putRules(id, from, to)
}

// gameKey is game g's key in the games table: round and board, a final
// phase's game round 0 and its Seq.
func gameKey(g tournament.Game) [2]int {
	if g.IsFinal() {
		return [2]int{0, g.Seq}
	}
	return [2]int{g.Round, g.Table}
}

// rowsPerInsert is how many rows one INSERT of put writes: a statement
// costs SQLite more than a row does, and PostgreSQL a round trip (issue 28:
// 100,000 players and 150,000 games). 100 rows of 15 columns are far below
// either engine's limit of parameters (32,766 and 65,535).
const rowsPerInsert = 100

// insertRows inserts n rows, "INSERT INTO " + into + " VALUES (...), (...) "
// + tail, rowsPerInsert a statement, row i's values given by row. A State
// is a set (no key twice in it), so that one statement never writes a row
// twice; the engines check each row's triggers in turn, as if each had
// its statement.
func (t *Tx) insertRows(into, tail string, n int, row func(i int) ([]any, error)) error {
	var args []any
	for i := range n {
		vs, err := row(i)
		if err != nil {
			return err
		}
		args = append(args, vs...)
		if k := i%rowsPerInsert + 1; k == rowsPerInsert || i == n-1 {
			one := "(?" + strings.Repeat(", ?", len(vs)-1) + ")"
			if _, err := t.exec("INSERT INTO "+into+" VALUES "+one+strings.Repeat(", "+one, k-1)+" "+tail, args...); err != nil {
				return err
			}
			args = args[:0]
		}
	}
	return nil
}

// loadRules reads the forbidden pairs and the rounds' rules of tm.
func (t *Tx) loadRules(tm *tournament.Tournament) error {
	rows, err := t.tx.Query(`SELECT a, b, reason FROM forbidden_pair WHERE tournament_id = ? ORDER BY a, b`, tm.ID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var f tournament.ForbiddenPair
		if err := rows.Scan(&f.A, &f.B, &f.Reason); err != nil {
			rows.Close()
			return err
		}
		tm.Forbidden = append(tm.Forbidden, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = t.tx.Query(`SELECT round, manual, forced, forbidden, bye FROM round_rules WHERE tournament_id = ? ORDER BY round`, tm.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r tournament.RoundRules
		var forced, forbidden string
		var manual int
		if err := rows.Scan(&r.Round, &manual, &forced, &forbidden, &r.Bye); err != nil {
			return err
		}
		r.Manual = manual != 0
		if r.Forced, err = parsePairs(forced); err == nil {
			r.Forbidden, err = parsePairs(forbidden)
		}
		if err != nil {
			return fmt.Errorf("tournament %d: the rules of round %d: %w: %w", tm.ID, r.Round, t.eng.Damaged, err)
		}
		tm.RoundRules = append(tm.RoundRules, r)
	}
	return rows.Err()
}

// putRules writes the forbidden pairs and rounds' rules of a change.
func (t *Tx) putRules(id int64, from, to tournament.State) error {
	for _, f := range from.Forbidden {
		if _, err := t.exec("DELETE FROM forbidden_pair WHERE tournament_id = ? AND a = ? AND b = ?", id, f.A, f.B); err != nil {
			return err
		}
	}
	for _, f := range to.Forbidden {
		if _, err := t.exec(`INSERT INTO forbidden_pair (tournament_id, a, b, reason) VALUES (?, ?, ?, ?)
			ON CONFLICT (tournament_id, a, b) DO UPDATE SET reason = excluded.reason`, id, f.A, f.B, f.Reason); err != nil {
			return err
		}
	}
	for _, r := range from.RoundRules {
		if _, err := t.exec("DELETE FROM round_rules WHERE tournament_id = ? AND round = ?", id, r.Round); err != nil {
			return err
		}
	}
	for _, r := range to.RoundRules {
		if _, err := t.exec(`INSERT INTO round_rules (tournament_id, round, manual, forced, forbidden, bye) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (tournament_id, round) DO UPDATE SET manual = excluded.manual, forced = excluded.forced,
			forbidden = excluded.forbidden, bye = excluded.bye`, id, r.Round, boolInt(r.Manual), formatPairs(r.Forced), formatPairs(r.Forbidden), r.Bye); err != nil {
			return err
		}
	}
	return nil
}

// boolInt is b as the tables keep it: 1 or 0.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// formatPairs writes pairs as the round_rules table keeps them: "1-2 3-4".
func formatPairs(ps [][2]int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmt.Sprintf("%d-%d", p[0], p[1])
	}
	return strings.Join(s, " ")
}

func parsePairs(s string) ([][2]int, error) {
	var out [][2]int
	for _, f := range strings.Fields(s) {
		a, b, ok := strings.Cut(f, "-")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("pair %q", f)
		}
		out = append(out, [2]int{x, y})
	}
	return out, nil
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
		var r tournament.AuditRow
		var at, before, after string
		if err := rows.Scan(&r.ID, &at, &r.Version, &r.Action, &r.Subject, &before, &after, &r.UndoneBy); err != nil {
			return err
		}
		if r.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return fmt.Errorf("audit entry %d: %w: time %q", r.ID, t.eng.Damaged, at)
		}
		r.Before, r.After = []byte(before), []byte(after)
		e, err := r.Entry()
		if err != nil {
			return err
		}
		if !fn(e) {
			return nil
		}
	}
	return rows.Err()
}
