// Package roster reads a players file, the file of 'otd player import': one
// player a line, as a spreadsheet saves it. A header row of the column names
// (Columns: name, rating, country, wof_id, women or gender, born, team,
// categories) gives its columns, in any order; without one, or with a header
// of words it does not know, the columns are name, then optionally rating
// and country. Comma, semicolon (continental Excel) or tab
// separated; UTF-8 with or without a byte order mark, UTF-16 with one
// ("Unicode text"), or else Windows-1252 (Excel's "CSV" on Windows); CRLF,
// LF or CR line ends; Excel's "sep=;" first line; a header row in any
// language. Limits: a line of at most 64 KiB, at most
// 100,000 players, at most 16 MiB.
//
// Named for what it reads, a roster of players, not for its syntax: the
// file is CSV as spreadsheets write it, and package csv is encoding/csv's
// name. It knows only the file: registering its players is the command
// line's, through the Director. A file format: of ours it imports only
// internal/txt, to decode the file and to compare names as the Director
// does (txt.FoldName).
package roster

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/otd-project/otd/internal/txt"
)

// What is wrong with a players file; errors.Is finds them in a *ParseError.
var (
	ErrColumns   = errors.New("too many columns")
	ErrColumn    = errors.New("unknown column") // a header's column that is none of Columns, or one twice
	ErrRating    = errors.New("not a rating")
	ErrValue     = errors.New("not a value of its column") // a WOF id, women or gender
	ErrEncoding  = errors.New("not text")                  // UTF-16 of an odd number of bytes
	ErrSyntax    = errors.New("not CSV")
	ErrEmpty     = errors.New("no players in the file")
	ErrDuplicate = errors.New("duplicate name")
	ErrTooLarge  = errors.New("too large") // over one of the limits below
)

// The limits of a players file: a big event has a few hundred players, a
// national rating list a few tens of thousands; anything larger is another
// file (/dev/zero, a database dump). Read stops as soon as the input passes
// one, having read at most MaxSize bytes.
const (
	MaxSize    = 16 << 20 // bytes
	MaxLine    = 64 << 10 // bytes of one line
	MaxPlayers = 100_000  // rows, the header and blank lines aside
)

// ParseError is a problem of a players file, as encoding/csv's ParseError:
// the line (1 for the first; 0 when it is the file as a whole), the column
// where it is (1-based, in bytes of the text as UTF-8; 0 when it is the line
// as a whole) and what is wrong and what to do, wrapping one of the Err
// sentinels: "line 7: what is wrong: what to do".
type ParseError struct {
	Line, Col int
	Err       error
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// problem is what is wrong in words, of a kind, one of the Err sentinels,
// which its words need not repeat.
type problem struct {
	kind error
	msg  string
}

func (p *problem) Error() string { return p.msg }
func (p *problem) Unwrap() error { return p.kind }

// fail returns the ParseError of a problem of kind at line and col.
func fail(line, col int, kind error, format string, a ...any) *ParseError {
	return &ParseError{Line: line, Col: col, Err: &problem{kind, fmt.Sprintf(format, a...)}}
}

// Player is a player of a players file and the line it is on.
type Player struct {
	Name       string
	Rating     int // 0: none
	Country    string
	WOFID      int // 0: none
	Women      bool
	Born       string   // as written: a year or a date, "" if not given
	Team       string   // "": not given
	Categories []string // the categories column's, split at ';' (or ',')
	Line       int
}

// Columns are the names of the columns a header row may give, in any order.
// A gender column (F or W for a woman, M) is the women column written so.
var Columns = []string{"name", "rating", "country", "wof_id", "women", "born", "team", "categories"}

// The columns: their index in Columns.
const (
	colName = iota
	colRating
	colCountry
	colWOFID
	colWomen
	colBorn
	colTeam
	colCategories
	colGender // the women column, as F/W or M
)

// File is what Read found in a players file.
type File struct {
	Players []Player
	Sep     rune   // the column separator: ',', ';' or '\t'
	Header  int    // the line of the header row, 0 if none
	Heading string // that row as written
	// Windows1252: the file is not UTF-8 and was read as Windows-1252
	// (txt.Decode), which the command notes (txt.Windows1252Note).
	Windows1252 bool
}

// Options are how Read reads a players file.
type Options struct {
	// AllowDuplicates takes a name on two lines, case, spacing and accents
	// aside (txt.FoldName): two people of one name. Without it such
	// a name is refused (ErrDuplicate).
	AllowDuplicates bool
}

// Read reads a players file. A file it refuses gives a *ParseError; an
// error of r is returned as it is.
func Read(r io.Reader, o Options) (*File, error) {
	data, err := readData(r)
	if err != nil {
		return nil, err
	}
	return parse(data, o)
}

// readData reads a players file up to the limits: it stops at the first
// line longer than MaxLine bytes (a file without line ends, such as
// /dev/zero, at its first 64 KiB) or past MaxSize bytes.
func readData(r io.Reader) ([]byte, error) {
	var data []byte
	buf := make([]byte, 64<<10)
	lineLen, lineNo := 0, 1 // the length and number of the line being read
	cr := false             // the last byte was a CR: CRLF, LF and CR alone each end a line
	for {
		n, err := r.Read(buf)
		for _, c := range buf[:n] {
			switch {
			case c == '\n':
				if !cr {
					lineNo++
				}
				lineLen, cr = 0, false
			case c == '\r':
				lineLen, lineNo, cr = 0, lineNo+1, true
			default:
				lineLen, cr = lineLen+1, false
			}
			if lineLen > MaxLine {
				return nil, fail(lineNo, MaxLine+1, ErrTooLarge, "longer than %d KiB: not a players file (one player a line: name, rating, country)", MaxLine>>10)
			}
		}
		data = append(data, buf[:n]...)
		if len(data) > MaxSize {
			return nil, fail(0, 0, ErrTooLarge, "larger than %d MiB: not a players file (one player a line: name, rating, country)", MaxSize>>20)
		}
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// parse reads a players file: one player a line, columns name, then
// optionally rating and country.
func parse(data []byte, o Options) (*File, error) {
	text, windows1252, err := decodeText(data)
	if err != nil {
		return nil, err
	}
	// Line ends of old Macs (CR alone): encoding/csv knows only LF and CRLF.
	if !strings.Contains(text, "\n") {
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	pf := &File{Windows1252: windows1252}
	skip := 0 // the line of Excel's "sep=X", skipped
	if first, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(strings.ToLower(first), "sep=") {
		if s := strings.TrimRight(first[4:], "\r"); len(s) == 1 && strings.ContainsAny(s, ",;\t") {
			pf.Sep, skip = rune(s[0]), 1
		}
	}
	if pf.Sep == 0 {
		pf.Sep = sniffSeparator(text)
	}

	r := csv.NewReader(strings.NewReader(text))
	r.Comma = pf.Sep
	r.FieldsPerRecord = -1
	var rows []row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, syntaxError(err)
		}
		line, _ := r.FieldPos(0)
		if line == skip {
			continue
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		for len(rec) > 0 && rec[len(rec)-1] == "" { // a spreadsheet's empty cells
			rec = rec[:len(rec)-1]
		}
		if len(rec) == 0 {
			continue // a blank line
		}
		cols := make([]int, len(rec))
		for i := range rec {
			_, cols[i] = r.FieldPos(i)
		}
		rows = append(rows, row{line: line, cols: cols, fields: rec})
		if len(rows) > MaxPlayers+1 { // too many, with a header or not: stop reading
			break
		}
	}
	cols := []int{colName, colRating, colCountry} // without a header of known words
	if len(rows) > 0 && isHeader(rows[0].fields) {
		pf.Header, pf.Heading = rows[0].line, strings.Join(rows[0].fields, string(pf.Sep))
		named, err := headerColumns(rows[0])
		if err != nil {
			return nil, err
		}
		if named != nil {
			cols = named
		}
		rows = rows[1:]
	}
	if len(rows) > MaxPlayers {
		return nil, fail(rows[MaxPlayers].line, 0, ErrTooLarge, "more than %d players: a players file holds at most %d, one a line; split it", MaxPlayers, MaxPlayers)
	}

	seen := map[string]Player{} // by txt.FoldName
	for _, row := range rows {
		rec, line := row.fields, row.line
		if len(rec) > len(cols) {
			quote := ""
			if pf.Sep == ',' {
				quote = `, and put a name holding a comma in double quotes ("LEADER, Imre")`
			}
			return nil, fail(line, row.cols[len(cols)], ErrColumns, "%d columns; expected %s: delete the other columns%s", len(rec), columnList(cols), quote)
		}
		p := Player{Line: line}
		for i, f := range rec {
			if err := p.set(cols[i], f); err != nil {
				if errors.Is(err, ErrRating) && pf.Sep == ',' {
					err = fmt.Errorf(`%w; put a name holding a comma in double quotes ("LEADER, Imre")`, err)
				}
				return nil, &ParseError{Line: line, Col: row.cols[i], Err: err}
			}
		}
		if strings.ContainsAny(p.Name, "\r\n") {
			return nil, fail(line, row.cols[0], ErrSyntax, "name %q is on more than one line: one player a line, the name on one line", p.Name)
		}
		if k := txt.FoldName(p.Name); k != "" && !o.AllowDuplicates {
			if first, ok := seen[k]; ok {
				return nil, fail(line, row.cols[0], ErrDuplicate, "%s is on line %d too%s (%v): delete one of the two lines, or tell the two players apart (a club or city after the name); two people of one name: import with --allow-duplicate",
					quoteName(p.Name), first.Line, spelledAs(p.Name, first.Name), ErrDuplicate)
			}
			seen[k] = p
		}
		pf.Players = append(pf.Players, p)
	}
	if len(pf.Players) == 0 {
		return nil, fail(0, 0, ErrEmpty, "%v (expected one player a line: name, rating, country)", ErrEmpty)
	}
	return pf, nil
}

// set sets the field of column c to the text f of the file.
func (p *Player) set(c int, f string) error {
	switch c {
	case colName:
		p.Name = f
	case colRating:
		return number(&p.Rating, f, ErrRating, "rating %q is not a whole number: write digits only, or leave it empty (the columns are name, rating, country)")
	case colCountry:
		p.Country = f
	case colWOFID:
		return number(&p.WOFID, f, ErrValue, "WOF id %q is not a whole number: write digits only, or leave it empty")
	case colWomen, colGender:
		yes, no := []string{"yes", "y", "true", "1", "x"}, []string{"no", "n", "false", "0", ""}
		what := "women %q: yes or no (or empty)"
		if c == colGender {
			yes, no, what = []string{"f", "w", "female", "woman"}, []string{"m", "male", "man", ""}, "gender %q: F or W for a woman, M for a man (or empty)"
		}
		switch v := strings.ToLower(f); {
		case slices.Contains(yes, v):
			p.Women = true
		case !slices.Contains(no, v):
			return &problem{ErrValue, fmt.Sprintf(what, f)}
		}
	case colBorn:
		p.Born = f
	case colTeam:
		p.Team = f
	case colCategories:
		for _, c := range strings.FieldsFunc(f, func(r rune) bool { return r == ';' || r == ',' }) {
			if c = strings.TrimSpace(c); c != "" {
				p.Categories = append(p.Categories, c)
			}
		}
	}
	return nil
}

// number sets *n to the whole number f, if not empty; else it is a problem
// of kind, what is wrong.
func number(n *int, f string, kind error, what string) error {
	if f == "" {
		return nil
	}
	v, err := strconv.Atoi(f)
	if err != nil {
		return &problem{kind, fmt.Sprintf(what, f)}
	}
	*n = v
	return nil
}

// headerColumns returns the columns a header row names, in its order; nil
// if it names none that otd knows (a header in another language, read as
// name, rating, country). A column it does not know, or names twice, is
// refused at its place.
func headerColumns(h row) ([]int, error) {
	cols := make([]int, len(h.fields))
	known := false
	for i, f := range h.fields {
		c, ok := headerWords[headerWord(f)]
		cols[i], known = c, known || ok
	}
	if !known {
		return nil, nil
	}
	for i, f := range h.fields {
		c, ok := headerWords[headerWord(f)]
		if !ok {
			return nil, fail(h.line, h.cols[i], ErrColumn, "column %d, %q, is not one otd reads: the columns are %s (women also as gender, F or W), in any order; rename the column or delete it", i+1, f, strings.Join(Columns, ", "))
		}
		if j := slices.IndexFunc(cols[:i], func(d int) bool { return same(d, c) }); j >= 0 {
			return nil, fail(h.line, h.cols[i], ErrColumn, "column %d, %q, is column %d, %q, again: keep one of the two", i+1, f, j+1, h.fields[j])
		}
	}
	if !slices.Contains(cols, colName) {
		return nil, fail(h.line, 0, ErrColumn, "no name column (the columns are %s, in any order): name the column of the players' names \"name\"", strings.Join(Columns, ", "))
	}
	return cols, nil
}

// same tells whether columns c and d are one: women and gender are.
func same(c, d int) bool {
	return c == d || c+d == colWomen+colGender && (c == colWomen || d == colWomen)
}

// columnList names columns: "name, rating, country".
func columnList(cols []int) string {
	var names []string
	for _, c := range cols {
		if c == colGender {
			names = append(names, "gender")
		} else {
			names = append(names, Columns[c])
		}
	}
	return strings.Join(names, ", ")
}

// headerWord is a header's field as headerWords has it: in lower case,
// spaces and hyphens as underscores ("WOF id", "wof-id": wof_id).
func headerWord(f string) string {
	return strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(strings.Trim(f, " .:*")))
}

// row is a line of the file that is not blank: its fields, and where they start.
type row struct {
	line   int
	cols   []int // the column of each field
	fields []string
}

// AlreadyRegistered is the error of p, a player of the file, whose name is
// that of a player already registered (txt.FoldName): number, named
// name.
func (p Player) AlreadyRegistered(number int, name string) error {
	return fail(p.Line, 0, ErrDuplicate, "%s is already registered as player %d%s (%v): delete the line (was the file imported already? 'otd player list' shows who is in), or tell the two players apart (a club or city after the name); two people of one name: import with --allow-duplicate",
		quoteName(p.Name), number, spelledAs(p.Name, name), ErrDuplicate)
}

// quoteName quotes a name as registered: its spaces collapsed.
func quoteName(name string) string { return strconv.Quote(strings.Join(strings.Fields(name), " ")) }

// spelledAs says how the other of two same names is written, if otherwise.
func spelledAs(name, other string) string {
	if quoteName(name) == quoteName(other) {
		return ""
	}
	return ", as " + quoteName(other)
}

// decodeText returns a file's text: UTF-16 with a byte order mark, else
// UTF-8 (its byte order mark dropped) when it is valid UTF-8, else
// Windows-1252 (txt.Decode: Excel on Windows saves "CSV" in the computer's
// code page), and whether it was read so.
func decodeText(data []byte) (text string, windows1252 bool, err error) {
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		if len(data)%2 != 0 {
			return "", false, fail(0, 0, ErrEncoding, `UTF-16 text of an odd number of bytes: save the file as "CSV UTF-8" in the spreadsheet`)
		}
		u := make([]uint16, 0, len(data)/2-1)
		for i := 2; i < len(data); i += 2 {
			if data[0] == 0xFF {
				u = append(u, uint16(data[i])|uint16(data[i+1])<<8)
			} else {
				u = append(u, uint16(data[i])<<8|uint16(data[i+1]))
			}
		}
		return string(utf16.Decode(u)), false, nil
	}
	text, windows1252 = txt.Decode(data)
	return text, windows1252, nil
}

// sniffSeparator returns the column separator of a CSV text: of tab,
// semicolon and comma, the one outside double quotes on the most lines, then
// the most often, then in that order (a name holds a comma more often than a
// semicolon: "LEADER, Imre;2150"); a comma if none is there.
func sniffSeparator(text string) rune {
	seps := []rune{'\t', ';', ','}
	lines, total := make([]int, len(seps)), make([]int, len(seps))
	count := make([]int, len(seps))
	quoted := false
	endLine := func() {
		for i := range seps {
			if count[i] > 0 {
				lines[i]++
				total[i] += count[i]
			}
			count[i] = 0
		}
	}
	for _, c := range text {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '\n':
			endLine()
		default:
			for i, s := range seps {
				if c == s {
					count[i]++
				}
			}
		}
	}
	endLine()
	best := 0
	for i := range seps {
		if lines[i] > lines[best] || lines[i] == lines[best] && total[i] > total[best] {
			best = i
		}
	}
	if lines[best] == 0 {
		return ','
	}
	return seps[best]
}

// headerWords are column names of a players file in a few languages (as
// headerWord writes them), and their column: a first row holding one of
// them is the header, and gives the columns.
var headerWords = map[string]int{
	"name": colName, "names": colName, "player": colName, "players": colName, "rating": colRating, "elo": colRating, "country": colCountry,
	"nom": colName, "joueur": colName, "classement": colRating, "pays": colCountry, "nation": colCountry, "fédération": colCountry,
	"spieler": colName, "wertung": colRating, "land": colCountry, "naam": colName, "speler": colName,
	"nombre": colName, "jugador": colName, "país": colCountry, "nome": colName, "giocatore": colName, "paese": colCountry, "nazione": colCountry,
	"namn": colName, "navn": colName, "spiller": colName, "nimi": colName, "pelaaja": colName, "maa": colCountry,
	"imię": colName, "nazwisko": colName, "kraj": colCountry, "jméno": colName, "név": colName, "értékszám": colRating, "ország": colCountry, "isim": colName,
	"имя": colName, "игрок": colName, "страна": colCountry, "名前": colName, "氏名": colName, "選手": colName, "国": colCountry,
	"姓名": colName, "国家": colCountry, "이름": colName, "국가": colCountry,
	"wof_id": colWOFID, "wofid": colWOFID, "wof": colWOFID, "women": colWomen, "woman": colWomen, "gender": colGender, "sex": colGender,
	"born": colBorn, "birth": colBorn, "year_of_birth": colBorn, "date_of_birth": colBorn, "team": colTeam,
	"categories": colCategories, "category": colCategories,
}

// isHeader tells whether the first row of a players file names the columns
// rather than a player: no field holds a digit, and a field is a known
// column name or, in any language, the rating column holds a word while the
// country column holds no country code. Not a header: "NEW, Ned",high,FR (a
// player with a wrong rating, refused as such).
func isHeader(rec []string) bool {
	if strings.ContainsAny(strings.Join(rec, ""), "0123456789") {
		return false
	}
	for _, f := range rec {
		if _, ok := headerWords[headerWord(f)]; ok {
			return true
		}
	}
	if len(rec) < 2 || rec[1] == "" {
		return false
	}
	return len(rec) == 2 || !isCountryCode(rec[2])
}

// isCountryCode tells whether s looks like a country code: 2 or 3 letters A-Z.
func isCountryCode(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for _, c := range strings.ToUpper(s) {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// syntaxError says where and how a players file breaks CSV's quoting.
func syntaxError(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fail(0, 0, ErrSyntax, "%v", err)
	}
	line, col, msg := pe.Line, pe.Column, fmt.Sprintf("column %d: %v", pe.Column, pe.Err)
	switch {
	case errors.Is(pe.Err, csv.ErrBareQuote):
		msg += `: put a field holding a double quote in double quotes, the quote doubled ("Jan ""Flash"" Jansen")`
	case errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine != pe.Line:
		// A quote left open: the rest of the file is in its field.
		line, col, msg = pe.StartLine, 0, fmt.Sprintf("a double quote opens a field that does not close before line %d: close the quotes, and double a quote inside them", pe.Line)
	case errors.Is(pe.Err, csv.ErrQuote):
		msg += `: close the quotes right after the field, and double a quote inside them`
	}
	return fail(line, col, ErrSyntax, "%s", msg)
}
