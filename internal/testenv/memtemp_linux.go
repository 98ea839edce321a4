package testenv

import (
	"os"
	"syscall"
)

// MemoryTemp makes a new folder on /dev/shm, a memory file system (tmpfs),
// open to all as /tmp is (sticky: a test may run otd as another user in a
// folder of its own), and returns its path; "" when there is none, or less
// than 2 GiB free.
func MemoryTemp() string {
	const tmpfsMagic = 0x01021994
	var fs syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &fs); err != nil || fs.Type != tmpfsMagic || uint64(fs.Bavail)*uint64(fs.Bsize) < 2<<30 {
		return ""
	}
	dir, err := os.MkdirTemp("/dev/shm", "otd-test-")
	if err != nil {
		return ""
	}
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		os.Remove(dir)
		return ""
	}
	return dir
}
