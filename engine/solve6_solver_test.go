package engine

import "math/bits"

// solver is an exact endgame solver of n x n Othello, n <= 8 and even, on the
// centre of the 8x8 bitboard (see innerMask). It runs null-window alpha-beta
// (fail-soft negamax) on the final disc difference, the side to move's discs
// less the opponent's; with emptiesToWinner the squares left empty count for
// the winner (the tournament rule), else they count for nobody. The
// techniques, by the number of empty squares:
//   - more than shallowEmpties: moves generated and ordered fastest first
//     (the table's move, then the moves leaving the opponent the fewest
//     replies, see search); from ttEmpties a transposition table (buckets of
//     a deepest-first and an always-replaced slot), from symEmpties probed
//     under the board's canonical form among its 8 symmetries, and from
//     etcEmpties enhanced transposition cutoffs (a child the table already
//     refutes ends the search);
//   - few empties (<= shallowEmpties): no table and no move generation: the
//     empty squares are tried in a fixed order, parity first (quadrants with
//     an odd number of empties), then corners before edges before X-squares;
//   - three and two empties: the squares by parity, without loops;
//   - the last empty square: only its flips are computed.
type solver struct {
	mask            uint64
	n               int
	emptiesToWinner bool
	quads           [4]uint64 // the board's quarters, for parity
	quad            [64]int8  // the quarter of each square
	order           []uint64  // the squares by static preference
	tt              []ttBucket
	ttShift         uint
	nodes           uint64

	// the empty-square thresholds of the techniques above (tuned on 6x6)
	shallowEmpties, ttEmpties, etcEmpties, symEmpties int
}

type ttEntry struct {
	p, o    uint64 // the position, in canonical form at symEmpties and above
	lo, hi  int8   // the value lies in [lo, hi]
	move    int8   // the best move, -1 for none
	empties int8   // the depth, for replacement
	_       [8]byte
}

// ttBucket is a cache line: a slot kept for the deeper position, and one always replaced.
type ttBucket [2]ttEntry

func newSolver(n int, ttBits uint, emptiesToWinner bool) *solver {
	s := &solver{mask: innerMask(n), n: n, emptiesToWinner: emptiesToWinner,
		tt: make([]ttBucket, 1<<(ttBits-1)), ttShift: 65 - ttBits,
		shallowEmpties: 6, ttEmpties: 9, etcEmpties: 12, symEmpties: 14}
	lo, hi := (8-n)/2, (8+n)/2-1
	var corners, x, c uint64
	for _, k := range [4][2]int{{lo, lo}, {hi, lo}, {lo, hi}, {hi, hi}} {
		dc, dr := 1, 1
		if k[0] == hi {
			dc = -1
		}
		if k[1] == hi {
			dr = -1
		}
		corners |= SquareAt(k[0], k[1]).Bit()
		x |= SquareAt(k[0]+dc, k[1]+dr).Bit()
		c |= SquareAt(k[0]+dc, k[1]).Bit() | SquareAt(k[0], k[1]+dr).Bit()
	}
	var edges uint64
	for i := lo; i <= hi; i++ {
		edges |= SquareAt(i, lo).Bit() | SquareAt(i, hi).Bit() | SquareAt(lo, i).Bit() | SquareAt(hi, i).Bit()
	}
	x &= s.mask
	c &= s.mask
	edges &^= corners | c
	s.order = []uint64{corners, edges, s.mask &^ (corners | edges | c | x), c, x}
	h := lo + n/2
	for r := lo; r <= hi; r++ {
		for col := lo; col <= hi; col++ {
			q := 0
			if col >= h {
				q |= 1
			}
			if r >= h {
				q |= 2
			}
			s.quads[q] |= SquareAt(col, r).Bit()
			s.quad[SquareAt(col, r)] = int8(q)
		}
	}
	return s
}

// final is the value of a finished game.
func (s *solver) final(p, o uint64) int {
	pc, oc := bits.OnesCount64(p), bits.OnesCount64(o)
	d := pc - oc
	if s.emptiesToWinner {
		e := s.n*s.n - pc - oc
		if d > 0 {
			d += e
		} else if d < 0 {
			d -= e
		}
	}
	return d
}

// value returns the exact value of the position by MTD(f): null-window
// searches around a guess until the bounds meet. The searches are exact, so
// the guess only affects the time: on a board where every value has the
// parity of the guess (an even n with emptiesToWinner), a right guess g takes
// two searches, proving v > g-2 (that is v >= g) and v < g+2 (v <= g).
func (s *solver) value(p, o uint64, guess int) int {
	lower, upper, g := -64, 64, guess
	for lower < upper {
		beta := g
		if g == lower {
			beta = g + 1
		}
		if g = s.nws(p, o, beta-1); g < beta {
			upper = g
		} else {
			lower = g
		}
	}
	return g
}

// nws is the null-window search: it returns the value v of the position if
// v <= alpha or v > alpha (v >= alpha+1), else a bound on that side (fail-soft).
func (s *solver) nws(p, o uint64, alpha int) int {
	empties := bits.OnesCount64(s.mask &^ (p | o))
	if empties <= s.shallowEmpties {
		return s.shallow(p, o, alpha, empties)
	}
	return s.search(p, o, MovesOf(p, o)&s.mask, alpha, empties)
}

// child is a move and the position after it.
type child struct {
	p, o, moves uint64 // the position, its mover's moves
	sq          Square
	key         int // lower is tried first
}

// search is nws with the table, for moves the legal moves of p (0 if none).
func (s *solver) search(p, o, moves uint64, alpha, empties int) int {
	s.nodes++
	if moves == 0 {
		om := MovesOf(o, p) & s.mask
		if om == 0 {
			return s.final(p, o)
		}
		return -s.search(o, p, om, -alpha-1, empties)
	}
	// the table, under the canonical symmetry
	cp, co, sym := p, o, 0
	if empties >= s.symEmpties {
		cp, co, sym = canonical(p, o)
	}
	var e *ttEntry
	if empties >= s.ttEmpties {
		e = s.probe(cp, co)
	}
	ttMove := Square(-1)
	lo, hi := -64, 64
	if e != nil {
		lo, hi = int(e.lo), int(e.hi)
		if lo > alpha {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		if e.move >= 0 {
			ttMove = Square(bits.TrailingZeros64(untransform(uint64(1)<<uint(e.move), sym)))
		}
	}

	// the moves and their keys, with the enhanced transposition cutoff
	var list [32]child
	n := 0
	empty := s.mask &^ (p | o)
	for m := moves; m != 0; m &= m - 1 {
		q := Square(bits.TrailingZeros64(m))
		f := FlipsOf(p, o, q)
		c := &list[n]
		n++
		c.sq, c.p, c.o = q, o&^f, p|f|q.Bit()
		c.moves = MovesOf(c.p, c.o) & s.mask
		if empties-1 >= s.etcEmpties && c.moves != 0 {
			xp, xo := c.p, c.o
			if empties-1 >= s.symEmpties {
				xp, xo, _ = canonical(xp, xo)
			}
			if ce := s.probe(xp, xo); ce != nil && -int(ce.hi) > alpha {
				return -int(ce.hi)
			}
		}
		if q == ttMove {
			c.key = -1 << 20
			continue
		}
		// fastest first: few replies for the opponent (corners count double),
		// few empties next to our discs (its potential mobility), and our
		// discs on or next to corners we hold
		mob := bits.OnesCount64(c.moves) + bits.OnesCount64(c.moves&s.order[0])
		c.key = 8*mob + bits.OnesCount64(neighbours(c.o)&empty&^q.Bit()) - 8*s.cornerStab(c.o)
	}
	// insertion sort
	for i := 1; i < n; i++ {
		for j := i; j > 0 && list[j].key < list[j-1].key; j-- {
			list[j], list[j-1] = list[j-1], list[j]
		}
	}

	best, bestMove := -64, Square(-1)
	for i := range list[:n] {
		c := &list[i]
		var v int
		if empties-1 <= s.shallowEmpties {
			v = -s.shallow(c.p, c.o, -alpha-1, empties-1)
		} else {
			v = -s.search(c.p, c.o, c.moves, -alpha-1, empties-1)
		}
		if v > best {
			best, bestMove = v, c.sq
			if v > alpha {
				break
			}
		}
	}
	if best > alpha {
		lo = max(lo, best)
	} else {
		hi = min(hi, best)
	}
	if empties >= s.ttEmpties {
		s.store(cp, co, lo, hi, int8(bits.TrailingZeros64(transform(bestMove.Bit(), sym))), empties)
	}
	return best
}

func (s *solver) bucket(p, o uint64) *ttBucket {
	return &s.tt[(p*0x9E3779B97F4A7C15^o*0xC2B2AE3D27D4EB4F^p>>29)>>s.ttShift]
}

func (s *solver) probe(p, o uint64) *ttEntry {
	b := s.bucket(p, o)
	if b[0].p == p && b[0].o == o && (p|o) != 0 {
		return &b[0]
	}
	if b[1].p == p && b[1].o == o && (p|o) != 0 {
		return &b[1]
	}
	return nil
}

// store keeps the position in the first slot if it is deeper than what is
// there (or the same position), else in the second.
func (s *solver) store(p, o uint64, lo, hi int, move int8, empties int) {
	b := s.bucket(p, o)
	e := &b[1]
	if b[0].p == p && b[0].o == o || int(b[0].empties) <= empties {
		if b[0].p != p || b[0].o != o {
			b[1] = b[0] // the deeper one moves down
		}
		e = &b[0]
	}
	*e = ttEntry{p: p, o: o, lo: int8(lo), hi: int8(hi), move: move, empties: int8(empties)}
}

// cornerStab counts the discs of x on a corner or next to a corner of x.
func (s *solver) cornerStab(x uint64) int {
	c := x & s.order[0]
	return bits.OnesCount64(c | neighbours(c)&x&s.mask)
}

func neighbours(x uint64) uint64 {
	// no wrap-around: the discs lie inside the outer ring of the 8x8 board
	return x<<1 | x>>1 | x<<8 | x>>8 | x<<7 | x>>7 | x<<9 | x>>9
}

// shallow is nws near the end of the game: the empty squares in the order of
// s.order, the ones in odd quadrants first, their flips computed directly.
func (s *solver) shallow(p, o uint64, alpha, empties int) int {
	empty := s.mask &^ (p | o)
	if empties <= 3 {
		x := Square(bits.TrailingZeros64(empty))
		z := Square(63 - bits.LeadingZeros64(empty))
		switch empties {
		case 1:
			return s.last(p, o, x)
		case 2:
			return s.two(p, o, alpha, x, z)
		case 3:
			return s.three(p, o, alpha, x, Square(bits.TrailingZeros64(empty&^x.Bit()&^z.Bit())), z)
		}
	}
	s.nodes++
	var odd uint64
	for _, q := range s.quads {
		if bits.OnesCount64(empty&q)&1 != 0 {
			odd |= q
		}
	}
	best, moved := -64, false
	for _, par := range [2]uint64{odd, ^odd} {
		for _, class := range s.order {
			for m := empty & par & class; m != 0; m &= m - 1 {
				q := Square(bits.TrailingZeros64(m))
				f := FlipsOf(p, o, q)
				if f == 0 {
					continue
				}
				moved = true
				if v := -s.shallow(o&^f, p|f|q.Bit(), -alpha-1, empties-1); v > best {
					if best = v; v > alpha {
						return best
					}
				}
			}
		}
	}
	if !moved { // a pass, or the end
		if MovesOf(o, p)&s.mask == 0 {
			return s.final(p, o)
		}
		return -s.shallow(o, p, -alpha-1, empties)
	}
	return best
}

// three is shallow with three empty squares, x, y and z: the one alone in
// its quadrant first (parity).
func (s *solver) three(p, o uint64, alpha int, x, y, z Square) int {
	s.nodes++
	switch qx, qy, qz := s.quad[x], s.quad[y], s.quad[z]; {
	case qx == qy && qy != qz:
		x, z = z, x
	case qx == qz && qy != qz:
		x, y = y, x
	}
	best, moved := 0, false
	for _, t := range [3][3]Square{{x, y, z}, {y, x, z}, {z, x, y}} {
		if f := FlipsOf(p, o, t[0]); f != 0 {
			v := -s.two(o&^f, p|f|t[0].Bit(), -alpha-1, t[1], t[2])
			if !moved || v > best {
				if best, moved = v, true; v > alpha {
					return v
				}
			}
		}
	}
	if moved {
		return best
	}
	if FlipsOf(o, p, x)|FlipsOf(o, p, y)|FlipsOf(o, p, z) != 0 { // a pass
		return -s.three(o, p, -alpha-1, x, y, z)
	}
	return s.final(p, o)
}

// two is shallow with two empty squares, x and y.
func (s *solver) two(p, o uint64, alpha int, x, y Square) int {
	s.nodes++
	best, moved := 0, false
	if f := FlipsOf(p, o, x); f != 0 {
		if best, moved = -s.last(o&^f, p|f|x.Bit(), y), true; best > alpha {
			return best
		}
	}
	if f := FlipsOf(p, o, y); f != 0 {
		if v := -s.last(o&^f, p|f|y.Bit(), x); !moved || v > best {
			return v
		}
		return best
	}
	if moved {
		return best
	}
	if FlipsOf(o, p, x)|FlipsOf(o, p, y) != 0 { // a pass
		return -s.two(o, p, -alpha-1, x, y)
	}
	return s.final(p, o)
}

// last is the value with one empty square, q.
func (s *solver) last(p, o uint64, q Square) int {
	s.nodes++
	if f := FlipsOf(p, o, q); f != 0 {
		return s.final(p|f|q.Bit(), o&^f)
	}
	if f := FlipsOf(o, p, q); f != 0 {
		return s.final(p&^f, o|f|q.Bit())
	}
	return s.final(p, o)
}

// The 8 symmetries of the square, on the 8x8 bitboard (a1 bit 0, h8 bit 63);
// they map the centre n x n board onto itself. transform applies, by the bits
// of k, a vertical flip, a horizontal mirror, a flip about the a1-h8 diagonal.
func flipVertical(x uint64) uint64 { return bits.ReverseBytes64(x) }

func mirrorHorizontal(x uint64) uint64 {
	x = x>>1&0x5555555555555555 | x&0x5555555555555555<<1
	x = x>>2&0x3333333333333333 | x&0x3333333333333333<<2
	return x>>4&0x0F0F0F0F0F0F0F0F | x&0x0F0F0F0F0F0F0F0F<<4
}

func flipDiagonal(x uint64) uint64 { // delta swaps
	t := 0x0F0F0F0F00000000 & (x ^ x<<28)
	x ^= t ^ t>>28
	t = 0x3333000033330000 & (x ^ x<<14)
	x ^= t ^ t>>14
	t = 0x5500550055005500 & (x ^ x<<7)
	return x ^ t ^ t>>7
}

func transform(x uint64, k int) uint64 {
	if k&1 != 0 {
		x = flipVertical(x)
	}
	if k&2 != 0 {
		x = mirrorHorizontal(x)
	}
	if k&4 != 0 {
		x = flipDiagonal(x)
	}
	return x
}

func untransform(x uint64, k int) uint64 {
	if k&4 != 0 {
		x = flipDiagonal(x)
	}
	if k&2 != 0 {
		x = mirrorHorizontal(x)
	}
	if k&1 != 0 {
		x = flipVertical(x)
	}
	return x
}

// canonical returns the least of the 8 symmetric images of the position and
// the symmetry that gives it.
func canonical(p, o uint64) (uint64, uint64, int) {
	var ps, os [8]uint64
	ps[0], os[0] = p, o
	ps[1], os[1] = flipVertical(p), flipVertical(o)
	ps[2], os[2] = mirrorHorizontal(p), mirrorHorizontal(o)
	ps[3], os[3] = mirrorHorizontal(ps[1]), mirrorHorizontal(os[1])
	for k := range 4 {
		ps[k+4], os[k+4] = flipDiagonal(ps[k]), flipDiagonal(os[k])
	}
	best := 0
	for k := 1; k < 8; k++ {
		if ps[k] < ps[best] || ps[k] == ps[best] && os[k] < os[best] {
			best = k
		}
	}
	return ps[best], os[best], best
}
