package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// oneLine checks that a command was refused with status code and one line
// on stderr holding each of want, and nothing on stdout.
func oneLine(t *testing.T, args []string, code int, stdout, stderr string, gotCode int, want ...string) {
	t.Helper()
	if gotCode != code {
		t.Errorf("otd %q: exit status %d, want %d (stderr %q)", args, gotCode, code, stderr)
	}
	if stdout != "" {
		t.Errorf("otd %q: stdout %q, want nothing", args, stdout)
	}
	if !strings.HasPrefix(stderr, "otd: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("otd %q: stderr %q, want one line 'otd: ...'", args, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("otd %q: stderr %q lacks %q", args, stderr, w)
		}
	}
}

// TestDBNotAFileName (issue 9, item 6): --db "", --db :memory: and an
// SQLite URI are refused as wrong usage, by the command that would create the
// database and by a read alike, and no file appears anywhere near.
func TestDBNotAFileName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tc := range []struct {
		name, db string
		want     []string
	}{
		{"empty", "", []string{`"": not a database file name: the path is empty`, "name a database file with --db"}},
		{"in-memory", ":memory:", []string{`":memory:": not a database file name`, "in-memory", "name a database file with --db"}},
		{"URI", "file:u.db", []string{`"file:u.db": not a database file name`, "URI", "./file:u.db"}},
		{"URI with options", "file:u.db?mode=rwc", []string{`"file:u.db?mode=rwc": not a database file name`, "URI"}},
	} {
		for _, args := range [][]string{{"tournament", "new", "X", "--rounds", "3"}, {"standings"}, {"player", "add", "Ann"}} {
			t.Run(tc.name+" "+args[0], func(t *testing.T) {
				var out, errb bytes.Buffer
				code := Run(append([]string{"--db", tc.db}, args...), strings.NewReader(""), &out, &errb)
				oneLine(t, args, 2, out.String(), errb.String(), code, tc.want...)
				if names := dirNames(t, dir); len(names) > 0 {
					t.Errorf("files made: %q", names)
				}
			})
		}
	}
}

// TestNotOTDsDatabase (issue 9, item 7): another program's SQLite file, with
// no tables yet or with its own, is refused by every command but 'tournament
// new' and 'import', and left byte for byte as it was; 'tournament new'
// makes an otd database of a file with no tables and no owner.
func TestNotOTDsDatabase(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, sql string
		create    bool // tournament new may make it otd's
	}{
		{"no tables", "CREATE TABLE t (x); DROP TABLE t", true},
		{"a user_version and no tables", "PRAGMA user_version = 7", false},
		{"tables, application_id 0", "CREATE TABLE invoice (id INTEGER)", false},
		{"another program's application_id, no tables", "PRAGMA application_id = 1196444487", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".db")
			sqlExec(t, db, tc.sql)
			before, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"standings"}, {"crosstable"}, {"tournament", "list"}, {"player", "list"}, {"round", "show"}, {"log"},
				{"player", "add", "Ann"}, {"round", "pair"}, {"export", "elo", filepath.Join(t.TempDir(), "out.elo")},
			} {
				d := &testDB{t: t, path: db}
				stdout, stderr, code := d.run(args...)
				oneLine(t, args, 1, stdout, stderr, code, filepath.Base(db)+": not an otd database", "--db")
			}
			if after, err := os.ReadFile(db); err != nil || !bytes.Equal(before, after) {
				t.Fatalf("the file changed (%v)", err)
			}
			if names := dirNames(t, dir); slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, "-wal") }) {
				t.Errorf("side files left: %q", names)
			}
			d := &testDB{t: t, path: db}
			stdout, stderr, code := d.run("tournament", "new", "Ours", "--rounds", "3")
			if tc.create {
				if code != 0 {
					t.Fatalf("tournament new: exit status %d: %s", code, stderr)
				}
				d.must("player", "add", "Ann")
				if out := d.must("player", "list"); !strings.Contains(out, "Ann") {
					t.Errorf("player list: %q", out)
				}
			} else {
				oneLine(t, []string{"tournament", "new"}, 1, stdout, stderr, code, "not an otd database")
			}
		})
	}
}
