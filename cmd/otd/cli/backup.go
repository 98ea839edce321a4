package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/otd-project/otd/internal/tempfile"
	"github.com/otd-project/otd/internal/testhook"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/store/sqlite"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newBackupCmd(g *globals) *cobra.Command {
	var force bool
	var to string
	cmd := &cobra.Command{
		Use:   "backup FILE | backup --to DATABASE",
		Short: "Copy the whole database to FILE, or to another database, safely while otd is in use",
		Long: `backup writes a copy of the database (every tournament, its audit trail
included) to FILE, as it stands at one moment: safe while 'otd serve', 'round
play' or another director's 'otd result' use it. The copy is one SQLite file,
whatever the database (a PostgreSQL one too), that 'otd restore' takes back,
or that otd opens with --db. It is written atomically (never half a file),
never through a symbolic link, and replaces an existing file only with
--force; - writes it to standard output. It never writes over the database
itself, nor its -wal, -shm or -journal file, however FILE names them (a
relative path, a link, another hard link), and never --to the database
itself, nor to standard output when the shell opened it on one of those
files ('1<> otd.db', '>> otd.db-wal': refused). But 'otd backup - > otd.db'
is the shell's doing: it empties otd.db before otd starts, and the database
is lost; redirect only into another file.

With --to (or a postgres:// URL for FILE), the copy goes into another
database instead, made if need be: a PostgreSQL database
(--to postgres://USER:PASSWORD@HOST/DATABASE) or an SQLite file, exactly (the same ids, times and audit trail). It must hold no
tournament, or --force replaces all it holds. This moves an event's file into
a federation's PostgreSQL database, and back with 'otd --db postgres://...
backup FILE'.

Do not copy an SQLite database file itself while otd uses it: its latest
changes are in the -wal file beside it, and a copy put back over a database
in use is damaged beyond repair. Use backup and restore.`,
		Example: "  otd backup paris-open-round3.db\n  otd --db club.db backup /media/usb/club-saturday.db --force\n" +
			"  otd --db club.db backup --to postgres://otd:secret@db.example.org/federation\n  otd --db postgres://otd@db.example.org/federation backup club-copy.db",
		Args: argsUsage(func(cmd *cobra.Command, args []string) error {
			if to != "" {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		}),
		RunE: func(_ *cobra.Command, args []string) error {
			ctx := context.Background()
			if to == "" && postgres.IsURL(args[0]) { // a database, not a file
				to = args[0]
			}
			if to != "" {
				switch what, err := sameDatabase(ctx, g.DB, to); {
				case err != nil:
					return err
				case what != "":
					return fmt.Errorf("backup refused: --to %s is %s (--db %s): name another database", postgres.Redact(to), what, g.dbName())
				}
			}
			d, done, err := g.open(dbOptions{readOnly: true})
			if err != nil {
				return err
			}
			defer done()
			n, err := d.Tournaments(ctx)
			if err != nil {
				return err
			}
			if to != "" {
				return copyTo(ctx, g, d, to, force)
			}
			if args[0] == "-" {
				err = backupStdout(ctx, g, d)
			} else {
				err = writeFile(g, args[0], force, func(f *os.File) error { return backupInto(ctx, d, f.Name()) })
			}
			if err != nil {
				return err
			}
			if args[0] != "-" {
				fmt.Fprintf(g.Stdout, "Backed up %s (%s) to %s; 'otd restore %s' brings it back.\n",
					g.dbName(), tournament.Plural(len(n), "tournament"), args[0], shellWord(args[0]))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace FILE if it exists; with --to, replace all that DATABASE holds")
	cmd.Flags().StringVar(&to, "to", "", "copy into `DATABASE` (a postgres:// URL or an SQLite file) instead of a backup file")
	return cmd
}

// backupInto writes a backup of d's database into the empty file at path,
// an SQLite database: SQLite's own copy of an SQLite database; another
// database is copied into a new SQLite database there.
func backupInto(ctx context.Context, d *app.Director, path string) error {
	err := d.Backup(ctx, path)
	if !errors.Is(err, tournament.ErrNoBackup) {
		return err
	}
	file, done, err := openDB(path, dbOptions{create: true}, nil)
	if err != nil {
		return err
	}
	_, err = d.CopyTo(ctx, file, nil)
	done() // the file whole, its -wal merged in
	return err
}

// backupStdout writes a backup of d's database to standard output, through a
// temporary file beside the database (the system's temporary folder for
// PostgreSQL's).
func backupStdout(ctx context.Context, g *globals, d *app.Director) error {
	dir := os.TempDir()
	if !postgres.IsURL(g.DB) {
		dir = filepath.Dir(g.DB)
	}
	tmp, err := tempfile.Create(dir, "otd-backup")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer tmp.Remove()
	if err := backupInto(ctx, d, tmp.Name()); err != nil {
		return err
	}
	return writeOutput(g, "-", false, func(w io.Writer) error {
		_, err := io.Copy(w, tmp)
		return err
	})
}

// sameDatabase says whether the database other is the database db, however
// named: for SQLite files, which of its files (sqlite.DatabaseFile); for
// PostgreSQL URLs, as the servers say (postgres.SameDatabase). It returns ""
// for another database.
func sameDatabase(ctx context.Context, db, other string) (string, error) {
	switch pg := postgres.IsURL(db); {
	case pg != postgres.IsURL(other):
		return "", nil
	case !pg:
		return sqlite.DatabaseFile(db, other), nil
	}
	same, err := postgres.SameDatabase(ctx, db, other)
	if !same || err != nil {
		return "", err
	}
	return "the database itself", nil
}

// copyTo copies d's database into the database named to (backup --to),
// which must hold no tournament unless force.
func copyTo(ctx context.Context, g *globals, d *app.Director, to string, force bool) error {
	dst, done, err := openDB(to, dbOptions{create: true}, nil)
	if err != nil {
		return err
	}
	defer done()
	name := postgres.Redact(to)
	there, err := dst.Tournaments(ctx)
	if err != nil {
		return err
	}
	if len(there) > 0 && !force {
		return fmt.Errorf("--to %s: it holds %s already (the first %q): add --force to replace all it holds, or name another database",
			name, tournament.Plural(len(there), "tournament"), there[0].Name)
	}
	n, err := d.CopyTo(ctx, dst, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Copied %s (%s) to %s; 'otd --db %s tournament list' lists them.\n",
		g.dbName(), tournament.Plural(n, "tournament"), name, shellWord(name))
	return nil
}

func newRestoreCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "restore FILE|DATABASE",
		Short: "Replace the database's content with a backup, safely while otd serve runs",
		Long: `restore replaces everything in the database (every tournament, its audit
trail included) with the content of FILE, a copy made by 'otd backup'. FILE
is read, never written, and must be a sound otd database: it passes SQLite's
integrity check; its schema is exactly the one otd makes at its version
(the same tables, columns, indexes and triggers, nothing more, nothing less:
a trigger added by hand is refused, saying what differs), then upgraded on
a copy if it comes from an older otd; no row refers to a row that does not
exist; and every tournament loads and keeps the rules (a score within the
board, every game between registered players). A PostgreSQL database
restored from is checked the same way, against its own schema history.
The content is replaced through SQLite itself in one step: a
running 'otd serve' shows the restored event at once, and nothing of the
replaced content comes back. It is refused while 'round play' or 'tournament
run' plays this database's games, or another restore runs: the message says
which (and its pid).

What it replaces is kept first, beside the database, in a file whose name it
prints ('otd restore' of that file goes back); from then until the restore
is done no one else writes the database ('otd serve', 'otd result' wait), so
that a result entered meanwhile is in that file or in the restored event,
never lost. A PostgreSQL database
(--db postgres://...) takes the backup's tables in one transaction, and keeps
what it replaced in a file named after the database in the current folder;
the backup may be a PostgreSQL database too (otd restore postgres://...).
Its temporary files are written there too, named .NAME.PID-XXXX.otd-tmp;
those of a restore or backup that was killed are removed by the next, never
a finished copy.

Do not copy or move a file over the database instead: while otd uses it,
its -wal file would be applied over the copy, bringing back undone results or
damaging the database beyond repair.`,
		Example: "  otd restore paris-open-round3.db\n  otd --db club.db restore /media/usb/club-saturday.db",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			unlock, err := lockPlay(g.DB, "restore", g.Stderr)
			if err != nil {
				return fmt.Errorf("restore refused: %w", err)
			}
			defer unlock()
			ctx := context.Background()
			switch what, err := sameDatabase(ctx, g.DB, args[0]); {
			case err != nil:
				return err
			case what != "":
				return fmt.Errorf("%s: %w: it is %s; nothing was changed: name a backup of it", postgres.Redact(args[0]), sqlite.ErrNotBackup, what)
			}
			// Temporary files go where the restore writes: beside the
			// database, or what it keeps of a PostgreSQL one.
			src, restoreInto, srcDone, err := openBackup(args[0], filepath.Dir(g.asideBase()))
			if err != nil {
				if errors.Is(err, sqlite.ErrNotBackup) { // it says so
					return err
				}
				return fmt.Errorf("%w; nothing was changed", err)
			}
			defer srcDone()
			if err := src.Check(ctx); err != nil {
				return fmt.Errorf("%s: %w: %w; nothing was changed: restore another backup", postgres.Redact(args[0]), sqlite.ErrNotBackup, err)
			}
			d, done, err := g.app(false)
			switch {
			case (errors.Is(err, sqlite.ErrNoDatabase) || errors.Is(err, sqlite.ErrDamaged)) && restoreInto != nil:
				return restoreFile(ctx, g, args[0], restoreInto, err)
			case errors.Is(err, postgres.ErrNoSchema), errors.Is(err, sqlite.ErrNoDatabase): // a new database takes the backup
				d, done, err = g.app(true)
			}
			if err != nil {
				return err
			}
			defer done()
			kept := ""
			before := func() error {
				kept = asideName(g.asideBase(), "before-restore", g.now())
				err := writeFile(g, kept, false, func(f *os.File) error {
					err := backupInto(ctx, d, f.Name())
					testhook.Stop("before-restore")
					return err
				})
				if err != nil {
					return fmt.Errorf("restore refused: keeping what it would replace: %w", err)
				}
				return nil
			}
			n, err := d.Restore(ctx, src, before)
			if err != nil {
				return fmt.Errorf("%w; nothing was changed", err)
			}
			fmt.Fprintf(g.Stdout, "Restored %s into %s: %s. What it replaced is in %s ('otd restore %s' goes back).\n",
				postgres.Redact(args[0]), g.dbName(), tournament.Plural(n, "tournament"), kept, shellWord(kept))
			return nil
		},
	}
	return cmd
}

// openBackup opens the backup name for a restore: a PostgreSQL database,
// read only, or a copy of an SQLite file made in dir (sqlite.OpenBackup).
// For a file, restoreInto puts that copy in place of the SQLite database db
// (sqlite.RestoreFile), moving db aside first when aside is not "".
func openBackup(name, dir string) (src *app.Director, restoreInto func(ctx context.Context, db, aside string) (int, error), done func(), err error) {
	if postgres.IsURL(name) {
		src, done, err = openDB(name, dbOptions{readOnly: true}, nil)
		return src, nil, done, err
	}
	file, err := sqlite.OpenBackup(name, dir)
	if err != nil {
		return nil, nil, nil, err
	}
	restoreInto = func(ctx context.Context, db, aside string) (int, error) {
		return sqlite.RestoreFile(ctx, db, file, aside)
	}
	return app.New(file.App()), restoreInto, func() { file.Close() }, nil
}

// restoreFile restores the backup file (opened by openBackup from path,
// which gave restoreInto) into a database that otd cannot open (openErr says
// why): a new one, or a damaged one, which is moved aside.
func restoreFile(ctx context.Context, g *globals, path string, restoreInto func(ctx context.Context, db, aside string) (int, error), openErr error) error {
	aside := ""
	if errors.Is(openErr, sqlite.ErrDamaged) {
		aside = asideName(g.DB, "damaged", g.now())
	}
	n, err := restoreInto(ctx, g.DB, aside)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Restored %s into %s: %s.", path, g.dbName(), tournament.Plural(n, "tournament"))
	if aside != "" {
		fmt.Fprintf(g.Stdout, " The damaged database is moved to %s; start any 'otd serve' of it again.", aside)
	}
	fmt.Fprintln(g.Stdout)
	return nil
}

// asideBase is the file name beside which a restore keeps what it
// replaces: the database file, or, for a PostgreSQL database, a file named
// after it in the current folder.
func (g *globals) asideBase() string {
	if !postgres.IsURL(g.DB) {
		return g.DB
	}
	u, err := url.Parse(g.DB)
	if err != nil || strings.Trim(u.Path, "/") == "" {
		return "otd.db"
	}
	return filepath.Base(strings.Trim(u.Path, "/")) + ".db"
}

// asideName is a new file's name beside db for what a restore at replaces:
// otd.db -> otd.before-restore-20261126-111052.db (then -2, -3... for
// another in the same second).
func asideName(db, what string, at time.Time) string {
	ext := filepath.Ext(db)
	base := strings.TrimSuffix(db, ext) + "." + what + "-" + at.Format("20060102-150405")
	name := base + ext
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d%s", base, i, ext)
	}
}

// now is the command's clock: g.Now, or the system's.
func (g *globals) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}
