package memstore

import (
	"github.com/otd-project/otd/app"
	"testing"

	"github.com/otd-project/otd/internal/storetest"
)

// TestStorage runs the suite of the tournament.Storage contract on the store
// in memory (it has no read-only stores, Changes, backups or tables: those
// tests skip).
func TestStorage(t *testing.T) {
	storetest.Run(t, func(*testing.T) storetest.Open {
		s := New()
		return func(_ *testing.T, o storetest.Options) app.Store {
			if o.ReadOnly {
				return app.Store{}
			}
			s.Now = o.Now
			return app.Store{Storage: s}
		}
	})
}
