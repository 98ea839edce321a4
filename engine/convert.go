package engine

// Conversions between the general Position (any rule set, squares as Point) and
// the 8x8 fast path (Bitboard, squares as Square).

// Point returns s as a Point; PassPoint for a pass.
func (s Square) Point() Point {
	if s == Pass {
		return PassPoint
	}
	return Point{int8(s.Col()), int8(s.Row())}
}

// Square returns p as a square of the 8x8 board (Pass for PassPoint), and
// false for a square off it.
func (p Point) Square() (Square, bool) {
	if p == PassPoint {
		return Pass, true
	}
	if p.Col < 0 || p.Col >= 8 || p.Row < 0 || p.Row >= 8 {
		return Pass, false
	}
	return SquareAt(int(p.Col), int(p.Row)), true
}

// Bitboard returns g as a Bitboard of the fast path, and false unless g is
// played under standard Othello (Rules.Standard).
func (g Position) Bitboard() (Bitboard, bool) {
	if !g.rules.Standard() {
		return Bitboard{}, false
	}
	pos := Bitboard{ToMove: g.toMove}
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
func (g Position) Empties() int { return len(g.geo.squares) - int(g.count[Black]+g.count[White]) }

// FinalScore returns the disc count of a finished game with the empty squares
// given to the winner (split for a tie), as Board.FinalScore does on 8x8.
// Under Anti-Othello (FewestDiscs) it is the discs on the board: empties
// added to the winner's count could turn the result around (a 13-0 wipe-out
// with 51 empty is white's win); the tournament records an Anti-Othello
// result by its own count.
func (g Position) FinalScore() Score {
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

// FromBitboard returns the bitboard position p as a Position (standard Othello).
func FromBitboard(p Bitboard) Position {
	g, _ := NewPosition(Othello())
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
// move and the discs each side has placed. (Positions are not comparable with ==:
// they share their rules' geometry by pointer.)
func (g Position) Equal(h Position) bool {
	return g.rules == h.rules && g.cells == h.cells && g.toMove == h.toMove && g.placed == h.placed && g.count == h.count
}
