// Package badcli breaks every rule of TestCLIUsesTheApplicationLayer, so
// that the test is seen to catch each (layer_test.go at the root).
package badcli

import (
	"context"
	"database/sql"

	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/store/sqlite"
	"github.com/otd-project/otd/tournament"
)

var _ *sql.DB

func bad(st *sqlite.Store) error {
	return st.Update(context.Background(), func(tx tournament.Tx) error {
		var _ *postgres.Store
		_, err := tx.Load(1)
		return err
	})
}

var _ = bad

// A killed holder's engines ended by the command line: app's (LockPlay).
var _ = proc.EndRun
