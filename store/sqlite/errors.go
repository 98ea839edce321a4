package sqlite

import (
	"errors"
	"fmt"
	"time"

	"github.com/otd-project/otd/tournament"
	driver "modernc.org/sqlite" // the database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors of Open and of the transactions.
var (
	ErrNoDatabase   = errors.New("no database")
	ErrNotDatabase  = errors.New("not an SQLite database")
	ErrDamaged      = errors.New("the database file is damaged")
	ErrCannotOpen   = errors.New("cannot open the database file")
	ErrNotOTD       = errors.New("not an otd database")
	ErrNotArchive   = errors.New("not an otd archive")
	ErrNewerSchema  = errors.New("the database was written by a newer otd")
	ErrNoTournament = tournament.ErrNoTournament
	ErrPath         = errors.New("not a database file name")
	ErrDiskFull     = errors.New("the disk is full")
	ErrReadOnly     = tournament.ErrReadOnly
	ErrBusy         = tournament.ErrBusy
	// ErrChangesPending comes with ErrReadOnly: the latest changes are in
	// the -wal file, which otd may not merge into the file.
	ErrChangesPending = errors.New("changes are pending")
)

// translate turns SQLite's reports of a damaged file, of a file that is not a
// database, of one it cannot open, of a full disk, of a database it may not
// write and of one another connection holds into ErrDamaged, ErrNotDatabase,
// ErrCannotOpen, ErrDiskFull, ErrReadOnly and ErrBusy, each in one line with
// the path and what to do; other errors pass as they are.
func (s *Store) translate(err error) error {
	var se *driver.Error
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

// translated tells whether err is already one of translate's lines.
func translated(err error) bool {
	for _, e := range []error{ErrDamaged, ErrNotDatabase, ErrCannotOpen, ErrDiskFull, ErrReadOnly, ErrBusy} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
