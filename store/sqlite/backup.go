package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/tempfile"
	"github.com/otd-project/otd/internal/testhook"
	"github.com/otd-project/otd/tournament"
	driver "modernc.org/sqlite"
)

// ErrNotBackup reports a file that cannot be restored: not an otd database,
// damaged, not sound (tournament.ErrUnsound), or one still in use. It is
// app.ErrNotBackup, which the restore action wraps too.
var ErrNotBackup = app.ErrNotBackup

// Backup writes a consistent copy of the whole database into the empty file
// at path while others read and write it ('otd serve', 'round play', 'otd
// result'): SQLite's VACUUM INTO makes the copy of one moment, a single file
// with no -wal beside it.
func (s *Store) Backup(ctx context.Context, path string) error {
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		if err := s.translate(err); translated(err) {
			return err
		}
		return fmt.Errorf("backup of %s: %w", s.path, err)
	}
	return nil
}

// OpenBackup opens a copy of the backup at path, made in the folder dir
// (beside what it will replace) and removed by Close, once it is found to be
// an otd database that passes SQLite's integrity check, whose schema is
// exactly the one otd's migrations make at its version (as Check), then
// upgraded if it comes from an older otd: check it then (Director.Check). A
// backup with a -wal file beside it (a database in use, or copied with its
// -wal) is refused: it should be made with 'otd backup'. path itself is
// never written. The errors that wrap ErrNotBackup say why, that nothing
// was changed, and what to do.
func OpenBackup(path, dir string) (*Store, error) {
	const another = "restore another backup"
	bad := func(todo, why string, a ...any) error {
		return fmt.Errorf("%s: %w: %s; nothing was changed: %s", path, ErrNotBackup, fmt.Sprintf(why, a...), todo)
	}
	if err := checkPath(path); err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fmt.Errorf("restore: %w", err)
	case !fi.Mode().IsRegular():
		return nil, bad("name a backup file", "it is not a file")
	case fi.Size() == 0:
		return nil, bad(another, "the file is empty")
	}
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		return nil, bad("make a backup of it with 'otd --db "+path+" backup FILE' and restore that",
			"%s-wal is beside it: it is a database in use, or a copy made with its -wal, and its latest changes are in that file", path)
	}
	tmp, err := tempfile.Create(dir, filepath.Base(path))
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if err := copyInto(path, tmp.File); err != nil {
		tmp.Remove()
		return nil, fmt.Errorf("restore: reading %s: %w", path, err)
	}
	testhook.Stop("restore-copy")
	s, err := Open(tmp.Name(), Options{checkFirst: true})
	if err == nil {
		// A single file again, as it came: the -wal merged in and gone.
		if _, err = s.db.Exec("PRAGMA journal_mode = DELETE"); err != nil {
			s.db.Close()
		}
	}
	if err != nil {
		tmp.Remove()
		why := strings.ReplaceAll(strings.TrimPrefix(err.Error(), tmp.Name()+": "), tmp.Name(), path)
		switch {
		case errors.Is(err, ErrNewerSchema):
			return nil, bad("upgrade otd to restore it", "it was written by a newer otd")
		case errors.Is(err, ErrDamaged):
			return nil, bad(another, "it is damaged (%s)", why)
		case errors.Is(err, ErrNotOTD), errors.Is(err, ErrNotDatabase):
			return nil, bad(another, "it is not an otd database")
		}
		return nil, bad(another, "%s", why)
	}
	s.scratch = tmp
	return s, nil
}

// copyInto copies the file from into f, synced.
func copyInto(from string, f *os.File) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	if _, err := io.Copy(f, in); err != nil {
		return err
	}
	return f.Sync()
}

// Restore replaces the whole content of the database with that of from, an
// SQLite database (a backup opened with OpenBackup), through SQLite itself
// (its online backup, one write transaction): other connections, a running
// 'otd serve' among them, see the restored content at their next read, and
// no -wal of the replaced content is ever applied over it. before, if not
// nil, is called first (to keep a copy of what is), within that transaction,
// no other writer able to commit until the restore does: its error stops
// the restore. It returns the number of tournaments restored, and
// tournament.ErrNoBackup for another engine's database.
func (s *Store) Restore(ctx context.Context, from tournament.Storage, before func() error) (int, error) {
	src, ok := from.(*Store)
	if !ok {
		return 0, tournament.ErrNoBackup
	}
	if s.readOnly {
		return 0, s.readOnlyError()
	}
	n, err := src.count(ctx)
	if err != nil {
		return 0, err
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return 0, s.translate(err)
	}
	defer conn.Close()
	var beforeErr error
	err = conn.Raw(func(dc any) error {
		r, ok := dc.(interface {
			NewRestore(string) (*driver.Backup, error)
		})
		if !ok {
			return fmt.Errorf("the SQLite driver cannot restore a backup (%T)", dc)
		}
		b, err := r.NewRestore(sqliteURI(src.path, "mode=ro"))
		if err != nil {
			return err
		}
		// The first step, of no page, opens the write transaction that the
		// last commits: no one writes meanwhile, and before keeps exactly
		// what is replaced (reading through another connection).
		_, err = b.Step(0)
		if err == nil && before != nil {
			beforeErr = before()
			err = beforeErr
		}
		if err == nil {
			_, err = b.Step(1)
			testhook.Stop("restore-replace")
		}
		if err == nil {
			_, err = b.Step(-1)
		}
		if ferr := b.Finish(); err == nil {
			err = ferr
		}
		return err
	})
	switch {
	case beforeErr != nil:
		return 0, beforeErr
	case err != nil:
		if err := s.translate(err); translated(err) {
			return 0, err
		}
		return 0, fmt.Errorf("restoring into %s: %w; the database is as it was", s.path, err)
	}
	return n, nil
}

// RestoreFile puts the backup src (opened with OpenBackup, in db's folder)
// in place of the database file db, which otd cannot open: it does not
// exist, or it is damaged, and is then moved aside to aside (its -wal and
// -shm files with it). No otd may be using db (a running 'otd serve' must be
// started again). src is closed. It returns the number of tournaments
// restored.
func RestoreFile(ctx context.Context, db string, src *Store, aside string) (int, error) {
	if err := checkPath(db); err != nil {
		return 0, err
	}
	if src.scratch == nil {
		return 0, fmt.Errorf("restore: %s is not a backup's copy", src.path)
	}
	n, err := src.count(ctx)
	if err != nil {
		return 0, err
	}
	src.db.Close()
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(db); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := src.scratch.Chmod(mode); err != nil {
		return 0, fmt.Errorf("restore: %w", err)
	}
	if aside != "" {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := os.Rename(db+suffix, aside+suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return 0, fmt.Errorf("restore: moving the damaged database aside: %w", err)
			}
		}
	}
	if err := os.Rename(src.scratch.Name(), db); err != nil {
		return 0, fmt.Errorf("restore: %w", err)
	}
	src.scratch.Close()
	return n, nil
}

func (s *Store) count(ctx context.Context) (n int, err error) {
	return n, s.translate(s.db.QueryRowContext(ctx, "SELECT count(*) FROM tournament").Scan(&n))
}

// DatabaseFile tells whether path names one of the files of the SQLite
// database db, however spelled (relative or not, through a symbolic link,
// another hard link of it), whether they exist or not: the database itself,
// its -wal, -shm or -journal file. It says which, or "" for none. The side
// files of every name of the database count: a process that opened it by
// another hard link of it writes that name's -wal.
func DatabaseFile(db, path string) string {
	dbs := []string{db}
	if real, err := filepath.EvalSymlinks(db); err == nil {
		dbs = append(dbs, real) // SQLite puts the side files beside the file a link leads to
	}
	paths := []string{path}
	if to, err := os.Readlink(path); err == nil {
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		paths = append(paths, to)
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		for _, p := range paths {
			for _, d := range dbs {
				// p is the side file of d's name, or of another name of
				// the database (p less its suffix is the database).
				base, side := strings.CutSuffix(p, suffix)
				if !sameFile(d+suffix, p) && !(side && suffix != "" && sameFile(base, d)) {
					continue
				}
				return fileOf(suffix)
			}
		}
	}
	return ""
}

// fileOf names the database's file of a suffix: "the database itself",
// "the database's -wal file".
func fileOf(suffix string) string {
	if suffix == "" {
		return "the database itself"
	}
	return "the database's " + suffix + " file"
}

// DatabaseOutput tells whether the open file f (standard output, say) is one
// of the files of the SQLite database db, as DatabaseFile says (the shell
// opened it: 'otd backup - 1<> otd.db' or '>> otd.db-wal'), or "".
func DatabaseOutput(db string, f *os.File) string {
	// Linux names the file an open descriptor leads to.
	if name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); err == nil && filepath.IsAbs(name) {
		if what := DatabaseFile(db, name); what != "" {
			return what
		}
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if d, err := os.Stat(db + suffix); err == nil && os.SameFile(d, fi) {
			return fileOf(suffix)
		}
	}
	return ""
}

// sameFile tells whether a and b are the same file, or, neither existing,
// the same name in the same folder.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	switch {
	case errA == nil && errB == nil:
		return os.SameFile(fa, fb)
	case errA == nil || errB == nil:
		return false
	}
	da, errA := os.Stat(filepath.Dir(a))
	db, errB := os.Stat(filepath.Dir(b))
	return errA == nil && errB == nil && os.SameFile(da, db) && filepath.Base(a) == filepath.Base(b)
}

// sqliteURI is the file: URI of path with a query.
func sqliteURI(path, query string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(abs)) + "?" + query
}
