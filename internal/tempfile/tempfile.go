// Package tempfile makes the temporary files that otd writes beside the file
// they become or serve (a backup, an export, a restore's checked copy), so
// that a run killed half-way leaves nothing that a later run cannot tell
// from a live one: each is named .NAME.PID-RANDOM.otd-tmp and locked by its
// writer (flock) for as long as it lives. Create removes, in the folder it
// writes to, the files of that form that no process holds (their writer was
// killed), with the side files SQLite made beside them (-wal, -shm,
// -journal), and never another file: a finished copy keeps its own name.
package tempfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Suffix ends the name of every temporary file.
const Suffix = ".otd-tmp"

// sideFiles are the files SQLite makes beside a database it opens.
var sideFiles = []string{"-wal", "-shm", "-journal"}

// File is a temporary file, open and locked by this process.
type File struct {
	*os.File
	done bool
}

// Create makes a new, empty temporary file (mode 0600) in dir for the file
// named base, locked until Close or Remove, after removing from dir the
// temporary files that their writers left when they were killed (Clean).
func Create(dir, base string) (*File, error) {
	Clean(dir)
	for {
		f, err := os.CreateTemp(dir, "."+base+"."+strconv.Itoa(os.Getpid())+"-*"+Suffix)
		if err != nil {
			return nil, err
		}
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		// A Clean of another process may have taken it between its creation
		// and the lock, and removed it: then it is made again.
		if ok && linked(f) {
			return &File{File: f}, nil
		}
		f.Close()
	}
}

// linked tells whether f is still the file of its name.
func linked(f *os.File) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(f.Name())
	return err == nil && os.SameFile(a, b)
}

// Close releases the file, which keeps its content and its name (or the name
// it was renamed to).
func (f *File) Close() error {
	if f.done {
		return nil
	}
	f.done = true
	return f.File.Close()
}

// Remove removes the file and the side files SQLite made beside it, then
// releases it; after Close it does nothing.
func (f *File) Remove() error {
	if f.done {
		return nil
	}
	remove(f.Name())
	return f.Close()
}

func remove(name string) {
	for _, side := range append([]string{""}, sideFiles...) {
		os.Remove(name + side)
	}
}

// Clean removes from dir the temporary files that no process holds, their
// writers having been killed, and returns their names; it never removes one
// being written, nor any other file. Errors are ignored: what cannot be
// removed stays for a later run.
func Clean(dir string) (removed []string) {
	entries, err := os.ReadDir(dir)
	if err != nil || !canLock {
		return nil
	}
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		if !strings.HasPrefix(e.Name(), ".") || !strings.Contains(e.Name(), Suffix) || !e.Type().IsRegular() {
			continue
		}
		if strings.HasSuffix(e.Name(), Suffix) {
			if dead(name) {
				removed = append(removed, name)
			}
			continue
		}
		// A side file whose database is gone (removed by a Clean killed
		// half-way): its writer is gone too, the database being made first.
		for _, side := range sideFiles {
			if main, ok := strings.CutSuffix(name, Suffix+side); ok {
				if _, err := os.Lstat(main + Suffix); errors.Is(err, fs.ErrNotExist) && os.Remove(name) == nil {
					removed = append(removed, name)
				}
			}
		}
	}
	return removed
}

// dead removes the temporary file name, and its side files, if no process
// holds it, and tells whether it did.
func dead(name string) bool {
	f, err := os.OpenFile(name, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if ok, err := tryLock(f); err != nil || !ok || !linked(f) {
		return false
	}
	// Removed while locked: a writer that made the same name meanwhile
	// finds it gone once it has the lock (Create), and makes another.
	remove(name)
	return true
}
