package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// errExists is returned when an export would replace a file without --force.
var errExists = errors.New("the file exists")

// newFileMode is the mode of a file an export creates: readable by all, as
// any document a director sends on.
const newFileMode fs.FileMode = 0o644

// writeOutput writes an export to path, or to standard output for "-". A
// file is written through a temporary file in the same folder, synced, then
// moved into place, so that a crash never leaves half a file; it gets mode
// 0644, or the mode of the file it replaces. An existing file is replaced
// only with force, and only if it is a regular file.
func writeOutput(g *globals, path string, force bool, write func(io.Writer) error) error {
	if path == "-" {
		w := bufio.NewWriter(g.Stdout)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	}
	mode := newFileMode
	if fi, err := os.Lstat(path); err == nil {
		switch {
		case !fi.Mode().IsRegular():
			return fmt.Errorf("cannot write %s: not a regular file (%s); name a file to write", path, fi.Mode().Type())
		case !force:
			return fmt.Errorf("%s: %w; add --force to replace it, or name another file", path, errExists)
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name would only confuse
		}
		return fmt.Errorf("cannot write %s: %w; name a file in an existing folder you may write to", path, err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if !force {
		// A hard link never replaces a file, even one created since the check above.
		switch err := os.Link(tmp.Name(), path); {
		case err == nil:
			return syncDir(path)
		case errors.Is(err, fs.ErrExist):
			return fmt.Errorf("%s: %w; add --force to replace it, or name another file", path, errExists)
		}
		// No hard links on this file system: rename, as with force.
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return syncDir(path)
}

// syncDir makes the new directory entry of path durable.
func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil // the file is written; some systems do not open folders
	}
	defer d.Close()
	_ = d.Sync() // not every file system syncs a folder
	return nil
}
