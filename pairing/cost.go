package pairing

import (
	"fmt"
	"math"
	"slices"
)

// Weights are the costs of the Swiss pairing, after Papp (RULES.md section 4;
// Papp 1.37's src/global.c sets the defaults, src/penalties.c adds them up).
// All are integers >= 0; a slice indexed by a count or a round uses its last
// entry beyond its end. The cost of a pairing is the sum of its pairs' costs,
// and the pairing chosen is the cheapest one that breaks no forced or
// forbidden pair. A rematch with the same colours and a second bye are not
// forbidden: they cost Papp's "infinity", a large finite cost (MAX_PEN), so a
// round can always be paired (the least bad way, which Pairing.Notes names).
type Weights struct {
	Rematch         int64   // per earlier meeting, with the colours reversed (5,000,000: a last resort)
	RematchSame     int64   // per earlier meeting, with the same colours (10,000,000: Papp's "infinity")
	RematchPrevious int64   // more if they met in the previous round, or the bye in it again (1)
	SecondBye       int64   // per earlier bye, for the bye again (10,000,000: Papp's "infinity")
	Colour          []int64 // per player, by |blacks - whites| after the game (0, 20, 105, 225, 530, 1075)
	SameColour      int64   // per player with the colour they had in the previous round (15)
	Gap             []int64 // by the score difference in half-points, from 1 (20000, 40588, ...)
	FloatRepeat     int64   // per player floating the same way as last time (25)
	FloatBack       int64   // taken off per player floating back the other way (10)
	// AbsentAsBye (Papp) counts a round a player did not play (absent, or
	// not yet entered) as a bye when the bye comes to them: SecondBye for
	// each, and RematchPrevious if it was round r-1. Papp stores neither a
	// bye nor an absence as a game, and charges both alike (penalite.c).
	AbsentAsBye bool
	// FloatBackAlways gives FloatBack to every player floating back. False
	// (Papp's COMPENSATION_FLOATS) gives it only from round 3, to a player who
	// floated down last time and won round r-1, or floated up and did not win
	// it (a loss, or no game: Papp's wins_history holds 0 then).
	FloatBackAlways bool
	// Country is the cost of pairing compatriots, per round from round 1
	// (Papp as run: 2 in every round; its compiled default, without its
	// papp.cfg: 2 in round 1, 0 after).
	Country []int64
	// Elitism, per round from round 1, adds elitism x (score_a + score_b) x
	// gap / 2 (scores and gap in half-points, integer division) to a pair
	// across score groups, unless a score is negative (the bye's below 0
	// points): floats get cheaper at the bottom than at the top. Nil turns it
	// off.
	Elitism []int64
}

// MaxPen is Papp's "infinity" (pairings.h MAX_PEN): the cost of a rematch
// with the same colours and of a second bye, added like any other cost.
const MaxPen = 10_000_000

// Papp returns Papp's weights, the default: Papp 1.37 as distributed, with
// COMPENSATION_FLOATS and ELITISM on (src/changes.h) and its papp.cfg's
// compatriots' cost (2 in every round).
func Papp() Weights {
	return Weights{
		Rematch:         5_000_000,
		RematchSame:     MaxPen,
		RematchPrevious: 1,
		SecondBye:       MaxPen,
		Colour:          []int64{0, 20, 105, 225, 530, 1075},
		SameColour:      15,
		Gap: []int64{20000, 40588, 62785, 87119, 114041, 143998, 177453, 214908, 256910, 304062,
			357037, 416582, 483534, 558828, 643514, 738767, 845906, 966413, 1101949, 1254381,
			1425805, 1618578, 1835345, 2079081},
		FloatRepeat: 25,
		FloatBack:   10,
		Country:     []int64{2}, // papp.cfg's "Chauvinisme: ronde 1+ = 2"
		Elitism:     PappElitism(),
		AbsentAsBye: true,
	}
}

// Plain returns Papp's weights without elitism and with the float
// compensation given to every player floating back: otd's model before
// issue 10.
func Plain() Weights {
	w := Papp()
	w.Elitism, w.Country = nil, []int64{2, 0}
	w.FloatBackAlways, w.AbsentAsBye = true, false
	return w
}

// PappElitism is Papp's elitism schedule: 100 in rounds 1-3, 200 in 4-5, 300
// in 6-9 and 400 from round 10.
func PappElitism() []int64 { return []int64{100, 100, 100, 200, 200, 300, 300, 300, 300, 400} }

// maxWeight bounds every weight, so that no sum of costs can overflow.
const maxWeight = 1_000_000_000

// Validate checks that the weights are usable: colour and gap costs given,
// every weight in 0..1,000,000,000. Its error wraps ErrInvalidInput.
func (w *Weights) Validate() error {
	if len(w.Colour) == 0 || len(w.Gap) == 0 {
		return fmt.Errorf("%w: weights need colour and gap costs", ErrInvalidInput)
	}
	one := []int64{w.Rematch, w.RematchSame, w.RematchPrevious, w.SecondBye, w.SameColour, w.FloatRepeat, w.FloatBack}
	for _, x := range slices.Concat(one, w.Colour, w.Gap, w.Country, w.Elitism) {
		if x < 0 || x > maxWeight {
			return fmt.Errorf("%w: weight %d outside 0..%d", ErrInvalidInput, x, maxWeight)
		}
	}
	return nil
}

// at64 returns s[i], or its last entry for i beyond it; 0 for an empty s.
func at64(s []int64, i int) int64 {
	if len(s) == 0 {
		return 0
	}
	return s[min(max(i, 0), len(s)-1)]
}

// infinite marks an orientation that breaks an absolute rule (a forbidden
// pair, the bye to a player in a forced pair).
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

// colourTerms returns the colour costs of b Black against w: the imbalance
// after the game and the colour of the previous round again, both players'.
func (s *swiss) colourTerms(b *vertex, _ Colour, w *vertex) (imbalance, same int64) {
	imbalance = at64(s.w.Colour, abs(b.balance+1)) + at64(s.w.Colour, abs(w.balance-1))
	if b.last == Black {
		same += s.w.SameColour
	}
	if w.last == White {
		same += s.w.SameColour
	}
	return imbalance, same
}

// costs returns the costs of pairing vertices a and b with a Black and with b
// Black; infinite marks an orientation the rules forbid. The bye vertex has no
// colours: both orientations cost the same. It is terms' sum, without the
// breakdown: the matching calls it for every pair it prices.
func (s *swiss) costs(a, b int) (aBlack, bBlack int64) {
	va, vb := &s.v[a], &s.v[b]
	if va.bye || vb.bye {
		p := va
		if va.bye {
			p = vb
		}
		if va.bye && vb.bye || p.forced >= 0 {
			return infinite, infinite
		}
		c := s.betweenSum(a, b) + at64(s.w.Colour, abs(p.balance)) + int64(p.byeCount())*s.w.SecondBye
		if p.byeAgain() {
			c += s.w.RematchPrevious
		}
		return c, c
	}
	if len(va.forbid) > 0 && slices.Contains(va.forbid, int32(b)) {
		return infinite, infinite
	}
	c := s.betweenSum(a, b) + s.compatriots(a, b)
	ra, rb := s.rematch(a, b)
	aBlack = c + ra + s.colourCost(va, Black) + s.colourCost(vb, White)
	bBlack = c + rb + s.colourCost(vb, Black) + s.colourCost(va, White)
	return aBlack, bBlack
}

// betweenSum is between's sum.
func (s *swiss) betweenSum(a, b int) int64 {
	gap, repeat, comp, elitism := s.between(a, b)
	return gap + repeat + comp + elitism
}

// pairTerms are the costs of a pair in both orientations, by term.
type pairTerms struct {
	ABlack, BBlack Terms
	forbidden      bool
}

// terms returns the cost terms of pairing vertices a and b, in both
// orientations.
func (s *swiss) terms(a, b int) (t pairTerms) {
	va, vb := &s.v[a], &s.v[b]
	if va.bye || vb.bye {
		p := va
		if va.bye {
			p = vb
		}
		if va.bye && vb.bye || p.forced >= 0 {
			t.forbidden = true
			return t
		}
		var x Terms
		x.Gap, x.Repeat, x.Compensation, x.Elitism = s.between(a, b)
		// The bye: Papp's colour cost of the current imbalance, and a second
		// bye like a rematch (bye_replay_penalty per earlier bye).
		x.Colour = at64(s.w.Colour, abs(p.balance))
		x.Rematch = int64(p.byeCount()) * s.w.SecondBye
		if p.byeAgain() {
			x.Rematch += s.w.RematchPrevious
		}
		t.ABlack, t.BBlack = x, x
		return t
	}
	if slices.Contains(va.forbid, int32(b)) {
		t.forbidden = true
		return t
	}
	var x Terms
	x.Gap, x.Repeat, x.Compensation, x.Elitism = s.between(a, b)
	x.Country = s.compatriots(a, b)
	t.ABlack, t.BBlack = x, x
	t.ABlack.Rematch, t.BBlack.Rematch = s.rematch(a, b)
	t.ABlack.Colour, t.ABlack.SameColour = s.colourTerms(va, Black, vb)
	t.BBlack.Colour, t.BBlack.SameColour = s.colourTerms(vb, Black, va)
	return t
}

// rematch returns the rematch cost of a and b meeting again with a Black, and
// with b Black: per earlier meeting, RematchSame for the same colours and
// Rematch for the colours reversed, plus RematchPrevious if they met in the
// previous round (Papp's penalties.c).
func (s *swiss) rematch(a, b int) (aBlack, bBlack int64) {
	va := &s.v[a]
	for _, g := range va.met {
		if g.opp != int32(b) {
			continue
		}
		switch g.colour {
		case Black: // a had black: a Black again is the same colours
			aBlack += s.w.RematchSame
			bBlack += s.w.Rematch
		case White:
			aBlack += s.w.Rematch
			bBlack += s.w.RematchSame
		}
	}
	if va.prevOpp == int32(b) {
		aBlack += s.w.RematchPrevious
		bBlack += s.w.RematchPrevious
	}
	return aBlack, bBlack
}

// sameColours reports whether a Black against b repeats the colours of an
// earlier game between them.
func (s *swiss) sameColours(a, b int) bool {
	return slices.Contains(s.v[a].met, meeting{int32(b), Black})
}

func (s *swiss) compatriots(a, b int) int64 {
	if s.v[a].country != "" && s.v[a].country == s.v[b].country {
		return at64(s.w.Country, s.round-1)
	}
	return 0
}

// between returns the symmetric costs of a score gap between a and b: the
// gap, the floats repeated, the compensation (negative) and elitism.
func (s *swiss) between(a, b int) (gap, repeat, compensation, elitism int64) {
	hi, lo := &s.v[a], &s.v[b]
	if hi.points < lo.points {
		hi, lo = lo, hi
	}
	g := hi.points - lo.points
	if g == 0 {
		return 0, 0, 0, 0
	}
	gap = at64(s.w.Gap, g-1)
	r1, c1 := s.floatTerms(hi, FloatDown)
	r2, c2 := s.floatTerms(lo, FloatUp)
	repeat, compensation = r1+r2, c1+c2
	if lo.points >= 0 {
		elitism = at64(s.w.Elitism, s.round-1) * int64(hi.points+lo.points) * int64(g) / 2
	}
	return gap, repeat, compensation, elitism
}

// floatTerms returns what v floating f costs: the float repeated, the
// compensation (negative).
func (s *swiss) floatTerms(v *vertex, f Float) (repeat, compensation int64) {
	switch {
	case v.bye || v.float == NoFloat:
	case v.float == f:
		repeat = s.w.FloatRepeat
	case s.w.FloatBackAlways || v.comp:
		compensation = -s.w.FloatBack
	}
	return repeat, compensation
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
// ceiling, not allowed if a rematch or a second bye.
func (s *swiss) overCeiling(a, b int) (int64, bool) {
	va, vb := &s.v[a], &s.v[b]
	g := abs(va.points - vb.points)
	if va.bye || vb.bye {
		if va.byeCount() > 0 || vb.byeCount() > 0 {
			return 0, false
		}
		return int64(min(1, g/s.byeCeiling)), true
	}
	if slices.ContainsFunc(va.met, func(g meeting) bool { return g.opp == int32(b) }) {
		return 0, false
	}
	return int64(min(1, g/s.ceiling)), true
}

// upperBound returns a cost no allowed pair in this field can exceed.
func (s *swiss) upperBound() int64 {
	lo, hi, meets, byes := maxPoints, 0, 0, 0
	for _, v := range s.v {
		lo, hi = min(lo, v.points), max(hi, v.points)
		meets, byes = max(meets, len(v.met)), max(byes, v.byeCount())
	}
	ub := 2*(slices.Max(s.w.Colour)+s.w.SameColour) + 2*s.w.FloatRepeat + slices.Max(append([]int64{0}, s.w.Country...))
	ub += int64(max(meets, byes))*max(s.w.Rematch, s.w.RematchSame, s.w.SecondBye) + s.w.RematchPrevious
	if hi > lo {
		ub += slices.Max(s.w.Gap[:min(hi-lo, len(s.w.Gap))])
		if len(s.w.Elitism) > 0 {
			ub += slices.Max(s.w.Elitism) * int64(2*max(hi, 0)) * int64(hi-lo) / 2
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
