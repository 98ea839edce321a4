package engine

// Conversions between the general Game (any rule set, squares as Point) and
// the 8x8 fast path (Position, squares as Move).

// Point returns the square of m as a Point; PassPoint for a pass.
func (m Move) Point() Point {
	if m == Pass {
		return PassPoint
	}
	s := Square(m)
	return Point{int8(s.Col()), int8(s.Row())}
}

// Move returns p as a move of the 8x8 board, and false for a square off it.
func (p Point) Move() (Move, bool) {
	if p == PassPoint {
		return Pass, true
	}
	if p.Col < 0 || p.Col >= 8 || p.Row < 0 || p.Row >= 8 {
		return Pass, false
	}
	return MoveAt(SquareAt(int(p.Col), int(p.Row))), true
}

// Position returns g as a Position of the fast path, and false unless g is
// played under standard Othello (Rules.Standard).
func (g Game) Position() (Position, bool) {
	if !g.rules.Standard() {
		return Position{}, false
	}
	pos := Position{ToMove: g.toMove}
	for s := range Square(64) {
		if c, ok := g.At(Point{int8(s.Col()), int8(s.Row())}); ok {
			if c == Black {
				pos.Black |= s.Bit()
			} else {
				pos.White |= s.Bit()
			}
		}
	}
	return pos, true
}

// Empties returns the number of playable squares without a disc.
func (g Game) Empties() int { return len(g.geo.squares) - int(g.count[Black]+g.count[White]) }

// FinalScore returns the disc count of a finished game with the empty squares
// given to the winner (split for a tie), as Board.FinalScore does on 8x8.
// Under Anti-Othello (FewestDiscs) it is the discs on the board: empties
// added to the winner's count could turn the result around (a 13-0 wipe-out
// with 51 empty is white's win); the tournament records an Anti-Othello
// result by its own count.
func (g Game) FinalScore() Score {
	s, e := g.Score(), g.Empties()
	c, ok := g.Winner()
	switch {
	case g.rules.Winner == FewestDiscs:
	case !ok:
		s.Black, s.White = len(g.geo.squares)/2, len(g.geo.squares)/2
	case c == Black:
		s.Black += e
	default:
		s.White += e
	}
	return s
}

// GameOf returns the standard Othello Game of the position p.
func GameOf(p Position) Game {
	g, _ := NewGame(Othello())
	for s := range Square(64) {
		i := g.index(Point{int8(s.Col()), int8(s.Row())})
		g.cells[i] = empty
		if c, ok := p.At(s); ok {
			g.cells[i] = disc(c)
		}
	}
	b, w := p.Count()
	g.count = [2]int16{int16(b), int16(w)}
	g.placed = g.count
	g.toMove = p.ToMove
	return g
}

// IsPass reports whether p is a pass.
func (p Point) IsPass() bool { return p == PassPoint }

// Equal reports whether g and h are the same position: rules, discs, side to
// move and the discs each side has placed. (Games are not comparable with ==:
// they share their rules' geometry by pointer.)
func (g Game) Equal(h Game) bool {
	return g.rules == h.rules && g.cells == h.cells && g.toMove == h.toMove && g.placed == h.placed && g.count == h.count
}
