//go:build unix

package sqlite

import (
	"errors"
	"io/fs"
	"syscall"
)

// mayWrite asks the system (access(2), W_OK) whether the process may write
// the file at path: no for a file its user may not write or one on a
// read-only file system; yes when it cannot tell, for SQLite to report.
func mayWrite(path string) bool {
	const wOK = 2 // W_OK on every unix
	err := syscall.Access(path, wOK)
	return err == nil || !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS)
}
