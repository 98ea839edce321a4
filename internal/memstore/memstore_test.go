package memstore

import (
	"testing"

	"github.com/otd-project/otd/internal/storetest"
	"github.com/otd-project/otd/tournament"
)

// TestStorage runs the suite of the tournament.Storage contract on the store
// in memory (it has no read-only stores, Changes, backups or tables: those
// tests skip).
func TestStorage(t *testing.T) {
	storetest.Run(t, func(*testing.T) storetest.Open {
		s := New()
		return func(_ *testing.T, o storetest.Options) tournament.Storage {
			if o.ReadOnly {
				return nil
			}
			s.Now = o.Now
			return s
		}
	})
}
