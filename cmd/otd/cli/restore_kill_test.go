package cli

import (
	"bufio"
	"context"
	"database/sql"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/internal/testhook"
)

// TestKilledRestore (issue 28, 2) kills 'otd restore' (SIGKILL) at each
// point of its work, reached by construction (internal/testhook: otd stops
// there until the test lets it go): once the backup is copied beside the
// database, once what it replaces is written to its temporary file, and
// inside the replacing transaction, part of it written. After each kill the
// database is exactly as before the restore (SQLite's integrity check
// passes), the next restore or backup removes the dead restore's
// temporary files, every finished before-restore copy is kept (the killed
// restore's own among them once it was in place), and nothing was written
// outside the database's folder: the backup's folder and the system's
// temporary folder are as they were. On PostgreSQL, the folder of the
// restore's files is the current one.
func TestKilledRestore(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) { killedRestore(t, engine) })
	}
}

func killedRestore(t *testing.T, engine string) {
	src, cwd, tmp := t.TempDir(), t.TempDir(), t.TempDir()
	file := newTestDB(t)
	smallEvent(file)
	good := filepath.Join(src, "good.db") // the restored state
	file.must("backup", good)
	file.must("result", "1", "2", "33-31")
	other := filepath.Join(src, "other.db") // the state before each restore
	file.must("backup", other)
	db, dir := file, filepath.Dir(file.path)
	if engine == "postgres" {
		db = &testDB{t: t, path: testenv.Postgres(t)}
		file.must("backup", "--to", db.path)
		dir = cwd
	}
	t.Setenv("TMPDIR", tmp)
	t.Chdir(cwd)
	before := storeDump(t, other)
	if got := storeDump(t, db.path); got != before {
		t.Fatalf("the database to restore into is not the backup it was made from:\n%s\nwant:\n%s", got, before)
	}
	if storeDump(t, good) == before {
		t.Fatal("the restore would change nothing")
	}
	// Every finished copy of what a restore replaced holds the state before.
	var kept []string
	keptBy := regexp.MustCompile(`What it replaced is in (\S+) `)
	restore := func(from string) {
		t.Helper()
		out := db.must("restore", from)
		m := keptBy.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("restore said %q", out)
		}
		if !filepath.IsAbs(m[1]) { // PostgreSQL's, in the current folder
			m[1] = filepath.Join(cwd, m[1])
		}
		kept = append(kept, m[1])
	}
	restore(other)
	srcFiles := names(t, src)

	for i, point := range []string{"restore-copy", "before-restore", "restore-replace"} {
		c, stdin := stopAt(t, point, cwd, "--db", db.path, "restore", good)
		pid := strconv.Itoa(c.Process.Pid)
		leftovers := func() []string {
			l, _ := filepath.Glob(filepath.Join(dir, ".*."+pid+"-*"))
			return l
		}
		left := leftovers()
		c.Process.Kill()
		c.Wait()
		stdin.Close()
		if len(left) == 0 {
			t.Errorf("%s: no temporary file of the restore (pid %s) in %s to test its cleaning", point, pid, dir)
		}
		if engine == "sqlite" {
			dump(t, db.path) // SQLite's integrity check
		}
		if got := storeDump(t, db.path); got != before {
			t.Errorf("%s: after the kill the database is not as before the restore:\n%s\nwant:\n%s", point, got, before)
		}
		// The killed restore's copy of what it replaced, once in place, is
		// finished: kept as the others.
		copies, _ := filepath.Glob(filepath.Join(dir, "*.before-restore-*.db"))
		for _, c := range copies {
			if !strings.HasPrefix(filepath.Base(c), ".") && !slices.Contains(kept, c) {
				kept = append(kept, c)
			}
		}
		if i%2 == 0 {
			restore(other)
		} else {
			db.must("backup", filepath.Join(dir, "next.db"))
		}
		if l := leftovers(); len(l) > 0 {
			t.Errorf("%s: the next run left the killed restore's temporary files: %v", point, l)
		}
		for _, k := range kept {
			if _, err := os.Stat(k); err != nil {
				t.Errorf("%s: a finished copy of what a restore replaced is gone: %v", point, err)
			} else if got := storeDump(t, k); got != before {
				t.Errorf("%s: %s does not hold what its restore replaced:\n%s\nwant:\n%s", point, k, got, before)
			}
		}
		for _, f := range names(t, dir) {
			if strings.HasPrefix(f, ".") {
				t.Errorf("%s: %s left in %s", point, f, dir)
			}
		}
		if got := names(t, src); !slices.Equal(got, srcFiles) {
			t.Errorf("%s: the backup's folder holds %v, not %v", point, got, srcFiles)
		}
		for _, f := range names(t, tmp) {
			if !regexp.MustCompile(`^otd-[0-9a-f]+-play\.lock$`).MatchString(f) { // PostgreSQL's play lock
				t.Errorf("%s: %s written in the temporary folder", point, f)
			}
		}
		if engine == "sqlite" {
			if f := names(t, cwd); len(f) > 0 {
				t.Errorf("%s: %v written in the current folder", point, f)
			}
		}
	}
	// The database takes a restore again.
	db.must("restore", good)
	if got, want := storeDump(t, db.path), storeDump(t, good); got != want {
		t.Errorf("the restore after the kills differs from the backup:\n%s\nwant:\n%s", got, want)
	}
}

// stopAt starts otd (the test binary as otd) with args in the folder dir,
// and returns once it has stopped at point (testhook): closing stdin lets
// it go on. A run that ends without stopping there fails the test.
func stopAt(t *testing.T, point, dir string, args ...string) (c *exec.Cmd, stdin io.WriteCloser) {
	t.Helper()
	c = exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), asOTD+"=1", testhook.Env+"="+point)
	c.Dir = dir
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	said := ""
	for s := bufio.NewScanner(stderr); s.Scan(); {
		if s.Text() == "otd: stopped at "+point {
			go io.Copy(io.Discard, stderr)
			return c, stdin
		}
		said += s.Text() + "\n"
	}
	c.Wait()
	t.Fatalf("otd %s ended without stopping at %s: %s", strings.Join(args, " "), point, said)
	return nil, nil
}

// names lists the files of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var l []string
	for _, e := range entries {
		l = append(l, e.Name())
	}
	return l
}

// TestRestoreHoldsOffWriters (issue 28, 2): from the moment a restore
// starts keeping what it replaces until it has replaced it, no other
// program writes the database, so that a result entered meanwhile (by 'otd
// serve', another director's 'otd result') is never lost: it is in the
// copy kept, or it is made after the restore, in the restored event. The
// restore is stopped with its copy written (testhook): a write transaction
// there is refused at once, and 'otd result' waits for the restore.
func TestRestoreHoldsOffWriters(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			cwd := t.TempDir()
			t.Chdir(cwd)
			db := newTestDB(t)
			smallEvent(db)
			good := filepath.Join(t.TempDir(), "good.db")
			db.must("backup", good)
			var tryWrite func() error
			if engine == "postgres" {
				pg := testenv.Postgres(t)
				db.must("backup", "--to", pg)
				db = &testDB{t: t, path: pg}
				tryWrite = func() error {
					ctx := context.Background()
					conn, err := pgx.Connect(ctx, pg)
					if err != nil {
						t.Fatal(err)
					}
					defer conn.Close(ctx)
					_, err = conn.Exec(ctx, "BEGIN; LOCK TABLE game IN ROW EXCLUSIVE MODE NOWAIT; ROLLBACK")
					return err
				}
			} else {
				tryWrite = func() error {
					conn, err := sql.Open("sqlite", "file:"+db.path+"?_pragma=busy_timeout(0)")
					if err != nil {
						t.Fatal(err)
					}
					defer conn.Close()
					_, err = conn.Exec("BEGIN IMMEDIATE; ROLLBACK")
					return err
				}
			}
			c, stdin := stopAt(t, "before-restore", cwd, "--db", db.path, "restore", good)
			if err := tryWrite(); err == nil {
				t.Error("while the restore keeps what it replaces, another program may write the database")
			}
			result := make(chan string)
			go func() {
				_, errs, _ := db.run("result", "1", "2", "33-31")
				result <- errs
			}()
			stdin.Close()
			if err := c.Wait(); err != nil {
				t.Fatalf("the restore: %v", err)
			}
			if errs := <-result; errs != "" {
				t.Errorf("otd result during the restore: %s", errs)
			}
			if got := db.must("round", "show", "1"); !strings.Contains(got, "33-31") {
				t.Errorf("the result entered during the restore is lost; round 1 reads:\n%s", got)
			}
		})
	}
}
