// Package sqlite keeps tournaments in one SQLite file (modernc.org/sqlite, no
// cgo): it implements the domain's tournament.Storage (and its Watcher and
// Backuper). It and its siblings under store/ are the only packages that
// know SQL. The schema is in embedded,
// numbered migrations; a database from an older otd is upgraded in place and
// one from a newer otd is refused. Every director action runs in one
// transaction (BEGIN IMMEDIATE) together with its audit row, so that a crash
// leaves the database as it was before the action or after it.
package sqlite

import (
	"bytes"
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/userfile"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/otd-project/otd/internal/tempfile"
	driver "modernc.org/sqlite" // the database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
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
	watching  watchers // the looks of Changes at the database, which Sync makes now
	schema    *schema  // the kind of database: a tournament database, or an archive (OpenArchive)
	// checkFirst: a backup (OpenBackup), checked before it is upgraded.
	checkFirst bool
	scratch    *tempfile.File // the file of a backup's copy (OpenBackup), removed with Close
}

// App returns the database as the application layer takes it: its
// Storage and its features (backups and restores, its own check, its whole
// content read and replaced, changes reported); it has no job queue.
func (s *Store) App() app.Store {
	return app.Store{Storage: s, Backup: s, Check: s, Move: s, Watch: s}
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

	schema     *schema // nil: a tournament database
	checkFirst bool    // check the file before upgrading it (OpenBackup)
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
	if err == nil && !fi.Mode().IsRegular() && !fi.IsDir() { // SQLite says what a folder is
		// A device, a named pipe, a socket: SQLite would write its journal
		// beside it (/dev/null-journal) or wait on it.
		return nil, fmt.Errorf("%q: %w: it is not a regular file (%s)", path, ErrPath, userfile.Kind(fi.Mode()))
	}
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
	s := &Store{path: path, now: o.Now, poll: cmp.Or(o.Poll, DefaultPoll), readOnly: immutable || o.ReadOnly, immutable: immutable,
		schema: cmp.Or(o.schema, &tournamentSchema), checkFirst: o.checkFirst}
	if s.now == nil {
		s.now = time.Now
	}
	// No journal_mode(WAL) here: it would rewrite the header of any SQLite
	// file on connect, another program's included. WAL is set once below, after
	// the file is known to be ours, and persists in the file. temp_store:
	// the statement journals of a big import's inserts stay in memory.
	pragmas := fmt.Sprintf("_pragma=foreign_keys(1)&_pragma=busy_timeout(%d)&_pragma=synchronous(FULL)&_pragma=temp_store(MEMORY)&_txlock=immediate", busyTimeout)
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
	if err := s.migrate(o.Create, -1); err != nil {
		db.Close()
		return s, err
	}
	if s.readOnly {
		return s, nil
	}
	if err := s.walMode(); err != nil {
		if d := s.translate(err); errors.Is(d, ErrReadOnly) {
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
		var se *driver.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || try == 1000 {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Close closes the database (and removes a backup's copy, OpenBackup).
func (s *Store) Close() error {
	err := s.db.Close()
	if s.scratch != nil {
		s.scratch.Remove()
	}
	return err
}

// header starts every SQLite database file (the file format's first 16 bytes).
var header = []byte("SQLite format 3\x00")

// IsDatabase reports whether the regular file at path is an SQLite
// database, by its first 16 bytes; an error if it cannot be opened.
func IsDatabase(path string) (bool, error) {
	f, err := userfile.Open(path, 0) // a database may be of any size
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, len(header))
	n, _ := io.ReadFull(f, head)
	return bytes.Equal(head[:n], header), nil
}
