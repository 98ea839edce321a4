//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/testenv"
)

// reader runs otd as a user who may not write the database: this test
// binary, copied to a folder all may read and run as "otd" (testscript.Main
// then runs otd's Main), as the user nobody when the tests run as root (root
// may write any file whatever its mode), else as the user running the tests.
type reader struct {
	t   *testing.T
	otd string
}

func newReader(t *testing.T, dir string) *reader {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		testenv.Missing(t, fmt.Sprintf("the path of the test binary (%v)", err))
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	otd := filepath.Join(bin, "otd")
	out, err := os.OpenFile(otd, os.O_WRONLY|os.O_CREATE, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	r := &reader{t: t, otd: otd}
	if _, _, code, err := r.exec("version"); err != nil || code != 0 {
		testenv.Missing(t, fmt.Sprintf("a way to run otd as another user (exit status %d, %v)", code, err))
	}
	return r
}

// command is otd with args, to be run as the reader.
func (r *reader) command(args ...string) *exec.Cmd {
	cmd := exec.Command(r.otd, args...)
	cmd.Env = append(os.Environ(), "OTD_DB=")
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	return cmd
}

func (r *reader) exec(args ...string) (stdout, stderr string, code int, err error) {
	var out, errb bytes.Buffer
	cmd := r.command(args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitCode(), nil
	}
	return out.String(), errb.String(), 0, err
}

// readerDir is a temporary folder the reader may read, and the reader.
func readerDir(t *testing.T) (string, *reader) {
	base := t.TempDir()
	// t.TempDir's parent is private to the user running the tests.
	for _, d := range []string{filepath.Dir(base), base} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return base, newReader(t, base)
}

func (r *reader) run(args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	stdout, stderr, code, err := r.exec(args...)
	if err != nil {
		r.t.Fatalf("otd %q: %v", args, err)
	}
	return stdout, stderr, code
}

// TestReadOnlyDatabase (issue 9, item 8): a database that its user may not
// write (a read-only file, or a file in a read-only folder, where SQLite
// cannot make the WAL's -wal and -shm files) can still be read: standings,
// crosstable, exports; a change is refused in one line that says what to do;
// the file and its folder are left as they were. And otd serve serves it,
// live (issue 19, section 5): see serveSeesChanges.
func TestReadOnlyDatabase(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	base, r := readerDir(t)
	src := newTestDB(t)
	src.must("tournament", "new", "Read Only Open", "--rounds", "3", "--new-ids", "50000-59999")
	for _, p := range []string{"Ann", "Ben", "Cat", "Dan"} {
		src.must("player", "add", p)
	}
	src.must("round", "pair")
	src.must("result", "1", "1", "40-24")
	src.must("result", "1", "2", "33-31")
	wantStandings := src.must("standings")
	exports := filepath.Join(base, "exports")
	if err := os.Mkdir(exports, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(exports, 0o777); err != nil { // whatever the umask
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name            string
		dirMode, dbMode os.FileMode
	}{
		{"read-only file", 0o777, 0o444},
		{"read-only folder", 0o555, 0o666},
		{"read-only file in a read-only folder", 0o555, 0o444},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(base, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "event.db")
			copyFile(t, src.path, db)
			for _, c := range []struct {
				path string
				mode os.FileMode
			}{{db, tc.dbMode}, {dir, tc.dirMode}} {
				if err := os.Chmod(c.path, c.mode); err != nil {
					t.Fatal(err)
				}
			}
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			before, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			had := dirNames(t, dir)

			out, stderr, code := r.run("--db", db, "standings")
			if code != 0 || out != wantStandings {
				t.Errorf("standings: exit status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, out, wantStandings)
			}
			for _, args := range [][]string{
				{"crosstable"}, {"standings", "--json"}, {"round", "show", "1"}, {"log"},
				{"export", "elo", filepath.Join(exports, strings.ReplaceAll(tc.name, " ", "-")+".elo")},
			} {
				if _, stderr, code := r.run(append([]string{"--db", db}, args...)...); code != 0 {
					t.Errorf("otd %q: exit status %d: %s", args, code, stderr)
				}
			}
			args := []string{"--db", db, "player", "add", "Eve"}
			out, stderr, code = r.run(args...)
			oneLine(t, args, 1, out, stderr, code, db+": the database is read-only", "copy it to a folder you may write")

			if after, err := os.ReadFile(db); err != nil || !bytes.Equal(before, after) {
				t.Errorf("the database changed (%v)", err)
			}
			if now := dirNames(t, dir); !slices.Equal(had, now) {
				t.Errorf("files after: %q, before %q", now, had)
			}
			serveSeesChanges(t, r, db)
		})
	}
}

// serveSeesChanges runs otd serve as the reader on the database at db, which
// the reader may not write, and has the director, who may, register a
// player meanwhile: the player's page must come. Ctrl-C stops serve.
func serveSeesChanges(t *testing.T, r *reader, db string) {
	t.Helper()
	serve := r.command("--db", db, "serve", "--listen", "127.0.0.1:0")
	var errb lockedBuffer
	serve.Stderr = &errb
	out, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited, urls := make(chan error, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(sc.Text()); u != "" {
				urls <- u
			}
		}
		exited <- serve.Wait()
	}()
	defer serve.Process.Kill()
	var url string
	select {
	case url = <-urls:
	case err := <-exited:
		t.Fatalf("otd serve: %v: %s", err, errb.String())
	case <-time.After(hang):
		t.Fatalf("otd serve printed no address within %v: %s", hang, errb.String())
	}
	player5 := func() (int, string) {
		t.Helper()
		resp, err := http.Get(url + "player/5")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := player5(); code != http.StatusNotFound {
		t.Fatalf("GET /player/5 before there is one: status %d; want 404", code)
	}
	(&testDB{t: t, path: db}).must("player", "add", "Eve Evans")
	for deadline := time.Now().Add(hang); ; time.Sleep(50 * time.Millisecond) {
		code, page := player5()
		if code == http.StatusOK && strings.Contains(page, "Eve Evans") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /player/5, %v after the player was registered: status %d:\n%s", hang, code, page)
		}
	}
	serve.Process.Signal(os.Interrupt)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("otd serve after Ctrl-C: %v: %s", err, errb.String())
		}
	case <-time.After(hang):
		t.Fatalf("otd serve did not stop within %v of Ctrl-C", hang)
	}
}

// TestSlipsReadOnly (issue 31): 'otd round slips' on a database its user
// may not write: before the event has its report codes' secret, refused in
// one line that says to print them once where the database can be written;
// once printed there, they print read-only, with the same codes.
func TestSlipsReadOnly(t *testing.T) {
	t.Parallel()
	base, r := readerDir(t)
	src := clubPaired(t)
	out := filepath.Join(base, "out")
	if err := os.Mkdir(out, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o777); err != nil { // whatever the umask
		t.Fatal(err)
	}
	readOnly := func(name string) string {
		db := filepath.Join(base, name)
		copyFile(t, src.path, db)
		if err := os.Chmod(db, 0o444); err != nil {
			t.Fatal(err)
		}
		return db
	}
	slips := func(db, name string) (string, []string, string, int) {
		page := filepath.Join(out, name)
		args := []string{"--db", db, "round", "slips", "--url", "http://venue.test/", "--output", page}
		stdout, stderr, code := r.run(args...)
		b, _ := os.ReadFile(page)
		return stdout, args, stderr + string(b), code
	}

	stdout, args, stderr, code := slips(readOnly("before.db"), "before.html")
	oneLine(t, args, 1, stdout, stderr, code, "the database is read-only", "print the slips once with an otd that may write the database")

	src.must("round", "slips", "--url", "http://venue.test/", "--output", filepath.Join(out, "director.html"))
	want, err := os.ReadFile(filepath.Join(out, "director.html"))
	if err != nil {
		t.Fatal(err)
	}
	_, args, page, code := slips(readOnly("after.db"), "after.html")
	if code != 0 || page != string(want) {
		t.Errorf("otd %q: exit status %d, the page:\n%s\nwant the director's:\n%s", args, code, page, want)
	}
}
