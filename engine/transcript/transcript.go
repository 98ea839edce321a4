// Package transcript reads and writes Othello game records (move lists,
// transcript sheets, GGF, WTHOR databases and OBF positions; PGN is read) and verifies them
// against the rules: the first illegal move, the true final score and whether
// a claimed result agrees.
package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/otd-project/otd/engine"
)

// Format names a kind of game record.
type Format int

// The formats. Auto detects the format from the content.
const (
	Auto Format = iota
	Moves
	SheetFormat
	GGF
	WTHOR
	OBF
	PGN
)

var formatNames = [...]string{"auto", "moves", "sheet", "ggf", "wthor", "obf", "pgn"}

func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f]
}

// ErrUnknownFormat is returned by ParseFormat for a name it does not know.
var ErrUnknownFormat = errors.New("unknown format: want auto, moves, sheet, ggf, wthor, obf or pgn")

// ParseFormat parses a format name as String writes it.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(s, n) {
			return Format(i), nil
		}
	}
	return Auto, fmt.Errorf("%q: %w", s, ErrUnknownFormat)
}

// Ending says how a recorded game ended, where the record says.
type Ending int

// Endings. Only a Normal ending's score can be checked against the board.
const (
	Normal   Ending = iota
	Timeout         // a flag fell
	Resigned        // a player resigned
	Agreed          // the players agreed a score
)

// Result is the result a record claims, black first.
type Result struct {
	Black, White int
	DiffOnly     bool // only Black-White is known (GGF records the difference)
	// WinnerOnly: only who won is known (PGN's 1-0, 0-1, 1/2-1/2): Black
	// and White are 1-0 (Black won), 0-1 or 1-1 (a draw).
	WinnerOnly bool
	Ending     Ending
}

func (r Result) String() string {
	switch {
	case r.DiffOnly:
		return fmt.Sprintf("%+d", r.Black-r.White)
	case r.WinnerOnly && r.Black > r.White:
		return "1-0 (Black wins)"
	case r.WinnerOnly && r.Black < r.White:
		return "0-1 (White wins)"
	case r.WinnerOnly:
		return "1/2-1/2 (a draw)"
	}
	return fmt.Sprintf("%d-%d", r.Black, r.White)
}

// Agrees reports whether the result is the final score s.
func (r Result) Agrees(s engine.Score) bool {
	switch {
	case r.DiffOnly:
		return r.Black-r.White == s.Black-s.White
	case r.WinnerOnly:
		return sign(r.Black-r.White) == sign(s.Black-s.White)
	}
	return r.Black == s.Black && r.White == s.White
}

// Game is one game record.
type Game struct {
	Name string // where it came from, for reports: "line 3", "game 12", a GGF place
	// Rules are the rules the game is played under; the zero value is
	// standard Othello (RuleSet).
	Rules engine.Rules
	// Start is the position before the first move of a standard Othello
	// game; a game under other rules starts from the start of its rules
	// (StartBoard).
	Start  engine.Bitboard
	Moves  []engine.Point // the moves as recorded; passes only where the record writes them
	Black  string         // players' names, where the record has them
	White  string
	Event  string
	Year   int
	Time   string  // the time control as the record writes it: GGF's TI, main/increment/extension (15:00//02:00)
	Result *Result // the recorded result, if any
	Sheet  *Sheet  // the transcript sheet the game was read from, if it was one
	// Problem, if not nil, is a defect of the record found while reading it
	// (a sheet with a missing or doubled number); the moves stop before it.
	Problem *SheetProblem
}

// RuleSet returns the rules of g: g.Rules, or standard Othello for the zero value.
func (g Game) RuleSet() engine.Rules {
	if g.Rules == (engine.Rules{}) {
		return engine.Othello()
	}
	return g.Rules
}

// newGame returns a game without moves under r, from the start of r.
func newGame(name string, r engine.Rules) Game {
	g := Game{Name: name, Rules: r}
	if r.Standard() {
		g.Start = engine.Start()
	}
	return g
}

// Sentinel errors wrapped in a *ParseError.
var (
	ErrSyntax      = errors.New("syntax error")
	ErrTruncated   = errors.New("truncated")
	ErrUnsupported = errors.New("unsupported")
	ErrEmpty       = errors.New("no game found")
)

// ParseError is a reading error with its place in the input.
type ParseError struct {
	Format   Format
	Line     int    // 1-based line (text formats) or game number (WTHOR)
	Column   int    // 1-based column (text) or byte offset in the game record (WTHOR); 0 if unknown
	Expected string // what the reader expected there
	Found    string // what it found
	Err      error  // ErrSyntax, ErrTruncated, ErrUnsupported or ErrEmpty
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Format.String())
	if e.Format == WTHOR {
		if e.Line > 0 {
			fmt.Fprintf(&b, ": game %d", e.Line)
		}
		if e.Column > 0 {
			fmt.Fprintf(&b, ", byte %d", e.Column)
		}
	} else if e.Line > 0 {
		fmt.Fprintf(&b, ": line %d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ", column %d", e.Column)
		}
	}
	b.WriteString(": ")
	switch {
	case e.Expected != "" && e.Found != "":
		fmt.Fprintf(&b, "expected %s, found %s", e.Expected, e.Found)
	case e.Expected != "":
		fmt.Fprintf(&b, "expected %s", e.Expected)
	case e.Found != "":
		b.WriteString(e.Found)
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("invalid input")
	}
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// found quotes a piece of input for an error message, shortened.
func found(s string) string {
	if s == "" {
		return "end of input"
	}
	if len(s) > 20 {
		s = s[:20] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// Detect guesses the format of data.
func Detect(data []byte) Format {
	switch {
	case looksWTHOR(data):
		return WTHOR
	case looksPGN(data):
		return PGN
	case bytes.Contains(data, []byte("(;")):
		return GGF
	case looksOBF(data):
		return OBF
	case looksSheet(data):
		return SheetFormat
	}
	return Moves
}

// Parse reads every game in data in the given format (Auto: detected). A
// move-list file with one game per line is a batch of games. The limits of
// the Reader apply.
func Parse(data []byte, f Format) ([]Game, error) {
	if f == Auto {
		f = Detect(data)
	}
	rd, err := NewReader(bytes.NewReader(data), f, nil)
	if err != nil {
		return nil, err
	}
	games, err := readAll(rd)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, &ParseError{Format: f, Expected: "at least one game", Found: "none", Err: ErrEmpty}
	}
	return games, nil
}

// readAll reads the games of rd to the end.
func readAll(rd *Reader) ([]Game, error) {
	var games []Game
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return games, nil
		}
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
}
