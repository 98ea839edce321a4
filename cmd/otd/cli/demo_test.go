package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoOwnDatabase: 'otd demo' writes its own file, in a new folder of
// the temporary directory, whatever OTD_DB says, and prints its path; with
// --db, the file named.
func TestDemoOwnDatabase(t *testing.T) {
	for _, tc := range []struct {
		name  string
		otdDB bool   // OTD_DB names a director's event
		db    string // --db, relative to a fresh folder; "": none
	}{
		{name: "default"},
		{name: "OTD_DB set", otdDB: true},
		{name: "explicit --db", otdDB: true, db: "mine.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp, work := t.TempDir(), t.TempDir()
			t.Setenv("TMPDIR", tmp)
			event := filepath.Join(work, "event.db")
			t.Setenv("OTD_DB", "")
			if tc.otdDB {
				t.Setenv("OTD_DB", event)
			}
			args := []string{"demo", "--players", "4", "--rounds", "1"}
			want := ""
			if tc.db != "" {
				want = filepath.Join(work, tc.db)
				args = append([]string{"--db", want}, args...)
			}
			var out, errb bytes.Buffer
			if code := Run(args, nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			made, _ := filepath.Glob(filepath.Join(tmp, "otd-demo-*", "otd-demo.db"))
			if want == "" {
				if len(made) != 1 {
					t.Fatalf("files %q in TMPDIR; want one otd-demo-*/otd-demo.db", made)
				}
				want = made[0]
			} else if len(made) != 0 {
				t.Errorf("files %q in TMPDIR; want none with --db", made)
			}
			if !strings.Contains(out.String(), "Database: "+want+" ") {
				t.Errorf("output does not name the database %s:\n%s", want, out.String())
			}
			if _, err := os.Stat(want); err != nil {
				t.Error(err)
			}
			if _, err := os.Stat(event); err == nil {
				t.Errorf("the demo wrote %s, OTD_DB", event)
			}
		})
	}
}
