package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadOpenUpgrades: otd serve, which reads the database, opens one of
// an older otd (the 2d7bbec fixture, schema 15) as any other command does:
// upgraded first. It said the file was read-only and to copy it elsewhere.
func TestReadOpenUpgrades(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "db-2d7bbec", "otd.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "otd.db")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, done, err := openDB(path, dbOptions{readOnly: true}, nil)
	if err != nil {
		t.Fatalf("a database of 2d7bbec opened to be read: %v", err)
	}
	defer done()
	list, err := d.Tournaments(context.Background())
	if err != nil || len(list) != 6 {
		t.Errorf("its tournaments: %d, %v; want the fixture's 6", len(list), err)
	}
}
