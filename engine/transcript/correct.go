package transcript

import (
	"fmt"
	"slices"

	"github.com/otd-project/otd/engine"
)

// Correction is a change to a transcript sheet that makes it replay legally.
type Correction struct {
	What   string // what was changed, e.g. "swap 23 (f4) and 24 (g4)"
	Sheet  Sheet  // the corrected sheet
	Over   bool   // the corrected game is finished
	Score  engine.Score
	Agrees bool // the corrected game is finished with the claimed result
	cost   int  // how unlikely the mistake is: lower is more plausible
	dist   int  // for a swap, how far apart the numbers are
}

// maxCorrections bounds the list Corrections returns.
const maxCorrections = 20

// Corrections searches for the smallest corrections that make sheet s replay
// legally, given that its first illegal move (or numbering defect) is move
// first: two numbers swapped; one number on the wrong square (and, if that
// square's own number was lost, that number restored); a missing number
// placed; a skipped number closed up; a doubled number made the missing one
// or the next. Candidates that agree with claimed (if given) come first, then
// finished games, then the most plausible mistakes: neighbouring numbers and
// neighbouring squares.
func Corrections(s Sheet, first int, claimed *Result) []Correction {
	var out []Correction
	seen := map[Sheet]bool{s: true}
	try := func(c Sheet, cost, dist int, what string, args ...any) {
		if seen[c] {
			return
		}
		seen[c] = true
		g := c.Game()
		if g.Problem != nil {
			return
		}
		r := Replay(g)
		if !r.Legal() {
			return
		}
		cand := Correction{What: fmt.Sprintf(what, args...), Sheet: c, Over: r.Over, Score: r.Score, cost: cost, dist: dist}
		cand.Agrees = r.Over && claimed != nil && claimed.Ending == Normal && claimed.Agrees(r.Score)
		out = append(out, cand)
	}
	numbered, blank := squaresOf(s)
	name := func(sq engine.Square) string { return fmt.Sprintf("%d (%s)", s[sq], sq) }

	// Two numbers swapped; at least one of them at or before the first error.
	for i, a := range numbered {
		for _, b := range numbered[i+1:] {
			if s[a] == s[b] || min(s[a], s[b]) > first {
				continue
			}
			c := s
			c[a], c[b] = s[b], s[a]
			cost := 3
			if abs(s[a]-s[b]) == 1 {
				cost = 1
			} else if near(a, b) {
				cost = 2
			}
			try(c, cost, abs(s[a]-s[b]), "swap %s and %s", name(a), name(b))
		}
	}
	// One number on the wrong square: it belongs on a blank square; the square
	// it stands on may have lost its own number, which is then restored.
	for _, a := range numbered {
		if s[a] > first {
			continue
		}
		for _, b := range blank {
			c := s
			c[a], c[b] = 0, s[a]
			cost := 3
			if near(a, b) {
				cost = 1
			}
			try(c, cost, 0, "move %d from %s to %s", s[a], a, b)
			m := firstMissing(c)
			if m == 0 { // the lost number may have been the last
				m = slices.Max(c[:]) + 1
			}
			if m <= 60 {
				c[a] = m
				try(c, cost+1, 0, "move %d from %s to %s, and write the missing %d on %s", s[a], a, b, m, a)
			}
		}
	}
	// A missing number: placed on a blank square, or skipped in the numbering.
	if m := firstMissing(s); m > 0 {
		for _, b := range blank {
			c := s
			c[b] = m
			try(c, 2, 0, "write the missing %d on %s", m, b)
		}
		c := s
		for _, a := range numbered {
			if s[a] > m {
				c[a]--
			}
		}
		try(c, 2, 0, "number the moves after %d one lower (%d was skipped)", m-1, m)
	}
	// A doubled number: one copy is the missing number, or the next one with
	// every later number one higher.
	for _, d := range doubled(s) {
		for _, a := range numbered {
			if s[a] != d {
				continue
			}
			if m := firstMissing(s); m > 0 {
				c := s
				c[a] = m
				try(c, 2, 0, "change %d on %s to the missing %d", d, a, m)
			}
			c := s
			for _, b := range numbered {
				if s[b] > d {
					c[b]++
				}
			}
			c[a] = d + 1
			if slices.Max(c[:]) <= 60 {
				try(c, 2, 0, "change %d on %s to %d and number every later move one higher", d, a, d+1)
			}
		}
	}
	slices.SortStableFunc(out, func(x, y Correction) int {
		switch {
		case x.Agrees != y.Agrees:
			return boolOrder(x.Agrees)
		case x.Over != y.Over:
			return boolOrder(x.Over)
		case x.cost != y.cost:
			return x.cost - y.cost
		}
		return x.dist - y.dist
	})
	if len(out) > maxCorrections {
		out = out[:maxCorrections]
	}
	return out
}

func boolOrder(first bool) int {
	if first {
		return -1
	}
	return 1
}

// squaresOf returns the numbered squares and the blank squares outside the centre.
func squaresOf(s Sheet) (numbered, blank []engine.Square) {
	for sq := engine.Square(0); sq < 64; sq++ {
		switch {
		case s[sq] != 0:
			numbered = append(numbered, sq)
		case centre&sq.Bit() == 0:
			blank = append(blank, sq)
		}
	}
	return numbered, blank
}

// firstMissing returns the lowest number below the sheet's highest that no
// square holds, or 0.
func firstMissing(s Sheet) int {
	var have [62]bool
	top := 0
	for _, n := range s {
		if n > 0 && n <= 60 {
			have[n] = true
			top = max(top, n)
		}
	}
	for n := 1; n < top; n++ {
		if !have[n] {
			return n
		}
	}
	return 0
}

func doubled(s Sheet) []int {
	var count [61]int
	var out []int
	for _, n := range s {
		if n > 0 && n <= 60 {
			if count[n]++; count[n] == 2 {
				out = append(out, n)
			}
		}
	}
	return out
}

func near(a, b engine.Square) bool {
	return abs(a.Col()-b.Col()) <= 1 && abs(a.Row()-b.Row()) <= 1
}
