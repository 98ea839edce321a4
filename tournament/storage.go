package tournament

import (
	"context"
	"errors"
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
	// The venue's keys and reports (issue 31).
	VenueTx
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

// ErrNoBackup reports a Storage that cannot make or restore backups.
var ErrNoBackup = errors.New("the storage cannot make or restore backups")

// ErrUnsound reports a database that is not as otd makes it (Check): a
// schema changed by hand, a row that refers to nothing, a tournament that
// breaks the rules.
var ErrUnsound = errors.New("it is not as otd writes it")
