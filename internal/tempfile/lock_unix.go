//go:build unix

package tempfile

import (
	"errors"
	"os"
	"syscall"
)

const (
	noFollow = syscall.O_NOFOLLOW
	canLock  = true
)

// tryLock takes the lock of f for this process unless another holds it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
