package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/otd-project/otd/tournament"
)

// Director runs a director's actions: each names the tournament it acts on
// (by its id), loads it, applies domain operations, and saves their changes
// with their audit rows, all in one transaction. Every change to a
// tournament goes through it. No action reads the database's current
// tournament: that is the command line's default (Current), read once when a
// command starts, so that a round being played, a live page or another
// director keeps to its own tournament whatever 'otd tournament use' does.
type Director struct {
	db    Store
	actor tournament.Actor // who acts: each change saved says so
	// rederive: a change that final games paired rest on drops them
	// (Rederiving), instead of being refused.
	rederive bool
}

// Store is a database as the Director uses it: its tournament.Storage, and
// the optional features of its store, each nil where the store has none.
// A store hands them over when opened (sqlite.Store.App, postgres.Store.App).
type Store struct {
	tournament.Storage
	Backup Backuper    // backups of the whole database, and their restore
	Check  Checker     // the store's own check of its schema and rows
	Move   Mover       // its whole content read and replaced, whatever the engine
	Watch  Watcher     // changes made by others, reported
	Queue  Distributor // a job queue of engine games, for workers on other machines
}

// New returns the Director of a database.
func New(db Store) *Director { return &Director{db: db} }

// As returns a Director of the same database whose changes say that actor
// made them.
func (d *Director) As(actor tournament.Actor) *Director {
	c := *d
	c.actor = actor
	return &c
}

// save saves change c of tournament id with its audit row, stamped with
// the Director's actor.
func (d *Director) save(tx tournament.Tx, id int64, c *tournament.Change) (int64, error) {
	c.Actor = d.actor
	return tx.Save(id, *c)
}

// do runs ops, in order, on tournament id as one action: if any fails, or
// the result breaks an invariant, nothing is saved. It returns the
// tournament after the action and the changes, one per op. The actions
// (actions.go) run through it; the rest of otd runs them.
func (d *Director) do(ctx context.Context, id int64, ops ...tournament.Op) (t *tournament.Tournament, changes []tournament.Change, err error) {
	err = d.db.Update(ctx, func(tx tournament.Tx) (err error) {
		t, changes, err = d.apply(tx, id, ops)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return t, changes, nil
}

// DoForTest runs ops as one action (do), for tests: of the stores and the
// transaction itself (an op that fails, or holds the transaction open),
// and benchmarks that make a whole event quickly (a round's results in one
// action). The command line and the web run the named actions.
func (d *Director) DoForTest(ctx context.Context, id int64, ops ...tournament.Op) (*tournament.Tournament, []tournament.Change, error) {
	return d.do(ctx, id, ops...)
}

// apply runs ops, in order, on tournament id in transaction tx, and saves
// their changes if the tournament keeps its invariants.
func (d *Director) apply(tx tournament.Tx, id int64, ops []tournament.Op) (*tournament.Tournament, []tournament.Change, error) {
	t, err := load(tx, id)
	if err != nil {
		return nil, nil, err
	}
	var before *tournament.Tournament // with final games paired: as it was, for keepFinalFacts
	if t.FinalStarted() {
		before = t.Clone()
	}
	var changes []tournament.Change
	for _, op := range ops {
		c, err := op(t)
		if err != nil {
			return nil, nil, err
		}
		changes = append(changes, c)
	}
	if err := d.keepFinalFacts(before, t, changes); err != nil {
		return nil, nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, nil, fmt.Errorf("refused, as it would leave the tournament inconsistent: %w", err)
	}
	for i := range changes {
		if _, err := d.save(tx, t.ID, &changes[i]); err != nil {
			return nil, nil, err
		}
	}
	return t, changes, nil
}

// Create creates a tournament with settings s and makes it the current one.
func (d *Director) Create(ctx context.Context, s tournament.Settings) (*tournament.Tournament, error) {
	t := &tournament.Tournament{Settings: s}
	return t, d.create(ctx, t, t.Created)
}

// Import stores a whole tournament read from another program's file (source
// names it) as a new tournament, and makes it the current one.
func (d *Director) Import(ctx context.Context, t *tournament.Tournament, source string) error {
	return d.create(ctx, t, func() tournament.Change { return t.Imported(source) })
}

func (d *Director) create(ctx context.Context, t *tournament.Tournament, change func() tournament.Change) error {
	if err := t.Validate(); err != nil {
		return err
	}
	return d.db.Update(ctx, func(tx tournament.Tx) (err error) {
		if t.ID, err = tx.Create(t.Settings); err != nil {
			return err
		}
		c := change()
		_, err = d.save(tx, t.ID, &c)
		return err
	})
}

// Undo reverts the newest change of tournament id that is not undone yet
// (an undo, the tournament's creation and its import are not undone). With
// kinds, the newest change must be of one of those kinds. It returns the
// entry undone and the change that undid it.
func (d *Director) Undo(ctx context.Context, id int64, kinds ...tournament.Action) (tournament.Entry, tournament.Change, error) {
	return d.undo(ctx, id, true, 0, kinds)
}

// UndoEntry reverts the newest change of tournament id as Undo does, if it
// is entry (as WouldUndo showed it): if another change came since, it is
// refused (ErrNothingToUndo), so that what is undone is what was shown.
func (d *Director) UndoEntry(ctx context.Context, id, entry int64) (tournament.Entry, tournament.Change, error) {
	return d.undo(ctx, id, true, entry, nil)
}

// WouldUndo returns what Undo would do now, or why it would refuse,
// changing nothing.
func (d *Director) WouldUndo(ctx context.Context, id int64, kinds ...tournament.Action) (tournament.Entry, tournament.Change, error) {
	return d.undo(ctx, id, false, 0, kinds)
}

func (d *Director) undo(ctx context.Context, id int64, save bool, entry int64, kinds []tournament.Action) (last tournament.Entry, u tournament.Change, err error) {
	run := d.db.View
	if save {
		run = d.db.Update
	}
	err = run(ctx, func(tx tournament.Tx) error {
		t, err := load(tx, id)
		if err != nil {
			return err
		}
		if last, err = tx.LastUndoable(t.ID); err != nil {
			return err
		}
		if entry != 0 && last.ID != entry {
			return fmt.Errorf("%w as shown: entry %d (%s: %s) came since; look again", tournament.ErrNothingToUndo, last.ID, last.Action, last.Subject)
		}
		if len(kinds) > 0 && !slices.Contains(kinds, last.Action) {
			return fmt.Errorf("%w of that kind: the last change is entry %d (%s: %s); 'otd undo' reverts it", tournament.ErrNothingToUndo, last.ID, last.Action, last.Subject)
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
	return d.db.Update(ctx, func(tx tournament.Tx) error { return tx.Delete(id) })
}

// Use makes tournament id the current one.
func (d *Director) Use(ctx context.Context, id int64) error {
	return d.db.Update(ctx, func(tx tournament.Tx) error { return tx.Use(id) })
}

// Tournaments lists the tournaments of the database.
func (d *Director) Tournaments(ctx context.Context) (list []tournament.Summary, err error) {
	err = d.db.View(ctx, func(tx tournament.Tx) error {
		list, err = tx.List()
		return err
	})
	return list, err
}

// Current returns the id of the database's current tournament: the one
// last created, imported or chosen with Use. It is the command line's
// default, read once when a command starts; no action reads it.
func (d *Director) Current(ctx context.Context) (id int64, err error) {
	err = d.db.View(ctx, func(tx tournament.Tx) error {
		id, err = tx.Current()
		return err
	})
	return id, err
}

// Tournament reads tournament id.
func (d *Director) Tournament(ctx context.Context, id int64) (t *tournament.Tournament, err error) {
	err = d.db.View(ctx, func(tx tournament.Tx) error {
		t, err = load(tx, id)
		return err
	})
	return t, err
}

// Log reads tournament id and its audit trail, oldest first.
func (d *Director) Log(ctx context.Context, id int64) (t *tournament.Tournament, log []tournament.Entry, err error) {
	err = d.db.View(ctx, func(tx tournament.Tx) error {
		if t, err = load(tx, id); err != nil {
			return err
		}
		log, err = tx.Log(t.ID)
		return err
	})
	return t, log, err
}

// load reads tournament id and checks its invariants.
func load(tx tournament.Tx, id int64) (*tournament.Tournament, error) {
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
