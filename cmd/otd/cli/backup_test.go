package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/store/sqlite"
)

// dump is the whole logical content of the database at path: schema
// version, schema and every row, the audit trail included.
func dump(t *testing.T, path string) string {
	t.Helper()
	s, err := sqlite.Open(path, sqlite.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.IntegrityCheck(); err != nil {
		t.Errorf("%s: %v", path, err)
	}
	var b bytes.Buffer
	if err := s.Dump(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// journalMode reads the journal mode of the database at path.
func journalMode(t *testing.T, path string) (mode string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	return mode
}

// TestRestoreWhileServing: with 'otd serve' holding the database open,
// restoring a backup of the same event (made before a result was entered,
// undone and entered again) and then a backup of another event each leaves
// the database passing SQLite's integrity check, its content exactly the
// backup's (dump equal), and serve's pages showing it.
func TestRestoreWhileServing(t *testing.T) {
	t.Parallel() // as TestRestoreRefusesUnsound
	db := newTestDB(t)
	dir := t.TempDir()
	db.must("tournament", "new", "Club", "--rounds", "3")
	for _, n := range []string{"Ann Archer", "Bob Baker", "Cy Cole", "Di Dane"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	db.must("result", "1", "1", "40-24")
	same := filepath.Join(dir, "club.db")
	if out := db.must("backup", same); !strings.Contains(out, "Backed up "+db.path+" (1 tournament) to "+same) {
		t.Errorf("backup said %q", out)
	}
	wantSame := dump(t, same)

	other := newTestDB(t)
	other.must("tournament", "new", "Other Open", "--rounds", "1")
	other.must("player", "add", "Eve Evans")
	other.must("player", "add", "Fay Ford")
	other.must("round", "pair")
	other.must("result", "1", "1", "20-44")
	otherBackup := filepath.Join(dir, "other.db")
	other.must("backup", otherBackup)
	wantOther := dump(t, otherBackup)

	url, _, cancel, done := startServe(t, db.path, serveOptions{})
	defer cancel()
	page := func(path string) string {
		t.Helper()
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	// waitPage waits for serve to show a page that ok accepts (a change is
	// seen within a poll of the database).
	waitPage := func(path string, ok func(string) bool) string {
		t.Helper()
		for deadline := time.Now().Add(hang); ; time.Sleep(50 * time.Millisecond) {
			p := page(path)
			if ok(p) || time.Now().After(deadline) {
				return p
			}
		}
	}
	has := func(s string) func(string) bool { return func(p string) bool { return strings.Contains(p, s) } }

	// Changes after the backup: a result entered, undone, entered again.
	db.must("result", "1", "2", "33-31")
	db.must("undo")
	db.must("result", "1", "2", "30-34")
	waitPage("round/1", has("<td>30-34</td>"))
	before := dump(t, db.path)

	out2 := db.must("restore", same)
	m := regexp.MustCompile(`What it replaced is in (\S+) `).FindStringSubmatch(out2)
	if !strings.Contains(out2, "Restored "+same+" into "+db.path+": 1 tournament.") || m == nil {
		t.Fatalf("restore said %q", out2)
	}
	if got := dump(t, db.path); got != wantSame {
		t.Errorf("after restoring the same event's backup, the database differs from it:\n%s\nwant:\n%s", got, wantSame)
	}
	if mode := journalMode(t, db.path); mode != "wal" {
		t.Errorf("journal mode after the restore: %s; want wal", mode)
	}
	if got := dump(t, m[1]); got != before {
		t.Errorf("the copy kept before the restore differs from the database before it")
	}
	if p := waitPage("round/1", func(p string) bool { return !strings.Contains(p, "30-34") }); strings.Contains(p, "30-34") || !strings.Contains(p, "<td>40-24</td>") {
		t.Errorf("serve shows round 1 5 s after the restore:\n%s", p)
	}

	db.must("restore", otherBackup)
	if got := dump(t, db.path); got != wantOther {
		t.Errorf("after restoring another event's backup, the database differs from it:\n%s\nwant:\n%s", got, wantOther)
	}
	if p := waitPage("round/1", has("Other Open")); !strings.Contains(p, "<td>20-44</td>") || strings.Contains(p, "Ann Archer") {
		t.Errorf("serve shows round 1 after restoring another event:\n%s", p)
	}
	// The director goes on working on the restored database.
	db.must("result", "1", "1", "24-40", "--correct")

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(hang):
		t.Fatal("serve did not stop")
	}
}

// TestBackupRestoreRefusals: what backup and restore refuse, each saying why
// and changing nothing.
func TestBackupRestoreRefusals(t *testing.T) {
	db := newTestDB(t)
	dir := t.TempDir()
	db.must("tournament", "new", "Club", "--rounds", "3")
	db.must("player", "add", "Ann Archer")
	good := filepath.Join(dir, "good.db")
	db.must("backup", good)
	if _, errs, code := db.run("backup", good); code != exitFailure || !strings.Contains(errs, "add --force to replace it") {
		t.Errorf("backup over a file: exit %d, %q", code, errs)
	}
	db.must("backup", good, "--force")
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(filepath.Join(dir, "elsewhere.db"), link); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := db.run("backup", link, "--force"); code != exitFailure || !strings.Contains(errs, "symbolic link") {
		t.Errorf("backup through a link: exit %d, %q", code, errs)
	}

	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fixture, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	sqlExec(t, foreign, "CREATE TABLE cat (name TEXT)")
	newer := write("newer.db", fixture)
	sqlExec(t, newer, "PRAGMA user_version = 99")
	inUse := write("inuse.db", fixture)
	write("inuse.db-wal", []byte("not empty"))
	// Its refusal quotes the file's name three times, in an error line cut
	// at 400 characters: named from dir, so that the line is whole wherever
	// the temporary folder is.
	t.Chdir(dir)
	inUse = filepath.Base(inUse)
	before := dump(t, db.path)
	for _, c := range []struct{ name, file, want string }{
		{"missing", filepath.Join(dir, "missing.db"), "no such file"},
		{"empty", write("empty.db", nil), "the file is empty"},
		{"text", write("notes.txt", []byte("Round 3: Ann 40-24 Bob\n")), "it is not an otd database"},
		{"truncated", write("truncated.db", fixture[:len(fixture)/2]), "it is damaged"},
		{"foreign", foreign, "it is not an otd database"},
		{"newer", newer, "written by a newer otd"},
		{"in use", inUse, "inuse.db-wal is beside it"},
		{"itself", db.path, "it is the database itself"},
	} {
		_, errs, code := db.run("restore", c.file)
		if code == 0 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "nothing was changed") && c.name != "missing" {
			t.Errorf("restore %s: exit %d, %q; want %q", c.name, code, errs, c.want)
		}
	}
	if got := dump(t, db.path); got != before {
		t.Error("a refused restore changed the database")
	}

	unlock, err := lockPlay(db.path, "play", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, code := db.run("restore", good); code != exitFailure || !strings.Contains(errs, "restore refused") || !strings.Contains(errs, "playing this database's games") {
		t.Errorf("restore while round play runs: exit %d, %q", code, errs)
	}
	unlock()

	// A damaged database is moved aside and the backup put in its place;
	// a database that does not exist yet is made from the backup.
	damaged := newTestDB(t)
	write(filepath.Base(damaged.path), nil)
	if err := os.WriteFile(damaged.path, fixture[:len(fixture)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := damaged.run("restore", good)
	if code != 0 || !strings.Contains(out, "The damaged database is moved to") {
		t.Fatalf("restore into a damaged database: exit %d, %q %q", code, out, errs)
	}
	if got, want := dump(t, damaged.path), dump(t, good); got != want {
		t.Error("the database restored over a damaged one differs from the backup")
	}
	fresh := newTestDB(t)
	fresh.must("restore", good)
	if !strings.Contains(fresh.must("player", "list"), "Ann Archer") {
		t.Error("a new database restored from a backup lacks its player")
	}
}

// TestBackupWhileWriting: backups taken while another connection records
// results one after another are each a consistent database: it passes the
// integrity check, and its tournament loads with every invariant (every
// result has its audit row).
func TestBackupWhileWriting(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	db := newTestDB(t)
	db.must("tournament", "new", "Busy", "--rounds", "1")
	for i := range 40 {
		db.must("player", "add", fmt.Sprintf("Player %d", i+1))
	}
	db.must("round", "pair")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for table := 1; table <= 20; table++ {
			if _, errs, code := db.run("result", "1", strconv.Itoa(table), "40-24"); code != 0 {
				t.Errorf("result at table %d: exit %d: %s", table, code, errs)
			}
		}
	}()
	dir := t.TempDir()
	for i := 0; ; i++ {
		b := filepath.Join(dir, fmt.Sprintf("b%d.db", i))
		db.must("backup", b)
		s, err := sqlite.Open(b, sqlite.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.IntegrityCheck(); err != nil {
			t.Error(err)
		}
		d := app.New(s.App())
		tm, log, err := d.Log(context.Background(), 1)
		if err != nil {
			t.Fatalf("backup %d: %v", i, err)
		}
		results := 0
		for _, g := range tm.Round(1) {
			if g.Result != nil {
				results++
			}
		}
		if entries := len(log) - 1 - 40 - 1; entries != results { // less the creation, the players and the pairing
			t.Errorf("backup %d: %d results, %d result entries in the audit trail", i, results, entries)
		}
		s.Close()
		select {
		case <-done:
			return
		default:
		}
	}
}
