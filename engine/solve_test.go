package engine

import (
	"fmt"
	"math/bits"
	"os"
	"testing"
	"time"
)

// An n x n board with n <= 8 is the centre of the 8x8 bitboard: its squares
// are the inner ones, the others stay empty, so no line of discs crosses
// them, and MovesOf masked to the inner squares gives its legal moves. The
// centre start of every even n is the 8x8 Start. The solver below uses this;
// TestInnerBoardPerft checks it against Game.
func innerMask(n int) uint64 {
	var m uint64
	lo := (8 - n) / 2
	for r := lo; r < lo+n; r++ {
		for c := lo; c < lo+n; c++ {
			m |= SquareAt(c, r).Bit()
		}
	}
	return m
}

func innerPerft(p, o, mask uint64, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	m := MovesOf(p, o) & mask
	if m == 0 {
		if depth == 1 || MovesOf(o, p)&mask == 0 {
			return 1
		}
		return innerPerft(o, p, mask, depth-1)
	}
	var n uint64
	for ; m != 0; m &= m - 1 {
		s := Square(bits.TrailingZeros64(m))
		f := FlipsOf(p, o, s)
		n += innerPerft(o&^f, p|f|s.Bit(), mask, depth-1)
	}
	return n
}

func TestInnerBoardPerft(t *testing.T) {
	for _, tc := range []struct{ size, depth int }{{4, 14}, {6, 9}} {
		g := mustGame(t, "othello:"+string(rune('0'+tc.size)))
		for d := 1; d <= tc.depth; d++ {
			if got, want := innerPerft(Start().Black, Start().White, innerMask(tc.size), d), g.Perft(d); got != want {
				t.Errorf("%dx%d perft(%d) on the inner bitboard = %d, Game %d", tc.size, tc.size, d, got, want)
			}
		}
	}
}

// solver is an exact solver of n x n Othello, n <= 8: negamax alpha-beta with
// principal variation search on the final disc difference, a transposition
// table, and moves ordered by the table's best move, then by the opponent's
// mobility (fewest replies first).
type solver struct {
	mask    uint64
	corners uint64
	tt      []ttEntry
	shift   uint
	nodes   uint64
}

type ttEntry struct {
	p, o   uint64 // the discs of the side to move and of the opponent
	lo, hi int8   // the value lies in [lo, hi]
	best   int8   // the best move, -1 for none
}

func newSolver(n int, ttBits uint) *solver {
	lo, hi := (8-n)/2, (8+n)/2-1
	corners := SquareAt(lo, lo).Bit() | SquareAt(hi, lo).Bit() | SquareAt(lo, hi).Bit() | SquareAt(hi, hi).Bit()
	return &solver{mask: innerMask(n), corners: corners, tt: make([]ttEntry, 1<<ttBits), shift: 64 - ttBits}
}

// solve returns the final disc difference, the side to move's discs (p) less
// the opponent's (o), under perfect play: exact when it lies strictly between
// alpha and beta, else a bound on the side of the window it falls.
func (s *solver) solve(p, o uint64, alpha, beta int) int {
	s.nodes++
	moves := MovesOf(p, o) & s.mask
	if moves == 0 {
		if MovesOf(o, p)&s.mask == 0 {
			return bits.OnesCount64(p) - bits.OnesCount64(o)
		}
		return -s.solve(o, p, -beta, -alpha)
	}
	if bits.OnesCount64(s.mask&^(p|o)) <= shallow {
		return s.shallow(p, o, moves, alpha, beta)
	}
	e := &s.tt[(p*0x9E3779B97F4A7C15^o*0xC2B2AE3D27D4EB4F)>>s.shift]
	hit := e.p == p && e.o == o
	lo, hi := -128, 127 // what the table knew; e may hold another position after the search
	if hit {
		lo, hi = int(e.lo), int(e.hi)
		if lo >= beta || lo == hi {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		alpha, beta = max(alpha, lo), min(beta, hi)
	}
	// order: insertion sort by the opponent's mobility, the table's move first
	var sq [32]Square
	var key [32]int
	n := 0
	for ; moves != 0; moves &= moves - 1 {
		q := Square(bits.TrailingZeros64(moves))
		f := FlipsOf(p, o, q)
		k := bits.OnesCount64(MovesOf(o&^f, p|f|q.Bit()) & s.mask)
		if s.corners&q.Bit() != 0 {
			k -= 10
		}
		if hit && int8(q) == e.best {
			k = -1
		}
		j := n
		for ; j > 0 && k < key[j-1]; j-- {
			sq[j], key[j] = sq[j-1], key[j-1]
		}
		sq[j], key[j] = q, k
		n++
	}
	best, bestMove, a := -128, Square(-1), alpha
	for i, q := range sq[:n] {
		f := FlipsOf(p, o, q)
		np, no := o&^f, p|f|q.Bit()
		var v int
		if i == 0 {
			v = -s.solve(np, no, -beta, -a)
		} else if v = -s.solve(np, no, -a-1, -a); v > a && v < beta {
			v = -s.solve(np, no, -beta, -v)
		}
		if v > best {
			best, bestMove = v, q
			if v >= beta {
				break
			}
			a = max(a, v)
		}
	}
	switch {
	case best <= alpha:
		hi = best
	case best >= beta:
		lo = best
	default:
		lo, hi = best, best
	}
	*e = ttEntry{p: p, o: o, lo: int8(lo), hi: int8(hi), best: int8(bestMove)}
	return best
}

// shallow is how many empty squares the solver searches without the table and
// the ordering, which cost more there than they save.
const shallow = 6

// shallow is solve near the end: plain alpha-beta over the moves in square order.
func (s *solver) shallow(p, o, moves uint64, alpha, beta int) int {
	best := -128
	for ; moves != 0; moves &= moves - 1 {
		q := Square(bits.TrailingZeros64(moves))
		f := FlipsOf(p, o, q)
		if v := -s.solve(o&^f, p|f|q.Bit(), -beta, -max(alpha, best)); v > best {
			if best = v; v >= beta {
				break
			}
		}
	}
	return best
}

// value returns the exact value of the position by MTD(f): null-window
// searches from the guess 0 (a close game) until the bounds meet. With
// progress, it says how far it got after each search.
func (s *solver) value(p, o uint64, progress func(lower, upper int)) int {
	lower, upper, g := -128, 127, 0
	for lower < upper {
		if progress != nil {
			progress(lower, upper)
		}
		beta := g
		if g == lower {
			beta = g + 1
		}
		if g = s.solve(p, o, beta-1, beta); g < beta {
			upper = g
		} else {
			lower = g
		}
	}
	return g
}

// solveStart solves n x n Othello from the start and returns the value for
// black and the final score of a line of perfect play. The four first moves
// are alike by the symmetries of the start, so it solves the position after
// d3 (the centre's top left square's neighbour above).
func (s *solver) solveStart(progress func(lower, upper int)) (int, Score) {
	pos, _ := Start().Play(MoveAt(SquareAt(3, 2)))
	v := -s.value(pos.White, pos.Black, progress)
	for w := -v; ; {
		own, opp := pos.own()
		m := MovesOf(own, opp) & s.mask
		if m == 0 && MovesOf(opp, own)&s.mask == 0 {
			return v, pos.Score()
		}
		if m == 0 {
			pos.ToMove, w = pos.ToMove.Opponent(), -w
			continue
		}
		for ; m != 0; m &= m - 1 { // a move whose value is w
			q := Square(bits.TrailingZeros64(m))
			next, _ := pos.Play(MoveAt(q))
			p2, o2 := next.own()
			if -s.solve(p2, o2, -w-1, -w+1) == w {
				pos, w = next, -w
				break
			}
		}
	}
}

// TestSolve4x4 solves 4x4 Othello: white, the second player, wins by 8 discs
// (a line of perfect play ends 3-11 with two squares empty). The reference's
// plain minimax agrees.
func TestSolve4x4(t *testing.T) {
	v, final := newSolver(4, 16).solveStart(nil)
	if want := refFor(mustRules(t, "othello:4")).solve(); v != want || v != -8 {
		t.Errorf("4x4 value for black = %d, reference %d, want -8", v, want)
	}
	if c, ok := final.Winner(); !ok || c != White || final.Black-final.White != v {
		t.Errorf("4x4 perfect play ends %v, want a white win by %d", final, -v)
	}
	t.Logf("4x4 Othello: %+d for black, perfect play ends %v", v, final)
}

// BenchmarkSolve6x6 solves 6x6 Othello: 16-20, a win for the second player
// (Feinstein 1993).
func BenchmarkSolve6x6(b *testing.B) {
	for b.Loop() {
		s := newSolver(6, 24)
		start := time.Now()
		v, final := s.solveStart(func(lower, upper int) {
			if testing.Verbose() { // how far it got, as it goes (b.Log waits for the end)
				fmt.Fprintf(os.Stderr, "6x6: %v, %d nodes: white's value in [%d, %d]\n", time.Since(start), s.nodes, lower, upper)
			}
		})
		if v != -4 || final != (Score{16, 20}) {
			b.Fatalf("6x6: value %d, perfect play ends %v; want -4, 16-20", v, final)
		}
		b.ReportMetric(float64(s.nodes), "nodes")
		b.Logf("6x6 Othello %v in %v, %d nodes", final, time.Since(start), s.nodes)
	}
}
