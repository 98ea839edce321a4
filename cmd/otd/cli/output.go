package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/otd-project/otd/internal/tempfile"
	"github.com/otd-project/otd/internal/txt"
)

// errExists is returned when an export would replace a file without --force.
var errExists = errors.New("the file exists")

// newFileMode is the mode of a file an export creates: readable by all, as
// any document a director sends on.
const newFileMode fs.FileMode = 0o644

// errNotFile is returned when an export names something that is not a
// regular file: a folder, a device, a named pipe, a socket, a symbolic link.
var errNotFile = errors.New("not a regular file")

// writeOutput writes an export to path, or to standard output for "-"; every
// command that writes a file writes it through here. A file is written
// through a temporary file in the same folder (internal/tempfile: a later
// run removes it if otd is killed meanwhile), synced, then moved into place,
// so that a crash never leaves half a file; it gets mode 0644, or the mode of
// the file it replaces. An existing file is replaced only with force, and
// only if it is a regular file: a folder, a device (/dev/null, /dev/full), a
// named pipe or a socket is refused, and so is a symbolic link, which is
// never followed (it could lead anywhere, /etc/passwd for root): the director
// names the file itself. The database in use, its -wal, -shm or -journal
// file, however named, is never written, nor is standard output when the
// shell made it one of them ('otd backup - 1<> otd.db').
func writeOutput(g *globals, path string, force bool, write func(io.Writer) error) error {
	if path == "-" {
		out := txt.Raw(g.Stdout)
		if f, ok := out.(*os.File); ok {
			if what := g.databaseOutput(f); what != "" {
				return fmt.Errorf("cannot write to standard output: it is %s (--db %s), which otd never writes over: redirect it to another file", what, g.DB)
			}
		}
		w := bufio.NewWriter(out) // a file's bytes, as in a file
		err := write(w)
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			return fmt.Errorf("cannot write to standard output: %w", err)
		}
		return nil
	}
	return writeFile(g, path, force, func(f *os.File) error {
		w := bufio.NewWriter(f)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	})
}

// writeFile is writeOutput for a file (not "-") that fill writes itself:
// it gets the temporary file, new and empty, open (a program such as SQLite
// may write it by its name, f.Name()).
func writeFile(g *globals, path string, force bool, fill func(f *os.File) error) error {
	if path == "" {
		return usageErrorf("no file named: name the file to write, or - for standard output")
	}
	if what := g.databaseFile(path); what != "" {
		return fmt.Errorf("cannot write %s: it is %s (--db %s), which otd never writes over: name another file", path, what, g.DB)
	}
	mode := newFileMode
	if fi, err := os.Lstat(path); err == nil {
		if err := regularFile(path, fi); err != nil {
			return err
		}
		if !force {
			return fmt.Errorf("%s: %w; add --force to replace it, or name another file", path, errExists)
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := tempfile.Create(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name would only confuse
		}
		return fmt.Errorf("cannot write %s: %w; name a file in an existing folder you may write to", path, err)
	}
	defer tmp.Remove() // nothing once it is in place (Close)
	err = fill(tmp.File)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	// Locked until in place: a later run takes it for a killed writer's
	// only once its lock is free.
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
	// Check again what is there now: the export took time.
	if fi, err := os.Lstat(path); err == nil {
		if err := regularFile(path, fi); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp.Close()
	return syncDir(path)
}

// wrote says on standard output what an export wrote and where, "Wrote
// " and the message, unless it wrote to standard output (path "-").
func wrote(g *globals, path, format string, a ...any) {
	if path != "-" {
		fmt.Fprintf(g.Stdout, "Wrote "+format+".\n", a...)
	}
}

// regularFile refuses, in words, what is not a regular file.
func regularFile(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	var what, todo string
	switch {
	case m.IsRegular():
		return nil
	case m&fs.ModeSymlink != 0:
		what, todo = "a symbolic link", "otd does not write through links: name the file it leads to, or another file"
		if to, err := os.Readlink(path); err == nil {
			what += " to " + to
		}
	case m.IsDir():
		what, todo = "a folder", "name a file, e.g. "+filepath.Join(path, "out.ELO")
	case m&fs.ModeCharDevice != 0:
		what, todo = "a character device", "name a file to write"
	case m&fs.ModeDevice != 0:
		what, todo = "a device", "name a file to write"
	case m&fs.ModeNamedPipe != 0:
		what, todo = "a named pipe (FIFO)", "name a file, or - for standard output and a pipe there"
	case m&fs.ModeSocket != 0:
		what, todo = "a socket", "name a file to write"
	default:
		what, todo = "not a file", "name a file to write"
	}
	return fmt.Errorf("cannot write %s: %w, it is %s; %s", path, errNotFile, what, todo)
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
