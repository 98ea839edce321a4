package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
)

// openStore opens the database named by --db (OTD_DB); only the commands
// that create a tournament create the file.
func openStore(g *globals, create bool) (*store.Store, error) {
	return store.Open(g.DB, store.Options{Create: create, Now: g.Now})
}

// inTournament runs fn on the current tournament: in one write transaction
// with write (a director's action and its audit rows commit together, and
// what fn prints is printed only once they have), or in a read-only one.
func inTournament(g *globals, write bool, fn func(tx *store.Tx, t *tournament.Tournament) error) error {
	s, err := openStore(g, false)
	if err != nil {
		return err
	}
	defer s.Close()
	body := func(tx *store.Tx) error {
		id, err := tx.Current()
		if err != nil {
			return err
		}
		t, err := tx.Load(id)
		if err != nil {
			return err
		}
		return fn(tx, t)
	}
	if !write {
		return s.View(context.Background(), body)
	}
	var buf bytes.Buffer
	stdout := g.Stdout
	g.Stdout = &buf
	err = s.Update(context.Background(), body)
	g.Stdout = stdout
	if err != nil {
		return err
	}
	_, err = buf.WriteTo(stdout)
	return err
}

// errAction marks an error that the command reports as is (exit status 1).
var errAction = errors.New("action refused")

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
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
