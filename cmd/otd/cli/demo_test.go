package cli

import (
	"bytes"
	"fmt"
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
			args := []string{"demo", "--simulated", "--players", "4", "--rounds", "1"}
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

// TestEngineDemo runs the default demo, as the README's first command does:
// a Swiss among engines, every game played by otd, recorded with its
// transcript and replayed; GRhino plays when it is installed (and must be
// under CI).
func TestEngineDemo(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	_, err := os.Stat(gtpRhino)
	rhino := err == nil
	if !rhino && os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing: required under CI ('make test' installs grhino)", gtpRhino)
	}
	db := filepath.Join(t.TempDir(), "demo.db")
	var out, errb bytes.Buffer
	if code := Run([]string{"--db", db, "demo"}, nil, &out, &errb); code != 0 {
		t.Fatalf("otd demo: exit %d: %s", code, errb.String())
	}
	players := 8
	if rhino {
		players++
	}
	games := 5 * (players / 2) // five rounds, a bye when odd
	want := fmt.Sprintf("%d players, 5 rounds, %d games played by otd, every transcript replayed to its recorded score", players, games)
	if !strings.Contains(out.String(), want) {
		t.Errorf("the demo does not say %q:\n%s", want, out.String())
	}
	d := &testDB{t: t, path: db}
	for r := 1; r <= 5; r++ {
		for _, gm := range roundGames(d, r) {
			if gm.Bye {
				continue
			}
			if gm.End == "" || gm.Moves == "" {
				t.Errorf("round %d table %d was not played by otd: %+v", r, gm.Table, gm)
			}
			verifyTranscript(t, gm)
		}
	}
	if rhino && !strings.Contains(out.String(), "GRhino") {
		t.Error("GRhino did not play")
	}
}
