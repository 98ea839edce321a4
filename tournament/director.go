package tournament

import (
	"context"
	"fmt"
	"slices"
)

// Storage is the database as the Director uses it; package store implements
// it (the domain says what the application needs, storage provides it).
type Storage interface {
	// Update runs fn in one write transaction: everything fn writes
	// commits together, or, if fn fails, nothing does.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read-only transaction.
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction of the Storage.
type Tx interface {
	// Current returns the id of the database's current tournament (the one
	// last created or chosen with Use): the command line's default, which
	// nothing else reads.
	Current() (int64, error)
	// Use makes tournament id the current one.
	Use(id int64) error
	// List lists the tournaments of the database.
	List() ([]Summary, error)
	// Load reads a whole tournament.
	Load(id int64) (*Tournament, error)
	// Create stores a new tournament's settings, makes it the current one
	// and returns its id. A name that another tournament has (NameKey) is
	// refused with a *DuplicateError, as is a rename to one by Save.
	Create(s Settings) (int64, error)
	// Save writes a change: the entities of c.After replace those of
	// c.Before, and the change is the new audit entry, whose id it returns.
	Save(id int64, c Change) (int64, error)
	// Log returns the audit trail of a tournament, oldest first.
	Log(id int64) ([]Entry, error)
	// LastUndoable returns the newest entry of an undoable action not
	// undone yet, or an error wrapping ErrNothingToUndo.
	LastUndoable(id int64) (Entry, error)
	// MarkUndone records that entry was undone by entry by.
	MarkUndone(entry, by int64) error
	// Delete removes a tournament and all of it, its audit trail included.
	Delete(id int64) error
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

// Op is one operation of a director's action on a tournament.
type Op func(*Tournament) (Change, error)

// Director runs a director's actions: each names the tournament it acts on
// (by its id), loads it, applies domain operations, and saves their changes
// with their audit rows, all in one transaction. Every change to a
// tournament goes through it. No action reads the database's current
// tournament: that is the command line's default (Current), read once when a
// command starts, so that a round being played, a live page or another
// director keeps to its own tournament whatever 'otd tournament use' does.
type Director struct {
	db    Storage
	actor Actor // who acts: each change saved says so
}

// NewDirector returns the Director of a database.
func NewDirector(db Storage) *Director { return &Director{db: db} }

// As returns a Director of the same database whose changes say that actor
// made them.
func (d *Director) As(actor Actor) *Director {
	c := *d
	c.actor = actor
	return &c
}

// save saves change c of tournament id with its audit row, stamped with
// the Director's actor.
func (d *Director) save(tx Tx, id int64, c *Change) (int64, error) {
	c.Actor = d.actor
	return tx.Save(id, *c)
}

// Do runs ops, in order, on tournament id as one action: if any fails, or
// the result breaks an invariant, nothing is saved. It returns the
// tournament after the action and the changes, one per op.
func (d *Director) Do(ctx context.Context, id int64, ops ...Op) (*Tournament, []Change, error) {
	var t *Tournament
	var changes []Change
	err := d.db.Update(ctx, func(tx Tx) (err error) {
		if t, err = load(tx, id); err != nil {
			return err
		}
		changes = changes[:0]
		for _, op := range ops {
			c, err := op(t)
			if err != nil {
				return err
			}
			changes = append(changes, c)
		}
		if err := t.Validate(); err != nil {
			return fmt.Errorf("refused, as it would leave the tournament inconsistent: %w", err)
		}
		for i := range changes {
			if _, err := d.save(tx, t.ID, &changes[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return t, changes, nil
}

// Create creates a tournament with settings s and makes it the current one.
func (d *Director) Create(ctx context.Context, s Settings) (*Tournament, error) {
	t := &Tournament{Settings: s}
	return t, d.create(ctx, t, ActTournamentNew, s.Name, State{Settings: &s})
}

// Import stores a whole tournament read from another program's file (source
// names it) as a new tournament, and makes it the current one.
func (d *Director) Import(ctx context.Context, t *Tournament, source string) error {
	return d.create(ctx, t, ActImport, source, State{Players: t.Players, Games: t.Games, FinalGames: t.FinalGames})
}

func (d *Director) create(ctx context.Context, t *Tournament, a Action, subject string, after State) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return d.db.Update(ctx, func(tx Tx) (err error) {
		if t.ID, err = tx.Create(t.Settings); err != nil {
			return err
		}
		c := t.change(a, subject, State{}, after)
		_, err = d.save(tx, t.ID, &c)
		return err
	})
}

// Undo reverts the newest change of tournament id that is not undone yet
// (an undo, the tournament's creation and its import are not undone). With
// kinds, the newest change must be of one of those kinds. It returns the
// entry undone and the change that undid it.
func (d *Director) Undo(ctx context.Context, id int64, kinds ...Action) (Entry, Change, error) {
	return d.undo(ctx, id, true, kinds)
}

// WouldUndo returns what Undo would do now, or why it would refuse,
// changing nothing.
func (d *Director) WouldUndo(ctx context.Context, id int64, kinds ...Action) (Entry, Change, error) {
	return d.undo(ctx, id, false, kinds)
}

func (d *Director) undo(ctx context.Context, id int64, save bool, kinds []Action) (last Entry, u Change, err error) {
	run := d.db.View
	if save {
		run = d.db.Update
	}
	err = run(ctx, func(tx Tx) error {
		t, err := load(tx, id)
		if err != nil {
			return err
		}
		if last, err = tx.LastUndoable(t.ID); err != nil {
			return err
		}
		if len(kinds) > 0 && !slices.Contains(kinds, last.Action) {
			return fmt.Errorf("%w of that kind: the last change is entry %d (%s: %s); 'otd undo' reverts it", ErrNothingToUndo, last.ID, last.Action, last.Subject)
		}
		if u, err = t.Undo(last.ID, last.Change); err != nil || !save {
			return err
		}
		id, err := d.save(tx, t.ID, &u)
		if err != nil {
			return err
		}
		return tx.MarkUndone(last.ID, id)
	})
	return last, u, err
}

// Delete removes tournament id and all of it, its audit trail included: it
// cannot be undone.
func (d *Director) Delete(ctx context.Context, id int64) error {
	return d.db.Update(ctx, func(tx Tx) error { return tx.Delete(id) })
}

// Use makes tournament id the current one.
func (d *Director) Use(ctx context.Context, id int64) error {
	return d.db.Update(ctx, func(tx Tx) error { return tx.Use(id) })
}

// Tournaments lists the tournaments of the database.
func (d *Director) Tournaments(ctx context.Context) (list []Summary, err error) {
	err = d.db.View(ctx, func(tx Tx) error {
		list, err = tx.List()
		return err
	})
	return list, err
}

// Current returns the id of the database's current tournament: the one
// last created, imported or chosen with Use. It is the command line's
// default, read once when a command starts; no action reads it.
func (d *Director) Current(ctx context.Context) (id int64, err error) {
	err = d.db.View(ctx, func(tx Tx) error {
		id, err = tx.Current()
		return err
	})
	return id, err
}

// Tournament reads tournament id.
func (d *Director) Tournament(ctx context.Context, id int64) (t *Tournament, err error) {
	err = d.db.View(ctx, func(tx Tx) error {
		t, err = load(tx, id)
		return err
	})
	return t, err
}

// Log reads tournament id and its audit trail, oldest first.
func (d *Director) Log(ctx context.Context, id int64) (t *Tournament, log []Entry, err error) {
	err = d.db.View(ctx, func(tx Tx) error {
		if t, err = load(tx, id); err != nil {
			return err
		}
		log, err = tx.Log(t.ID)
		return err
	})
	return t, log, err
}

// load reads tournament id and checks its invariants.
func load(tx Tx, id int64) (*Tournament, error) {
	t, err := tx.Load(id)
	if err != nil {
		return nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, &brokenError{fmt.Sprintf("tournament %d (%s)", id, t.Name), err}
	}
	return t, nil
}

// brokenError is a tournament read from the database that breaks the rules
// (Validate): otd never writes one, another program did.
type brokenError struct {
	tournament string
	err        error
}

func (e *brokenError) Error() string {
	return e.tournament + ": " + e.err.Error() + "; the database was changed by another program"
}

func (e *brokenError) Unwrap() error { return e.err }
