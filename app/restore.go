package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/otd-project/otd/tournament"
)

// ErrNotBackup reports a backup that cannot be restored: not an otd
// database, damaged, not sound (tournament.ErrUnsound), one still in use, or
// the database restored into itself. The stores' refusals wrap it too.
var ErrNotBackup = errors.New("not a backup otd can restore")

// Errors that RestoreOptions.Target wraps where the database restored into
// cannot be opened, so that the restore makes it or replaces it.
var (
	// ErrNoTarget: nothing of otd's is there yet (no file, an empty
	// PostgreSQL database).
	ErrNoTarget = errors.New("no otd database there yet")
	// ErrTargetDamaged: otd cannot open the database, damaged.
	ErrTargetDamaged = errors.New("the database is damaged")
)

// RestoreOptions are what Restore needs of the adapters, as values: the
// command line wires them to the stores.
type RestoreOptions struct {
	// Name is the backup as messages name it (a URL without its password).
	Name string
	// Same says which of the files of the database restored into the backup
	// is ("the database itself", its -wal file...), "" if another database.
	Same func(ctx context.Context) (string, error)
	// Open opens the backup to read: a sound copy of a file, or a PostgreSQL
	// database read only; its errors that wrap ErrNotBackup say what to do.
	// For a file restored into an SQLite file, replace puts the copy in
	// place of that file (moved to aside first, if aside is not ""), for a
	// database that otd cannot open; else it is nil.
	Open func() (from *Director, replace func(ctx context.Context, aside string) (int, error), done func(), err error)
	// Target opens the database restored into, made if create; its error
	// wraps ErrNoTarget or ErrTargetDamaged where it says so.
	Target func(create bool) (*Director, func(), error)
	// Keep writes the whole content of d, the database about to be
	// replaced, into a new file, and returns its name.
	Keep func(ctx context.Context, d *Director) (string, error)
	// Aside names the file a damaged database is moved to.
	Aside func() string
}

// Restored is what Restore did.
type Restored struct {
	Tournaments int    // the tournaments the database holds now
	File        bool   // the backup's file took the place of a database otd could not open
	Kept        string // the file that keeps what was replaced, unless File
	Damaged     string // where the damaged database that the backup's file replaced was moved; "" none
}

// Restore replaces the whole content of a database with a backup's: the
// backup must be another database, and sound (Check), or nothing is
// changed. A database that otd cannot open (none yet, or damaged: moved
// aside) is replaced by the backup's file where it is an SQLite file (and
// the backup one); a new one is made otherwise. A database otd opens is
// first kept (Keep), then replaced in one step (Director.Restore), which
// others see as any other change.
func Restore(ctx context.Context, o RestoreOptions) (Restored, error) {
	switch what, err := o.Same(ctx); {
	case err != nil:
		return Restored{}, err
	case what != "":
		return Restored{}, fmt.Errorf("%s: %w: it is %s; nothing was changed: name a backup of it", o.Name, ErrNotBackup, what)
	}
	from, replace, fromDone, err := o.Open()
	if err != nil {
		if errors.Is(err, ErrNotBackup) { // it says so
			return Restored{}, err
		}
		return Restored{}, fmt.Errorf("%w; nothing was changed", err)
	}
	defer fromDone()
	if err := from.Check(ctx); err != nil {
		return Restored{}, fmt.Errorf("%s: %w: %w; nothing was changed: restore another backup", o.Name, ErrNotBackup, err)
	}
	d, done, err := o.Target(false)
	switch {
	case (errors.Is(err, ErrNoTarget) || errors.Is(err, ErrTargetDamaged)) && replace != nil:
		r := Restored{File: true}
		if errors.Is(err, ErrTargetDamaged) {
			r.Damaged = o.Aside()
		}
		r.Tournaments, err = replace(ctx, r.Damaged)
		return r, err
	case errors.Is(err, ErrNoTarget): // a new database takes the backup
		d, done, err = o.Target(true)
	}
	if err != nil {
		return Restored{}, err
	}
	defer done()
	r := Restored{}
	before := func() (err error) {
		if r.Kept, err = o.Keep(ctx, d); err != nil {
			return fmt.Errorf("restore refused: keeping what it would replace: %w", err)
		}
		return nil
	}
	if r.Tournaments, err = d.Restore(ctx, from, before); err != nil {
		return Restored{}, fmt.Errorf("%w; nothing was changed", err)
	}
	return r, nil
}

// NotEmptyError is CopyInto's refusal of a database that holds
// tournaments already.
type NotEmptyError struct {
	Tournaments []tournament.Summary
}

func (e *NotEmptyError) Error() string {
	return fmt.Sprintf("it holds %s already (the first %q)", tournament.Plural(len(e.Tournaments), "tournament"), e.Tournaments[0].Name)
}

// CopyInto copies the whole database into the database to, exactly (the
// same ids, times and audit trail): to must hold no tournament
// (*NotEmptyError), unless replace, which replaces all it holds. It returns
// the number of tournaments copied.
func (d *Director) CopyInto(ctx context.Context, to *Director, replace bool) (int, error) {
	there, err := to.Tournaments(ctx)
	if err != nil {
		return 0, err
	}
	if len(there) > 0 && !replace {
		return 0, &NotEmptyError{there}
	}
	return d.CopyTo(ctx, to, nil)
}

// BackupFile writes a backup of the whole database into the empty file at
// path, an SQLite database of otd's: the store's own (Backup), else a copy
// (CopyTo) into the database that create makes there, closed (whole) before
// it returns.
func (d *Director) BackupFile(ctx context.Context, path string, create func(path string) (*Director, func(), error)) error {
	err := d.Backup(ctx, path)
	if !errors.Is(err, tournament.ErrNoBackup) {
		return err
	}
	file, done, err := create(path)
	if err != nil {
		return err
	}
	_, err = d.CopyTo(ctx, file, nil)
	done() // the file whole, its -wal merged in
	return err
}
