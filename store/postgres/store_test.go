package postgres

import (
	"github.com/otd-project/otd/app"
	"testing"

	"github.com/otd-project/otd/internal/storetest"
	"github.com/otd-project/otd/internal/testenv"
)

// TestStorage runs the suite of the tournament.Storage contract on
// PostgreSQL, a new database for each test.
func TestStorage(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Open {
		url := testenv.Postgres(t)
		return func(t *testing.T, o storetest.Options) app.Store {
			s, err := Open(url, Options{Create: true, Now: o.Now, ReadOnly: o.ReadOnly})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s.App()
		}
	})
}
