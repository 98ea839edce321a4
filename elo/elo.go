// Package elo reads and writes the WOF's rating-submission file (.ELO), one
// file a rated tournament, in the layout of Papp's files: "%%Key: value"
// header lines, the final standings ("%_%" lines, in published order), each
// Swiss round's games ("%Round: N", then "black (discs)>(discs) white B") and
// the games added after the Swiss rounds ("%%Added results", or the labelled
// blocks "%Round SF1", "%Round F" of some converted files). Other lines
// starting with "%" are comments, and otd writes what the rating list must
// not count (forfeits, byes, entries, absences, withdrawals, the rules) in
// comments of its own, "% otd:" lines (Otd), so that its own files rebuild a
// tournament exactly; format 2 (OtdFormat) adds the championship's (the
// final phase's matches, categories, teams, players' numbers and details).
// docs/rating.md documents every line.
//
// It knows only the file: a File holds what the file says, as the file says
// it (WOF ids, not player numbers). Building a tournament from a file, and a
// file from a tournament, is package export's. An adapter-level leaf: it
// imports only scoring (the points and rules written in otd's lines).
package elo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/scoring"
)

// File is an .ELO file: the header, the final standings in published order,
// every Swiss round's games (byes are not written) and the games added after
// the Swiss rounds (semi-finals, finals).
type File struct {
	Header    []Header
	Standings []Player
	// Rounds[r-1] are the games of round r: the file's r-th numbered
	// %Round line, whatever its number ("%Round 1" again on a second day
	// starts a round of its own).
	Rounds [][]Game
	Added  []Game
	// Unrounded are the games the file gives no round: those before its
	// first %Round line, and those of blocks without a number ("%Round
	// PO", "%Round RR" of the WOC 1977-1986 files).
	Unrounded []Game

	// Where things are in the file Read read (nil for a file made
	// otherwise): the line of each header line (HeaderLines[i] is
	// Header[i]'s), of each standings line, of each game of
	// Rounds (GameLines[r-1][i] is Rounds[r-1][i]'s), each round's %Round
	// line and label (RoundFrom[r-1]), and each added and unrounded game
	// with its block's label.
	HeaderLines    []int
	StandingsLines []int
	GameLines      [][]int
	RoundFrom      []Source
	AddedFrom      []Source
	UnroundedFrom  []Source

	// Commented are the game lines written as comments ("% 79 (41)>(23)
	// 440473 B"): games a file leaves out of the rating, unplayed or not to
	// be rated; Read reads them for what they say, and Write writes none.
	Commented []Commented
	// Signs are the game lines whose sign contradicts their discs, or
	// whose discs add up to more than the board's 64, that ReadWith read
	// as Options.Sign says (SignSign, SignDiscs): each line and its game
	// as the discs say it.
	Signs []Commented
	// Otd is what otd adds to its own files in "% otd:" comment lines, which
	// the rating list reads as comments: nil in other programs' files.
	Otd *Otd
	// Windows1252: the file is not valid UTF-8, and Read read it as
	// Windows-1252 (Papp's, a Western European Windows program's).
	Windows1252 bool
}

// Header is a "%%Key: value" line.
type Header struct{ Key, Value string }

// Player is a "%_%" standings line.
type Player struct {
	ID                   int  // 0: the file gives none ("??????")
	New                  bool // written "+": a new player for the rating list
	Last, First, Country string
	Score                scoring.HalfPoints
	Discs, Rating        int // Rating 0: written "-" or 0, or not written: not rated
	// NoScore and NoDiscs: the file gives no score, no disc total (the
	// field is empty or left out); Score and Discs are then 0.
	NoScore, NoDiscs bool
	// Unread are the figures of the line that are not numbers ("5+2",
	// "5 pts", "[246]"), quoted: read as not given.
	Unread string
}

// Game is a game line: black's id and discs, then white's.
type Game struct {
	Black, BlackDiscs, White, WhiteDiscs int // an id 0: the file gives none ("??????")
	// Loser is the colour that lost where the discs do not say it: a game
	// tied on the board written '<' (black lost) or '>' (white lost) — after
	// %%Added results, Papp's way of saying who went through; in a round,
	// the Japanese files' way of saying who won — and a result without
	// discs. "" for a draw and every other game.
	Loser Color
	// NoDiscs: a result without discs ("11 > 22", as older events'
	// files write them): BlackDiscs and WhiteDiscs are 0, and Loser says
	// who lost ("" for a draw).
	NoDiscs bool
}

// Winner is the colour that won the game, "" for a draw.
func (g Game) Winner() Color {
	switch {
	case g.Loser != "":
		return g.Loser.Other()
	case g.NoDiscs || g.BlackDiscs == g.WhiteDiscs:
		return ""
	case g.BlackDiscs > g.WhiteDiscs:
		return Black
	}
	return White
}

// Source is where an added game is in the file read: its line (1 for the
// first) and, in a labelled final block ("%Round SF1", "%Round: 3-4"), the
// block's label ("" after %%Added results).
type Source struct {
	Line  int
	Block string
}

// Commented is a game line written as a comment, and its line.
type Commented struct {
	Line int
	Game Game
}

// ErrInvalid is wrapped by every error of a file that Read refuses, and by
// the errors of a file that contradicts itself (a player paired twice in a
// round, scores that do not add up) found when a tournament is built from it.
var ErrInvalid = errors.New("not a valid .ELO file")

// ErrValue is wrapped by the error of a value that an .ELO file cannot
// hold: a line break or a control character in any value, which would start
// a line of its own (a fake standings or %Round line), or a comma in a field
// of a standings line.
var ErrValue = errors.New("cannot be written in an .ELO file")

// ParseError is a file that Read refuses, as encoding/csv's ParseError: the
// line (1 for the first; 0 when the file as a whole is wrong, as one without
// a %Round line), the column where the problem is (1-based, in bytes; 0 when
// it is the line as a whole) and what is wrong, wrapping ErrInvalid. The
// message is "line N: what is wrong: the line, quoted: not a valid .ELO file".
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

// addedResults starts the line after which come the games added after the
// Swiss rounds.
const addedResults = "%%Added results"

// MaxSize is the largest file Read reads, in bytes: the largest of the WOF
// archive is under 32 KiB, a 100,000-player event about 5 MiB; the commands
// and the archive open an .ELO file with this cap.
const MaxSize = 64 << 20

// MaxLine is the longest line Read reads, in bytes: the longest real line is
// under 200.
const MaxLine = 64 << 10

// Value returns the value of a header line ("" if absent).
func (f *File) Value(key string) string {
	for _, h := range f.Header {
		if strings.EqualFold(h.Key, key) {
			return h.Value
		}
	}
	return ""
}

// CheckText returns an error wrapping ErrValue if s has a line break or a
// control character (C0, C1, Unicode line and paragraph separators, format
// characters such as bidirectional overrides), or is not UTF-8.
func CheckText(s string) error {
	if err := txt.CheckText(s); err != nil {
		return fmt.Errorf("%v: %w", err, ErrValue)
	}
	return nil
}

// Check refuses a file whose values would not be read back as written (a
// line break in a name would inject lines), with an error wrapping ErrValue.
func (f *File) Check() error {
	for _, h := range f.Header {
		if err := CheckText(h.Key); err != nil || strings.Contains(h.Key, ":") {
			return fmt.Errorf("header key %s: a line break, control character or colon %w", QuoteCut(h.Key), ErrValue)
		}
		if strings.HasPrefix("%%"+h.Key, addedResults) {
			return fmt.Errorf("header key %s: the line that starts the added results %w", QuoteCut(h.Key), ErrValue)
		}
		if err := CheckText(h.Value); err != nil {
			return fmt.Errorf("header %s %s: %w", h.Key, QuoteCut(h.Value), err)
		}
	}
	for _, p := range f.Standings {
		vs := []string{p.Last, p.First, p.Country}
		if f.Otd != nil {
			vs = append(vs, f.Otd.Names[p.ID]) // written quoted, but a name is one line of text
		}
		for i, v := range vs {
			err := CheckText(v)
			if err == nil && i < 3 && strings.Contains(v, ",") {
				err = fmt.Errorf("a comma in a field of a standings line %w", ErrValue)
			}
			if err != nil {
				return fmt.Errorf("player id %d: %s: %w", p.ID, QuoteCut(v), err)
			}
		}
	}
	return nil
}

// QuoteCut quotes a value for a message (%q), cut to 80 characters of the
// quoted form with "…": what every error line of otd quotes a value with.
func QuoteCut(s string) string {
	const max = 80
	q := strconv.Quote(s)
	if utf8.RuneCountInString(q) <= max+2 {
		return q
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, n := 0, 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		e := strconv.Quote(s[i : i+size]) // one character, escaped if it is not text
		e = e[1 : len(e)-1]
		if n += utf8.RuneCountInString(e); n > max {
			break
		}
		b.WriteString(e)
		i += size
	}
	b.WriteString("…\"")
	return b.String()
}

// ParseDays reads the value of a %%Date line: DD/MM/YYYY, or DD/MM/YYYY -
// DD/MM/YYYY for an event of several days (as Papp writes them; the day and
// month may have one digit), or YYYY-MM-DD.
func ParseDays(s string) (start, end time.Time, err error) {
	from, to, several := strings.Cut(s, " - ")
	start, err = parseDay(from)
	end = start
	if err == nil && several {
		end, err = parseDay(to)
	}
	switch {
	case strings.TrimSpace(s) == "":
		return start, end, fmt.Errorf("no %%%%Date line: the rating list weighs a game by its tournament's day; add one (%%%%Date: DD/MM/YYYY)")
	case err != nil:
		return start, end, fmt.Errorf("%%%%Date: %s: not a day DD/MM/YYYY, or DD/MM/YYYY - DD/MM/YYYY; correct it", QuoteCut(s))
	case end.Before(start):
		return start, end, fmt.Errorf("%%%%Date: %s: %w; correct it", QuoteCut(s), errLastBeforeFirst)
	}
	return start, end, nil
}

var errLastBeforeFirst = errors.New("the last day is before the first")

// Days reads f's %%Date line (ParseDays) as l says: with l.Dates "first",
// a range whose last day is before its first is read as its first day
// alone, and setAside says so with the line (else it is the error).
func (f *File) Days(l Lenient) (start, end time.Time, setAside string, err error) {
	v := f.Value("Date")
	start, end, err = ParseDays(v)
	if errors.Is(err, errLastBeforeFirst) && l.Dates == "first" {
		line := ""
		for i, h := range f.Header {
			if strings.EqualFold(h.Key, "Date") && i < len(f.HeaderLines) {
				line = fmt.Sprintf("line %d: ", f.HeaderLines[i])
				break
			}
		}
		return start, start, fmt.Sprintf("%s%%%%Date: %s: the last day is before the first: the tournament is dated by its first day alone, %s (--lenient dates=first)",
			line, QuoteCut(v), start.Format("02/01/2006")), nil
	}
	return start, end, "", err
}

func parseDay(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	d, err := time.Parse("2/1/2006", s)
	if err != nil {
		d, err = time.Parse(time.DateOnly, s)
	}
	return d, err
}
