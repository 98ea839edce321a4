package engine

// The fast path of Position for the built-in players' search (engine/player):
// moves generated into the caller's buffer, a move played without
// re-checking it, and the mobility of either side.

// AppendMoves appends the moves Moves returns to buf, in the same order
// ([PassPoint] when the side to move must pass, nothing at game over), and
// returns the extended slice. It allocates only when buf is too short.
func (g Position) AppendMoves(buf []Point) []Point {
	n := len(buf)
	c := g.toMove
	switch {
	case !g.hasDiscs(c):
	case g.opening():
		for _, i := range g.geo.squares {
			if g.legal(int(i), c) {
				buf = append(buf, g.point(int(i)))
			}
		}
	default:
		me, opp := disc(c), disc(c.Opponent())
		for _, i := range g.geo.squares {
			if g.cells[i] == empty && g.flanks(int(i), me, opp) {
				buf = append(buf, g.point(int(i)))
			}
		}
	}
	if len(buf) == n && g.Mobility(c.Opponent()) > 0 {
		buf = append(buf, PassPoint)
	}
	return buf
}

// PlayLegal returns the game after p, which must be one of g's Moves
// (PassPoint when g must pass). Unlike Play it does not check p: an illegal
// p gives a game that follows no rules.
func (g Position) PlayLegal(p Point) Position {
	if p == PassPoint {
		g.toMove ^= 1
		return g
	}
	g.place(g.index(p))
	return g
}

// Mobility returns the number of squares where c may place a disc now,
// whoever is to move: 0 when c has placed all its supply.
func (g Position) Mobility(c Color) int {
	n := 0
	switch {
	case !g.hasDiscs(c):
	case g.opening():
		for _, i := range g.geo.centre {
			if g.cells[i] == empty {
				n++
			}
		}
	default:
		me, opp := disc(c), disc(c.Opponent())
		for _, i := range g.geo.squares {
			if g.cells[i] == empty && g.flanks(int(i), me, opp) {
				n++
			}
		}
	}
	return n
}

// flanks reports whether a disc me on the empty square i would outflank a
// line of opp's discs (the legality of a move outside the Reversi opening).
func (g *Position) flanks(i int, me, opp int8) bool {
	for _, d := range g.geo.dirs {
		j := i + d
		if g.cells[j] != opp {
			continue
		}
		for j += d; g.cells[j] == opp; j += d {
		}
		if g.cells[j] == me {
			return true
		}
	}
	return false
}
