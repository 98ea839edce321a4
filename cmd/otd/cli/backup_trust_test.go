package cli

import (
	"bytes"
	"context"
	"database/sql"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/store/postgres"
)

// smallEvent makes a small event in db: 4 players, round 1 paired, a result.
func smallEvent(db *testDB) {
	db.must("tournament", "new", "Club", "--rounds", "3")
	for _, n := range []string{"Ann Archer", "Bob Baker", "Cy Cole", "Di Dane"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	db.must("result", "1", "1", "40-24")
}

// TestBackupNeverOverTheDatabase (issue 28, 1): backup refuses to write
// over the database it copies, its -wal, -shm or -journal file, however
// the path names them, and --to the database itself; the database stays
// whole, its results all there.
func TestBackupNeverOverTheDatabase(t *testing.T) {
	db := newTestDB(t)
	smallEvent(db)
	dir := filepath.Dir(db.path)
	// A connection held open, as 'otd serve' holds one: the -wal and -shm
	// files exist.
	conn, err := sql.Open("sqlite", db.path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRow("SELECT count(*) FROM game").Scan(&n); err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(db.path + side); err != nil {
			t.Fatalf("the %s file is not there to test: %v", side, err)
		}
	}
	db.must("result", "1", "2", "33-31") // in the -wal until a checkpoint
	before := dump(t, db.path)

	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(db.path, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(t.TempDir(), "hard.db")
	if err := os.Link(db.path, hard); err != nil {
		t.Fatal(err)
	}
	walLink := filepath.Join(t.TempDir(), "wal-link")
	if err := os.Link(db.path+"-wal", walLink); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Dir(dir))
	rel := filepath.Join(filepath.Base(dir), "..", filepath.Base(dir), "otd.db")
	for _, c := range []struct{ name, file, want string }{
		{"absolute", db.path, "the database itself"},
		{"relative", rel, "the database itself"},
		{"symbolic link", link, "the database itself"},
		{"hard link", hard, "the database itself"},
		{"-wal", db.path + "-wal", "the database's -wal file"},
		{"-wal, relative", rel + "-wal", "the database's -wal file"},
		{"-wal, hard link", walLink, "the database's -wal file"},
		{"-shm", db.path + "-shm", "the database's -shm file"},
		{"-journal", rel + "-journal", "the database's -journal file"},
	} {
		_, errs, code := db.run("backup", c.file, "--force")
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("backup %s --force (%s): exit %d, %q; want it refused: %q", c.file, c.name, code, errs, c.want)
		}
		_, errs, code = db.run("backup", "--to", c.file, "--force")
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("backup --to %s --force (%s): exit %d, %q; want it refused: %q", c.file, c.name, code, errs, c.want)
		}
	}
	// The side files of another name of the database: a process that
	// opened it by that name writes them ('otd serve' of otd.db, then
	// 'otd --db hard.db backup otd.db-wal').
	for _, c := range []struct{ db, file, want string }{
		{hard, db.path + "-wal", "the database's -wal file"},
		{db.path, hard + "-wal", "the database's -wal file"},
		{link, hard + "-shm", "the database's -shm file"},
	} {
		var out, errb bytes.Buffer
		if code := Run([]string{"--db", c.db, "backup", c.file, "--force"}, strings.NewReader(""), &out, &errb); code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("--db %s backup %s --force: exit %d, %q; want it refused: %q", c.db, c.file, code, errb.String(), c.want)
		}
	}
	// Standard output that the shell opened on the database: 'otd backup -
	// 1<> otd.db' (not truncated first), 'otd backup - >> otd.db-wal'.
	for _, c := range []struct {
		file string
		flag int
		want string
	}{
		{db.path, os.O_RDWR, "the database itself"},
		{hard, os.O_RDWR, "the database itself"},
		{db.path + "-wal", os.O_WRONLY | os.O_APPEND, "the database's -wal file"},
	} {
		f, err := os.OpenFile(c.file, c.flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		var errb bytes.Buffer
		code := Run([]string{"--db", db.path, "backup", "-"}, strings.NewReader(""), f, &errb)
		f.Close()
		if code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("backup - with standard output on %s: exit %d, %q; want it refused: %q", c.file, code, errb.String(), c.want)
		}
	}
	if _, err := os.Stat(db.path + "-journal"); err == nil {
		t.Error("a -journal file was made beside the database")
	}
	if got := dump(t, db.path); got != before {
		t.Errorf("a refused backup changed the database:\n%s\nwant:\n%s", got, before)
	}
	if out := db.must("round", "show", "1"); !strings.Contains(out, "40-24") || !strings.Contains(out, "33-31") {
		t.Errorf("after the refused backups, round 1 reads:\n%s", out)
	}
	// Another file beside it is written as ever.
	db.must("backup", filepath.Join(dir, "otd-copy.db"))
}

// TestBackupToSamePostgres (issue 28, 1): backup --to the same PostgreSQL
// database named another way (another host name, other parameters) is
// refused, as the servers say; another database of the same server is not.
func TestBackupToSamePostgres(t *testing.T) {
	pg := testenv.Postgres(t)
	file := newTestDB(t)
	smallEvent(file)
	file.must("backup", "--to", pg)
	u, err := url.Parse(pg)
	if err != nil {
		t.Fatal(err)
	}
	other := *u
	other.Host = strings.Replace(u.Host, "127.0.0.1", "localhost", 1)
	q := other.Query()
	q.Set("application_name", "another-spelling")
	other.RawQuery = q.Encode()
	if other.String() == pg {
		t.Fatalf("the test URL %s is spelt as the first", other.String())
	}
	onPG := &testDB{t: t, path: pg}
	before := storeDump(t, pg)
	for _, to := range []string{pg, other.String()} {
		_, errs, code := onPG.run("backup", "--to", to, "--force")
		if code == 0 || !strings.Contains(errs, "is the database itself") {
			t.Errorf("backup --to %s --force of the same database: exit %d, %q; want it refused", postgres.Redact(to), code, errs)
		}
		_, errs, code = onPG.run("restore", to)
		if code == 0 || !strings.Contains(errs, "it is the database itself") {
			t.Errorf("restore %s into the same database: exit %d, %q; want it refused", postgres.Redact(to), code, errs)
		}
	}
	if got := storeDump(t, pg); got != before {
		t.Errorf("a refused backup changed the database:\n%s\nwant:\n%s", got, before)
	}
	another := testenv.Postgres(t)
	onPG.must("backup", "--to", another)
	if got := storeDump(t, another); got != before {
		t.Errorf("the copy into another database differs:\n%s\nwant:\n%s", got, before)
	}
}

// TestRestoreRefusesUnsound (issue 28, 2): a backup whose schema is not
// exactly otd's at its version, whose rows refer to rows that do not exist,
// or whose tournament breaks the rules is refused, saying what is wrong, and
// nothing is changed; an untouched backup, and one of the otd of schema 1,
// are restored.
func TestRestoreRefusesUnsound(t *testing.T) {
	t.Parallel() // SQLite files of its own: what a restore replaced is kept beside them
	db := newTestDB(t)
	smallEvent(db)
	good, edited := editedBackups(t, db)
	dir := filepath.Dir(good)
	db.must("result", "1", "2", "33-31")
	before := dump(t, db.path)
	for _, c := range []struct{ name, file, want string }{
		{"planted trigger", edited("evil.db", "CREATE TRIGGER evil AFTER INSERT ON audit BEGIN DELETE FROM game; END;"),
			"it has trigger evil on audit, which is not otd's"},
		{"no audit table", edited("noaudit.db", "DROP TABLE audit"), "it has no table audit"},
		{"an extra column", edited("column.db", "ALTER TABLE player ADD COLUMN secret TEXT"), "its table player has column secret, which is not otd's"},
		{"60-60 on 8x8", edited("6060.db", "UPDATE game SET black_discs = 60, white_discs = 60 WHERE round = 1 AND board = 1"),
			"round 1 table 1"},
		{"dropped trigger, player 5000", edited("dangling.db", "DROP TRIGGER game_update_rules; UPDATE game SET white = 5000 WHERE round = 1 AND board = 2"),
			"it has no trigger game_update_rules"},
		{"a player of no tournament", edited("orphan.db", "PRAGMA foreign_keys = OFF; INSERT INTO player (tournament_id, number, name) VALUES (99, 1, 'Nobody')"),
			"refers to a tournament that does not exist"},
	} {
		_, errs, code := db.run("restore", c.file)
		if code == 0 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "nothing was changed") {
			t.Errorf("restore %s: exit %d, %q; want it refused: %q", c.name, code, errs, c.want)
		}
		fresh := newTestDB(t) // a database otd cannot open takes the file itself: the same checks
		if _, errs, code := fresh.run("restore", c.file); code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("restore %s into a new database: exit %d, %q; want it refused: %q", c.name, code, errs, c.want)
		}
		if _, err := os.Stat(fresh.path); err == nil {
			t.Errorf("restore %s into a new database made it", c.name)
		}
	}
	if got := dump(t, db.path); got != before {
		t.Error("a refused restore changed the database")
	}
	if got, want := db.must("round", "show", "1"), "33-31"; !strings.Contains(got, want) {
		t.Errorf("after the refused restores, round 1 reads:\n%s", got)
	}
	db.must("restore", good)
	if got, want := dump(t, db.path), dump(t, good); got != want {
		t.Errorf("the restored database differs from the backup:\n%s\nwant:\n%s", got, want)
	}
	// An older otd's database is checked at its own schema, then upgraded
	// on a copy: the file itself is not written.
	old := filepath.Join(dir, "golden.db")
	b, err := os.ReadFile(filepath.Join("testdata", "audit-v0", "golden.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := db.must("restore", old); !strings.Contains(out, "Restored "+old) {
		t.Errorf("restore of schema 1's database said %q", out)
	}
	if got, _ := os.ReadFile(old); string(got) != string(b) {
		t.Error("the restore wrote the older backup")
	}
	if out := db.must("tournament", "list"); !strings.Contains(out, "Golden Open") {
		t.Errorf("after restoring schema 1's database, the list reads:\n%s", out)
	}
	oldEvil := filepath.Join(dir, "golden-evil.db")
	if err := os.WriteFile(oldEvil, b, 0o644); err != nil {
		t.Fatal(err)
	}
	sqlExec(t, oldEvil, "CREATE TRIGGER evil AFTER INSERT ON audit BEGIN DELETE FROM game; END;")
	if _, errs, code := db.run("restore", oldEvil); code == 0 || !strings.Contains(errs, "trigger evil on audit") || !strings.Contains(errs, "(schema 1)") {
		t.Errorf("restore of schema 1's database with a trigger: exit %d, %q; want it refused at schema 1", code, errs)
	}
}

// TestRestoreFromPostgresChecked (issue 28, 2): a PostgreSQL database
// restored from is checked against otd's PostgreSQL migrations at its
// version: a trigger planted there, or a game that breaks the rules, is
// refused, saying so; the database untouched restores.
func TestRestoreFromPostgresChecked(t *testing.T) {
	t.Chdir(t.TempDir())
	file := newTestDB(t)
	smallEvent(file)
	exec := func(pg, query string) {
		t.Helper()
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, pg)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, query); err != nil {
			t.Fatal(err)
		}
	}
	before := dump(t, file.path)
	for _, c := range []struct{ name, query, want string }{
		{"planted trigger", `CREATE FUNCTION evil() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM game; RETURN NEW; END $$;
			CREATE TRIGGER evil AFTER INSERT ON audit FOR EACH ROW EXECUTE FUNCTION evil()`, "it has trigger evil on audit, which is not otd's"},
		{"a rule's function changed", `CREATE OR REPLACE FUNCTION otd_game_rules() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$`,
			"its function otd_game_rules() has"},
		{"60-60 on 8x8", "UPDATE game SET black_discs = 60, white_discs = 60 WHERE round = 1 AND board = 1", "round 1 table 1"},
		{"a player of no tournament", "SET session_replication_role = replica; INSERT INTO player (tournament_id, number, name) VALUES (99, 1, 'Nobody')",
			"refers to a tournament that does not exist"},
		{"untouched", "", ""},
	} {
		pg := testenv.Postgres(t)
		file.must("backup", "--to", pg)
		if c.query != "" {
			exec(pg, c.query)
		}
		out, errs, code := file.run("restore", pg)
		switch {
		case c.want == "" && code != 0:
			t.Errorf("restore from PostgreSQL, %s: exit %d, %s", c.name, code, errs)
		case c.want != "" && (code == 0 || !strings.Contains(errs, c.want) || !strings.Contains(errs, "nothing was changed")):
			t.Errorf("restore from PostgreSQL, %s: exit %d, %q %q; want it refused: %q", c.name, code, out, errs, c.want)
		}
		if got := dump(t, file.path); c.want != "" && got != before {
			t.Errorf("restore from PostgreSQL, %s: a refused restore changed the database", c.name)
		}
	}
}

// TestTwoRestoresAtOnce (issue 28, 2): while a restore holds the database,
// another restore, or a round play, is refused, saying that a restore holds
// it (not a round play), with its pid.
func TestTwoRestoresAtOnce(t *testing.T) {
	db := newTestDB(t)
	smallEvent(db)
	good := filepath.Join(t.TempDir(), "good.db")
	db.must("backup", good)
	unlock, err := lockPlay(db.path, "restore", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := "another 'otd restore' (pid " + strconv.Itoa(os.Getpid()) + ")"
	for _, args := range [][]string{{"restore", good}, {"round", "play"}} {
		_, errs, code := db.run(args...)
		if code == 0 || !strings.Contains(errs, want) || strings.Contains(errs, "round play' or") {
			t.Errorf("otd %s during a restore: exit %d, %q; want it refused: %q", strings.Join(args, " "), code, errs, want)
		}
	}
	unlock()
	db.must("restore", good)
}

// TestKilledBackupLeavesNothing (issue 28, 2): the temporary file of a
// backup is written beside its target (for standard output, beside the
// database), and is left alone while its writer lives; once the writer is
// killed (SIGKILL), the next backup there removes it, and never a finished
// copy (what a restore kept).
func TestKilledBackupLeavesNothing(t *testing.T) {
	t.Parallel() // a folder of its own
	db := newTestDB(t)
	smallEvent(db)
	dir := filepath.Dir(db.path)
	// Larger than a pipe holds: the backup to a pipe nobody reads stops
	// half-way, its temporary file written.
	sqlExec(t, db.path, "INSERT INTO setting (key, value) VALUES ('padding', hex(zeroblob(200000)))")
	good := filepath.Join(t.TempDir(), "good.db")
	db.must("backup", good)
	out := db.must("restore", good)
	m := regexp.MustCompile(`What it replaced is in (\S+) `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("restore said %q", out)
	}
	kept := m[1]

	c := exec.Command(os.Args[0], "--db", db.path, "backup", "-")
	c.Env = append(os.Environ(), asOTD+"=1")
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	pattern := filepath.Join(dir, ".*."+strconv.Itoa(c.Process.Pid)+"-*.otd-tmp")
	var tmp string
	for deadline := time.Now().Add(hang); tmp == ""; time.Sleep(10 * time.Millisecond) {
		names, _ := filepath.Glob(pattern)
		for _, n := range names {
			if fi, err := os.Stat(n); err == nil && fi.Size() > 0 { // written: its writer holds it
				tmp = n
			}
		}
		if time.Now().After(deadline) {
			c.Process.Kill()
			c.Wait()
			entries, _ := os.ReadDir(dir)
			t.Fatalf("no temporary file %s of the backup to a pipe beside the database; the folder holds %v", pattern, entries)
		}
	}
	db.must("backup", filepath.Join(dir, "while.db"))
	if _, err := os.Stat(tmp); err != nil {
		t.Errorf("a backup removed the temporary file of a backup that runs: %v", err)
	}
	c.Process.Kill()
	c.Wait()
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("the killed backup's temporary file is not there to clean: %v", err)
	}
	db.must("backup", filepath.Join(dir, "after.db"))
	if _, err := os.Stat(tmp); err == nil {
		t.Errorf("the temporary file %s of a killed backup is still there after the next backup", tmp)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the copy a restore kept is gone: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(leftovers) > 0 {
		t.Errorf("files left beside the database: %v", leftovers)
	}
}

// TestRestoreRefusalWords (issue 28, 2): a restore refused because the
// backup is not as otd writes it says so of the file (not of the
// database, which is untouched), what is wrong and where (the trigger, the
// table and column, the row, the tournament, round and table of the game),
// and what to do, once: restore another backup; into a new database alike.
func TestRestoreRefusalWords(t *testing.T) {
	t.Parallel() // as TestRestoreRefusesUnsound
	db := newTestDB(t)
	smallEvent(db)
	good, edited := editedBackups(t, db)
	const todo = "; nothing was changed: restore another backup\n"
	for _, c := range []struct{ file, query, want string }{
		{"6060.db", "UPDATE game SET black_discs = 60, white_discs = 60 WHERE round = 1 AND board = 1",
			`it is not as otd writes it: tournament 1 \(Club\): (the tournament's data are inconsistent: )?round 1 table 1: result 60-60 is not a score on 64 squares`},
		{"evil.db", "CREATE TRIGGER evil AFTER INSERT ON audit BEGIN DELETE FROM game; END;",
			`it is not as otd writes it: its schema is not otd's \(schema \d+\): it has trigger evil on audit, which is not otd's`},
		{"column.db", "ALTER TABLE player ADD COLUMN secret TEXT",
			`it is not as otd writes it: its schema is not otd's \(schema \d+\): its table player has column secret, which is not otd's`},
		{"orphan.db", "PRAGMA foreign_keys = OFF; INSERT INTO player (tournament_id, number, name) VALUES (99, 1, 'Nobody')",
			`it is not as otd writes it: row \d+ of player refers to a tournament that does not exist`},
		{"empty.db", "", `the file is empty`},
		{"text.db", "", `it is not an otd database`},
	} {
		p := filepath.Join(filepath.Dir(good), c.file)
		switch c.file {
		case "empty.db":
			os.WriteFile(p, nil, 0o644)
		case "text.db":
			os.WriteFile(p, []byte("Round 1\n"), 0o644)
		default:
			edited(c.file, c.query)
		}
		want := regexp.MustCompile("^otd: " + regexp.QuoteMeta(p) + ": not a backup otd can restore: " + c.want + regexp.QuoteMeta(todo) + "$")
		for _, into := range []*testDB{db, newTestDB(t)} {
			if _, errs, code := into.run("restore", p); code == 0 || !want.MatchString(errs) {
				t.Errorf("restore %s: exit %d:\n%s\nwant it refused as %s", c.file, code, errs, want)
			}
		}
	}
}

// editedBackups makes a backup of db in a folder of the test, and returns
// its path and a function that writes a copy of it there, named name,
// changed by the SQL query, and returns that copy's path.
func editedBackups(t *testing.T, db *testDB) (good string, edited func(name, query string) string) {
	dir := t.TempDir()
	good = filepath.Join(dir, "good.db")
	db.must("backup", good)
	fixture, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	return good, func(name, query string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, fixture, 0o644); err != nil {
			t.Fatal(err)
		}
		sqlExec(t, p, query)
		return p
	}
}
