// Package txt is what otd does with the text of other people's files and
// shows on a terminal: Decode reads a file's bytes as text (UTF-8, else
// Windows-1252), CheckName is the one check of a name for every way a name
// comes in (a command, a players file, an .ELO or FlipTheDisc file, a
// rating list), CleanName mends a name that a reader must keep, and
// Printable escapes what no terminal or document should get raw. A leaf:
// it imports nothing of ours, so that every package may use it.
package txt

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
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
// escaped as Go quotes it (\x1b, \u202e, \n, \t), and every byte that is not
// UTF-8 as \xNN: text from a file or a database shown as it is held and
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
