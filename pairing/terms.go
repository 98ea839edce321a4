package pairing

import "fmt"

// Terms are the cost of one pair, one orientation, broken into the terms of
// RULES.md section 4 (Papp's model). Total is their sum, the cost the
// matching minimises (before its tie-breaks).
type Terms struct {
	Gap          int64 `json:"gap"`          // the score gap (float_penalty)
	Colour       int64 `json:"colour"`       // both players' colour imbalance after the game; the bye's current one
	SameColour   int64 `json:"same_colour"`  // the colour of round r-1 again, per player
	Repeat       int64 `json:"repeat"`       // floating the same way as last time, per player
	Compensation int64 `json:"compensation"` // floating back (negative)
	Elitism      int64 `json:"elitism"`      // elitism(round) x (score_a + score_b) x gap / 2
	Country      int64 `json:"country"`      // compatriots, by round
	Rematch      int64 `json:"rematch"`      // earlier meetings (and a second bye), plus the previous round's
}

// Total is the cost of the pair: the sum of its terms.
func (t Terms) Total() int64 {
	return t.Gap + t.Colour + t.SameColour + t.Repeat + t.Compensation + t.Elitism + t.Country + t.Rematch
}

// Coster prices pairs of one round under the cost model, term by term.
type Coster struct {
	s  *swiss
	vx map[int]int // player ID -> vertex
}

// NewCoster prepares the pricing of pairs of round in under opt: the same
// state Swiss would pair. Malformed input gives an error wrapping
// ErrInvalidInput (or ErrNoValidPairing for a forced pair that is forbidden).
func NewCoster(in Input, opt Options) (*Coster, error) {
	s, err := newSwiss(in, opt)
	if err != nil {
		return nil, err
	}
	c := &Coster{s: s, vx: map[int]int{}}
	for i, v := range s.v {
		if !v.bye {
			c.vx[v.id] = i
		}
	}
	return c, nil
}

// Terms returns the cost of black playing Black against white, by term; white
// 0 prices the bye to black (the odd field's virtual player, which every
// player pays the same for whatever the colours). It returns an error
// wrapping ErrInvalidInput for a player who is not active in the round, or
// for the bye in an even field, and one wrapping ErrNoValidPairing for a
// forbidden pair (or the bye to a player in a forced pair).
func (c *Coster) Terms(black, white int) (Terms, error) {
	a, ok := c.vx[black]
	if !ok {
		return Terms{}, fmt.Errorf("%w: player %d is not paired in this round", ErrInvalidInput, black)
	}
	b := len(c.s.v) - 1
	if white == 0 {
		if b < 0 || !c.s.v[b].bye {
			return Terms{}, fmt.Errorf("%w: no bye in an even field", ErrInvalidInput)
		}
	} else if b, ok = c.vx[white]; !ok || a == b {
		return Terms{}, fmt.Errorf("%w: player %d is not paired in this round", ErrInvalidInput, white)
	}
	t := c.s.terms(a, b)
	if t.forbidden {
		return Terms{}, fmt.Errorf("%w: %d-%d is forbidden", ErrNoValidPairing, black, white)
	}
	return t.ABlack, nil
}

// PairTerms returns the cost of black playing Black against white (0: the
// bye to black) in round in under opt, by term: NewCoster then Terms.
func PairTerms(in Input, opt Options, black, white int) (Terms, error) {
	c, err := NewCoster(in, opt)
	if err != nil {
		return Terms{}, err
	}
	return c.Terms(black, white)
}
