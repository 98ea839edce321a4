package player

import (
	"math/bits"

	"github.com/otd-project/otd/engine"
)

// The evaluation of the alpha-beta player, from the side to move (discs p)
// against the opponent (discs o), in hundredths of a disc, roughly.

const (
	cornerMask = 0x8100000000000081
	// Edge squares other than corners and C-squares: a3-a6, h3-h6, c1-f1, c8-f8.
	edgeMask = 0x3C0081818181003C
	notA     = 0xFEFEFEFEFEFEFEFE
	notH     = 0x7F7F7F7F7F7F7F7F
)

// Per corner (a1, h1, a8, h8): its X-square and its two C-squares.
var (
	cornerSq = [4]uint64{1 << 0, 1 << 7, 1 << 56, 1 << 63}
	xSq      = [4]uint64{1 << 9, 1 << 14, 1 << 49, 1 << 54}
	cSq      = [4]uint64{1<<1 | 1<<8, 1<<6 | 1<<15, 1<<48 | 1<<57, 1<<55 | 1<<62}
)

// Weights of the evaluation terms.
const (
	wMobility  = 70  // per legal move more than the opponent
	wPotential = 25  // per empty square next to an opponent's disc, more than the opponent has
	wCorner    = 500 // per corner
	wXSquare   = 250 // per X-square held next to an empty corner (a penalty)
	wCSquare   = 80  // per C-square held next to an empty corner (a penalty)
	wEdge      = 20  // per edge disc (not a corner or C-square)
	wParity    = 60  // the side to move expects the last move (odd empties), late in the game
	wDiscLate  = 8   // per disc, in the last 14 empties
)

// neighbours returns the squares next to (in any direction) a disc of b.
func neighbours(b uint64) uint64 {
	l := (b >> 1) & notH // towards column a
	r := (b << 1) & notA // towards column h
	row := b | l | r
	return (row | row<<8 | row>>8) &^ b
}

// evaluate scores the position for the side to move (p against o).
func evaluate(p, o uint64) int {
	empty := ^(p | o)
	mp, mo := bits.OnesCount64(engine.MovesOf(p, o)), bits.OnesCount64(engine.MovesOf(o, p))
	score := wMobility * (mp - mo)
	score += wPotential * (bits.OnesCount64(neighbours(o)&empty) - bits.OnesCount64(neighbours(p)&empty))
	score += wCorner * (bits.OnesCount64(p&cornerMask) - bits.OnesCount64(o&cornerMask))
	var xm, cm uint64
	for i := range 4 {
		if empty&cornerSq[i] != 0 {
			xm |= xSq[i]
			cm |= cSq[i]
		}
	}
	score -= wXSquare * (bits.OnesCount64(p&xm) - bits.OnesCount64(o&xm))
	score -= wCSquare * (bits.OnesCount64(p&cm) - bits.OnesCount64(o&cm))
	score += wEdge * (bits.OnesCount64(p&edgeMask) - bits.OnesCount64(o&edgeMask))
	n := bits.OnesCount64(empty)
	if n <= 24 {
		if n&1 == 1 {
			score += wParity
		} else {
			score -= wParity
		}
	}
	if n <= 14 {
		score += wDiscLate * (bits.OnesCount64(p) - bits.OnesCount64(o))
	}
	return score
}

// squareWeight orders moves cheaply: corners first, X-squares last.
var squareWeight = [64]int8{
	9, 2, 6, 5, 5, 6, 2, 9,
	2, 0, 3, 3, 3, 3, 0, 2,
	6, 3, 5, 4, 4, 5, 3, 6,
	5, 3, 4, 4, 4, 4, 3, 5,
	5, 3, 4, 4, 4, 4, 3, 5,
	6, 3, 5, 4, 4, 5, 3, 6,
	2, 0, 3, 3, 3, 3, 0, 2,
	9, 2, 6, 5, 5, 6, 2, 9,
}
