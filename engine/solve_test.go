package engine

import (
	"fmt"
	"math/bits"
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

// solveStart solves n x n Othello from the start and returns the value for
// black and the final score of a line of perfect play (guess: white's value,
// see value). The four first moves are alike by the symmetries of the start,
// so it solves the position after d3.
func (s *solver) solveStart(guess int) (int, Score) {
	pos, _ := Start().Play(SquareAt(3, 2))
	v := -s.value(pos.White, pos.Black, guess)
	for w := -v; ; {
		own, opp := pos.own()
		m := MovesOf(own, opp) & s.mask
		if m == 0 && MovesOf(opp, own)&s.mask == 0 {
			sc := pos.Score()
			if e := s.n*s.n - sc.Black - sc.White; s.emptiesToWinner && sc.Black > sc.White {
				sc.Black += e
			} else if s.emptiesToWinner && sc.White > sc.Black {
				sc.White += e
			}
			return v, sc
		}
		if m == 0 {
			pos.ToMove, w = pos.ToMove.Opponent(), -w
			continue
		}
		found := false
		for ; m != 0 && !found; m &= m - 1 { // a move whose value is w
			next, _ := pos.Play(Square(bits.TrailingZeros64(m)))
			p2, o2 := next.own()
			if s.nws(p2, o2, -w-1) >= -w && s.nws(p2, o2, -w) <= -w {
				pos, w, found = next, -w, true
			}
		}
		if !found { // a wrong solver
			panic(fmt.Sprintf("%v: no move has the value %d", pos, w))
		}
	}
}

// minimax is the plain reference for the solver: the whole game tree.
func minimax(p, o, mask uint64, squares int, emptiesToWinner bool) int {
	m := MovesOf(p, o) & mask
	if m == 0 {
		if MovesOf(o, p)&mask != 0 {
			return -minimax(o, p, mask, squares, emptiesToWinner)
		}
		pc, oc := bits.OnesCount64(p), bits.OnesCount64(o)
		d, e := pc-oc, squares-pc-oc
		switch {
		case !emptiesToWinner:
		case d > 0:
			d += e
		case d < 0:
			d -= e
		}
		return d
	}
	best := -100
	for ; m != 0; m &= m - 1 {
		q := Square(bits.TrailingZeros64(m))
		f := FlipsOf(p, o, q)
		best = max(best, -minimax(o&^f, p|f|q.Bit(), mask, squares, emptiesToWinner))
	}
	return best
}

// TestSolve4x4 solves 4x4 Othello: white, the second player, wins by 8 discs
// (a line of perfect play ends 3-11 with two squares empty). The reference's
// plain minimax agrees. With the empties to the winner, minimax gives the value.
func TestSolve4x4(t *testing.T) {
	s := newSolver(4, 16, false)
	s.shallowEmpties, s.ttEmpties, s.etcEmpties, s.symEmpties = 2, 3, 3, 4 // every technique, on a small board
	v, final := s.solveStart(0)
	if want := refFor(mustRules(t, "othello:4")).solve(); v != want || v != -8 {
		t.Errorf("4x4 value for black = %d, reference %d, want -8", v, want)
	}
	if final != (Score{3, 11}) {
		t.Errorf("4x4 perfect play ends %v, want 3-11", final)
	}
	s = newSolver(4, 16, true)
	s.shallowEmpties, s.ttEmpties, s.etcEmpties, s.symEmpties = 2, 3, 3, 4
	v, final = s.solveStart(0)
	if want := minimax(Start().Black, Start().White, innerMask(4), 16, true); v != want || final.Black-final.White != v {
		t.Errorf("4x4, empties to the winner: value for black = %d, minimax %d; perfect play ends %v", v, want, final)
	}
	t.Logf("4x4, empties to the winner: %+d for black, perfect play ends %v", v, final)
}

// TestSolverRandom6x6 checks the solver against minimax on positions of random
// 6x6 games with 9 to 11 empty squares (minimax takes seconds beyond): the value, and the fail-soft bounds
// of the null-window search at every alpha. Low thresholds make every
// technique run.
func TestSolverRandom6x6(t *testing.T) {
	rng := uint64(2024)
	mask := innerMask(6)
	for game := range 24 {
		target := 9 + game%3
		p, o := Start().Black, Start().White
		for bits.OnesCount64(mask&^(p|o)) > target {
			m := MovesOf(p, o) & mask
			if m == 0 {
				if MovesOf(o, p)&mask == 0 {
					break
				}
				p, o = o, p
				continue
			}
			for k := xorshift(&rng) % uint64(bits.OnesCount64(m)); k > 0; k-- {
				m &= m - 1
			}
			q := Square(bits.TrailingZeros64(m))
			f := FlipsOf(p, o, q)
			p, o = o&^f, p|f|q.Bit()
		}
		for _, etw := range []bool{true, false} {
			want := minimax(p, o, mask, 36, etw)
			s := newSolver(6, 12, etw)
			if game%2 == 0 {
				s.shallowEmpties, s.ttEmpties, s.etcEmpties, s.symEmpties = 3, 4, 5, 6
			}
			if v := s.value(p, o, int(xorshift(&rng)%9)*2-8); v != want {
				t.Fatalf("game %d (%x %x): value %d, minimax %d", game, p, o, v, want)
			}
			for alpha := -37; alpha <= 37; alpha += 3 {
				r := s.nws(p, o, alpha)
				if want <= alpha && (r < want || r > alpha) || want > alpha && (r <= alpha || r > want) {
					t.Fatalf("game %d (%x %x): nws(alpha %d) = %d, value %d", game, p, o, alpha, r, want)
				}
			}
		}
	}
}

// TestSymmetries checks the 8 symmetries on squares: each maps the 6x6 board
// onto itself, they differ, and untransform undoes transform.
func TestSymmetries(t *testing.T) {
	mask := innerMask(6)
	seen := map[uint64]bool{}
	for k := range 8 {
		if transform(mask, k) != mask {
			t.Errorf("symmetry %d moves the 6x6 board", k)
		}
		x := SquareAt(2, 1).Bit() | SquareAt(4, 1).Bit() // c2 e2: no symmetry keeps them
		seen[transform(x, k)] = true
		for sq := range Square(64) {
			c, r := int(sq)%8, int(sq)/8
			if k&1 != 0 {
				r = 7 - r
			}
			if k&2 != 0 {
				c = 7 - c
			}
			if k&4 != 0 {
				c, r = r, c
			}
			if got := transform(sq.Bit(), k); got != SquareAt(c, r).Bit() || untransform(got, k) != sq.Bit() {
				t.Fatalf("symmetry %d of %v: %x, want %v", k, sq, got, SquareAt(c, r))
			}
		}
	}
	if len(seen) != 8 {
		t.Errorf("%d distinct symmetries, want 8", len(seen))
	}
}

// BenchmarkSolve6x6 solves 6x6 Othello: 16-20, a win by 4 discs for white, the
// second player (Feinstein 1993). The first guess is white's value 4 (see
// value): the two null-window searches prove it.
func BenchmarkSolve6x6(b *testing.B) {
	for b.Loop() {
		s := newSolver(6, 24, true)
		start := time.Now()
		v, final := s.solveStart(4)
		if v != -4 || final != (Score{16, 20}) {
			b.Fatalf("6x6: value %d, perfect play ends %v; want -4, 16-20", v, final)
		}
		b.ReportMetric(float64(s.nodes), "nodes")
		b.Logf("6x6 Othello %v in %v, %d nodes", final, time.Since(start), s.nodes)
	}
}
