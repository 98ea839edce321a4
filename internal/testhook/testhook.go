// Package testhook lets a test stop otd at a named point of its work, to
// kill it there (SIGKILL) or let it go on, by construction rather than by
// luck. With OTD_TEST_STOP_AT=POINT in its environment, otd reaching Stop(POINT)
// writes "otd: stopped at POINT" on standard error, then waits until its
// standard input is closed (or reaches its end), and goes on. Without it,
// Stop does nothing. The points are those of a backup and a restore:
//
//	restore-copy     the backup is copied beside the database, not yet checked
//	before-restore   what the restore replaces is written to its temporary file
//	restore-replace  the replacing transaction is open, part of it written
package testhook

import (
	"fmt"
	"io"
	"os"
)

// Env names the point where otd stops.
const Env = "OTD_TEST_STOP_AT"

// Stop stops at point if the environment names it (see the package).
func Stop(point string) {
	if os.Getenv(Env) != point {
		return
	}
	fmt.Fprintf(os.Stderr, "otd: stopped at %s\n", point)
	io.Copy(io.Discard, os.Stdin)
}
