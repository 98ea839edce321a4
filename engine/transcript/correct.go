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
	at := s.At
	top := s.maxNumber()
	name := func(sq engine.Point) string { return fmt.Sprintf("%d (%s)", at(sq), sq) }

	// Two numbers swapped; at least one of them at or before the first error.
	for i, a := range numbered {
		for _, b := range numbered[i+1:] {
			if at(a) == at(b) || min(at(a), at(b)) > first {
				continue
			}
			c := s
			c.Set(a, at(b))
			c.Set(b, at(a))
			cost := 3
			if abs(at(a)-at(b)) == 1 {
				cost = 1
			} else if near(a, b) {
				cost = 2
			}
			try(c, cost, abs(at(a)-at(b)), "swap %s and %s", name(a), name(b))
		}
	}
	// One number on the wrong square: it belongs on a blank square; the square
	// it stands on may have lost its own number, which is then restored.
	for _, a := range numbered {
		if at(a) > first {
			continue
		}
		for _, b := range blank {
			c := s
			c.Set(a, 0)
			c.Set(b, at(a))
			cost := 3
			if near(a, b) {
				cost = 1
			}
			try(c, cost, 0, "move %d from %s to %s", at(a), a, b)
			m := firstMissing(c)
			if m == 0 { // the lost number may have been the last
				m = highest(c) + 1
			}
			if m <= top {
				c.Set(a, m)
				try(c, cost+1, 0, "move %d from %s to %s, and write the missing %d on %s", at(a), a, b, m, a)
			}
		}
	}
	// A missing number: placed on a blank square, or skipped in the numbering.
	if m := firstMissing(s); m > 0 {
		for _, b := range blank {
			c := s
			c.Set(b, m)
			try(c, 2, 0, "write the missing %d on %s", m, b)
		}
		c := s
		for _, a := range numbered {
			if at(a) > m {
				c.Set(a, at(a)-1)
			}
		}
		try(c, 2, 0, "number the moves after %d one lower (%d was skipped)", m-1, m)
	}
	// A doubled number: one copy is the missing number, or the next one with
	// every later number one higher.
	for _, d := range doubled(s) {
		for _, a := range numbered {
			if at(a) != d {
				continue
			}
			if m := firstMissing(s); m > 0 {
				c := s
				c.Set(a, m)
				try(c, 2, 0, "change %d on %s to the missing %d", d, a, m)
			}
			c := s
			for _, b := range numbered {
				if at(b) > d {
					c.Set(b, at(b)+1)
				}
			}
			c.Set(a, d+1)
			if highest(c) <= top {
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

// squaresOf returns the numbered squares and the blank squares of the
// board, less those of the starting discs.
func squaresOf(s Sheet) (numbered, blank []engine.Point) {
	r := s.rules()
	for _, p := range s.Squares() {
		switch {
		case s.At(p) != 0:
			numbered = append(numbered, p)
		case !startDisc(r, p):
			blank = append(blank, p)
		}
	}
	return numbered, blank
}

// numbers returns the numbers written on the sheet, in square order.
func numbers(s Sheet) []int {
	var ns []int
	for _, p := range s.Squares() {
		if n := s.At(p); n != 0 {
			ns = append(ns, n)
		}
	}
	return ns
}

// highest returns the highest number on the sheet, 0 for none.
func highest(s Sheet) int {
	return slices.Max(append(numbers(s), 0))
}

// firstMissing returns the lowest number below the sheet's highest that no
// square holds, or 0.
func firstMissing(s Sheet) int {
	have := map[int]bool{}
	for _, n := range numbers(s) {
		have[n] = true
	}
	for n := 1; n < highest(s); n++ {
		if !have[n] {
			return n
		}
	}
	return 0
}

func doubled(s Sheet) []int {
	count := map[int]int{}
	var out []int
	for _, n := range numbers(s) {
		if count[n]++; count[n] == 2 {
			out = append(out, n)
		}
	}
	return out
}

func near(a, b engine.Point) bool {
	return abs(int(a.Col)-int(b.Col)) <= 1 && abs(int(a.Row)-int(b.Row)) <= 1
}
