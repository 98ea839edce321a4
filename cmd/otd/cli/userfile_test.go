//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// finishes runs f and fails the test if f has not returned after 30 s:
// a guard against a reader waiting forever for a named pipe's writer (as
// before issue 28), not a bound on the time f takes.
func finishes(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(hang):
		t.Fatalf("%s has not finished after %v: it waits for the named pipe", what, hang)
	}
}

// specialFiles makes in dir a named pipe, a link to /dev/zero and a sparse
// file of 1 GiB (no block on disk), named prefix+"fifo"+ext... and returns
// their paths.
func specialFiles(t *testing.T, dir, ext string) (fifo, zero, sparse string) {
	t.Helper()
	fifo, zero, sparse = filepath.Join(dir, "a-fifo"+ext), filepath.Join(dir, "b-zero"+ext), filepath.Join(dir, "c-sparse"+ext)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	return fifo, zero, sparse
}

const smallELO = "%%Tournament: Club\n%%Country: FRA\n%%Date: 01/02/2024\n\n" +
	"%_%   1001, ONE, Ann, FRA, 1.0, 40\n%_%   1002, TWO, Bob, FRA, 0.0, 24\n\n%Round 1\n   1001 (40)>(24)   1002\n"

// TestArchiveSkipsSpecialFiles: 'otd archive index DIR' and 'otd rating
// --archive DIR' of a folder with a named pipe, a link to /dev/zero, a
// sparse file of 1 GiB and a line over 64 KiB finish, list each as not read
// with why, and read the link to a regular file (issue 28: the pipe hung
// the index, /dev/zero grew it to 2 GB, the sparse file took 1 GB).
func TestArchiveSkipsSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := filepath.Join(t.TempDir(), "archive")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	specialFiles(t, dir, ".ELO")
	if err := os.WriteFile(filepath.Join(dir, "d-long.ELO"), []byte("%%Tournament: X\n"+strings.Repeat("1", 70_000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(t.TempDir(), "club.ELO")
	if err := os.WriteFile(real, []byte(smallELO), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "e-link.ELO")); err != nil {
		t.Fatal(err)
	}
	notRead := []string{
		"a-fifo.ELO: not a regular file but a named pipe (FIFO)",
		"b-zero.ELO: not a regular file but a character device",
		"c-sparse.ELO: 1073741824 bytes, larger than 64 MiB",
		"d-long.ELO: line 2: longer than 64 KiB",
	}
	db := filepath.Join(t.TempDir(), "archive.db")
	var out, errs string
	var code int
	finishes(t, "otd archive index", func() { out, errs, code = runStdin(nil, "archive", "index", dir, "--archive-db", db) })
	if code != 0 || !strings.Contains(out, "5 .ELO files: 1 added") || !strings.Contains(out, "4 not read") || !strings.Contains(out, "Added: e-link.ELO") {
		t.Errorf("archive index: exit %d, %q, %q; want the link added, 4 not read", code, out, errs)
	}
	for _, want := range notRead {
		if !strings.Contains(out, "  "+want) {
			t.Errorf("archive index: the output lacks %q:\n%s", want, out)
		}
	}
	finishes(t, "otd rating --archive DIR", func() { out, errs, code = runStdin(nil, "rating", "--archive", dir, "--at", "2024-03-01", "--all") })
	if code != 0 || !strings.Contains(errs, "4 of 5 .ELO files not read") || !strings.Contains(out, "ONE") {
		t.Errorf("rating --archive DIR: exit %d, %q, %q; want the link's players and 4 files not read", code, out, errs)
	}
}

// TestSpecialFilesRefused: every command that reads a file it is given
// refuses a named pipe and a link to /dev/zero at once, and a file over its
// cap (a sparse one) without reading it, in one line saying why.
func TestSpecialFilesRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	fifo, zero, sparse := specialFiles(t, t.TempDir(), ".txt")
	d := newTestDB(t)
	d.must("tournament", "new", "Club", "--rounds", "3")
	const (
		pipe   = "not a regular file but a named pipe (FIFO)"
		device = "not a regular file but a character device"
	)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "elo", fifo}, pipe},
		{[]string{"import", "elo", zero}, device},
		{[]string{"import", "elo", sparse}, "1073741824 bytes, larger than 64 MiB"},
		{[]string{"import", "ftd", fifo}, pipe},
		{[]string{"import", "ftd", zero}, device},
		{[]string{"import", "ftd", sparse}, "1073741824 bytes, larger than 16 MiB"},
		{[]string{"player", "import", fifo}, pipe},
		{[]string{"player", "import", sparse}, "1073741824 bytes, larger than 16 MiB"},
		{[]string{"player", "import", "--ratings", fifo, "79"}, pipe},
		{[]string{"player", "import", "--ratings", sparse, "79"}, "1073741824 bytes, larger than 64 MiB"},
		{[]string{"verify", fifo}, pipe + ": otd reads only regular files; give a pipe on standard input"},
		{[]string{"verify", zero}, device},
	} {
		name := strings.Join(tc.args, " ")
		for _, p := range []string{fifo, zero, sparse} {
			name = strings.ReplaceAll(name, p, filepath.Base(p))
		}
		t.Run(name, func(t *testing.T) {
			var out, errs string
			var code int
			finishes(t, "otd "+name, func() { out, errs, code = d.run(tc.args...) })
			if code != exitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, out, errs, tc.want)
			}
		})
	}
}
