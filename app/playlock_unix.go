//go:build unix

package app

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/otd-project/otd/engine/proc"
)

// errPlaying is returned when another otd plays games on the same database.
var errPlaying = errors.New("another 'otd round play' or 'otd tournament run' is playing this database's games")

// LockPlay takes the lock that lets one otd at a time play a database's
// engine games (two would play the same games twice): an flock on the file
// at path (the command line's DB-play.lock beside an SQLite database, a file
// of the system's temporary folder named after a PostgreSQL one's URL),
// which the system releases when the process ends, however it ends. The
// file keeps the holder's pid and start time and what it does ("PID START
// KIND"), for the message and for the next holder: a holder that was killed
// leaves its record, and the next ends what its engines left running
// (proc.EndRun), saying so on w.
//
// kind is what takes it, written in the record ("play", or "restore", which
// may not replace the games while they are played): the message of the
// next says what holds it.
func LockPlay(path, kind string, w io.Writer) (unlock func(), err error) {
	unlock, pid, holder, err := lockRun(path, kind, w)
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

// LockWorker takes the first free one of the worker slots of a database on
// this computer, slot(1) to slot(maxWorkers) the paths of their locks: the
// lock of LockPlay, numbered, so that a worker started after one that was
// killed ends what that one's engines left running. name is the database as
// messages name it.
func LockWorker(slot func(n int) string, name string, w io.Writer) (unlock func(), err error) {
	for n := 1; n <= maxWorkers; n++ {
		unlock, pid, _, err := lockRun(slot(n), "worker", w)
		if pid == "" {
			return unlock, err
		}
	}
	return nil, fmt.Errorf("%d workers of %s run on this computer already: stop one first", maxWorkers, name)
}

// lockRun takes the lock at path for this process (LockPlay), for kind,
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
