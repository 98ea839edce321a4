package cli

import (
	"github.com/otd-project/otd/app"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/storetest"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/store/sqlite"
)

// storeDump is the engine-neutral dump of the database name (a file or a
// URL): every row of every table.
func storeDump(t *testing.T, name string) string {
	t.Helper()
	var st interface {
		App() app.Store
		Close() error
	}
	var err error
	if postgres.IsURL(name) {
		st, err = postgres.Open(name, postgres.Options{ReadOnly: true})
	} else {
		st, err = sqlite.Open(name, sqlite.Options{ReadOnly: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return storetest.Dump(t, st.App())
}

// TestMovePostgres moves an event's SQLite file into PostgreSQL ('backup
// --to') and back to a file ('otd --db postgres://... backup FILE'), and
// restores a file into PostgreSQL: each copy is exact (the dumps are equal,
// the audit trail and ids included; the file back is the same database as
// the first, schema and all), the commands read the same on both, a
// database that holds tournaments is replaced only with --force, and no
// output shows the password.
func TestMovePostgres(t *testing.T) {
	t.Chdir(t.TempDir()) // a restore into PostgreSQL keeps what it replaces in the current folder
	pg := testenv.Postgres(t)
	u, _ := url.Parse(pg)
	pw, _ := u.User.Password()
	name := postgres.Redact(pg)

	file := newTestDB(t)
	file.must("tournament", "new", "Paris Open", "--rounds", "3", "--city", "Paris", "--start", "2026-05-16")
	for _, n := range []string{"Ann Archer", "Bob Baker", "Cy Cole", "Di Dane", "Eve Evans"} {
		file.must("player", "add", n)
	}
	file.must("pair", "forbid", "1", "2", "--reason", "club mates")
	file.must("round", "pair")
	file.must("result", "1", "1", "40-24")
	file.must("result", "1", "2", "33-31")
	file.must("result", "1", "2", "31-33", "--correct")
	file.must("undo")
	file.must("tournament", "new", "Club Night", "--rounds", "1")
	want := storeDump(t, file.path)

	onPG := &testDB{t: t, path: pg}
	out := file.must("backup", "--to", pg)
	if !strings.Contains(out, "Copied "+file.path+" (2 tournaments) to "+name) {
		t.Errorf("backup --to said %q", out)
	}
	if got := storeDump(t, pg); got != want {
		t.Errorf("the event in PostgreSQL dumps\n%s\nwant\n%s", got, want)
	}
	for _, args := range [][]string{{"standings", "--tournament", "Paris Open"}, {"log", "--tournament", "1"}, {"tournament", "list"}} {
		if got, want := onPG.must(args...), file.must(args...); got != want {
			t.Errorf("otd %s on PostgreSQL:\n%s\nwant, as on SQLite:\n%s", strings.Join(args, " "), got, want)
		}
	}
	_, errs, code := file.run("backup", "--to", pg)
	if code == 0 || !strings.Contains(errs, "holds 2 tournaments already") || !strings.Contains(errs, "--force") {
		t.Errorf("backup --to a database that holds tournaments: exit %d, %q; want it refused, --force named", code, errs)
	}
	if _, errs, code := file.run("backup", pg); code == 0 || !strings.Contains(errs, "holds 2 tournaments already") {
		t.Errorf("backup to a URL (not --to): exit %d, %q; want it taken as --to, and refused", code, errs)
	}
	file.must("backup", "--to", pg, "--force")

	back := filepath.Join(t.TempDir(), "back.db")
	out = onPG.must("backup", back)
	if !strings.Contains(out, "Backed up "+name+" (2 tournaments) to "+back) {
		t.Errorf("backup from PostgreSQL said %q", out)
	}
	if got := storeDump(t, back); got != want {
		t.Errorf("the file back dumps\n%s\nwant\n%s", got, want)
	}
	if got, want := dump(t, back), dump(t, file.path); got != want {
		t.Errorf("the file back is not the same SQLite database as the first:\n%s\nwant\n%s", got, want)
	}

	// A change in PostgreSQL, then the file restored over it.
	onPG.must("player", "add", "Fay Ford", "--tournament", "Club Night")
	out = onPG.must("restore", back)
	if !strings.Contains(out, "Restored "+back+" into "+name+": 2 tournaments. What it replaced is in ") {
		t.Errorf("restore into PostgreSQL said %q", out)
	}
	if got := storeDump(t, pg); got != want {
		t.Errorf("after the restore, PostgreSQL dumps\n%s\nwant\n%s", got, want)
	}
	kept, _ := filepath.Glob(filepath.Join(".", filepath.Base(u.Path)+".before-restore-*.db"))
	if len(kept) != 1 || !strings.Contains(storeDump(t, kept[0]), "Fay Ford") {
		t.Errorf("what the restore replaced: %v; want one file with Fay Ford", kept)
	}
	// A new file restored from PostgreSQL.
	again := newTestDB(t)
	if out := again.must("restore", pg); !strings.Contains(out, "Restored "+name+" into "+again.path+": 2 tournaments") {
		t.Errorf("restore from PostgreSQL said %q", out)
	}
	if got := storeDump(t, again.path); got != want {
		t.Errorf("the file restored from PostgreSQL dumps\n%s\nwant\n%s", got, want)
	}
	for _, f := range []string{back, file.path, again.path} {
		if b, _ := os.ReadFile(f); pw != "" && strings.Contains(string(b), pw) {
			t.Errorf("%s holds the password", f)
		}
	}
	if pw != "" && strings.Contains(out, pw) {
		t.Error("the output shows the password")
	}
}
