// Package txt is what otd does with the text of other people's files and
// shows on a terminal: Decode reads a file's bytes as text (UTF-8, else
// Windows-1252), CheckName is the one check of a name for every way a name
// comes in (a command, a players file, an .ELO or FlipTheDisc file, a
// rating list), CleanName mends a name that a reader must keep, and
// Printable escapes what no terminal or document should get raw, and a
// Writer so for everything a command prints. A leaf:
// it imports nothing of ours, so that every package may use it.
package txt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// bom is UTF-8's byte-order mark, which Windows programs (Notepad, Excel)
// put at the start of a file.
var bom = []byte("\uFEFF")

// Decode returns the text of a file's content: without a UTF-8 byte-order
// mark at its start; as it is when it is valid UTF-8; else read as
// Windows-1252, the code page that Windows in Western Europe writes and a
// superset of Latin-1's printable characters (Papp's joueurs.txt; é is the
// byte E9 in both), every byte a character. windows1252 says it was: a
// reader says so in a note (Windows1252Note).
func Decode(data []byte) (s string, windows1252 bool) {
	data = bytes.TrimPrefix(data, bom)
	if utf8.Valid(data) {
		return string(data), false
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil { // never: every byte is a character
		return strings.ToValidUTF8(string(data), "\uFFFD"), true
	}
	return string(out), true
}

// Windows1252Note is what a reader notes of a file that Decode read as
// Windows-1252.
const Windows1252Note = "the file is not UTF-8: read as Windows-1252 (Latin-1 and Western Windows; the byte E9 is é); save it as UTF-8 if its names look wrong"

// MaxName is the longest name otd keeps, in characters.
const MaxName = 200

// hidden reports whether r is a character that no name has and that a
// terminal or a document must not get raw: a control character (C0, DEL,
// C1: ESC starts a terminal's escape sequence, BEL rings), a format
// character (a bidirectional override reorders a line, a zero-width space
// hides), a line or paragraph separator.
func hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// CheckText refuses text that is not valid UTF-8 or has a hidden character
// (a control or format character, a line or paragraph separator), with an
// error that says which.
func CheckText(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	for _, r := range s {
		if hidden(r) {
			return fmt.Errorf("character %U is a control character", r)
		}
	}
	return nil
}

// CheckName is the one check of a name, wherever it comes from: not empty,
// valid UTF-8, at most MaxName characters, and no control, format, line or
// paragraph separator character (no line break, escape sequence or
// bidirectional override). The error says what is wrong, not the name.
func CheckName(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case utf8.RuneCountInString(s) > MaxName:
		return fmt.Errorf("longer than %d characters", MaxName)
	}
	return CheckText(s)
}

// CleanName is a name that CheckName refuses mended, for a reader that
// must keep what comes with it (the archive keeps a file's games whatever
// its names): a byte that is not UTF-8 becomes U+FFFD, the hidden characters
// go (tabs and line breaks become spaces), spaces are collapsed, and the
// name is cut to MaxName characters. It may be empty; a name that CheckName
// takes is returned as it is.
func CleanName(s string) string {
	if CheckName(s) == nil {
		return s
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case hidden(r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	s = strings.Join(strings.Fields(s), " ")
	if rs := []rune(s); len(rs) > MaxName {
		s = strings.TrimSpace(string(rs[:MaxName]))
	}
	return s
}

// Printable returns s with every hidden character (a control or format
// character, a line or paragraph separator: what CheckText refuses)
// escaped as Go quotes it (\x1b, \u202e, \n, \t; DEL as \u007f, which JSON
// reads too), and every byte that is not UTF-8 as \xNN: text from a file or a database shown as it is held and
// never acting on a terminal (an escape sequence retitles it, clears it) or
// reordering a line (a bidirectional override). It is for the eye, not to be
// read back: a backslash stays as it is. Every other character, accents,
// scripts and spaces, is kept.
func Printable(s string) string { return escape(s, "") }

// PrintableDocument is Printable for a document's text (an HTML page, a CSV
// cell): tabs and line breaks are kept.
func PrintableDocument(s string) string { return escape(s, "\t\n\r") }

func escape(s, keep string) string {
	if !needsEscape(s, keep) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == 0x7f: // as JSON writes it too: a Writer gets --json's output
			b.WriteString(`\u007f`)
		case hidden(r) && r > 0xffff && !strings.ContainsRune(keep, r):
			// As JSON writes it (a UTF-16 pair), not Go's \U000e0001: a
			// Writer gets --json's output, which must stay JSON.
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		case hidden(r) && !strings.ContainsRune(keep, r):
			q := fmt.Sprintf("%+q", r) // '\x1b', '\u202e', '\n'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s, keep string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || hidden(r) && !strings.ContainsRune(keep, r) {
			return true
		}
		i += size
	}
	return false
}

// Writer is a terminal's stream that nothing written to it acts on: what it
// is given goes on to the writer it wraps as Printable writes it, tabs and
// line feeds aside (a command's lines and tables). Everything a command
// prints for the eye, a name whatever the store holds among it, goes
// through one: an escape sequence (ESC), a bell, a carriage return, a
// bidirectional override or a byte that is not UTF-8 arrives escaped (\x1b,
// \a, \r, \u202e, \xfc), however the text was put together; but for a
// byte-order mark that starts the stream (a CSV file for Excel). A character
// split between two writes is kept until the next one, and Flush writes
// what is kept. A Writer may be written from several goroutines at once.
// What is already Printable goes through unchanged.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	part    []byte // the start of a character split by the last write
	started bool   // something was written
}

// NewWriter returns the Writer that escapes what it writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// terminalKeep is what a terminal's lines hold raw.
const terminalKeep = "\t\n"

// Write writes p escaped; it says it wrote all of p unless w failed.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := string(append(w.part, p...))
	w.part = w.part[:0]
	mark := ""
	if !w.started && len(s) > 0 {
		// A byte-order mark that starts the stream is one: a CSV file for
		// Excel (standings --excel) starts so on standard output too.
		w.started = true
		if rest, ok := strings.CutPrefix(s, string(bom)); ok {
			mark, s = string(bom), rest
		}
	}
	// A character's first bytes at the end wait for the rest.
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				w.part, s = append(w.part, s[i:]...), s[:i]
			}
			break
		}
	}
	if _, err := io.WriteString(w.w, mark+escape(s, terminalKeep)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the bytes of a character that the last write split, escaped:
// no write came with the rest.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.part) == 0 {
		return nil
	}
	_, err := io.WriteString(w.w, escape(string(w.part), terminalKeep))
	w.part = w.part[:0]
	return err
}

// Raw returns the writer under w if w is a Writer, else w itself: for
// what must reach a terminal as it is (a progress bar, a QR code drawn in
// colours) or a file's bytes as they are (an export to standard output).
func Raw(w io.Writer) io.Writer {
	if tw, ok := w.(*Writer); ok {
		return tw.w
	}
	return w
}
