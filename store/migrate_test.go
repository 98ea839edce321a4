package store

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/otd-project/otd/tournament"
)

// TestUpgradeInPlace opens a database made by this otd with a later otd
// that has one more migration: the schema is upgraded, the data kept.
func TestUpgradeInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "otd.db")
	s := open(t, path)
	ctx := context.Background()
	if err := s.Update(ctx, func(tx *Tx) error {
		_, err := tx.CreateTournament(tournament.DefaultSettings("Old", 5))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	later := fstest.MapFS{"migrations/9999_later.sql": {Data: []byte("ALTER TABLE tournament ADD COLUMN venue TEXT NOT NULL DEFAULT '';")}}
	names, _ := fs.Glob(embedded, "migrations/*.sql")
	for _, n := range names {
		b, _ := fs.ReadFile(embedded, n)
		later[n] = &fstest.MapFile{Data: b}
	}
	defer func(m fs.FS) { migrations = m }(migrations)
	migrations = later

	s = open(t, path)
	var version int
	var venue string
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != len(names)+1 {
		t.Fatalf("user_version = %d, %v; want %d", version, err, len(names)+1)
	}
	if err := s.db.QueryRow("SELECT venue FROM tournament WHERE name = 'Old'").Scan(&venue); err != nil {
		t.Fatalf("the old tournament after the upgrade: %v", err)
	}
}
