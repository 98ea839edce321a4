package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestArchiveCopyOfUpgrade: an archive of schema 4 keeps its copies as
// problems only; upgraded, each copy names the file whose games it repeats
// (read from its problem, as the index wrote it), and a file refused for
// another reason names none.
func TestArchiveCopyOfUpgrade(t *testing.T) {
	path := filepath.Join(t.TempDir(), "four.db")
	four, err := OpenArchive(path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = four.s.db.Exec(`ALTER TABLE file DROP COLUMN copy_of; PRAGMA user_version = 4;
		INSERT INTO file (path, hash, size, problem) VALUES
		('2007/b.ELO', 'h1', 1, 'the same content as 2007/a.ELO: a copy, whose games would count twice; delete one'),
		('z: y.ELO', 'h2', 1, 'the same games as 1995/x (1).ELO (another name or header): a copy, whose games would count twice; delete one'),
		('bad.ELO', 'h3', 1, 'line 7: a game line is: black-id (discs)<(discs) white-id B: "1 >> 2": not a valid .ELO file')`)
	if err != nil {
		t.Fatal(err)
	}
	four.Close()
	a, err := OpenArchive(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	files, err := a.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"2007/b.ELO": "2007/a.ELO", "z: y.ELO": "1995/x (1).ELO", "bad.ELO": ""}
	if len(files) != len(want) {
		t.Fatalf("%d files, want %d", len(files), len(want))
	}
	for _, f := range files {
		if f.CopyOf != want[f.Path] {
			t.Errorf("%s: copy of %q, want %q", f.Path, f.CopyOf, want[f.Path])
		}
	}
}
