package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
)

// app opens the database named by --db (OTD_DB) and returns the application
// layer over it, and the function that closes it. Only the commands that
// create a tournament (tournament new, import) create the file or write
// otd's tables into an empty SQLite file; a name that is not a plain file's
// (empty, ":memory:", an SQLite URI) is wrong usage.
func (g *globals) app(create bool) (*tournament.Director, func(), error) {
	return g.open(store.Options{Create: create})
}

// open opens the database with options o (the audit clock is g's) and
// returns the application layer over it, and the function that closes it.
func (g *globals) open(o store.Options) (*tournament.Director, func(), error) {
	o.Now = g.Now
	st, err := store.Open(g.DB, o)
	if errors.Is(err, store.ErrPath) {
		return nil, nil, &exitError{code: exitUsage, err: err, usage: true}
	}
	if err != nil {
		return nil, nil, err
	}
	return tournament.NewDirector(st), func() { st.Close() }, nil
}

// current reads the current tournament.
func (g *globals) current() (*tournament.Tournament, error) {
	d, done, err := g.app(false)
	if err != nil {
		return nil, err
	}
	defer done()
	return d.Current(context.Background())
}

// do runs a director's action on the current tournament (see Director.Do).
func (g *globals) do(ops ...tournament.Op) (*tournament.Tournament, []tournament.Change, error) {
	d, done, err := g.app(false)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	return d.Do(context.Background(), ops...)
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
// written ("R1", not "R 1").
func table(w io.Writer, header []string, rows [][]string) error {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone))
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}

// fitTable renders a table in termWidth columns for any number of players:
// the cells of the name columns are cut with an ellipsis as far as needed,
// each name column getting an equal share of the room the others leave (at
// least minName), a marker in parentheses at the end kept ("Bartholo…
// (withdrawn)").
func fitTable(w io.Writer, header []string, rows [][]string, names ...int) error {
	const minName = 16
	room := termWidth - 1 // the left border
	for i, h := range header {
		width := twwidth.Width(h)
		for _, row := range rows {
			width = max(width, twwidth.Width(row[i]))
		}
		room -= 3 // the padding and the right border
		if !slices.Contains(names, i) {
			room -= width
		}
	}
	each := max(room/len(names), minName)
	for _, row := range rows {
		for _, n := range names {
			row[n] = cutCell(row[n], each)
		}
	}
	return table(w, header, rows)
}

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
