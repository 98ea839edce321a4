//go:build !unix

package sqlite

import "os"

// mayWrite tells whether the file at path may be written, as far as its mode
// says (on Windows, the read-only attribute); yes when it cannot tell, for
// SQLite to report.
func mayWrite(path string) bool {
	fi, err := os.Stat(path)
	return err != nil || fi.Mode().Perm()&0o200 != 0
}
