package player

import (
	"context"
	"math/bits"
	"time"

	"github.com/otd-project/otd/engine"
)

// The search of the alpha-beta player: a negamax alpha-beta (principal
// variation search) over raw bitboards, p the discs of the side to move and o
// the opponent's, with a transposition table and move ordering; and an exact
// endgame solver that returns the final disc difference.

// Scores of the midgame search: a finished game is worth winScale per disc of
// the final difference, beyond any evaluation.
const (
	winScale = 10000
	infinity = 1 << 30
)

// Bounds of a transposition-table entry.
const (
	boundExact = iota + 1
	boundLower
	boundUpper
)

type ttEntry struct {
	p, o  uint64
	score int32
	depth int8 // the midgame depth searched; unused by the endgame table
	bound int8
	move  int8 // best move, or -1
}

type table struct {
	e    []ttEntry
	mask uint64
}

func newTable(bitsN int) *table {
	return &table{e: make([]ttEntry, 1<<bitsN), mask: 1<<bitsN - 1}
}

func (t *table) slot(p, o uint64) *ttEntry {
	h := p*0x9E3779B97F4A7C15 ^ (o+0x632BE59BD9B4E019)*0xC2B2AE3D27D4EB4F
	return &t.e[(h>>29^h)&t.mask]
}

func (t *table) clear() { clear(t.e) }

// searcher holds the state of one search; it is not safe for concurrent use.
type searcher struct {
	mid, end *table
	nodes    uint64
	ctx      context.Context
	deadline time.Time // zero: none
	stop     bool
}

func newSearcher(ttBits int) *searcher {
	return &searcher{mid: newTable(ttBits), end: newTable(ttBits)}
}

// poll sets stop when the deadline has passed or ctx has ended; it looks every
// 1024 nodes.
func (s *searcher) poll() {
	if s.nodes&1023 != 0 || s.stop {
		return
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		s.stop = true
	} else if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stop = true
	}
}

// finalDiff is the final disc difference of a finished game for p, the empty
// squares going to the winner.
func finalDiff(p, o uint64) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	d, e := np-no, 64-np-no
	switch {
	case d > 0:
		return d + e
	case d < 0:
		return d - e
	}
	return 0
}

type scored struct {
	sq  engine.Square
	key int
}

// sortMoves sorts by key, highest first (insertion sort: lists are short).
func sortMoves(ms []scored) {
	for i := 1; i < len(ms); i++ {
		x := ms[i]
		j := i
		for ; j > 0 && ms[j-1].key < x.key; j-- {
			ms[j] = ms[j-1]
		}
		ms[j] = x
	}
}

// orderMid lists the moves of p in the order the midgame search tries them:
// the table's move, then (deep enough) fewest replies for the opponent, with
// the square weights breaking ties.
func orderMid(buf []scored, p, o, moves uint64, ttMove int8, depth int) []scored {
	ms := buf[:0]
	for m := moves; m != 0; m &= m - 1 {
		sq := engine.Square(bits.TrailingZeros64(m))
		key := int(squareWeight[sq]) * 4
		if depth >= 3 {
			f := engine.FlipsOf(p, o, sq)
			np, no := p|f|sq.Bit(), o&^f
			key -= 16 * bits.OnesCount64(engine.MovesOf(no, np))
		}
		if int8(sq) == ttMove {
			key = infinity
		}
		ms = append(ms, scored{sq, key})
	}
	sortMoves(ms)
	return ms
}

// alphaBeta searches depth plies below p to move; a pass does not count as a
// ply (a game cannot pass twice in a row without ending).
func (s *searcher) alphaBeta(p, o uint64, depth, alpha, beta int) int {
	s.nodes++
	s.poll()
	if s.stop {
		return 0
	}
	moves := engine.MovesOf(p, o)
	if moves == 0 {
		if engine.MovesOf(o, p) == 0 {
			return finalDiff(p, o) * winScale
		}
		return -s.alphaBeta(o, p, depth, -beta, -alpha)
	}
	if depth <= 0 {
		return evaluate(p, o)
	}
	e := s.mid.slot(p, o)
	ttMove := int8(-1)
	if e.p == p && e.o == o {
		ttMove = e.move
		if int(e.depth) >= depth {
			sc := int(e.score)
			switch {
			case e.bound == boundExact:
				return sc
			case e.bound == boundLower && sc >= beta:
				return sc
			case e.bound == boundUpper && sc <= alpha:
				return sc
			}
		}
	}
	var buf [32]scored
	ms := orderMid(buf[:], p, o, moves, ttMove, depth)
	a0 := alpha
	best, bestMove := -infinity, int8(-1)
	for i, m := range ms {
		f := engine.FlipsOf(p, o, m.sq)
		np, no := p|f|m.sq.Bit(), o&^f
		var sc int
		if i == 0 {
			sc = -s.alphaBeta(no, np, depth-1, -beta, -alpha)
		} else {
			sc = -s.alphaBeta(no, np, depth-1, -alpha-1, -alpha)
			if sc > alpha && sc < beta && !s.stop {
				sc = -s.alphaBeta(no, np, depth-1, -beta, -alpha)
			}
		}
		if s.stop {
			return 0
		}
		if sc > best {
			best, bestMove = sc, int8(m.sq)
			if sc > alpha {
				alpha = sc
				if alpha >= beta {
					break
				}
			}
		}
	}
	bound := int8(boundExact)
	switch {
	case best <= a0:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	*e = ttEntry{p: p, o: o, score: int32(best), depth: int8(depth), bound: bound, move: bestMove}
	return best
}

// Endgame solver. Below endSortMin empties it neither orders moves (but by
// parity) nor generates them; below endTTMin it stops using its table. It
// orders moves by the fewest replies for the opponent (fastest first), from
// endEvalMin empties by the evaluation (a 2-ply search there costs more
// than it saves on FFO #40-#44).
const (
	endSortMin = 6
	endTTMin   = 10
	endEvalMin = 15
)

// solve returns the exact final disc difference for p to move, the empties
// going to the winner, within (alpha, beta): a fail-soft bound outside it.
func (s *searcher) solve(p, o uint64, alpha, beta int) int {
	empty := ^(p | o)
	n := bits.OnesCount64(empty)
	if n < endSortMin {
		return s.solveShallow(p, o, alpha, beta, false)
	}
	s.nodes++
	s.poll()
	if s.stop {
		return 0
	}
	// Stability cutoff: p cannot end with more than the squares that are
	// not o's stable discs.
	if alpha >= 64-2*bits.OnesCount64(o) {
		if up := 64 - 2*stableCount(o, p|o); up <= alpha {
			return up
		}
	}
	moves := engine.MovesOf(p, o)
	if moves == 0 {
		if engine.MovesOf(o, p) == 0 {
			return finalDiff(p, o)
		}
		return -s.solve(o, p, -beta, -alpha)
	}
	var e *ttEntry
	ttMove := int8(-1)
	if n >= endTTMin {
		e = s.end.slot(p, o)
		if e.p == p && e.o == o {
			ttMove = e.move
			sc := int(e.score)
			switch {
			case e.bound == boundExact:
				return sc
			case e.bound == boundLower && sc >= beta:
				return sc
			case e.bound == boundUpper && sc <= alpha:
				return sc
			case e.bound == boundLower && sc > alpha:
				alpha = sc
			case e.bound == boundUpper && sc < beta:
				beta = sc
			}
		}
	}
	// The table's move first, then the best by the ordering above.
	var buf [32]scored
	ms := buf[:0]
	odd, _ := parityFirst(empty)
	for m := moves; m != 0; m &= m - 1 {
		sq := engine.Square(bits.TrailingZeros64(m))
		f := engine.FlipsOf(p, o, sq)
		np, no := p|f|sq.Bit(), o&^f
		var key int
		if n >= endEvalMin {
			key = -evaluate(no, np)
		} else {
			reply := engine.MovesOf(no, np)
			key = -64*(bits.OnesCount64(reply)+bits.OnesCount64(reply&cornerMask)) + int(squareWeight[sq])
			if odd&sq.Bit() != 0 {
				key += 8
			}
		}
		if int8(sq) == ttMove {
			key = infinity
		}
		ms = append(ms, scored{sq, key})
	}
	sortMoves(ms)
	a0 := alpha
	best, bestMove := -infinity, int8(-1)
	for i, m := range ms {
		f := engine.FlipsOf(p, o, m.sq)
		np, no := p|f|m.sq.Bit(), o&^f
		var sc int
		if i == 0 {
			sc = -s.solve(no, np, -beta, -alpha)
		} else {
			sc = -s.solve(no, np, -alpha-1, -alpha)
			if sc > alpha && sc < beta && !s.stop {
				sc = -s.solve(no, np, -beta, -alpha)
			}
		}
		if s.stop {
			return 0
		}
		if sc > best {
			best, bestMove = sc, int8(m.sq)
			if sc > alpha {
				alpha = sc
				if alpha >= beta {
					break
				}
			}
		}
	}
	if e != nil {
		bound := int8(boundExact)
		switch {
		case best <= a0:
			bound = boundUpper
		case best >= beta:
			bound = boundLower
		}
		*e = ttEntry{p: p, o: o, score: int32(best), bound: bound, move: bestMove}
	}
	return best
}

// parityFirst orders the empties of the last few plies: squares in regions
// (quadrants) with an odd number of empties first.
func parityFirst(empty uint64) (odd, even uint64) {
	const q0, q1, q2, q3 = 0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32
	for _, q := range [4]uint64{q0, q1, q2, q3} {
		if bits.OnesCount64(empty&q)&1 == 1 {
			odd |= empty & q
		} else {
			even |= empty & q
		}
	}
	return odd, even
}

// solveShallow is solve for the last few empties: no move generation, no
// ordering but parity (empties in odd quadrants first), no table; a move is
// legal when it flips. passed: the opponent has just passed.
func (s *searcher) solveShallow(p, o uint64, alpha, beta int, passed bool) int {
	s.nodes++
	s.poll()
	if s.stop {
		return 0
	}
	empty := ^(p | o)
	if empty&(empty-1) == 0 {
		if empty == 0 {
			return finalDiff(p, o)
		}
		return s.lastMove(p, o, engine.Square(bits.TrailingZeros64(empty)))
	}
	odd, even := parityFirst(empty)
	best := -infinity
	for _, set := range [2]uint64{odd, even} {
		for m := set; m != 0; m &= m - 1 {
			sq := engine.Square(bits.TrailingZeros64(m))
			f := engine.FlipsOf(p, o, sq)
			if f == 0 {
				continue
			}
			sc := -s.solveShallow(o&^f, p|f|sq.Bit(), -beta, -alpha, false)
			if sc > best {
				best = sc
				if sc > alpha {
					alpha = sc
					if alpha >= beta {
						return best
					}
				}
			}
		}
	}
	if best == -infinity {
		if passed {
			return finalDiff(p, o)
		}
		return -s.solveShallow(o, p, -beta, -alpha, true)
	}
	return best
}

// lastMove is the final difference when one square, sq, is left empty.
func (s *searcher) lastMove(p, o uint64, sq engine.Square) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	if f := bits.OnesCount64(engine.FlipsOf(p, o, sq)); f != 0 {
		return np + 1 + f - (no - f)
	}
	if f := bits.OnesCount64(engine.FlipsOf(o, p, sq)); f != 0 {
		return np - f - (no + 1 + f)
	}
	return finalDiff(p, o)
}

// rootSolve solves the position exactly: the best move and its score (the
// final disc difference for the side to move). ok is false when the search
// was stopped before it finished.
func (s *searcher) rootSolve(p, o uint64, first engine.Square) (best engine.Square, score int, ok bool) {
	moves := engine.MovesOf(p, o)
	var buf [32]scored
	ms := buf[:0]
	for m := moves; m != 0; m &= m - 1 {
		sq := engine.Square(bits.TrailingZeros64(m))
		f := engine.FlipsOf(p, o, sq)
		key := -64*bits.OnesCount64(engine.MovesOf(o&^f, p|f|sq.Bit())) + int(squareWeight[sq])
		if sq == first {
			key = infinity
		}
		ms = append(ms, scored{sq, key})
	}
	sortMoves(ms)
	alpha, beta := -65, 65
	best = engine.NoSquare
	for i, m := range ms {
		f := engine.FlipsOf(p, o, m.sq)
		np, no := p|f|m.sq.Bit(), o&^f
		var sc int
		if i == 0 {
			sc = -s.solve(no, np, -beta, -alpha)
		} else {
			sc = -s.solve(no, np, -alpha-1, -alpha)
			if sc > alpha && !s.stop {
				sc = -s.solve(no, np, -beta, -alpha)
			}
		}
		if s.stop {
			return best, alpha, false
		}
		if sc > alpha {
			alpha, best = sc, m.sq
		}
	}
	return best, alpha, true
}

// rootMid is one iteration of the midgame search at the root, the moves in
// the order given; it returns the moves reordered best first, with the best
// move and its score. When stopped, best is the best move fully searched
// (NoSquare if none).
func (s *searcher) rootMid(p, o uint64, ms []scored, depth int) (best engine.Square, score int) {
	alpha, beta := -infinity, infinity
	best = engine.NoSquare
	for i := range ms {
		m := &ms[i]
		f := engine.FlipsOf(p, o, m.sq)
		np, no := p|f|m.sq.Bit(), o&^f
		var sc int
		if i == 0 {
			sc = -s.alphaBeta(no, np, depth-1, -beta, -alpha)
		} else {
			sc = -s.alphaBeta(no, np, depth-1, -alpha-1, -alpha)
			if sc > alpha && !s.stop {
				sc = -s.alphaBeta(no, np, depth-1, -beta, -alpha)
			}
		}
		if s.stop {
			return best, alpha
		}
		m.key = sc
		if sc > alpha {
			alpha, best = sc, m.sq
		}
	}
	for i := range ms {
		if ms[i].sq == best {
			ms[i].key = infinity // searched first next time
		}
	}
	sortMoves(ms)
	return best, alpha
}
