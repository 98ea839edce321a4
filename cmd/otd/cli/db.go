package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"os"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/store/sqlite"
	"github.com/otd-project/otd/tournament"
)

// app opens the database named by --db (OTD_DB) and returns the application
// layer over it, and the function that closes it. Only the commands that
// create a tournament (tournament new, import) create the file or write
// otd's tables into an empty SQLite file or PostgreSQL database; a name that
// is neither a plain file's nor a PostgreSQL URL (empty, ":memory:", an
// SQLite URI) is wrong usage.
func (g *globals) app(create bool) (*app.Director, func(), error) {
	return g.open(dbOptions{create: create})
}

// dbOptions are how a command opens the database.
type dbOptions struct {
	create   bool // write otd's tables into a new or empty database
	readOnly bool // read only, seeing what others commit
}

// open opens the database with options o (the audit clock is g's) and
// returns the application layer over it, acting as g's actor, and the
// function that closes it; with g.Store set, the Director over it.
func (g *globals) open(o dbOptions) (*app.Director, func(), error) {
	if g.Store.Storage != nil {
		return app.New(g.Store).As(g.actor()), func() {}, nil
	}
	d, done, err := openDB(g.DB, o, g.Now)
	if err != nil {
		return nil, nil, err
	}
	return d.As(g.actor()), done, nil
}

// actor is who this command's changes say made them: g.Actor, else the
// command line, named by the user ($USER, else the system's name of the
// process's user).
func (g *globals) actor() tournament.Actor {
	if !g.Actor.IsZero() {
		return g.Actor
	}
	name := os.Getenv("USER")
	if u, err := user.Current(); name == "" && err == nil {
		name = u.Username
	}
	return tournament.Actor{Kind: tournament.ByCommandLine, Name: name}
}

// openDB opens the database name, a PostgreSQL URL (postgres://...) or an
// SQLite file's path, with options o and the audit clock now. A database
// of an older otd opened to be read (otd serve) is upgraded first, as any
// other command does, where otd may write it.
func openDB(name string, o dbOptions, now func() time.Time) (*app.Director, func(), error) {
	d, done, err := openStore(name, o, now)
	if o.readOnly && errors.Is(err, tournament.ErrUpgrade) {
		if _, upgraded, uerr := openStore(name, dbOptions{}, now); uerr == nil {
			upgraded()
			return openStore(name, o, now)
		}
	}
	return d, done, err
}

// openStore is openDB without the upgrade of a database read.
func openStore(name string, o dbOptions, now func() time.Time) (*app.Director, func(), error) {
	var st interface {
		App() app.Store
		Close() error
	}
	var err error
	if postgres.IsURL(name) {
		st, err = postgres.Open(name, postgres.Options{Create: o.create, ReadOnly: o.readOnly, Now: now})
	} else {
		st, err = sqlite.Open(name, sqlite.Options{Create: o.create, ReadOnly: o.readOnly, Now: now})
	}
	if errors.Is(err, sqlite.ErrPath) || errors.Is(err, postgres.ErrURL) {
		return nil, nil, &exitError{code: exitUsage, err: err, usage: true}
	}
	if err != nil {
		return nil, nil, err
	}
	return app.New(st.App()), func() { st.Close() }, nil
}

// storeAdvice is what to do about an error of a store ("; ..." or ""),
// for advice.
func storeAdvice(err error) string {
	switch {
	case errors.Is(err, sqlite.ErrNotBackup): // a restore refused says what to do
		return ""
	case errors.Is(err, app.ErrNoSecret):
		return "; print the slips once with an otd that may write the database (the codes stay the same after)"
	case errors.Is(err, postgres.ErrBusy), errors.Is(err, postgres.ErrReadOnly): // the server's lines say what to do
		return ""
	case errors.Is(err, sqlite.ErrNoDatabase):
		return "; create a tournament first ('otd tournament new NAME --rounds N') or name the database with --db"
	case errors.Is(err, sqlite.ErrPath):
		return "; name a database file with --db"
	case errors.Is(err, sqlite.ErrChangesPending):
		return "; close the otd that is using it, or open it once where you may write it"
	case errors.Is(err, sqlite.ErrReadOnly):
		return "; copy it to a folder you may write and name the copy with --db"
	case errors.Is(err, sqlite.ErrNotOTD):
		return "; name an otd database with --db (only 'otd tournament new' and 'otd import' make one)"
	case errors.Is(err, sqlite.ErrNewerSchema):
		return "; upgrade otd"
	case errors.Is(err, sqlite.ErrDamaged), errors.Is(err, tournament.ErrInconsistent) && strings.Contains(err.Error(), "changed by another program"):
		return "; restore a backup made with 'otd backup' ('otd restore FILE')"
	case errors.Is(err, sqlite.ErrNotDatabase):
		return "; name an otd database with --db"
	case errors.Is(err, sqlite.ErrCannotOpen):
		return "; name a database file that you may read and write with --db"
	case errors.Is(err, sqlite.ErrDiskFull):
		return "; free some space on it and try again"
	case errors.Is(err, sqlite.ErrBusy):
		return "; close that program, or wait and try again"
	case errors.Is(err, postgres.ErrURL):
		return "; name a PostgreSQL database as postgres://USER:PASSWORD@HOST:PORT/DATABASE"
	case errors.Is(err, postgres.ErrDamaged), errors.Is(err, postgres.ErrNotOTD):
		return "; restore a backup made with 'otd backup' ('otd restore FILE'), or name another database with --db"
	}
	return ""
}

// dbName is the database as messages name it: a PostgreSQL URL without its
// password.
func (g *globals) dbName() string { return postgres.Redact(g.DB) }

// isPostgresURL tells whether the database name is a PostgreSQL URL, not an
// SQLite file's path.
func isPostgresURL(name string) bool { return postgres.IsURL(name) }

// redact is the database name as messages name it: a PostgreSQL URL
// without its password, a file's path as it is.
func redact(name string) string { return postgres.Redact(name) }

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

// openBackup opens the backup name for a restore into the database db: a
// PostgreSQL database, read only, or a copy of an SQLite file made in dir
// (sqlite.OpenBackup). For a file restored into an SQLite file, replace
// puts that copy in place of db (sqlite.RestoreFile), moving db aside first
// when aside is not "" (app.RestoreOptions.Open).
func openBackup(name, dir, db string) (src *app.Director, replace func(ctx context.Context, aside string) (int, error), done func(), err error) {
	if postgres.IsURL(name) {
		src, done, err = openDB(name, dbOptions{readOnly: true}, nil)
		return src, nil, done, err
	}
	file, err := sqlite.OpenBackup(name, dir)
	if err != nil {
		return nil, nil, nil, err
	}
	if !postgres.IsURL(db) {
		replace = func(ctx context.Context, aside string) (int, error) { return sqlite.RestoreFile(ctx, db, file, aside) }
	}
	return app.New(file.App()), replace, func() { file.Close() }, nil
}

// restoreTarget opens the database to restore into (app.RestoreOptions.
// Target): its error wraps app.ErrNoTarget where there is nothing of otd's
// yet, app.ErrTargetDamaged where the SQLite file is damaged.
func (g *globals) restoreTarget(create bool) (*app.Director, func(), error) {
	d, done, err := g.app(create)
	switch {
	case errors.Is(err, sqlite.ErrNoDatabase), errors.Is(err, postgres.ErrNoSchema):
		err = classed{err, app.ErrNoTarget}
	case errors.Is(err, sqlite.ErrDamaged):
		err = classed{err, app.ErrTargetDamaged}
	}
	return d, done, err
}

// classed is a store's error, as it says, that is also of an app class.
type classed struct{ err, class error }

func (e classed) Error() string   { return e.err.Error() }
func (e classed) Unwrap() []error { return []error{e.err, e.class} }

// target returns the id of the tournament this command acts on: the one
// --tournament (OTD_TOURNAMENT) names, else the database's current one. It is
// read once, at the command's first use, and kept: a command goes on with the
// tournament it started with, whatever 'otd tournament use' or 'tournament new'
// does meanwhile in another terminal.
func (g *globals) target(ctx context.Context, d *app.Director) (int64, error) {
	if g.id != 0 {
		return g.id, nil
	}
	id, err := g.resolve(ctx, d)
	if err != nil {
		return 0, err
	}
	g.id = id
	return id, nil
}

func (g *globals) resolve(ctx context.Context, d *app.Director) (int64, error) {
	if g.Tournament == "" {
		return d.Current(ctx)
	}
	list, err := d.Tournaments(ctx)
	if err != nil {
		return 0, err
	}
	// An id first: a tournament may be named "3".
	if id, err := strconv.ParseInt(g.Tournament, 10, 64); err == nil {
		if i := slices.IndexFunc(list, func(s tournament.Summary) bool { return s.ID == id }); i >= 0 {
			return id, nil
		}
	}
	if i := slices.IndexFunc(list, func(s tournament.Summary) bool { return strings.EqualFold(s.Name, g.Tournament) }); i >= 0 {
		return list[i].ID, nil
	}
	return 0, &exitError{code: exitUsage, usage: true, err: fmt.Errorf("--tournament %q: %w of that id or name in %s ('otd tournament list' shows them)",
		g.Tournament, tournament.ErrNoTournament, g.dbName())}
}

// event opens the database and returns the application layer, the id of the
// tournament the command acts on (target) and the function that closes the
// database.
func (g *globals) event() (*app.Director, int64, func(), error) {
	d, done, err := g.app(false)
	if err != nil {
		return nil, 0, nil, err
	}
	id, err := g.target(context.Background(), d)
	if err != nil {
		done()
		return nil, 0, nil, err
	}
	return d, id, done, nil
}

// current reads the tournament the command acts on (target).
func (g *globals) current() (*tournament.Tournament, error) {
	d, id, done, err := g.event()
	if err != nil {
		return nil, err
	}
	defer done()
	return d.Tournament(context.Background(), id)
}

// withApp opens the database and runs fn on the application layer over
// it: the commands that act on the database's tournaments, not on one.
func (g *globals) withApp(fn func(ctx context.Context, d *app.Director) error) error {
	d, done, err := g.app(false)
	if err != nil {
		return err
	}
	defer done()
	return fn(context.Background(), d)
}

// act runs a director's action (a method of app.Director) on the
// tournament the command acts on (target).
func (g *globals) act(action func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error)) (*tournament.Tournament, []tournament.Change, error) {
	d, id, done, err := g.event()
	if err != nil {
		return nil, nil, err
	}
	defer done()
	o, err := action(context.Background(), d, id)
	return o.Tournament, o.Changes, err
}

// invalidAsUsage makes a value that the tournament refuses (a name, a
// rating, a setting) wrong usage, as a bad flag value is.
func invalidAsUsage(err error) error {
	if errors.Is(err, tournament.ErrInvalid) {
		return &exitError{code: exitUsage, err: err, usage: true}
	}
	return err
}

// termWidth is the width the tables that list players fit in.
const termWidth = 80

// table renders rows under a header with tablewriter, the header as
// written ("R1", not "R 1"), every cell Printable: whatever the database
// holds, no control character reaches the terminal.
func table(w io.Writer, header []string, rows [][]string) error {
	printable(rows)
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone))
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}

// fitTable renders a table in termWidth columns for any number of players,
// cutting names only as far as needed: if the name columns do not fit, the
// headers wider than their columns' cells take their short forms
// (shortHeaders), then the name columns share the room left, a column
// whose cells need less than its share giving the rest to the others (each
// gets at least minName). Cells longer than their column are cut with an
// ellipsis, a marker in parentheses at the end kept ("Bartholo…
// (withdrawn)").
func fitTable(w io.Writer, header []string, rows [][]string, names ...int) error {
	const minName = 16
	printable(rows)                  // before the widths are measured
	need := make([]int, len(header)) // the width of each column uncut
	for i, h := range header {
		need[i] = twwidth.Width(h)
		for _, row := range rows {
			need[i] = max(need[i], twwidth.Width(row[i]))
		}
	}
	room := func() int { // for the name columns
		r := termWidth - 1 - 3*len(header) // the left border; each column's padding and right border
		for i := range header {
			if !slices.Contains(names, i) {
				r -= need[i]
			}
		}
		return r
	}
	total := 0
	for _, n := range names {
		total += need[n]
	}
	if total > room() {
		header = slices.Clone(header)
		for i, h := range header {
			if short, ok := shortHeaders[h]; ok && !slices.Contains(names, i) {
				header[i] = short
				need[i] = twwidth.Width(short)
				for _, row := range rows {
					need[i] = max(need[i], twwidth.Width(row[i]))
				}
			}
		}
	}
	order := slices.Clone(names) // the narrowest first: they give room to the others
	slices.SortStableFunc(order, func(a, b int) int { return need[a] - need[b] })
	left := room()
	for k, n := range order {
		width := max(min(need[n], left/(len(order)-k)), minName, twwidth.Width(header[n]))
		for _, row := range rows {
			row[n] = cutCell(row[n], width)
		}
		left -= min(width, need[n])
	}
	return table(w, header, rows)
}

// printable escapes the cells of rows in place (txt.Printable).
func printable(rows [][]string) {
	for _, row := range rows {
		for i, c := range row {
			row[i] = txt.Printable(c)
		}
	}
}

// shortHeaders are the short forms of headers that fitTable uses to leave
// room for names.
var shortHeaders = map[string]string{"Country": "Ctry", "Points": "Pts", "Games": "Gms"}

// cutCell cuts s to width columns with an ellipsis, keeping a marker in
// parentheses at its end.
func cutCell(s string, width int) string {
	if twwidth.Width(s) <= width {
		return s
	}
	keep := ""
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") && twwidth.Width(s[i:])+4 <= width {
		s, keep = s[:i], s[i:]
	}
	return twwidth.Truncate(s, width-twwidth.Width(keep)-1) + "…" + keep
}

// name is a player as the tables show them: "3 Ann Archer".
func name(t *tournament.Tournament, n int) string {
	return fmt.Sprintf("%d %s", n, t.Players[n-1].Name)
}

// The archive's database and the files of the database in use: the
// commands of archive.go, rating.go, demo.go and output.go reach the
// stores through these.

// archiveDB is an open archive database.
type archiveDB interface {
	archive.Store
	Close() error
}

// openArchive opens the archive database at path (creating it with
// create), with what to do when there is none or it is no archive.
func openArchive(path string, create bool) (archiveDB, error) {
	if postgres.IsURL(path) {
		return nil, usageErrorf("%s: the archive is an SQLite file, not a PostgreSQL database: name a file (--archive-db archive.db)", postgres.Redact(path))
	}
	st, err := sqlite.OpenArchive(path, sqlite.Options{Create: create})
	switch {
	case errors.Is(err, sqlite.ErrPath):
		return nil, &exitError{code: exitUsage, err: &advisedError{err, "; name an archive database file with --archive-db"}, usage: true}
	case errors.Is(err, sqlite.ErrCannotOpen):
		return nil, &advisedError{err, "; name an archive database file that you may read and write with --archive-db"}
	case errors.Is(err, sqlite.ErrNoDatabase):
		return nil, fmt.Errorf("no archive database %s: index a folder of .ELO files first ('otd archive index DIR'), or name the database with --archive-db", path)
	case errors.Is(err, sqlite.ErrNotArchive):
		return nil, fmt.Errorf("%w; name the database 'otd archive index' made with --archive-db", err)
	case err != nil:
		return nil, err
	}
	return st, nil
}

// isSQLiteFile reports whether the regular file at path is an SQLite
// database (sqlite.IsDatabase): 'otd rating --ratings' tells an archive
// database from a list by it.
func isSQLiteFile(path string) (bool, error) { return sqlite.IsDatabase(path) }

// isNoDatabase tells whether err says that the database named has no
// tournament tables yet: a new file, or an empty one.
func isNoDatabase(err error) bool { return errors.Is(err, sqlite.ErrNoDatabase) }

// databaseFile says which of the files of the SQLite database in use (--db)
// path is, however named, or "" (tempfile.Create, sqlite.DatabaseFile).
func (g *globals) databaseFile(path string) string {
	if g.DB == "" || postgres.IsURL(g.DB) {
		return ""
	}
	return sqlite.DatabaseFile(g.DB, path)
}

// databaseOutput says which of the files of the SQLite database in use
// (--db) the open file f is, or "" (sqlite.DatabaseOutput).
func (g *globals) databaseOutput(f *os.File) string {
	if g.DB == "" || postgres.IsURL(g.DB) {
		return ""
	}
	return sqlite.DatabaseOutput(g.DB, f)
}
