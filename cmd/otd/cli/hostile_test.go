package cli

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/otd-project/otd/internal/testenv"
)

// TestNameLineBreakRefused: a tournament name with a line break (which
// would inject a fake standings line into the .ELO header) is refused when
// it is typed, and so is a --sender or --country of 'export elo' with one.
func TestNameLineBreakRefused(t *testing.T) {
	db := newTestDB(t)
	for _, name := range []string{"X\n%_%      9, FAKE, Fay, FRA, 9, 64, 2900", "X\r%Round: 1", "X\x1b[2JY", "X\u202eY", "X\u2028%Round: 1"} {
		if _, stderr, code := db.run("tournament", "new", name, "--rounds", "1"); code == 0 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("tournament new %q: exit %d, %q; want refused in one line", name, code, stderr)
		}
	}
	db.must("tournament", "new", "Club", "--rounds", "1")
	db.must("player", "add", "ONE, Ann")
	db.must("player", "add", "TWO, Bob")
	db.must("round", "pair")
	db.must("result", "1", "1", "40-24")
	for _, flag := range []string{"--sender", "--country"} {
		out, stderr, code := db.run("export", "elo", "-", flag, "Ann\n%Round: 1")
		if code != 2 || out != "" || !strings.Contains(stderr, flag+` "Ann\n%Round: 1": character U+000A`) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("export elo %s with a line break: exit %d, %q, %q; want 2 and one line", flag, code, out, stderr)
		}
	}
}

// TestErrorLinesCut: an error line stays readable whatever the user gave: a
// 100,000-character value is cut (to 80 characters with "…"), binary junk is
// escaped, not echoed, and a reader's "token too long" never shows.
func TestErrorLinesCut(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "1")
	junk := make([]byte, 400)
	for i := range junk {
		junk[i] = byte(i*7 + 1)
	}
	long := strings.Repeat("A", 100_000)
	dir := t.TempDir()
	eloLong := filepath.Join(dir, "long.ELO")
	if err := os.WriteFile(eloLong, []byte("%%Tournament: X\n"+strings.Repeat("1", 100_000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	eloJunk := filepath.Join(dir, "junk.ELO")
	if err := os.WriteFile(eloJunk, append([]byte("%%Tournament: X\n"), junk...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"long country", []string{"player", "add", "ONE, Ann", "--country", long}, `"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…"`},
		{"long name", []string{"player", "add", long}, ""},
		{"junk name", []string{"player", "add", string(junk)}, ""},
		{"junk country", []string{"player", "add", "ONE, Ann", "--country", string(junk)}, ""},
		{"long rating", []string{"player", "add", "ONE, Ann", "--rating", long}, `--rating "AAAA`},
		{"long command", []string{long}, "unknown command"},
		{"junk command", []string{string(junk)}, "unknown command"},
		{"long flag", []string{"standings", "--" + long}, "unknown flag"},
		{"long file", []string{"import", "elo", filepath.Join(dir, long)}, ""},
		{"ELO long line", []string{"import", "elo", eloLong}, "line 2: longer than 64 KiB"},
		{"ELO junk", []string{"import", "elo", eloJunk}, "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := db.run(tc.args...)
			if code == 0 {
				t.Fatalf("exit 0")
			}
			if len(stderr) > 600 || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Errorf("%d bytes, %d lines: %.300q", len(stderr), strings.Count(stderr, "\n"), stderr)
			}
			if !utf8.ValidString(stderr) {
				t.Errorf("not UTF-8: %.300q", stderr)
			}
			for _, r := range strings.TrimSuffix(stderr, "\n") {
				if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					t.Errorf("control character %U in %.300q", r, stderr)
					break
				}
			}
			if !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "token too long") {
				t.Errorf("%.300q; want %q", stderr, tc.want)
			}
		})
	}
}

// TestErrorLine: the net under every reader (bufio's "token too long" in
// words) and the cuts, on errors as any command could return them.
func TestErrorLine(t *testing.T) {
	for _, tc := range []struct {
		err        error
		want, not  string
		code, size int
	}{
		{fmt.Errorf("players.csv: %w", bufio.ErrTooLong), "players.csv: a line is longer than 64 KiB", "token too long", 1, 0},
		{inputError(fmt.Errorf("x: %w", bufio.ErrTooLong)), "x: a line is longer than 64 KiB", "token too long", 2, 0},
		{fmt.Errorf("name %q: too long", strings.Repeat("é", 5000)), `name "` + strings.Repeat("é", 80) + `…": too long`, "", 1, 0},
		{fmt.Errorf("cannot write %s: file name too long; name another file", strings.Repeat("/a", 5000)), "; name another file", "", 1, maxErrorLine},
		{fmt.Errorf("bad \x1b[2J\xff\x00 here\nand there"), `bad \x1b[2J\xff\x00 here; and there`, "", 1, 0},
		{usageErrorf("--bq %q: not a rule", "x\ny"), `--bq "x\ny": not a rule; see 'otd x --help'`, "", 2, 0},
	} {
		code, line := errorLine(tc.err, "otd x")
		if code != tc.code || !strings.Contains(line, tc.want) || tc.not != "" && strings.Contains(line, tc.not) {
			t.Errorf("errorLine(%.80q) = %d, %.200q; want %d, %q", tc.err, code, line, tc.code, tc.want)
		}
		if tc.size != 0 && utf8.RuneCountInString(line) > tc.size {
			t.Errorf("errorLine(%.80q): %d characters; want at most %d", tc.err, utf8.RuneCountInString(line), tc.size)
		}
	}
}

// TestReadersAndWritersChecked: every bufio.Scanner of otd's code sets its
// limit and says it in words (bufio.ErrTooLong handled in the same file), and
// no command writes a file but through writeOutput (output.go): the play
// lock's file, which holds a pid beside the database, is app's.
func TestReadersAndWritersChecked(t *testing.T) {
	root := testenv.RepoRoot(t)
	writes := regexp.MustCompile(`\bos\.(Create|CreateTemp|WriteFile|OpenFile|Rename|Link|Symlink)\(`)
	scanners := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src, rel := string(b), strings.TrimPrefix(path, root+string(filepath.Separator))
		if strings.Contains(src, "bufio.NewScanner(") {
			scanners++
			if !strings.Contains(src, ".Buffer(") || !strings.Contains(src, "bufio.ErrTooLong") {
				t.Errorf("%s: a bufio.Scanner without its limit (sc.Buffer) said in words (bufio.ErrTooLong): a user would read \"token too long\"", rel)
			}
		}
		if filepath.Dir(rel) == filepath.Join("cmd", "otd", "cli") && filepath.Base(rel) != "output.go" && writes.MatchString(src) {
			t.Errorf("%s writes a file: write it through writeOutput (output.go)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanners == 0 {
		t.Error("no bufio.Scanner found: the .ELO reader has one")
	}
}
