// Package memstore is a tournament.Storage in memory, for the tests of the
// domain and of the layers above it (as benbjohnson/wtf's mock/): no file,
// no SQL. It keeps what a real store keeps and as it keeps it: a change is
// saved as the entities of its After written over those of its Before, the
// audit trail goes through JSON and tournament.DecodeChange, one write
// transaction runs at a time, and a transaction whose function fails leaves
// nothing behind.
package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/otd-project/otd/tournament"
)

// Store is a database in memory. The zero value is not usable: call New.
type Store struct {
	// Now is the audit trail's clock; nil: time.Now.
	Now func() time.Time
	// BeforeSave, if set, is called with each change about to be saved;
	// its error fails the transaction (a full disk, a crash at the worst
	// moment).
	BeforeSave func(tournament.Change) error

	write sync.Mutex // one write transaction at a time
	mu    sync.Mutex // guards db
	db    *data
}

// data is the whole content of a Store.
type data struct {
	current int64
	lastID  int64
	ts      map[int64]*tournament.Tournament
	audit   []row
	venue   map[int64]tournament.VenueKeys
	reports map[int64][]tournament.Report
}

// row is an audit row as a real store keeps it (tournament.NewAuditRow):
// the change as JSON.
type row struct {
	tournament int64
	tournament.AuditRow
}

// New returns an empty Store.
func New() *Store {
	return &Store{db: &data{ts: map[int64]*tournament.Tournament{}, venue: map[int64]tournament.VenueKeys{}, reports: map[int64][]tournament.Report{}}}
}

var _ tournament.Storage = (*Store)(nil)

// Update runs fn in one write transaction: on a copy of the data, kept only
// if fn succeeds.
func (s *Store) Update(ctx context.Context, fn func(tournament.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.write.Lock()
	defer s.write.Unlock()
	tx := &Tx{s: s, d: s.snapshot(), write: true}
	if err := fn(tx); err != nil {
		return err
	}
	s.mu.Lock()
	s.db = tx.d
	s.mu.Unlock()
	return nil
}

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(tournament.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn(&Tx{s: s, d: s.snapshot()})
}

// snapshot copies the data, every tournament deeply.
func (s *Store) snapshot() *data {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &data{current: s.db.current, lastID: s.db.lastID, ts: map[int64]*tournament.Tournament{}, audit: slices.Clone(s.db.audit),
		venue: maps.Clone(s.db.venue), reports: map[int64][]tournament.Report{}}
	for id, t := range s.db.ts {
		d.ts[id] = clone(t)
	}
	for id, rs := range s.db.reports {
		d.reports[id] = slices.Clone(rs)
	}
	return d
}

// clone copies t deeply, through JSON as the audit trail does.
func clone(t *tournament.Tournament) *tournament.Tournament {
	type body struct {
		Settings   tournament.Settings
		Players    []tournament.Player
		Games      []tournament.Game
		FinalGames []tournament.Game
		Forbidden  []tournament.ForbiddenPair
		RoundRules []tournament.RoundRules
	}
	b, err := json.Marshal(body{t.Settings, t.Players, t.Games, t.FinalGames, t.Forbidden, t.RoundRules})
	if err != nil {
		panic(fmt.Sprintf("memstore: %v", err))
	}
	var c body
	if err := json.Unmarshal(b, &c); err != nil {
		panic(fmt.Sprintf("memstore: %v", err))
	}
	// None is nil, as a store's Load gives it.
	c.Players, c.Games, c.FinalGames = orNil(c.Players), orNil(c.Games), orNil(c.FinalGames)
	c.Forbidden, c.RoundRules = orNil(c.Forbidden), orNil(c.RoundRules)
	return &tournament.Tournament{ID: t.ID, Settings: c.Settings, Players: c.Players, Games: c.Games, FinalGames: c.FinalGames,
		Forbidden: c.Forbidden, RoundRules: c.RoundRules}
}

func orNil[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}

// Tx is one transaction of a Store; it implements tournament.Tx.
type Tx struct {
	s     *Store
	d     *data
	write bool
}

func (t *Tx) writable() error {
	if !t.write {
		return fmt.Errorf("memstore: a write in a read-only transaction")
	}
	return nil
}

// Current returns the current tournament: the one last created or used, or
// the newest.
func (t *Tx) Current() (int64, error) {
	if _, ok := t.d.ts[t.d.current]; ok {
		return t.d.current, nil
	}
	var newest int64
	for id := range t.d.ts {
		newest = max(newest, id)
	}
	if newest == 0 {
		return 0, fmt.Errorf("%w in this database", tournament.ErrNoTournament)
	}
	return newest, nil
}

// Use makes tournament id the current one.
func (t *Tx) Use(id int64) error {
	if err := t.writable(); err != nil {
		return err
	}
	if _, ok := t.d.ts[id]; !ok {
		return &tournament.NotFoundError{ID: id}
	}
	t.d.current = id
	return nil
}

// List lists the tournaments by id.
func (t *Tx) List() ([]tournament.Summary, error) {
	cur, _ := t.Current()
	var out []tournament.Summary
	for id, tm := range t.d.ts {
		out = append(out, tournament.Summary{ID: id, Name: tm.Name, Rounds: tm.Rounds, Players: len(tm.Players), Paired: tm.Paired(), Current: id == cur})
	}
	slices.SortFunc(out, func(a, b tournament.Summary) int { return int(a.ID - b.ID) })
	return out, nil
}

// Load returns a copy of tournament id.
func (t *Tx) Load(id int64) (*tournament.Tournament, error) {
	tm, ok := t.d.ts[id]
	if !ok {
		return nil, &tournament.NotFoundError{ID: id}
	}
	return clone(tm), nil
}

// Create stores a new tournament and makes it the current one; a name that
// another has, whatever the case, is refused with tournament.ErrDuplicate,
// as a real store's constraint does.
func (t *Tx) Create(s tournament.Settings) (int64, error) {
	if err := t.writable(); err != nil {
		return 0, err
	}
	if err := t.unique(0, s.Name); err != nil {
		return 0, err
	}
	id := int64(1)
	for k := range t.d.ts {
		id = max(id, k+1)
	}
	t.d.ts[id] = &tournament.Tournament{ID: id, Settings: s}
	t.d.current = id
	return id, nil
}

func (t *Tx) unique(id int64, name string) error {
	for k, tm := range t.d.ts {
		if k != id && tournament.NameKey(tm.Name) == tournament.NameKey(name) {
			return &tournament.DuplicateError{ID: k, Name: tm.Name}
		}
	}
	return nil
}

// Save writes change c of tournament id and its audit row.
func (t *Tx) Save(id int64, c tournament.Change) (int64, error) {
	if err := t.writable(); err != nil {
		return 0, err
	}
	r, err := tournament.NewAuditRow(c)
	if err != nil {
		return 0, err
	}
	if t.s.BeforeSave != nil {
		if err := t.s.BeforeSave(c); err != nil {
			return 0, err
		}
	}
	tm, ok := t.d.ts[id]
	if !ok {
		return 0, &tournament.NotFoundError{ID: id}
	}
	if err := t.put(tm, c.Before, c.After); err != nil {
		return 0, fmt.Errorf("saving %s %s: %w", c.Action, c.Subject, err)
	}
	r.At = time.Now()
	if t.s.Now != nil {
		r.At = t.s.Now()
	}
	t.d.lastID++
	r.ID = t.d.lastID
	t.d.audit = append(t.d.audit, row{id, r})
	return r.ID, nil
}

// put writes the entities of to over those of from, deleting those only in
// from, as the SQLite store does.
func (t *Tx) put(tm *tournament.Tournament, from, to tournament.State) error {
	if s := to.Settings; s != nil {
		if err := t.unique(tm.ID, s.Name); err != nil {
			return err
		}
		tm.Settings = *s
	}
	for _, p := range from.Players {
		if !slices.ContainsFunc(to.Players, func(q tournament.Player) bool { return q.Number == p.Number }) {
			tm.Players = slices.DeleteFunc(tm.Players, func(q tournament.Player) bool { return q.Number == p.Number })
		}
	}
	for _, p := range to.Players {
		if i := slices.IndexFunc(tm.Players, func(q tournament.Player) bool { return q.Number == p.Number }); i >= 0 {
			tm.Players[i] = p
		} else {
			tm.Players = append(tm.Players, p)
		}
	}
	slices.SortFunc(tm.Players, func(a, b tournament.Player) int { return a.Number - b.Number })
	tm.Games, tm.FinalGames = tournament.PutGames(tm.Games, tm.FinalGames, from, to)
	for _, r := range to.Results {
		i := slices.IndexFunc(tm.Games, func(g tournament.Game) bool { return g.Round == r.Round && g.Table == r.Table })
		if i < 0 {
			return fmt.Errorf("round %d table %d: %w", r.Round, r.Table, tournament.ErrNoGame)
		}
		tm.Games[i].Result = r.Result
	}
	for _, f := range from.Forbidden {
		tm.Forbidden = slices.DeleteFunc(tm.Forbidden, func(g tournament.ForbiddenPair) bool { return g.A == f.A && g.B == f.B })
	}
	for _, f := range to.Forbidden {
		tm.Forbidden = slices.DeleteFunc(tm.Forbidden, func(g tournament.ForbiddenPair) bool { return g.A == f.A && g.B == f.B })
		tm.Forbidden = append(tm.Forbidden, f)
	}
	slices.SortFunc(tm.Forbidden, func(x, y tournament.ForbiddenPair) int { return cmp.Or(x.A-y.A, x.B-y.B) })
	for _, r := range from.RoundRules {
		tm.RoundRules = slices.DeleteFunc(tm.RoundRules, func(x tournament.RoundRules) bool { return x.Round == r.Round })
	}
	for _, r := range to.RoundRules {
		tm.RoundRules = slices.DeleteFunc(tm.RoundRules, func(x tournament.RoundRules) bool { return x.Round == r.Round })
		tm.RoundRules = append(tm.RoundRules, r)
	}
	slices.SortFunc(tm.RoundRules, func(a, b tournament.RoundRules) int { return a.Round - b.Round })
	return nil
}

// Log returns the audit trail of tournament id, oldest first.
func (t *Tx) Log(id int64) ([]tournament.Entry, error) {
	var out []tournament.Entry
	undid := map[int64]int64{}
	for _, r := range t.d.audit {
		if r.tournament != id {
			continue
		}
		e, err := r.Entry()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if e.UndoneBy != 0 {
			undid[e.UndoneBy] = e.ID
		}
	}
	for i := range out {
		out[i].Undoes = undid[out[i].ID]
	}
	return out, nil
}

// LastUndoable returns the newest entry of an undoable action not undone.
func (t *Tx) LastUndoable(id int64) (tournament.Entry, error) {
	for i := len(t.d.audit) - 1; i >= 0; i-- {
		r := t.d.audit[i]
		if r.tournament != id || r.UndoneBy != 0 {
			continue
		}
		e, err := r.Entry()
		if err != nil {
			return e, err
		}
		if e.Action.Undoable() {
			return e, nil
		}
	}
	return tournament.Entry{}, fmt.Errorf("%w: no change to revert", tournament.ErrNothingToUndo)
}

// MarkUndone records that entry was undone by entry by.
func (t *Tx) MarkUndone(entry, by int64) error {
	if err := t.writable(); err != nil {
		return err
	}
	for i := range t.d.audit {
		if t.d.audit[i].ID == entry {
			t.d.audit[i].UndoneBy = by
			return nil
		}
	}
	return fmt.Errorf("audit entry %d: none", entry)
}

// Delete removes tournament id and its audit trail.
func (t *Tx) Delete(id int64) error {
	if err := t.writable(); err != nil {
		return err
	}
	if _, ok := t.d.ts[id]; !ok {
		return &tournament.NotFoundError{ID: id}
	}
	delete(t.d.ts, id)
	delete(t.d.venue, id)
	delete(t.d.reports, id)
	t.d.audit = slices.DeleteFunc(t.d.audit, func(r row) bool { return r.tournament == id })
	return nil
}

// VenueKeys returns tournament id's venue keys, zero if none made.
func (t *Tx) VenueKeys(id int64) (tournament.VenueKeys, error) {
	k := t.d.venue[id]
	return tournament.VenueKeys{Secret: slices.Clone(k.Secret), PasswordHash: slices.Clone(k.PasswordHash),
		CertPEM: slices.Clone(k.CertPEM), KeyPEM: slices.Clone(k.KeyPEM)}, nil
}

// PutVenueKeys replaces tournament id's venue keys with k.
func (t *Tx) PutVenueKeys(id int64, k tournament.VenueKeys) error {
	if err := t.writable(); err != nil {
		return err
	}
	if _, ok := t.d.ts[id]; !ok {
		return &tournament.NotFoundError{ID: id}
	}
	t.d.venue[id] = tournament.VenueKeys{Secret: orNil(slices.Clone(k.Secret)), PasswordHash: orNil(slices.Clone(k.PasswordHash)),
		CertPEM: orNil(slices.Clone(k.CertPEM)), KeyPEM: orNil(slices.Clone(k.KeyPEM))}
	return nil
}

// Reports returns tournament id's reports, by game and side.
func (t *Tx) Reports(id int64) ([]tournament.Report, error) {
	return slices.Clone(t.d.reports[id]), nil
}

// PutReport stores r, replacing the report of its game and side.
func (t *Tx) PutReport(id int64, r tournament.Report) error {
	if err := t.writable(); err != nil {
		return err
	}
	if _, ok := t.d.ts[id]; !ok {
		return &tournament.NotFoundError{ID: id}
	}
	r.At = r.At.UTC().Round(0) // as a real store reads it back
	rs := slices.DeleteFunc(t.d.reports[id], func(o tournament.Report) bool { return o.Game == r.Game && o.Side == r.Side })
	rs = append(rs, r)
	tournament.SortReports(rs)
	t.d.reports[id] = rs
	return nil
}

// DeleteReports deletes the reports of game g.
func (t *Tx) DeleteReports(id int64, g tournament.GameRef) error {
	if err := t.writable(); err != nil {
		return err
	}
	t.d.reports[id] = orNil(slices.DeleteFunc(t.d.reports[id], func(o tournament.Report) bool { return o.Game == g }))
	return nil
}
