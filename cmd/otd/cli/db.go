package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
)

// app opens the database named by --db (OTD_DB) and returns the application
// layer over it, and the function that closes it. Only the commands that
// create a tournament (tournament new, import) create the file or write
// otd's tables into an empty SQLite file; a name that is not a plain file's
// (empty, ":memory:", an SQLite URI) is wrong usage.
func (g *globals) app(create bool) (*tournament.Director, func(), error) {
	st, err := store.Open(g.DB, store.Options{Create: create, Now: g.Now})
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

// table renders rows under a header with tablewriter.
func table(w io.Writer, header []string, rows [][]string) error {
	tw := tablewriter.NewTable(w)
	tw.Header(header)
	if err := tw.Bulk(rows); err != nil {
		return err
	}
	return tw.Render()
}

// name is a player as the tables show them: "3 Ann Archer".
func name(t *tournament.Tournament, n int) string {
	return fmt.Sprintf("%d %s", n, t.Players[n-1].Name)
}
