package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Point is a square of a board of any size: column and row from 0, named
// a1..p16 (columns a-p left to right, rows 1-16 top to bottom).
type Point struct{ Col, Row int8 }

// PassPoint is the move of a player who has no legal move (Position.Play).
var PassPoint = Point{-1, -1}

func (p Point) String() string {
	if p == PassPoint {
		return "pass"
	}
	if p.Col < 0 || p.Col >= 16 || p.Row < 0 || p.Row >= 16 {
		return "??"
	}
	return fmt.Sprintf("%c%d", 'a'+p.Col, p.Row+1)
}

// FormatMoves writes moves as a compact move list, such as f5d6c3 (or
// j10a9 on a larger board); passes are left implicit, as they are forced.
func FormatMoves(moves []Point) string {
	var b strings.Builder
	for _, m := range moves {
		if m != PassPoint {
			b.WriteString(m.String())
		}
	}
	return b.String()
}

// ErrBadPoint is returned for a square name that is not a1..p16.
var ErrBadPoint = errors.New("not a square a1..p16")

// ParsePoint parses a square name such as "j10" (any case).
func ParsePoint(s string) (Point, error) {
	if len(s) == 2 || len(s) == 3 {
		col := s[0] | 0x20
		row, err := strconv.Atoi(s[1:])
		if err == nil && col >= 'a' && col <= 'p' && s[1] >= '1' && s[1] <= '9' && row <= 16 {
			return Point{int8(col - 'a'), int8(row - 1)}, nil
		}
	}
	return PassPoint, fmt.Errorf("%q: %w", s, ErrBadPoint)
}

// Errors of Position.Play beside those of Bitboard.Play. Check them with errors.Is.
var (
	ErrOffBoard  = errors.New("the square is not on the board")
	ErrNotCentre = errors.New("the first four moves of Reversi fill the four centre squares")
)

// A Position's board is a mailbox: rows of a wall cell and Size squares (so each
// row's wall is also the right wall of the row above), wall rows above and
// below, and walls on the squares the shape cuts. A line stops at a wall.
const (
	empty int8 = 0 // black is 1, white 2: disc(c)
	wall  int8 = 3
	// maxCells is the mailbox of a 16x16 board: 18 rows of 17 and the wall
	// after the last.
	maxCells = 18*17 + 1
)

func disc(c Color) int8 { return int8(c) + 1 }

// geometry is what games under the same rules share.
type geometry struct {
	width   int     // Size + 1
	dirs    [8]int  // the 8 directions as index steps
	squares []int16 // the playable squares in order a1, b1, ..., row by row
	centre  [4]int16
}

// Position is a position of any rule set (Rules): the board, the side to
// move and the discs each side has placed: the state of a game, as
// notnil/chess's Position (the moves that led to it are a transcript's). It
// is the general, slower implementation; standard Othello also has the
// bitboard fast path (Bitboard). A Position is a value: Play returns a new
// one.
type Position struct {
	rules  Rules
	geo    *geometry
	cells  [maxCells]int8
	toMove Color
	placed [2]int16 // discs each colour has placed (the supply)
	count  [2]int16 // discs of each colour on the board
}

// NewPosition returns the starting position of r, black to move.
func NewPosition(r Rules) (Position, error) {
	if err := r.Validate(); err != nil {
		return Position{}, err
	}
	n, w := r.Size, r.Size+1
	g := Position{rules: r, geo: &geometry{width: w, dirs: [8]int{1, -1, w, -w, w + 1, w - 1, -w + 1, -w - 1}}}
	for i := range g.cells {
		g.cells[i] = wall
	}
	for row := range n {
		for col := range n {
			if r.Playable(col, row) {
				i := g.index(Point{int8(col), int8(row)})
				g.cells[i] = empty
				g.geo.squares = append(g.geo.squares, int16(i))
			}
		}
	}
	m := int8(n/2 - 1)
	for k, p := range []Point{{m, m}, {m + 1, m + 1}, {m, m + 1}, {m + 1, m}} {
		i := g.index(p)
		g.geo.centre[k] = int16(i)
		if r.Start == DiagonalStart { // white on the first two, black on the others
			c := Color(k/2) ^ 1
			g.cells[i] = disc(c)
			g.count[c]++
		}
	}
	return g, nil
}

func (g *Position) index(p Point) int { return (int(p.Row)+1)*g.geo.width + int(p.Col) + 1 }

func (g *Position) point(i int) Point {
	return Point{int8(i%g.geo.width - 1), int8(i/g.geo.width - 1)}
}

// Rules returns the rules of the game.
func (g Position) Rules() Rules { return g.rules }

// ToMove returns the side to move.
func (g Position) ToMove() Color { return g.toMove }

// At returns the colour on p and whether p holds a disc.
func (g Position) At(p Point) (Color, bool) {
	if !g.rules.Playable(int(p.Col), int(p.Row)) {
		return Black, false
	}
	d := g.cells[g.index(p)]
	return Color(d - 1), d != empty
}

// Placed returns the number of discs colour c has placed (its supply used).
func (g Position) Placed(c Color) int { return int(g.placed[c]) }

// Score returns the disc count as it stands.
func (g Position) Score() Score { return Score{int(g.count[Black]), int(g.count[White])} }

// Winner returns the winner by the disc count as it stands under the game's
// rules (most or fewest discs), and false for a tie.
func (g Position) Winner() (Color, bool) { return g.rules.WinnerOf(g.Score()) }

// opening reports whether the game is in the Reversi opening.
func (g *Position) opening() bool {
	return g.rules.Start == ReversiStart && g.placed[0]+g.placed[1] < 4
}

// hasDiscs reports whether c has a disc left to place.
func (g *Position) hasDiscs(c Color) bool {
	return g.rules.Supply == 0 || int(g.placed[c]) < g.rules.Supply
}

// legal reports whether c may place a disc on the empty square i.
func (g *Position) legal(i int, c Color) bool {
	if g.cells[i] != empty || !g.hasDiscs(c) {
		return false
	}
	if g.opening() {
		for _, k := range g.geo.centre {
			if int(k) == i {
				return true
			}
		}
		return false
	}
	return g.flanks(i, disc(c), disc(c.Opponent()))
}

func (g *Position) hasMove(c Color) bool {
	for _, i := range g.geo.squares {
		if g.legal(int(i), c) {
			return true
		}
	}
	return false
}

// place plays the legal move i of the side to move.
func (g *Position) place(i int) {
	c := g.toMove
	me, opp := disc(c), disc(c.Opponent())
	var n int16
	if !g.opening() {
		for _, d := range g.geo.dirs {
			j := i + d
			for g.cells[j] == opp {
				j += d
			}
			if g.cells[j] == me {
				for k := i + d; k != j; k += d {
					g.cells[k] = me
					n++
				}
			}
		}
	}
	g.cells[i] = me
	g.placed[c]++
	g.count[c] += n + 1
	g.count[c^1] -= n
	g.toMove = c ^ 1
}

// Moves returns the legal moves in square order: [PassPoint] when the side to
// move must pass, none when the game is over.
func (g Position) Moves() []Point {
	var ms []Point
	for _, i := range g.geo.squares {
		if g.legal(int(i), g.toMove) {
			ms = append(ms, g.point(int(i)))
		}
	}
	if ms == nil && g.hasMove(g.toMove.Opponent()) {
		ms = []Point{PassPoint}
	}
	return ms
}

// MustPass reports whether the side to move has no legal move but the opponent has.
func (g Position) MustPass() bool { return !g.hasMove(g.toMove) && g.hasMove(g.toMove.Opponent()) }

// GameOver reports whether neither side can move.
func (g Position) GameOver() bool { return !g.hasMove(g.toMove) && !g.hasMove(g.toMove.Opponent()) }

// Play returns the game after p (PassPoint for a pass), or an error saying why
// p is illegal: the errors of Position.Play, ErrOffBoard, ErrNotCentre, and
// ErrMustPass for a player whose supply is used up.
func (g Position) Play(p Point) (Position, error) {
	if p != PassPoint && g.rules.Playable(int(p.Col), int(p.Row)) && g.legal(g.index(p), g.toMove) {
		g.place(g.index(p)) // the usual case: no need to look at every square
		return g, nil
	}
	own, opp := g.hasMove(g.toMove), g.hasMove(g.toMove.Opponent())
	if p == PassPoint {
		switch {
		case own:
			return g, ErrPassWrong
		case !opp:
			return g, ErrGameOver
		}
		g.toMove ^= 1
		return g, nil
	}
	if !g.rules.Playable(int(p.Col), int(p.Row)) {
		return g, fmt.Errorf("%s on %s: %w", p, g.rules, ErrOffBoard)
	}
	i := g.index(p)
	switch {
	case !own && !opp:
		return g, ErrGameOver
	case g.cells[i] != empty:
		return g, ErrOccupied
	case !g.hasDiscs(g.toMove):
		return g, fmt.Errorf("%s has placed all %d discs: %w", g.toMove, g.rules.Supply, ErrMustPass)
	case !own:
		return g, ErrMustPass
	case g.opening():
		return g, ErrNotCentre
	}
	return g, ErrNoFlip
}

// String returns the board row by row, Size x Size characters from a1: X
// black, O white, - empty, # not on the board.
func (g Position) String() string {
	var sb strings.Builder
	for row := range g.rules.Size {
		for col := range g.rules.Size {
			sb.WriteByte("-XO#"[g.cells[g.index(Point{int8(col), int8(row)})]])
		}
	}
	return sb.String()
}

// Perft counts the leaves of the game tree of the given depth below g, with
// the conventions of PerftOf: a forced pass uses one ply; a position where
// neither side can move is a leaf, counted once, whatever depth remains.
func (g Position) Perft(depth int) uint64 { return g.perft(depth) }

func (g *Position) perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var n uint64
	for _, i := range g.geo.squares {
		if !g.legal(int(i), g.toMove) {
			continue
		}
		if depth == 1 {
			n++
			continue
		}
		h := *g
		h.place(int(i))
		n += h.perft(depth - 1)
	}
	if n > 0 {
		return n
	}
	if depth == 1 || !g.hasMove(g.toMove.Opponent()) {
		return 1
	}
	h := *g
	h.toMove ^= 1
	return h.perft(depth - 1)
}

// PerftRules counts the leaves of the game tree of the given depth from the
// start of r: on the bitboard fast path (Perft) for standard Othello, by Position
// for every other rule set.
func PerftRules(r Rules, depth int) (uint64, error) {
	if r.Standard() {
		return Perft(Start(), depth), nil
	}
	g, err := NewPosition(r)
	if err != nil {
		return 0, err
	}
	return g.Perft(depth), nil
}
