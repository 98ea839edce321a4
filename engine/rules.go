package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Shape is the set of playable squares of an n x n board.
type Shape uint8

// The shapes.
const (
	// FullBoard: every square of the n x n board.
	FullBoard Shape = iota
	// EightStars: "Othello 8Stars", the 10x10 board less three squares at each
	// corner: the corner and its two neighbours on the edges (a1, b1, a2 and
	// likewise at j1, a10 and j10), 88 squares with eight corners (c1, h1, a3,
	// j3, a8, j8, c10, h10).
	EightStars
)

func (s Shape) String() string { return name(s, "full", "8stars") }

// name returns the name of an enumeration's value v, or its number.
func name[T ~uint8](v T, names ...string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return strconv.Itoa(int(v))
}

// Opening is how a game starts.
type Opening uint8

// The openings.
const (
	// DiagonalStart is Othello's: white on the two centre squares of the
	// diagonal from the top left (d4, e5 on 8x8), black on the other two.
	DiagonalStart Opening = iota
	// ReversiStart is historical Reversi's: an empty board whose first four
	// moves (black, white, black, white) must each fill one of the four centre
	// squares, in any arrangement, without flipping; normal moves follow.
	ReversiStart
)

func (o Opening) String() string { return name(o, "diagonal", "reversi") }

// Goal says who wins a finished game.
type Goal uint8

// The goals.
const (
	MostDiscs   Goal = iota // Othello: the player with more discs wins
	FewestDiscs             // Anti-Othello: the player with fewer discs wins
)

func (g Goal) String() string { return name(g, "most", "fewest") }

// Rules is a rule set of the game (RULES.md section 1). The zero value is not
// valid; Othello() is the standard game.
type Rules struct {
	Size   int     // the side of the board: even, 4 to 16
	Shape  Shape   // FullBoard, or EightStars (10x10 only)
	Start  Opening // DiagonalStart or ReversiStart
	Winner Goal    // MostDiscs or FewestDiscs
	// Supply is the number of discs each player has, 0 for no limit
	// (historical Reversi: 32 each, half the squares). A player who has placed
	// all of theirs has no legal move: they pass while the opponent can move,
	// and the game is over when neither can (RULES.md section 1: a pass is
	// never voluntary and never chosen, only forced).
	Supply int
}

// Othello returns the rules of standard 8x8 Othello.
func Othello() Rules { return Rules{Size: 8} }

// Standard reports whether r is standard 8x8 Othello, which runs on the
// bitboard fast path (Position, Perft).
func (r Rules) Standard() bool { return r == Othello() }

// Squares returns the number of playable squares.
func (r Rules) Squares() int {
	if r.Shape == EightStars {
		return r.Size*r.Size - 12
	}
	return r.Size * r.Size
}

// Playable reports whether the square in column col and row row (from 0) is on
// the board.
func (r Rules) Playable(col, row int) bool {
	n := r.Size
	if col < 0 || row < 0 || col >= n || row >= n {
		return false
	}
	if r.Shape == EightStars {
		c, w := min(col, n-1-col), min(row, n-1-row) // distance to the nearest edges
		return c+w >= 2
	}
	return true
}

// WinnerOf returns the winning colour of a finished game with score s under r,
// and false for a tie.
func (r Rules) WinnerOf(s Score) (Color, bool) {
	c, ok := s.Winner()
	if r.Winner == FewestDiscs {
		c = c.Opponent()
	}
	return c, ok
}

// ErrBadRules is returned for a rule set that is not valid or a rules name
// that cannot be parsed.
var ErrBadRules = errors.New("rules are NAME[+NAME...][:SIZE], NAME one of othello, anti, reversi, 8stars, supply=N; SIZE even, 4 to 16")

// Validate reports whether r is a rule set the engine plays.
func (r Rules) Validate() error {
	switch {
	case r.Size < 4 || r.Size > 16 || r.Size%2 != 0:
		return fmt.Errorf("board size %d is not even from 4 to 16: %w", r.Size, ErrBadRules)
	case r.Shape > EightStars || r.Start > ReversiStart || r.Winner > FewestDiscs:
		return fmt.Errorf("%+v: %w", r, ErrBadRules)
	case r.Shape == EightStars && r.Size != 10:
		return fmt.Errorf("8stars is played on 10x10, not %dx%d: %w", r.Size, r.Size, ErrBadRules)
	case r.Supply < 0:
		return fmt.Errorf("a supply of %d discs: %w", r.Supply, ErrBadRules)
	}
	return nil
}

// ParseRules parses a rules name as the command line takes it:
// NAME[+NAME...][:SIZE], case-insensitive. The names change standard Othello:
//
//	othello    standard Othello (the default; alone, or for a size: "othello:6")
//	anti       Anti-Othello: the fewest discs win
//	reversi    historical Reversi: the Reversi opening, and half the squares each
//	           (32 on 8x8) as the supply
//	8stars     the Othello 8Stars board (10x10, see EightStars)
//	supply=N   N discs each (0: no limit), after reversi's
//
// SIZE is the board side; the default is 8 (10 for 8stars). Examples: "anti",
// "reversi:6", "anti+8stars". String gives the canonical name back.
func ParseRules(name string) (Rules, error) {
	words, size, hasSize := strings.Cut(strings.ToLower(strings.TrimSpace(name)), ":")
	n := 0
	if hasSize {
		var err error
		if n, err = strconv.Atoi(size); err != nil {
			return Rules{}, fmt.Errorf("rules %q: size %q: %w", name, size, ErrBadRules)
		}
	}
	return RulesFor(words, n)
}

// RulesFor returns the rules of a name without size (NAME[+NAME...], see
// ParseRules) on a board of side size; size 0 means the name's default. It
// serves --rules NAME --size N.
func RulesFor(name string, size int) (Rules, error) {
	r, supply, reversi := Othello(), -1, false
	for _, w := range strings.Split(strings.ToLower(strings.TrimSpace(name)), "+") {
		switch {
		case w == "othello":
		case w == "anti":
			r.Winner = FewestDiscs
		case w == "reversi":
			r.Start, reversi = ReversiStart, true
		case w == "8stars":
			r.Shape, r.Size = EightStars, 10
		case strings.HasPrefix(w, "supply="):
			n, err := strconv.Atoi(w[len("supply="):])
			if err != nil || n < 0 {
				return Rules{}, fmt.Errorf("rules %q: %q: %w", name, w, ErrBadRules)
			}
			supply = n
		default:
			return Rules{}, fmt.Errorf("rules %q: unknown name %q: %w", name, w, ErrBadRules)
		}
	}
	if size != 0 {
		r.Size = size
	}
	if reversi {
		r.Supply = r.Squares() / 2
	}
	if supply >= 0 {
		r.Supply = supply
	}
	if err := r.Validate(); err != nil {
		return Rules{}, fmt.Errorf("rules %q: %w", name, err)
	}
	return r, nil
}

// String returns the canonical name of r, which ParseRules reads back:
// "othello", "othello:6", "anti+reversi", "8stars", "reversi+supply=0:10".
func (r Rules) String() string {
	var words []string
	if r.Winner == FewestDiscs {
		words = append(words, "anti")
	}
	defSupply := 0
	if r.Start == ReversiStart {
		words = append(words, "reversi")
		defSupply = r.Squares() / 2
	}
	defSize := 8
	if r.Shape == EightStars {
		words, defSize = append(words, "8stars"), 10
	}
	if r.Supply != defSupply {
		words = append(words, "supply="+strconv.Itoa(r.Supply))
	}
	if len(words) == 0 {
		words = []string{"othello"}
	}
	s := strings.Join(words, "+")
	if r.Size != defSize {
		s += ":" + strconv.Itoa(r.Size)
	}
	return s
}

// MarshalText writes the rules' canonical name (String).
func (r Rules) MarshalText() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a rules name with ParseRules.
func (r *Rules) UnmarshalText(b []byte) (err error) {
	*r, err = ParseRules(string(b))
	return err
}
