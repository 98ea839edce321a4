package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/storetest"
	"github.com/otd-project/otd/tournament"
)

// files lists the names in dir.
func files(t *testing.T, dir string) []string {
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

// rawExec runs SQL on a database file as another program would.
func rawExec(t *testing.T, path, query string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatal(err)
	}
}

// TestOpenPathsAndOwners: a name that SQLite would not take as a plain file
// (empty, in-memory, a URI, a NUL byte) is refused before SQLite sees it,
// leaving no file behind; and only Create may write otd's schema into an
// SQLite file that is not yet otd's, and never into one another program
// has marked as its own. A refused file is left byte for byte as it was.
func TestOpenPathsAndOwners(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir) // relative names resolve here, so that any file made shows
	// A valid SQLite file without a table, as another program leaves it.
	noTables := filepath.Join(dir, "notables.db")
	rawExec(t, noTables, "CREATE TABLE t (x); DROP TABLE t")
	// Tables of another program, application_id 0.
	foreign := filepath.Join(dir, "foreign.db")
	rawExec(t, foreign, "CREATE TABLE invoice (id INTEGER)")
	// Another program's application_id, no tables.
	marked := filepath.Join(dir, "marked.db")
	rawExec(t, marked, "PRAGMA application_id = 1196444487") // GeoPackage's "GPKG"
	fresh := filepath.Join(dir, "fresh.db")
	rawExec(t, fresh, "CREATE TABLE t (x); DROP TABLE t")
	for _, tc := range []struct {
		name, path string
		create     bool
		want       error  // nil: Open succeeds
		says       string // in the message
	}{
		{"empty path", "", true, ErrPath, "the path is empty"},
		{"empty path, read", "", false, ErrPath, "the path is empty"},
		{"in-memory", ":memory:", true, ErrPath, "in-memory"},
		{"URI", "file:u.db", true, ErrPath, "URI"},
		{"URI in memory", "file::memory:?cache=shared", true, ErrPath, "URI"},
		{"URI, read", "file:" + foreign, false, ErrPath, "URI"},
		{"query", "u.db?mode=memory", true, ErrPath, "'?'"},
		{"NUL byte", "u.db\x00x", true, ErrPath, "NUL"},
		{"no tables, read", noTables, false, ErrNotOTD, "no otd tables"},
		{"tables of another program, read", foreign, false, ErrNotOTD, "another program"},
		{"tables of another program, create", foreign, true, ErrNotOTD, "another program"},
		{"another program's id, create", marked, true, ErrNotOTD, "another program"},
		{"no tables, create", fresh, true, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.ReadFile(tc.path)
			had := files(t, dir)
			s, err := Open(tc.path, Options{Create: tc.create})
			if err == nil {
				s.Close()
			}
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open: %v, want %v", err, tc.want)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.says) || strings.Contains(msg, "\n") {
				t.Errorf("Open: %q, want one line saying %q", msg, tc.says)
			}
			if after, _ := os.ReadFile(tc.path); !bytes.Equal(before, after) {
				t.Error("Open changed the file it refused")
			}
			if now := files(t, dir); !slices.Equal(had, now) {
				t.Errorf("Open left files: %q, before %q", now, had)
			}
		})
	}
}

// TestErrorsTranslated: SQLite's reports of a full disk, of a database it
// may not write and of one another program holds become one line with the
// path and what to do, each with its sentinel.
func TestErrorsTranslated(t *testing.T) {
	old := busyTimeout
	busyTimeout = 200 // ms, to keep the test short
	t.Cleanup(func() { busyTimeout = old })
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, s *Store, path string) // makes the next Update fail
		want  error
		says  string
	}{
		{"disk full", func(t *testing.T, s *Store, _ string) {
			// SQLite reports a file that may not grow as it reports a full disk.
			s.db.SetMaxOpenConns(1)
			var pages int
			if err := s.db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.Exec(fmt.Sprintf("PRAGMA max_page_count = %d", pages)); err != nil {
				t.Fatal(err)
			}
		}, ErrDiskFull, "nothing was saved"},
		{"read-only", func(t *testing.T, s *Store, _ string) {
			s.db.SetMaxOpenConns(1)
			if _, err := s.db.Exec("PRAGMA query_only = 1"); err != nil {
				t.Fatal(err)
			}
		}, ErrReadOnly, "otd may not write the file or its folder"},
		{"locked", func(t *testing.T, s *Store, path string) {
			other, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
			c, err := other.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.ExecContext(ctx, "ROLLBACK"); c.Close() })
			if _, err := c.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
				t.Fatal(err)
			}
		}, ErrBusy, "another otd or another program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "otd.db")
			s := open(t, path)
			tc.setup(t, s, path)
			err := s.Update(ctx, func(tx tournament.Tx) error {
				for i := range 200 {
					if _, err := tx.Create(tournament.DefaultSettings(strings.Repeat("x", 150)+string(rune('a'+i%26)), 5)); err != nil {
						return err
					}
				}
				return nil
			})
			if !errors.Is(err, tc.want) {
				t.Fatalf("Update: %v, want %v", err, tc.want)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, tc.says) || strings.Contains(msg, "\n") {
				t.Errorf("Update: %q, want one line: the path, then %q", msg, tc.says)
			}
			// What to do is the caller's to say: the store knows no command line.
			if msg := err.Error(); strings.Contains(msg, "--db") || strings.Contains(msg, "'otd ") {
				t.Errorf("Update: %q gives a command line's advice", msg)
			}
		})
	}
}

// TestOpenReadOnly: a database file otd may not write (a read-only file, or
// one in a read-only folder, where SQLite cannot make the WAL's side files)
// is opened read-only: reads work, a write is refused with ErrReadOnly, and
// the file is left as it was, with no side files. Root may write any file,
// so the test makes the store see the file as read-only through writable;
// cmd/otd/cli's TestReadOnlyDatabase runs otd as a user who may not write.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		wal    []byte // a -wal file beside the database
		schema int    // of an older otd; 0: this one's
		want   error  // of Open
		says   string // in its message
	}{
		{"read-only", nil, 0, nil, ""},
		{"read-only, empty WAL file", []byte{}, 0, nil, ""},
		{"read-only, changes in the WAL file", []byte("changes not yet checkpointed"), 0, ErrReadOnly, "-wal"},
		{"read-only, an older otd's", nil, 1, ErrReadOnly, "older otd (schema 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// SQLite reads the read-only database through a URI: a name
			// with '%' and spaces must reach it as it is.
			dir := filepath.Join(t.TempDir(), "a 100% folder")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "otd.db")
			func() {
				if tc.schema > 0 {
					withMigrations(t, tc.schema, nil)
				}
				s := open(t, path)
				defer s.Close()
				if tc.schema == 0 {
					storetest.Create(t, s, tournament.DefaultSettings("Read me", 5))
				}
			}()
			if tc.schema > 0 {
				migrations = embedded
			}
			if tc.wal != nil {
				if err := os.WriteFile(path+"-wal", tc.wal, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			had := files(t, dir)
			old := writable
			writable = func(string) bool { return false }
			t.Cleanup(func() { writable = old })

			s, err := Open(path, Options{})
			if !errors.Is(err, tc.want) {
				t.Fatalf("Open: %v, want %v", err, tc.want)
			}
			if err == nil {
				var list []tournament.Summary
				if err := s.View(ctx, func(tx tournament.Tx) (err error) {
					list, err = tx.List()
					return err
				}); err != nil || len(list) != 1 || list[0].Name != "Read me" {
					t.Errorf("reading: %v, %v", list, err)
				}
				err = s.Update(ctx, func(tx tournament.Tx) error {
					_, err := tx.Create(tournament.DefaultSettings("Write me", 5))
					return err
				})
				if !errors.Is(err, ErrReadOnly) || !strings.HasPrefix(err.Error(), path+": ") {
					t.Errorf("writing: %v, want %v with the path", err, ErrReadOnly)
				}
				s.Close()
			} else if !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Open: %q, want the path and %q", err, tc.says)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the file changed")
			}
			if now := files(t, dir); !slices.Equal(had, now) {
				t.Errorf("files after: %q, before %q", now, had)
			}
		})
	}
}

// TestIsDatabase: a file is an SQLite database when it starts with the
// 16 bytes "SQLite format 3\x00" (sqlite.org/fileformat.html, 1.3.1),
// whatever SQLite wrote it; anything else, a prefix of them too, is not.
func TestIsDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "real.db")
	rawExec(t, db, "CREATE TABLE t (x)")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{db, true},
		{write("header.db", "SQLite format 3\x00and then anything"), true},
		{write("list.csv", "WOF id,Name,Country,Rating\n79,\"LEADER, Imre\",GBR,2150\n"), false},
		{write("short", "SQLite format 3"), false},
		{write("empty", ""), false},
		{write("v2.db", "** This file contains an SQLite 2.1 database **"), false},
	} {
		got, err := IsDatabase(tc.path)
		if err != nil || got != tc.want {
			t.Errorf("IsDatabase(%s) = %v, %v; want %v", filepath.Base(tc.path), got, err, tc.want)
		}
	}
	if _, err := IsDatabase(filepath.Join(dir, "missing")); err == nil {
		t.Error("IsDatabase of a missing file: no error")
	}
	if _, err := IsDatabase(dir); err == nil {
		t.Error("IsDatabase of a folder: no error")
	}
}
