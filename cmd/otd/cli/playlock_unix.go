//go:build unix

package cli

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// errPlaying is returned when another otd plays games on the same database.
var errPlaying = errors.New("another 'otd round play' or 'otd tournament run' is playing this database's games")

// lockPlay takes the lock that lets one otd at a time play a database's
// engine games (two would play the same games twice): an flock on DB-play.lock
// beside it, which the system releases when the process ends, however it
// ends. The file keeps the holder's pid for the message.
func lockPlay(db string) (unlock func(), err error) {
	path := db + "-play.lock"
	// Never through a symbolic link, and only a regular file: the lock is
	// truncated to hold the pid.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("the play lock %s: %w: remove it (nothing else should be there)", path, err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("the play lock %s is not a regular file: remove it (nothing else should be there)", path)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := strings.TrimSpace(string(b[:n]))
			return nil, fmt.Errorf("%w (pid %s): wait for it to finish, or stop it with Ctrl-C", errPlaying, pid)
		}
		return nil, fmt.Errorf("the play lock %s: %w", path, err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() { f.Close() }, nil
}
