package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"os"
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
// returns the application layer over it, and the function that closes it;
// with g.Store set, the Director over it.
func (g *globals) open(o dbOptions) (*app.Director, func(), error) {
	if g.Store.Storage != nil {
		return app.New(g.Store), func() {}, nil
	}
	return openDB(g.DB, o, g.Now)
}

// openDB opens the database name, a PostgreSQL URL (postgres://...) or an
// SQLite file's path, with options o and the audit clock now.
func openDB(name string, o dbOptions, now func() time.Time) (*app.Director, func(), error) {
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

// dbName is the database as messages name it: a PostgreSQL URL without its
// password.
func (g *globals) dbName() string { return postgres.Redact(g.DB) }

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

// do runs a director's action on the tournament the command acts on
// (target; see Director.Do).
func (g *globals) do(ops ...tournament.Op) (*tournament.Tournament, []tournament.Change, error) {
	d, id, done, err := g.event()
	if err != nil {
		return nil, nil, err
	}
	defer done()
	return d.Do(context.Background(), id, ops...)
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
