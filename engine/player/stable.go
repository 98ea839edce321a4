package player

import "math/bits"

// Stable discs, for the endgame solver's stability cutoff: discs that no
// sequence of moves can flip, by a sufficient condition. A disc is stable when
// along each of the four lines through it the line is full, or on one side
// the board ends or the neighbour is a stable disc of the same colour.

const (
	colA  = 0x0101010101010101
	colH  = 0x8080808080808080
	row1  = 0x00000000000000FF
	row8  = 0xFF00000000000000
	edges = colA | colH | row1 | row8
)

// diag9 and diag7 are the diagonals of length 3 or more (a1-h8 and h1-a8 ways).
var diag9, diag7 []uint64

func init() {
	for start := -5; start <= 5; start++ {
		var d9, d7 uint64
		for c := 0; c < 8; c++ {
			if r := c + start; r >= 0 && r < 8 {
				d9 |= 1 << uint(r*8+c)
			}
			if r := 7 - c + start; r >= 0 && r < 8 {
				d7 |= 1 << uint(r*8+c)
			}
		}
		diag9 = append(diag9, d9)
		diag7 = append(diag7, d7)
	}
}

// fullLines returns, for each of the four directions, the squares whose line
// in that direction is full.
func fullLines(filled uint64) (h, v, d9, d7 uint64) {
	for r := 0; r < 64; r += 8 {
		if filled>>uint(r)&0xFF == 0xFF {
			h |= 0xFF << uint(r)
		}
	}
	c := filled & (filled >> 8)
	c &= c >> 16
	c &= c >> 32
	v = (c & 0xFF) * colA
	for _, d := range diag9 {
		if filled&d == d {
			d9 |= d
		}
	}
	for _, d := range diag7 {
		if filled&d == d {
			d7 |= d
		}
	}
	// Lines of one or two squares at the corners cannot be flipped along.
	d9 |= 1<<7 | 1<<6 | 1<<15 | 1<<56 | 1<<57 | 1<<48
	d7 |= 1<<0 | 1<<1 | 1<<8 | 1<<63 | 1<<62 | 1<<55
	return h, v, d9, d7
}

// stableDiscs returns the discs of o that are stable (see above); filled is
// every disc on the board.
func stableDiscs(o, filled uint64) uint64 {
	fh, fv, f9, f7 := fullLines(filled)
	fh |= colA | colH
	fv |= row1 | row8
	f9 |= edges
	f7 |= edges
	var st uint64
	for {
		h := fh | (st<<1)&notA | (st>>1)&notH
		v := fv | st<<8 | st>>8
		d9 := f9 | (st<<9)&notA | (st>>9)&notH
		d7 := f7 | (st<<7)&notH | (st>>7)&notA
		n := st | o&h&v&d9&d7
		if n == st {
			return st
		}
		st = n
	}
}

// stableCount is the number of stable discs of o.
func stableCount(o, filled uint64) int { return bits.OnesCount64(stableDiscs(o, filled)) }
