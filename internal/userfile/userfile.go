// Package userfile opens the files a user names for otd to read (an .ELO
// file, a folder's .ELO files, a FlipTheDisc file, a players file, game
// records): a regular file only (a link to one is followed), of at most a
// size. A named pipe, a device such as /dev/zero, a socket or a folder is
// refused at once, without waiting for a writer or reading a byte, and so is
// a file larger than the cap (a sparse file too: its size is what it says,
// not the disk it takes). A file that grows past the cap while it is read
// fails at the cap.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxSize is the cap of a list otd reads whole (a rating list, a file of
// ids); each format has its own (elo.MaxSize, ftd.MaxSize, roster.MaxSize).
const MaxSize = 64 << 20

var (
	// ErrNotRegular is wrapped by the error of a path that is not a
	// regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is wrapped by the error of a file over its cap.
	ErrTooLarge = errors.New("too large")
)

// File is a regular file open for reading, at most its cap.
type File struct {
	f    *os.File
	r    io.LimitedReader // the cap and one byte more, to tell a file over it
	max  int64
	path string
}

// Open opens the file at path for reading: a regular file (a link to one
// is followed) of at most max bytes (no cap if max <= 0). Its errors are
// *fs.PathError naming the path; one of a path that is not a regular file
// wraps ErrNotRegular, one of a file larger than max ErrTooLarge.
func Open(path string, max int64) (*File, error) {
	// O_NONBLOCK: opening a named pipe does not wait for a writer; it is
	// refused below. A regular file's reads ignore it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = check(fi, max)
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	uf := &File{f: f, max: max, path: path}
	uf.r = io.LimitedReader{R: f, N: max + 1}
	if max <= 0 {
		uf.r.N = 1<<63 - 1
	}
	return uf, nil
}

// check refuses a file that is not regular or larger than max.
func check(fi fs.FileInfo, max int64) error {
	if m := fi.Mode(); !m.IsRegular() {
		return fmt.Errorf("%w but %s: otd reads only regular files", ErrNotRegular, Kind(m))
	}
	if max > 0 && fi.Size() > max {
		return &sizeError{size: fi.Size(), max: max}
	}
	return nil
}

// sizeError is a file over its cap, of size bytes (-1: found reading it).
type sizeError struct{ size, max int64 }

func (e *sizeError) Error() string {
	if e.size < 0 {
		return fmt.Sprintf("more than %s, the most otd reads of this file", bytes(e.max))
	}
	return fmt.Sprintf("%d bytes, larger than %s, the most otd reads of this file", e.size, bytes(e.max))
}

func (e *sizeError) Is(target error) bool { return target == ErrTooLarge }

// Kind names what a file that is not a regular file is: "a folder", "a named
// pipe (FIFO)", "a character device".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// bytes writes a cap: "64 MiB", "64 KiB", "1000 bytes".
func bytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Read reads from the file; past the cap it fails with an error wrapping
// ErrTooLarge.
func (f *File) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if f.max > 0 && f.r.N == 0 {
		return n, &fs.PathError{Op: "read", Path: f.path, Err: &sizeError{size: -1, max: f.max}}
	}
	return n, err
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// ReadFile reads the whole file at path, opened as Open opens it.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
