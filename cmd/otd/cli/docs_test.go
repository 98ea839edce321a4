package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/testenv"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/commands and docs/man from the commands (TestDocsCurrent)")

// docsUpdate is the command that rewrites the generated reference.
const docsUpdate = "go test ./cmd/otd/cli -run TestDocsCurrent -update"

// TestDocsCurrent generates the command reference (docs/commands/*.md) and
// the man pages (docs/man/*.1) from the commands themselves, as cobra's doc
// package writes them, and compares them with those in the repository: a
// command, a flag or a help text changed without the reference fails here,
// saying the command that rewrites it (-update does).
func TestDocsCurrent(t *testing.T) {
	docs := filepath.Join(testenv.RepoRoot(t), "docs")
	got := t.TempDir()
	genDocs(t, got)
	for _, sub := range []string{"commands", "man"} {
		if *updateDocs {
			dir := filepath.Join(docs, sub)
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			// A copy, not a rename: the test's temporary folder may be on
			// another file system (testenv.MemoryTemp's /dev/shm).
			if err := os.CopyFS(dir, os.DirFS(filepath.Join(got, sub))); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for _, d := range diffDirs(t, filepath.Join(got, sub), filepath.Join(docs, sub)) {
			t.Errorf("docs/%s/%s", sub, d)
		}
	}
	if t.Failed() {
		t.Errorf("the command reference is not the commands' help: run '%s' and commit docs/", docsUpdate)
	}
}

// genDocs writes the reference into dir/commands and the man pages into
// dir/man. What the help shows of the machine it runs on (the defaults that
// OTD_DB, OTD_TOURNAMENT and OTD_ARCHIVE_DB change) is left out: the pages
// are the same wherever they are made.
func genDocs(t *testing.T, dir string) {
	for _, env := range []string{"OTD_DB", "OTD_TOURNAMENT", "OTD_ARCHIVE_DB"} {
		t.Setenv(env, "")
	}
	newRoot := func() *cobra.Command {
		root := newRootCmd(&globals{})
		root.DisableAutoGenTag = true
		root.InitDefaultCompletionCmd() // cobra adds it when otd runs
		return root
	}
	md, man := filepath.Join(dir, "commands"), filepath.Join(dir, "man")
	for _, d := range []string{md, man} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Each page is written as its own file in one folder: a link to a page's
	// bare file name resolves beside it, on GitHub as on a disk.
	prepend := func(string) string {
		return fmt.Sprintf("<!-- Generated from otd's commands; do not edit. To update: %s -->\n\n", docsUpdate)
	}
	link := func(name string) string { return "./" + name }
	if err := doc.GenMarkdownTreeCustom(newRoot(), md, prepend, link); err != nil {
		t.Fatal(err)
	}
	// otd help json, a help topic that cobra's tree leaves out.
	root := newRoot()
	for _, c := range root.Commands() {
		if c.IsAdditionalHelpTopicCommand() {
			page := fmt.Sprintf("%s## otd help %s\n\n%s\n\n```\n%s```\n\n### SEE ALSO\n\n* [otd](./otd.md)\t - %s\n",
				prepend(""), c.Name(), c.Short, c.Long, root.Short)
			if err := os.WriteFile(filepath.Join(md, "otd_help_"+c.Name()+".md"), []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	date := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC) // fixed: the pages do not change with the day they are made
	header := &doc.GenManHeader{Section: "1", Date: &date, Source: "otd", Manual: "otd manual"}
	if err := doc.GenManTree(newRoot(), header, man); err != nil {
		t.Fatal(err)
	}
}

// diffDirs says how the files of folder want differ from those of folder
// have: each file missing, extra or different, with its first differing line.
func diffDirs(t *testing.T, want, have string) []string {
	read := func(dir string) map[string][]byte {
		files := map[string][]byte{}
		entries, err := os.ReadDir(dir)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = b
		}
		return files
	}
	w, h := read(want), read(have)
	var diffs []string
	for name, wb := range w {
		hb, ok := h[name]
		switch {
		case !ok:
			diffs = append(diffs, name+": missing")
		case !bytes.Equal(wb, hb):
			wl, hl := strings.Split(string(wb), "\n"), strings.Split(string(hb), "\n")
			i := 0
			for i < len(wl) && i < len(hl) && wl[i] == hl[i] {
				i++
			}
			line := func(l []string) string {
				if i < len(l) {
					return fmt.Sprintf("%q", l[i])
				}
				return "(end of file)"
			}
			diffs = append(diffs, fmt.Sprintf("%s: line %d is %s, the commands say %s", name, i+1, line(hl), line(wl)))
		}
	}
	for name := range h {
		if _, ok := w[name]; !ok {
			diffs = append(diffs, name+": no such command (any longer)")
		}
	}
	sort.Strings(diffs)
	return diffs
}
