//go:build unix

package userfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpen: a regular file, and a link to one, are read; a named pipe, a
// link to /dev/zero, a folder, a file over the cap (a sparse one too) are
// refused at once, with the path and why.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(path("small.txt"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path("small.txt"), path("link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", path("zero.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path("fifo.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	sparse, err := os.Create(path("sparse.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(1 << 30); err != nil { // 1 GiB, no block on disk
		t.Fatal(err)
	}
	sparse.Close()
	for _, tc := range []struct {
		name string
		max  int64
		want string // the content, or the error
		is   error
	}{
		{"small.txt", 10, "0123456789", nil},
		{"link.txt", 10, "0123456789", nil},
		{"small.txt", 0, "0123456789", nil},
		{"small.txt", 9, "small.txt: 10 bytes, larger than 9 bytes, the most otd reads of this file", ErrTooLarge},
		{"sparse.txt", MaxSize, "sparse.txt: 1073741824 bytes, larger than 64 MiB, the most otd reads of this file", ErrTooLarge},
		{"zero.txt", MaxSize, "zero.txt: not a regular file but a character device: otd reads only regular files", ErrNotRegular},
		{"zero.txt", 0, "zero.txt: not a regular file but a character device", ErrNotRegular},
		{"fifo.txt", MaxSize, "fifo.txt: not a regular file but a named pipe (FIFO)", ErrNotRegular},
		{"", MaxSize, ": not a regular file but a folder", ErrNotRegular},
		{"missing.txt", MaxSize, "missing.txt: no such file", fs.ErrNotExist},
	} {
		data, err := ReadFile(path(tc.name), tc.max)
		switch {
		case tc.is == nil && (err != nil || string(data) != tc.want):
			t.Errorf("ReadFile(%s, %d) = %q, %v; want %q", tc.name, tc.max, data, err, tc.want)
		case tc.is != nil && (!errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("ReadFile(%s, %d): error %v; want %q (%v)", tc.name, tc.max, err, tc.want, tc.is)
		}
	}
}

// TestReadStopsAtCap: a file that is within its cap when opened and grows
// past it while read (or reports no size, as /proc's) fails at the cap.
func TestReadStopsAtCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grows.txt")
	if err := os.WriteFile(p, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(p, []byte("123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "grows.txt: more than 8 bytes") || len(data) > 9 {
		t.Errorf("read %q, %v; want ErrTooLarge after at most 9 bytes", data, err)
	}
}
