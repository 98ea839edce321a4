package pairing

import (
	"fmt"
	"math"
	"slices"
)

// Weights are the costs of the Swiss pairing, after Papp (RULES.md section 4).
// All are integers >= 0; a slice indexed by a count uses its last entry for
// larger counts. The cost of a pairing is the sum of its pairs' costs, and the
// pairing chosen is the cheapest one that breaks no absolute rule (a second
// bye, a rematch with the same colours, a forbidden pair).
type Weights struct {
	Rematch         int64   // a rematch with the colours reversed (5,000,000: a last resort)
	RematchPrevious int64   // more if they met in the previous round (1)
	Colour          []int64 // per player, by |blacks - whites| after the game (0, 20, 105, 225, 530, 1075)
	SameColour      int64   // per player with the colour of their previous game (15)
	Gap             []int64 // by the score difference in half-points, from 1 (20000, 40588, ...)
	FloatRepeat     int64   // per player floating the same way as in the previous round (25)
	FloatBack       int64   // taken off per player floating back the other way (10)
	Country         int64   // compatriots (2)
	// Elitism, per round from round 1, adds elitism x (score_a + score_b) x gap / 2
	// (scores and gap in half-points) to a pair across score groups, which makes
	// floats cheaper at the bottom than at the top. Nil (the default) turns it off.
	Elitism []int64
}

// Papp returns Papp's weights, the default.
func Papp() Weights {
	return Weights{
		Rematch:         5_000_000,
		RematchPrevious: 1,
		Colour:          []int64{0, 20, 105, 225, 530, 1075},
		SameColour:      15,
		Gap: []int64{20000, 40588, 62785, 87119, 114041, 143998, 177453, 214908, 256910, 304062,
			357037, 416582, 483534, 558828, 643514, 738767, 845906, 966413, 1101949, 1254381,
			1425805, 1618578, 1835345, 2079081},
		FloatRepeat: 25,
		FloatBack:   10,
		Country:     2,
	}
}

// PappElitism is Papp's optional elitism schedule: 100 in rounds 1-3, 200 in
// 4-5, 300 in 6-9 and 400 from round 10.
func PappElitism() []int64 { return []int64{100, 100, 100, 200, 200, 300, 300, 300, 300, 400} }

// maxWeight bounds every weight, so that no sum of costs can overflow.
const maxWeight = 1_000_000_000

func (w *Weights) validate() error {
	if len(w.Colour) == 0 || len(w.Gap) == 0 {
		return fmt.Errorf("%w: weights need colour and gap costs", ErrInvalidInput)
	}
	one := []int64{w.Rematch, w.RematchPrevious, w.SameColour, w.FloatRepeat, w.FloatBack, w.Country}
	for _, x := range slices.Concat(one, w.Colour, w.Gap, w.Elitism) {
		if x < 0 || x > maxWeight {
			return fmt.Errorf("%w: weight %d outside 0..%d", ErrInvalidInput, x, maxWeight)
		}
	}
	return nil
}

// at64 returns s[i], or its last entry for i beyond it.
func at64(s []int64, i int) int64 { return s[min(i, len(s)-1)] }

// infinite marks an orientation that breaks an absolute rule.
const infinite = math.MaxInt64

// colourCost returns what colour c costs player v (both parts of the colour cost).
func (s *swiss) colourCost(v *vertex, c Colour) int64 {
	d := v.balance + 1
	if c == White {
		d = v.balance - 1
	}
	cost := at64(s.w.Colour, abs(d))
	if v.last == c {
		cost += s.w.SameColour
	}
	return cost
}

// costs returns the costs of pairing vertices a and b with a Black and with b
// Black; infinite marks an orientation the rules forbid. The bye vertex has no
// colours: both orientations cost the same.
func (s *swiss) costs(a, b int) (aBlack, bBlack int64) {
	va, vb := &s.v[a], &s.v[b]
	if va.bye || vb.bye {
		if va.bye && vb.bye || va.hadBye || vb.hadBye || va.forced >= 0 || vb.forced >= 0 {
			return infinite, infinite
		}
		c := s.between(a, b)
		return c, c
	}
	if slices.Contains(va.forbid, int32(b)) {
		return infinite, infinite
	}
	c, okA, okB := s.rematch(a, b)
	c += s.between(a, b) + s.compatriots(a, b)
	aBlack, bBlack = infinite, infinite
	if okA {
		aBlack = c + s.colourCost(va, Black) + s.colourCost(vb, White)
	}
	if okB {
		bBlack = c + s.colourCost(vb, Black) + s.colourCost(va, White)
	}
	return aBlack, bBlack
}

// rematch returns the cost of a meeting a and b again and whether a, and b,
// may have Black: not with the same colours as in an earlier game.
func (s *swiss) rematch(a, b int) (cost int64, aBlack, bBlack bool) {
	va := &s.v[a]
	aBlack, bBlack = true, true
	for _, g := range va.met {
		if g.opp == int32(b) {
			cost = s.w.Rematch
			aBlack = aBlack && g.colour != Black
			bBlack = bBlack && g.colour != White
		}
	}
	if va.prevOpp == int32(b) {
		cost += s.w.RematchPrevious
	}
	return cost, aBlack, bBlack
}

func (s *swiss) compatriots(a, b int) int64 {
	if s.v[a].country != "" && s.v[a].country == s.v[b].country {
		return s.w.Country
	}
	return 0
}

// between returns the symmetric cost of a score gap between a and b: the
// gap, the float history of both, and elitism.
func (s *swiss) between(a, b int) int64 {
	hi, lo := &s.v[a], &s.v[b]
	if hi.points < lo.points {
		hi, lo = lo, hi
	}
	g := hi.points - lo.points
	if g == 0 {
		return 0
	}
	c := at64(s.w.Gap, g-1) + s.floatCost(hi, FloatDown) + s.floatCost(lo, FloatUp)
	if len(s.w.Elitism) > 0 {
		c += at64(s.w.Elitism, s.round-1) * int64(hi.points+max(lo.points, 0)) * int64(g) / 2
	}
	return c
}

func (s *swiss) floatCost(v *vertex, f Float) int64 {
	switch v.float {
	case NoFloat:
		return 0
	case f:
		return s.w.FloatRepeat
	default:
		return -s.w.FloatBack
	}
}

// lowerBound returns a cost no pair across a score gap of g half-points
// (with the bye if bye) can go below.
func (s *swiss) lowerBound(g int, bye bool) int64 {
	switch {
	case s.ceiling > 0 && (bye && g >= s.byeCeiling || !bye && g >= s.ceiling):
		return 1
	case g == 0 || s.ceiling > 0:
		return 0
	}
	return at64(s.w.Gap, g-1) - 2*s.w.FloatBack
}

// overCeiling returns the cost of an edge in the ceiling mode: 1 if over a
// ceiling, not allowed if a rematch.
func (s *swiss) overCeiling(a, b int) (int64, bool) {
	va, vb := &s.v[a], &s.v[b]
	g := abs(va.points - vb.points)
	if va.bye || vb.bye {
		return int64(min(1, g/s.byeCeiling)), true
	}
	if slices.ContainsFunc(va.met, func(g meeting) bool { return g.opp == int32(b) }) {
		return 0, false
	}
	return int64(min(1, g/s.ceiling)), true
}

// upperBound returns a cost no allowed pair in this field can exceed.
func (s *swiss) upperBound() int64 {
	lo, hi, met := maxPoints, 0, false
	for _, v := range s.v {
		lo, hi = min(lo, v.points), max(hi, v.points)
		met = met || len(v.met) > 0
	}
	ub := 2*(slices.Max(s.w.Colour)+s.w.SameColour) + 2*s.w.FloatRepeat + s.w.Country
	if met {
		ub += s.w.Rematch + s.w.RematchPrevious
	}
	if hi > lo {
		ub += slices.Max(s.w.Gap[:min(hi-lo, len(s.w.Gap))])
		if len(s.w.Elitism) > 0 {
			ub += slices.Max(s.w.Elitism) * int64(2*hi) * int64(hi-lo) / 2
		}
	}
	return ub
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
