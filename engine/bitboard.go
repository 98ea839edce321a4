package engine

import "math/bits"

// The hot path: move generation and flips on raw bitboards, p the discs of the
// side to move and o the opponent's. No per-square loops.

const notEdgeCols = 0x7E7E7E7E7E7E7E7E // columns b-g: a line cannot wrap through them

// MovesOf returns the legal moves of the player with discs p against o:
// empty squares that end a line of o-discs running from a p-disc, found for
// each direction by a Kogge-Stone parallel prefix (written out: it is the hot path).
func MovesOf(p, o uint64) uint64 {
	oi := o & notEdgeCols
	var mv, f, pre uint64
	// shift 1
	pre = oi & (oi << 1)
	f = oi & (p << 1)
	f |= oi & (f << 1)
	f |= pre & (f << 2)
	f |= pre & (f << 2)
	mv |= f << 1
	pre >>= 1
	f = oi & (p >> 1)
	f |= oi & (f >> 1)
	f |= pre & (f >> 2)
	f |= pre & (f >> 2)
	mv |= f >> 1
	// shift 8
	pre = o & (o << 8)
	f = o & (p << 8)
	f |= o & (f << 8)
	f |= pre & (f << 16)
	f |= pre & (f << 16)
	mv |= f << 8
	pre >>= 8
	f = o & (p >> 8)
	f |= o & (f >> 8)
	f |= pre & (f >> 16)
	f |= pre & (f >> 16)
	mv |= f >> 8
	// shift 7
	pre = oi & (oi << 7)
	f = oi & (p << 7)
	f |= oi & (f << 7)
	f |= pre & (f << 14)
	f |= pre & (f << 14)
	mv |= f << 7
	pre >>= 7
	f = oi & (p >> 7)
	f |= oi & (f >> 7)
	f |= pre & (f >> 14)
	f |= pre & (f >> 14)
	mv |= f >> 7
	// shift 9
	pre = oi & (oi << 9)
	f = oi & (p << 9)
	f |= oi & (f << 9)
	f |= pre & (f << 18)
	f |= pre & (f << 18)
	mv |= f << 9
	pre >>= 9
	f = oi & (p >> 9)
	f |= oi & (f >> 9)
	f |= pre & (f >> 18)
	f |= pre & (f >> 18)
	mv |= f >> 9
	return mv &^ (p | o)
}

// rays[s][d] holds the squares from s (exclusive) to the edge in direction d.
// Directions 0-3 run towards higher squares, 4-7 towards lower ones.
var rays [64][8]uint64

func init() {
	dc := [8]int{1, -1, 0, 1, -1, 1, 0, -1}
	dr := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	for s := 0; s < 64; s++ {
		for d := 0; d < 8; d++ {
			c, r := s&7+dc[d], s>>3+dr[d]
			for c >= 0 && c < 8 && r >= 0 && r < 8 {
				rays[s][d] |= 1 << uint(r*8+c)
				c, r = c+dc[d], r+dr[d]
			}
		}
	}
}

// FlipsOf returns the discs of o that a p-disc on s would flip (0 if none).
// Along each ray the nearest square that is not o's must be p's: in rays
// towards higher squares it is the lowest such bit, in the others the highest.
func FlipsOf(p, o uint64, s Square) uint64 {
	r := &rays[uint(s)&63]
	n := ^o
	return up(r[0], n, p) | up(r[1], n, p) | up(r[2], n, p) | up(r[3], n, p) |
		down(r[4], n, p) | down(r[5], n, p) | down(r[6], n, p) | down(r[7], n, p)
}

func up(r, notO, p uint64) uint64 {
	x := notO & r
	of := x & -x & p               // the outflanking disc, or 0
	return (of - (of|-of)>>63) & r // the squares below it on the ray; 0 without one
}

func down(r, notO, p uint64) uint64 {
	x := notO & r
	// x|1 spares the bit scan its zero test; & r drops that sentinel bit again.
	of := uint64(1) << uint(bits.Len64(x|1)-1) & p & r
	return r &^ (of<<1 - 1) // the squares above it on the ray; 0 without one
}

// PerftOf counts the leaves of the game tree of the given depth below the
// position where p is to move against o. A forced pass uses one ply; a position
// where neither side can move is a leaf, counted once, whatever depth remains.
func PerftOf(p, o uint64, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	m := MovesOf(p, o)
	if m == 0 {
		if depth == 1 || MovesOf(o, p) == 0 {
			return 1
		}
		return PerftOf(o, p, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(m))
	}
	var n uint64
	if depth == 2 { // bulk count: each child's leaves are its moves, or 1 (a pass or the end)
		for m != 0 {
			s := Square(bits.TrailingZeros64(m))
			m &= m - 1
			f := FlipsOf(p, o, s)
			if m == 0 {
				n += max(uint64(bits.OnesCount64(MovesOf(o^f, p|f|s.Bit()))), 1)
				break
			}
			t := Square(bits.TrailingZeros64(m))
			m &= m - 1
			g := FlipsOf(p, o, t)
			a, b := movesOf2(o^f, p|f|s.Bit(), o^g, p|g|t.Bit())
			n += max(uint64(bits.OnesCount64(a)), 1) + max(uint64(bits.OnesCount64(b)), 1)
		}
		return n
	}
	for ; m != 0; m &= m - 1 {
		s := Square(bits.TrailingZeros64(m))
		f := FlipsOf(p, o, s)
		n += PerftOf(o^f, p|f|s.Bit(), depth-1)
	}
	return n
}

// movesOf2 is MovesOf of two positions at once, interleaved so that the
// processor overlaps their dependency chains (the bulk-count loop of perft).
func movesOf2(pa, oa, pb, ob uint64) (uint64, uint64) {
	oia, oib := oa&notEdgeCols, ob&notEdgeCols
	var mva, mvb, fa, fb, prea, preb uint64
	prea = oia & (oia << 1)
	fa = oia & (pa << 1)
	fa |= oia & (fa << 1)
	fa |= prea & (fa << 2)
	fa |= prea & (fa << 2)
	mva |= fa << 1
	prea >>= 1
	fa = oia & (pa >> 1)
	fa |= oia & (fa >> 1)
	fa |= prea & (fa >> 2)
	fa |= prea & (fa >> 2)
	mva |= fa >> 1
	preb = oib & (oib << 1)
	fb = oib & (pb << 1)
	fb |= oib & (fb << 1)
	fb |= preb & (fb << 2)
	fb |= preb & (fb << 2)
	mvb |= fb << 1
	preb >>= 1
	fb = oib & (pb >> 1)
	fb |= oib & (fb >> 1)
	fb |= preb & (fb >> 2)
	fb |= preb & (fb >> 2)
	mvb |= fb >> 1
	prea = oa & (oa << 8)
	fa = oa & (pa << 8)
	fa |= oa & (fa << 8)
	fa |= prea & (fa << 16)
	fa |= prea & (fa << 16)
	mva |= fa << 8
	prea >>= 8
	fa = oa & (pa >> 8)
	fa |= oa & (fa >> 8)
	fa |= prea & (fa >> 16)
	fa |= prea & (fa >> 16)
	mva |= fa >> 8
	preb = ob & (ob << 8)
	fb = ob & (pb << 8)
	fb |= ob & (fb << 8)
	fb |= preb & (fb << 16)
	fb |= preb & (fb << 16)
	mvb |= fb << 8
	preb >>= 8
	fb = ob & (pb >> 8)
	fb |= ob & (fb >> 8)
	fb |= preb & (fb >> 16)
	fb |= preb & (fb >> 16)
	mvb |= fb >> 8
	prea = oia & (oia << 7)
	fa = oia & (pa << 7)
	fa |= oia & (fa << 7)
	fa |= prea & (fa << 14)
	fa |= prea & (fa << 14)
	mva |= fa << 7
	prea >>= 7
	fa = oia & (pa >> 7)
	fa |= oia & (fa >> 7)
	fa |= prea & (fa >> 14)
	fa |= prea & (fa >> 14)
	mva |= fa >> 7
	preb = oib & (oib << 7)
	fb = oib & (pb << 7)
	fb |= oib & (fb << 7)
	fb |= preb & (fb << 14)
	fb |= preb & (fb << 14)
	mvb |= fb << 7
	preb >>= 7
	fb = oib & (pb >> 7)
	fb |= oib & (fb >> 7)
	fb |= preb & (fb >> 14)
	fb |= preb & (fb >> 14)
	mvb |= fb >> 7
	prea = oia & (oia << 9)
	fa = oia & (pa << 9)
	fa |= oia & (fa << 9)
	fa |= prea & (fa << 18)
	fa |= prea & (fa << 18)
	mva |= fa << 9
	prea >>= 9
	fa = oia & (pa >> 9)
	fa |= oia & (fa >> 9)
	fa |= prea & (fa >> 18)
	fa |= prea & (fa >> 18)
	mva |= fa >> 9
	preb = oib & (oib << 9)
	fb = oib & (pb << 9)
	fb |= oib & (fb << 9)
	fb |= preb & (fb << 18)
	fb |= preb & (fb << 18)
	mvb |= fb << 9
	preb >>= 9
	fb = oib & (pb >> 9)
	fb |= oib & (fb >> 9)
	fb |= preb & (fb >> 18)
	fb |= preb & (fb >> 18)
	mvb |= fb >> 9
	return mva &^ (pa | oa), mvb &^ (pb | ob)
}
