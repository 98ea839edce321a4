package cli

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/otd-project/otd/app"
)

// lockPlay takes the play lock of database db for kind ("play" or
// "restore"): app.LockPlay at lockPath(db, "play").
func lockPlay(db, kind string, w io.Writer) (unlock func(), err error) {
	return app.LockPlay(lockPath(db, "play"), kind, w)
}

// lockWorker takes the first free worker slot of database db on this
// computer (app.LockWorker), at lockPath(db, "workerN").
func lockWorker(db string, w io.Writer) (unlock func(), err error) {
	return app.LockWorker(func(n int) string { return lockPath(db, "worker"+strconv.Itoa(n)) }, redact(db), w)
}

// lockPath is the lock file of kind beside the database db (an SQLite
// file), or in the temporary folder, named after its URL (PostgreSQL): it
// keeps two otd of this computer from playing its games at once.
func lockPath(db, kind string) string {
	if isPostgresURL(db) {
		sum := sha256.Sum256([]byte(redact(db)))
		return filepath.Join(os.TempDir(), fmt.Sprintf("otd-%x-%s.lock", sum[:8], kind))
	}
	return db + "-" + kind + ".lock"
}
