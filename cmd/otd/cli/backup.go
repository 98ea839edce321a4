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
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// backupOptions are what 'otd backup' is told: a FILE (- standard output),
// or another database To copy into.
type backupOptions struct {
	File  string
	To    string
	Force bool
}

func newBackupCmd(g *globals, runF func(backupOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o backupOptions) error { return runBackup(g, o) }
	}
	var o backupOptions
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
			if o.To != "" {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(1)(cmd, args)
		}),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.File = args[0]
			}
			if o.To == "" && isPostgresURL(o.File) { // a database, not a file
				o.To, o.File = o.File, ""
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace FILE if it exists; with --to, replace all that DATABASE holds")
	cmd.Flags().StringVar(&o.To, "to", "", "copy into `DATABASE` (a postgres:// URL or an SQLite file) instead of a backup file")
	return cmd
}

// runBackup writes the backup to o.File, or copies the database into o.To.
func runBackup(g *globals, o backupOptions) error {
	ctx := context.Background()
	if o.To != "" {
		switch what, err := sameDatabase(ctx, g.DB, o.To); {
		case err != nil:
			return err
		case what != "":
			return fmt.Errorf("backup refused: --to %s is %s (--db %s): name another database", redact(o.To), what, g.dbName())
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
	switch o.File {
	case "":
		return copyTo(ctx, g, d, o.To, o.Force)
	case "-":
		return backupStdout(ctx, g, d)
	}
	if err := writeFile(g, o.File, o.Force, func(f *os.File) error { return d.BackupFile(ctx, f.Name(), newBackupFile) }); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Backed up %s (%s) to %s; 'otd restore %s' brings it back.\n",
		g.dbName(), tournament.Plural(len(n), "tournament"), o.File, shellWord(o.File))
	return nil
}

// newBackupFile makes the SQLite database of a backup in the empty file at
// path (app.Director.BackupFile).
func newBackupFile(path string) (*app.Director, func(), error) {
	return openDB(path, dbOptions{create: true}, nil)
}

// backupStdout writes a backup of d's database to standard output, through a
// temporary file beside the database (the system's temporary folder for
// PostgreSQL's).
func backupStdout(ctx context.Context, g *globals, d *app.Director) error {
	dir := os.TempDir()
	if !isPostgresURL(g.DB) {
		dir = filepath.Dir(g.DB)
	}
	tmp, err := tempfile.Create(dir, "otd-backup")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer tmp.Remove()
	if err := d.BackupFile(ctx, tmp.Name(), newBackupFile); err != nil {
		return err
	}
	return writeOutput(g, "-", false, func(w io.Writer) error {
		_, err := io.Copy(w, tmp)
		return err
	})
}

// copyTo copies d's database into the database named to (backup --to),
// which must hold no tournament unless force.
func copyTo(ctx context.Context, g *globals, d *app.Director, to string, force bool) error {
	dst, done, err := openDB(to, dbOptions{create: true}, nil)
	if err != nil {
		return err
	}
	defer done()
	name := redact(to)
	n, err := d.CopyInto(ctx, dst, force)
	if ne := (*app.NotEmptyError)(nil); errors.As(err, &ne) {
		return fmt.Errorf("--to %s: %w: add --force to replace all it holds, or name another database", name, err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Copied %s (%s) to %s; 'otd --db %s tournament list' lists them.\n",
		g.dbName(), tournament.Plural(n, "tournament"), name, shellWord(name))
	return nil
}

// restoreOptions are what 'otd restore' is told: the Backup, a file or a
// PostgreSQL database.
type restoreOptions struct {
	Backup string
}

func newRestoreCmd(g *globals, runF func(restoreOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o restoreOptions) error { return runRestore(g, o) }
	}
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
			return runF(restoreOptions{Backup: args[0]})
		},
	}
	return cmd
}

// runRestore restores o.Backup (app.Restore), holding the play lock: no
// 'round play' replaces a game meanwhile. What the restore replaces is kept
// beside the database (or what is kept of a PostgreSQL one), where the
// backup's copy is made too.
func runRestore(g *globals, o restoreOptions) error {
	unlock, err := lockPlay(g.DB, "restore", g.Stderr)
	if err != nil {
		return fmt.Errorf("restore refused: %w", err)
	}
	defer unlock()
	r, err := app.Restore(context.Background(), app.RestoreOptions{
		Name: redact(o.Backup),
		Same: func(ctx context.Context) (string, error) { return sameDatabase(ctx, g.DB, o.Backup) },
		Open: func() (*app.Director, func(context.Context, string) (int, error), func(), error) {
			return openBackup(o.Backup, filepath.Dir(g.asideBase()), g.DB)
		},
		Target: g.restoreTarget,
		Keep: func(ctx context.Context, d *app.Director) (string, error) {
			kept := asideName(g.asideBase(), "before-restore", g.now())
			return kept, writeFile(g, kept, false, func(f *os.File) error {
				err := d.BackupFile(ctx, f.Name(), newBackupFile)
				testhook.Stop("before-restore")
				return err
			})
		},
		Aside: func() string { return asideName(g.DB, "damaged", g.now()) },
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Restored %s into %s: %s.", redact(o.Backup), g.dbName(), tournament.Plural(r.Tournaments, "tournament"))
	switch {
	case !r.File:
		fmt.Fprintf(g.Stdout, " What it replaced is in %s ('otd restore %s' goes back).", r.Kept, shellWord(r.Kept))
	case r.Damaged != "":
		fmt.Fprintf(g.Stdout, " The damaged database is moved to %s; start any 'otd serve' of it again.", r.Damaged)
	}
	fmt.Fprintln(g.Stdout)
	return nil
}

// asideBase is the file name beside which a restore keeps what it
// replaces: the database file, or, for a PostgreSQL database, a file named
// after it in the current folder.
func (g *globals) asideBase() string {
	if !isPostgresURL(g.DB) {
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
