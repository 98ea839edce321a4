package txt_test

import (
	"bytes"
	"github.com/otd-project/otd/internal/testenv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/otd-project/otd/internal/txt"
)

// TestDecode: UTF-8 as it is, a byte-order mark left out, anything else
// read as Windows-1252, whose bytes are those of the code page's published
// table (Microsoft's cp1252: E9 é, FC ü, 80 €, 8A Š, 9C œ).
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		cp1252   bool
	}{
		{"MÜLLER, Jörg", "MÜLLER, Jörg", false},
		{"\xef\xbb\xbf%%Tournament: X", "%%Tournament: X", false},
		{"M\xdcLLER, J\xf6rg", "MÜLLER, Jörg", true},
		{"\xef\xbb\xbfJ\xe9r\xf4me", "Jérôme", true},
		{"\x80 \x8a \x9c", "€ Š œ", true},
	} {
		got, cp1252 := txt.Decode([]byte(tc.in))
		if got != tc.want || cp1252 != tc.cp1252 {
			t.Errorf("Decode(%q) = %q, %t; want %q, %t", tc.in, got, cp1252, tc.want, tc.cp1252)
		}
	}
}

// TestCheckName: what 'player add' has refused since issue 21 (a control
// or format character, a line break, more than 200 characters, not UTF-8),
// and names of the WOF's list taken.
func TestCheckName(t *testing.T) {
	for _, tc := range []struct{ name, err string }{
		{"TAKESHITA, Tetsuya", ""},
		{"NAKAJIMA, Tetsuya 中島哲也", ""},
		{strings.Repeat("é", 200), ""},
		{"", "empty"},
		{strings.Repeat("a", 201), "longer than 200 characters"},
		{"\x1b[2J\x1b]0;pwn\x07EVIL", "character U+001B is a control character"},
		{"Ann\u202eREHCRA", "character U+202E is a control character"},
		{"Ann\nArcher", "character U+000A is a control character"},
		{"M\xfcller", "not valid UTF-8"},
	} {
		err := txt.CheckName(tc.name)
		if got := ""; err != nil && !strings.Contains(err.Error(), tc.err) || err == nil && tc.err != "" {
			if err != nil {
				got = err.Error()
			}
			t.Errorf("CheckName(%.30q) = %q; want %q", tc.name, got, tc.err)
		}
	}
}

// TestCleanName: the control characters go, the rest is kept, cut to 200.
func TestCleanName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Ann Archer", "Ann Archer"},
		{"\x1b[2J\x1b]0;pwn\x07EVIL", "[2J]0;pwnEVIL"},
		{"Ann\tArcher\r\n", "Ann Archer"},
		{"M\xfcller", "M\uFFFDller"},
		{strings.Repeat("ab", 5000), strings.Repeat("ab", 100)},
	} {
		got := txt.CleanName(tc.in)
		if got != tc.want {
			t.Errorf("CleanName(%.30q) = %.30q; want %.30q", tc.in, got, tc.want)
		}
		if got != "" && txt.CheckName(got) != nil {
			t.Errorf("CleanName(%.30q) = %.30q, which CheckName refuses: %v", tc.in, got, txt.CheckName(got))
		}
	}
}

// TestPrintable: escapes as Go writes them, every other character kept.
func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want, doc string }{
		{"Ann Archer", "Ann Archer", "Ann Archer"},
		{"\x1b[2J\x1b]0;pwn\x07EVIL", `\x1b[2J\x1b]0;pwn\aEVIL`, `\x1b[2J\x1b]0;pwn\aEVIL`},
		{"a\tb\nc", `a\tb\nc`, "a\tb\nc"},
		{"Ann\u202eX \u009b", `Ann\u202eX \u009b`, `Ann\u202eX \u009b`},
		{"M\xfcller", `M\xfcller`, `M\xfcller`},
		{"中島　哲也 Ø", "中島　哲也 Ø", "中島　哲也 Ø"},
	} {
		if got := txt.Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q; want %q", tc.in, got, tc.want)
		}
		if got := txt.PrintableDocument(tc.in); got != tc.doc {
			t.Errorf("PrintableDocument(%q) = %q; want %q", tc.in, got, tc.doc)
		}
	}
}

// TestArchiveEncodings counts the .ELO files of the WOF archive by
// encoding, with the standard library's own tests of the bytes: issue 28
// counted 7,208 ASCII files, 95 UTF-8 and 2 with Windows-1252 bytes. Decode
// keeps every UTF-8 file as it is, and reads the other two as Windows-1252
// (iconv -f cp1252 gives the lines below). Their bytes are Mac OS Roman in
// fact (iconv -f macintosh: "Maurício", "doesn´t"), in comment lines only:
// no player's name is read wrong.
func TestArchiveEncodings(t *testing.T) {
	dir := filepath.Join(testenv.SharedData(t), "wof-archive")
	cp1252Lines := map[string]string{
		"20090927_CH_Argentina.ELO": "%Juan Pablo Lucioli played only the first 2 rounds, so the total disc count doesn«t match ",
		"20100829_CH_Brazil.ELO":    "%4175 Maur’cio Katayama 3",
	}
	var ascii, utf, cp1252 int
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".elo") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		text, isCP1252 := txt.Decode(data)
		switch {
		case !bytes.ContainsFunc(data, func(r rune) bool { return r >= utf8.RuneSelf }):
			ascii++
		case utf8.Valid(data):
			utf++
		default:
			cp1252++
			if line := cp1252Lines[filepath.Base(p)]; !isCP1252 || line == "" || !strings.Contains(text, line+"\n") {
				t.Errorf("%s: Decode (Windows-1252 %t) lacks the line %q", p, isCP1252, line)
			}
			return nil
		}
		if isCP1252 || text != string(data) {
			t.Errorf("%s: valid UTF-8, yet Decode changed it (Windows-1252 %t)", p, isCP1252)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the shared archive: %v", err)
	}
	if ascii != 7208 || utf != 95 || cp1252 != 2 {
		t.Errorf("the archive's .ELO files: %d ASCII, %d UTF-8, %d Windows-1252; want 7208, 95, 2 (issue 28)", ascii, utf, cp1252)
	}
}

// TestWriter: what a command prints arrives as Printable writes it, tabs
// and line feeds aside, however it is cut into writes: a character split
// between two writes is whole, a byte that is not UTF-8 escaped, and Flush
// writes a character's start that no write completed.
func TestWriter(t *testing.T) {
	for _, tc := range []struct {
		writes []string
		want   string
	}{
		{[]string{"Ann\tArcher\n"}, "Ann\tArcher\n"},
		{[]string{"\x1b[2J\x1b]0;pwn\x07EVIL\r\n"}, `\x1b[2J\x1b]0;pwn\aEVIL\r` + "\n"},
		{[]string{"J\xc3", "\xa9r\xc3\xb4me \xe4\xb8", "\xad\n"}, "Jérôme 中\n"},                 // é, 中 split
		{[]string{"M\xfcller ", "\u202eX\u009b\x7f\n"}, `M\xfcller \u202eX\u009b\u007f` + "\n"}, // DEL as JSON writes it
		{[]string{"ends in \xe4\xb8"}, `ends in \xe4\xb8`},                                      // flushed
		{[]string{`\x1b already escaped`}, `\x1b already escaped`},
		{[]string{"\uFEFFname;\uFEFF\n"}, "\uFEFFname;\\ufeff\n"}, // a byte-order mark is one at the start only
		// Above U+FFFF as JSON writes it (a UTF-16 pair), so that --json stays JSON.
		{[]string{"{\"name\": \"tag\U000e0001\"}\n"}, `{"name": "tag\udb40\udc01"}` + "\n"},
	} {
		var b strings.Builder
		w := txt.NewWriter(&b)
		for _, s := range tc.writes {
			if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
				t.Errorf("Write(%q) = %d, %v", s, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%q: wrote %q; want %q", tc.writes, b.String(), tc.want)
		}
		if txt.Raw(w) != io.Writer(&b) || txt.Raw(&b) != io.Writer(&b) {
			t.Error("Raw is not the writer under")
		}
	}
}
