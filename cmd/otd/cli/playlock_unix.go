//go:build unix

package cli

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/otd-project/otd/engine/proc"
)

// errPlaying is returned when another otd plays games on the same database.
var errPlaying = errors.New("another 'otd round play' or 'otd tournament run' is playing this database's games")

// lockPlay takes the lock that lets one otd at a time play a database's
// engine games (two would play the same games twice): an flock on DB-play.lock
// beside it, which the system releases when the process ends, however it
// ends. The file keeps the holder's pid and start time and what it does ("PID START KIND"), for the
// message and for the next holder: a holder that was killed leaves its
// record, and the next ends what its engines left running (proc.EndRun),
// saying so on w. The lock of a PostgreSQL database is a file of the
// system's temporary folder, named after its URL: it keeps two otd of this
// computer from playing its games at once.
//
// kind is what takes it, written in the record ("play", or "restore", which
// may not replace the games while they are played): the message of the
// next says what holds it.
func lockPlay(db, kind string, w io.Writer) (unlock func(), err error) {
	unlock, pid, holder, err := lockRun(lockPath(db, "play"), kind, w)
	switch {
	case pid == "":
		return unlock, err
	case holder == "restore":
		return nil, fmt.Errorf("another 'otd restore' (pid %s) is replacing this database's content: wait for it to finish", pid)
	}
	return nil, fmt.Errorf("%w (pid %s): wait for it to finish, or stop it with Ctrl-C", errPlaying, pid)
}

// maxWorkers is the most workers of one database that run on one computer.
const maxWorkers = 256

// lockWorker takes the first free one of the worker slots of database db on
// this computer: the lock of lockPlay, numbered, so that a worker started
// after one that was killed ends what that one's engines left running.
func lockWorker(db string, w io.Writer) (unlock func(), err error) {
	for n := 1; n <= maxWorkers; n++ {
		unlock, pid, _, err := lockRun(lockPath(db, "worker"+strconv.Itoa(n)), "worker", w)
		if pid == "" {
			return unlock, err
		}
	}
	return nil, fmt.Errorf("%d workers of %s run on this computer already: stop one first", maxWorkers, redact(db))
}

// lockPath is the lock file of kind beside the database db (an SQLite
// file), or in the temporary folder, named after its URL (PostgreSQL).
func lockPath(db, kind string) string {
	if isPostgresURL(db) {
		sum := sha256.Sum256([]byte(redact(db)))
		return filepath.Join(os.TempDir(), fmt.Sprintf("otd-%x-%s.lock", sum[:8], kind))
	}
	return db + "-" + kind + ".lock"
}

// lockRun takes the lock at path for this process (lockPlay), for kind,
// ending what the engines of a holder that was killed left running; when
// another process holds it, it returns that one's pid and kind instead.
func lockRun(path, kind string, w io.Writer) (unlock func(), holder, holderKind string, err error) {
	// Never through a symbolic link, and only a regular file: the lock is
	// truncated to hold the pid.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, "", "", fmt.Errorf("the play lock %s: %w: remove it (nothing else should be there)", path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, "", "", fmt.Errorf("the play lock %s is not a regular file: remove it (nothing else should be there)", path)
	}
	b := make([]byte, 64)
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		n, _ := f.ReadAt(b, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			record := append(strings.Fields(string(b[:n])), "", "", "")
			return nil, cmp.Or(record[0], "?"), record[2], nil
		}
		return nil, "", "", fmt.Errorf("the play lock %s: %w", path, err)
	}
	n, _ := f.ReadAt(b, 0)
	var run proc.ID
	if _, err := fmt.Sscanf(string(b[:n]), "%d %d", &run.Pid, &run.Start); err == nil {
		if k := proc.EndRun(run); k > 0 {
			what := "processes"
			if k == 1 {
				what = "process"
			}
			fmt.Fprintf(w, "otd: ended %d %s left running by the engines of an otd that was killed while it played (pid %d)\n", k, what, run.Pid)
		}
	}
	f.Truncate(0)
	self := proc.Self()
	f.WriteAt([]byte(fmt.Sprintf("%d %d %s\n", self.Pid, self.Start, kind)), 0)
	return func() {
		f.Truncate(0) // ended normally: nothing left to end
		f.Close()
	}, "", "", nil
}
