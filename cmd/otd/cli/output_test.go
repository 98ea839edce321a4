package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteOutput: every export writes through writeOutput. A new file gets
// mode 0644; an existing regular file is replaced only with --force and
// keeps its mode; "-" is standard output; a symbolic link is refused (never
// followed), and so are a folder, a device and a named pipe, each named in
// the message, with or without --force, leaving it as it was and no
// temporary file behind.
func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	target := file("target.ELO", "the target\n", 0o644)
	link := filepath.Join(dir, "link.ELO")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.ELO")
	if err := os.Symlink(filepath.Join(dir, "nowhere.ELO"), dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.ELO")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	old := file("old.ELO", "old\n", 0o600)
	kept := file("kept.ELO", "kept\n", 0o644)

	for _, tc := range []struct {
		name, path string
		force      bool
		want       string // a part of the error; "" for success
		content    string // the file's content afterwards (success, or a file left alone)
		mode       os.FileMode
	}{
		{name: "new file", path: filepath.Join(dir, "new.ELO"), content: "export\n", mode: 0o644},
		{name: "existing file", path: kept, want: "kept.ELO: the file exists; add --force to replace it", content: "kept\n", mode: 0o644},
		{name: "existing file --force keeps its mode", path: old, force: true, content: "export\n", mode: 0o600},
		{name: "symlink", path: link, want: "it is a symbolic link to " + target + "; otd does not write through links"},
		{name: "symlink --force", path: link, force: true, want: "it is a symbolic link"},
		{name: "dangling symlink", path: dangling, force: true, want: "it is a symbolic link"},
		{name: "fifo", path: fifo, want: "it is a named pipe (FIFO)"},
		{name: "fifo --force", path: fifo, force: true, want: "it is a named pipe (FIFO)"},
		{name: "folder", path: folder, force: true, want: "it is a folder; name a file, e.g. " + filepath.Join(folder, "out.ELO")},
		{name: "folder slash", path: folder + "/", force: true, want: "it is a folder"},
		{name: "/dev/null", path: "/dev/null", force: true, want: "cannot write /dev/null: not a regular file, it is a character device"},
		{name: "/dev/full", path: "/dev/full", force: true, want: "cannot write /dev/full: not a regular file, it is a character device"},
		{name: "no folder", path: filepath.Join(dir, "none", "x.ELO"), want: "name a file in an existing folder"},
		{name: "empty path", path: "", want: "no file named"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.path, "/dev/") {
				if _, err := os.Stat(tc.path); err != nil {
					t.Skip(err)
				}
			}
			var stdout bytes.Buffer
			g := &globals{Stdout: &stdout}
			err := writeOutput(g, tc.path, tc.force, func(w io.Writer) error {
				_, err := io.WriteString(w, "export\n")
				return err
			})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("writeOutput: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("writeOutput: %v; want %q", err, tc.want)
			}
			if err != nil {
				if tc.want != "" && strings.Contains(tc.want, "not a regular file") && !errors.Is(err, errNotFile) {
					t.Errorf("%v does not wrap errNotFile", err)
				}
				if _, line := errorLine(err, "otd export elo"); strings.Contains(line, "\n") {
					t.Errorf("two lines: %q", line)
				}
			}
			if stdout.Len() != 0 {
				t.Errorf("standard output: %q", stdout.String())
			}
			if tc.content != "" {
				b, err := os.ReadFile(tc.path)
				fi, serr := os.Lstat(tc.path)
				if err != nil || serr != nil || string(b) != tc.content || fi.Mode() != tc.mode {
					t.Errorf("%s: %q %v, %v %v; want %q, a regular file %v", tc.path, b, err, fi.Mode(), serr, tc.content, tc.mode)
				}
			}
		})
	}
	// What was refused is as it was.
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is now %v, %v", fi.Mode(), err)
	}
	if b, err := os.ReadFile(target); string(b) != "the target\n" || err != nil {
		t.Errorf("the link's target has %q, %v", b, err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is now %v, %v", fi.Mode(), err)
	}
	if fi, err := os.Lstat(folder); err != nil || !fi.IsDir() {
		t.Errorf("the folder is now %v, %v", fi.Mode(), err)
	}
	if fi, err := os.Lstat("/dev/null"); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("/dev/null is now %v", fi.Mode())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("a temporary file is left: %s", e.Name())
		}
	}
	entries, _ = os.ReadDir(folder)
	if len(entries) != 0 {
		t.Errorf("the folder has %d files", len(entries))
	}

	// "-": standard output; a failing write says so.
	var stdout bytes.Buffer
	if err := writeOutput(&globals{Stdout: &stdout}, "-", false, func(w io.Writer) error {
		_, err := io.WriteString(w, "export\n")
		return err
	}); err != nil || stdout.String() != "export\n" {
		t.Errorf("-: %q, %v", stdout.String(), err)
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err == nil {
		defer full.Close()
		err := writeOutput(&globals{Stdout: full}, "-", false, func(w io.Writer) error {
			_, err := io.WriteString(w, "export\n")
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "cannot write to standard output") {
			t.Errorf("- on /dev/full: %v", err)
		}
	}
}

// TestExportELOOntoNonFiles: 'otd export elo' itself refuses a device, a
// FIFO, a symbolic link and a folder, exit status 1, one line naming what it is.
func TestExportELOOntoNonFiles(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "1", "--new-ids", "50000-59999")
	db.must("player", "add", "ONE, Ann")
	db.must("player", "add", "TWO, Bob")
	db.must("round", "pair")
	db.must("result", "1", "1", "40-24")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "x"), link); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{"/dev/null": "a character device", fifo: "a named pipe (FIFO)", link: "a symbolic link", dir: "a folder"} {
		for _, force := range []bool{false, true} {
			args := []string{"export", "elo", path}
			if force {
				args = append(args, "--force")
			}
			out, stderr, code := db.run(args...)
			if code != 1 || out != "" || !strings.Contains(stderr, "not a regular file, it is "+what) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("otd %s: exit %d, %q, %q; want 1 and one line naming %s", strings.Join(args, " "), code, out, stderr, what)
			}
		}
	}
}
