package sqlite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	driver "modernc.org/sqlite"
)

// ErrNotBackup reports a file that cannot be restored: not an otd database,
// damaged, or one still in use.
var ErrNotBackup = errors.New("not a backup otd can restore")

// Backup writes a consistent copy of the whole database to w while others
// read and write it ('otd serve', 'round play', 'otd result'): SQLite's
// VACUUM INTO makes the copy of one moment, a single file with no -wal beside
// it, in a private temporary folder, which is then copied to w.
func (s *Store) Backup(ctx context.Context, w io.Writer) error {
	dir, err := os.MkdirTemp("", "otd-backup-")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "backup.db")
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		if err := s.translate(err); translated(err) {
			return err
		}
		return fmt.Errorf("backup of %s: %w", s.path, err)
	}
	f, err := os.Open(tmp)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// Restore replaces the whole content of the database with that of the
// backup at path, through SQLite itself (its online backup, one write
// transaction): other connections, a running 'otd serve' among them, see the
// restored content at their next read, and no -wal of the replaced content
// is ever applied over it. path must be an otd database that passes SQLite's
// integrity check, with no -wal file beside it (a database in use, or copied
// with its -wal: make the backup with 'otd backup' instead); one from an
// older otd is upgraded on a copy first, path itself is never written.
// before, if not nil, is called once path is found good, before anything
// is replaced (to keep a copy of what is): its error stops the restore. It
// returns the number of tournaments restored.
func (s *Store) Restore(ctx context.Context, path string, before func() error) (int, error) {
	if s.readOnly {
		return 0, s.readOnlyError()
	}
	src, err := checkedCopy(path, s.path)
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(filepath.Dir(src))
	n, err := countTournaments(ctx, src)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	if before != nil {
		if err := before(); err != nil {
			return 0, err
		}
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return 0, s.translate(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		r, ok := dc.(interface {
			NewRestore(string) (*driver.Backup, error)
		})
		if !ok {
			return fmt.Errorf("the SQLite driver cannot restore a backup (%T)", dc)
		}
		b, err := r.NewRestore(sqliteURI(src, "mode=ro"))
		if err != nil {
			return err
		}
		// All pages in one step: one write transaction of the database.
		_, err = b.Step(-1)
		if ferr := b.Finish(); err == nil {
			err = ferr
		}
		return err
	})
	if err != nil {
		if err := s.translate(err); translated(err) {
			return 0, err
		}
		return 0, fmt.Errorf("restoring %s into %s: %w; the database is as it was", path, s.path, err)
	}
	return n, nil
}

// RestoreFile puts the backup at path in place of the database file db,
// which otd cannot open: it does not exist, or it is damaged, and is then
// moved aside to aside (its -wal and -shm files with it). No otd may be
// using db (a running 'otd serve' must be started again). It returns the
// number of tournaments restored.
func RestoreFile(ctx context.Context, db, path, aside string) (int, error) {
	if err := checkPath(db); err != nil {
		return 0, err
	}
	src, err := checkedCopy(path, db)
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(filepath.Dir(src))
	n, err := countTournaments(ctx, src)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(db); err == nil {
		mode = fi.Mode().Perm()
	}
	// The copy goes beside db first, so that the last step is a rename.
	tmp := filepath.Join(filepath.Dir(db), "."+filepath.Base(db)+".restore")
	os.Remove(tmp) // a crashed restore's
	defer os.Remove(tmp)
	if err := copyFile(src, tmp, mode); err != nil {
		return 0, fmt.Errorf("restore: %w", err)
	}
	if aside != "" {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := os.Rename(db+suffix, aside+suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return 0, fmt.Errorf("restore: moving the damaged database aside: %w", err)
			}
		}
	}
	if err := os.Rename(tmp, db); err != nil {
		return 0, fmt.Errorf("restore: %w", err)
	}
	return n, nil
}

func countTournaments(ctx context.Context, path string) (n int, err error) {
	b, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer b.Close()
	return n, b.db.QueryRowContext(ctx, "SELECT count(*) FROM tournament").Scan(&n)
}

// checkedCopy copies the backup at path into a private temporary folder,
// opens the copy as an otd database (upgrading an older schema) and checks
// its integrity; it returns the copy's path.
func checkedCopy(path, db string) (string, error) {
	bad := func(why string, a ...any) error {
		return fmt.Errorf("%s: %w: %s", path, ErrNotBackup, fmt.Sprintf(why, a...))
	}
	if err := checkPath(path); err != nil {
		return "", err
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("restore: %w", err)
	case !fi.Mode().IsRegular():
		return "", bad("it is not a file")
	case fi.Size() == 0:
		return "", bad("the file is empty")
	}
	if same, err := sameFile(path, db); err == nil && same {
		return "", bad("it is the database itself")
	}
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		return "", bad("%s-wal is beside it: it is a database in use, or a copy made with its -wal, and its latest changes are in that file; "+
			"make a backup of it with 'otd --db %s backup FILE' and restore that", path, path)
	}
	dir, err := os.MkdirTemp("", "otd-restore-")
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	tmp := filepath.Join(dir, "restore.db")
	if err := copyFile(path, tmp, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("restore: reading %s: %w", path, err)
	}
	b, err := Open(tmp, Options{})
	if err == nil {
		err = b.IntegrityCheck()
		if err == nil {
			// A single file again, as it came: the -wal merged in and gone.
			_, err = b.db.Exec("PRAGMA journal_mode = DELETE")
		}
		b.Close()
	}
	if err != nil {
		os.RemoveAll(dir)
		switch {
		case errors.Is(err, ErrNewerSchema):
			return "", bad("it was written by a newer otd: upgrade otd to restore it")
		case errors.Is(err, ErrDamaged):
			return "", bad("it is damaged (%s)", strings.ReplaceAll(err.Error(), tmp, path))
		case errors.Is(err, ErrNotOTD), errors.Is(err, ErrNotDatabase):
			return "", bad("it is not an otd database")
		}
		return "", fmt.Errorf("%s: %w: %s", path, ErrNotBackup, strings.ReplaceAll(err.Error(), tmp+": ", ""))
	}
	return tmp, nil
}

// sqliteURI is the file: URI of path with a query.
func sqliteURI(path, query string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(abs)) + "?" + query
}

func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}

// copyFile copies the file from into a new file to (never through a link),
// synced, with mode.
func copyFile(from, to string, mode fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
