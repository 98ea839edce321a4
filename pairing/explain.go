package pairing

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// explainAdd returns the terms of t and u added; explainSub, t less u. A
// term of Terms left out here would show in TestExplainOptimal (the delta's
// terms would not add up to the delta).
func explainAdd(t, u Terms) Terms { return explainCombine(t, u, 1) }
func explainSub(t, u Terms) Terms { return explainCombine(t, u, -1) }

func explainCombine(t, u Terms, sign int64) Terms {
	return Terms{Gap: t.Gap + sign*u.Gap, Colour: t.Colour + sign*u.Colour, SameColour: t.SameColour + sign*u.SameColour,
		Repeat: t.Repeat + sign*u.Repeat, Compensation: t.Compensation + sign*u.Compensation, Elitism: t.Elitism + sign*u.Elitism,
		Country: t.Country + sign*u.Country, Rematch: t.Rematch + sign*u.Rematch}
}

// PairCost is one board of a pairing (or the bye) with what it costs.
type PairCost struct {
	Black int   `json:"black"`           // for the bye: the player who has it
	White int   `json:"white,omitempty"` // 0 for the bye
	Terms Terms `json:"terms"`
	Cost  int64 `json:"cost"` // the sum of the terms
	// Broken names the absolute rule the pair breaks (a forbidden pair, the
	// bye to a player in a forced pair); its cost then leaves it out.
	Broken string `json:"broken,omitempty"`
}

// IsBye reports whether the pair is the bye.
func (p PairCost) IsBye() bool { return p.White == 0 }

// Alternative is the cheapest partner swap for a pair: the pair's players
// exchange opponents with another pair's, each of the two new pairs in its
// cheaper orientation.
type Alternative struct {
	Pair    PairCost    `json:"pair"`    // the pair explained, as posted
	Other   PairCost    `json:"other"`   // the pair it would exchange opponents with, as posted
	Instead [2]PairCost `json:"instead"` // the two pairs after the swap
	// Delta is what the swap adds to the pairing's cost: the new pairs' cost
	// less the old ones'. It is >= 0 when the pairing is the cheapest.
	Delta      int64 `json:"delta"`
	DeltaTerms Terms `json:"delta_terms"` // Delta by term
}

// Explanation is a round's pairing, pair by pair, with the terms of its
// cost, and for the dearest pairs the cheapest swap and what it would cost.
type Explanation struct {
	Round        int           `json:"round"`
	Pairs        []PairCost    `json:"pairs"` // in the order of the pairing, the bye last
	Cost         int64         `json:"cost"`  // of the pairs that break no absolute rule
	Alternatives []Alternative `json:"alternatives"`
	// NoAlternative lists the dearest pairs for which no swap is allowed.
	NoAlternative []PairCost `json:"no_alternative,omitempty"`
}

// Explain breaks the cost of a round's pairing p into its terms, pair by pair,
// under the same cost model (and options) as Swiss (NewCoster); and for the
// dearest pairs (at most dear of them, the bye included) finds the partner
// swap with another pair (or the bye) that costs least, and what it would add
// to the pairing's cost. For a pairing made by Swiss every such Delta is >= 0.
// Colours are taken as posted; the pairs of a swap get their cheaper
// orientation, as the matching gives them. Every active player of in must be
// in p once, and only they: otherwise an error wrapping ErrInvalidInput.
func Explain(in Input, p Pairing, opt Options, dear int) (Explanation, error) {
	c, err := NewCoster(in, opt)
	if err != nil {
		return Explanation{}, err
	}
	active := map[int]bool{}
	for _, q := range in.Players {
		if q.Status == Active {
			active[q.ID] = true
		}
	}
	forced := map[int]int{}
	for _, f := range in.Forced {
		forced[f[0]], forced[f[1]] = f[1], f[0]
	}
	seen := map[int]bool{}
	use := func(id int) error {
		switch {
		case !active[id]:
			return fmt.Errorf("%w: player %d is paired but not active", ErrInvalidInput, id)
		case seen[id]:
			return fmt.Errorf("%w: player %d is paired twice", ErrInvalidInput, id)
		}
		seen[id] = true
		return nil
	}
	boards := slices.Clone(p.Pairs)
	if p.Bye != 0 {
		boards = append(boards, Pair{p.Bye, 0})
	}
	for _, q := range boards {
		for _, id := range []int{q.Black, q.White} {
			if id == 0 {
				continue
			}
			if err := use(id); err != nil {
				return Explanation{}, err
			}
		}
	}
	for id := range active {
		if !seen[id] {
			return Explanation{}, fmt.Errorf("%w: player %d is not paired", ErrInvalidInput, id)
		}
	}
	if odd := len(active)%2 == 1; odd != (p.Bye != 0) {
		return Explanation{}, fmt.Errorf("%w: a bye in an even field, or none in an odd one", ErrInvalidInput)
	}
	x := explainer{c: c, forced: forced}
	ex := Explanation{Round: c.s.round, Alternatives: []Alternative{}}
	for _, q := range boards {
		pc, err := x.cost(q.Black, q.White)
		if err != nil && !errors.Is(err, ErrNoValidPairing) {
			return Explanation{}, err
		}
		ex.Pairs = append(ex.Pairs, pc)
		ex.Cost += pc.Cost
	}
	// The dearest pairs, dearest first (the first posted on a tie).
	order := make([]int, len(boards))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(ex.Pairs[j].Cost, ex.Pairs[i].Cost) })
	for _, i := range order {
		if len(ex.Alternatives)+len(ex.NoAlternative) >= dear {
			break
		}
		if ex.Pairs[i].Broken != "" {
			continue
		}
		if alt, ok := x.bestSwap(ex.Pairs, i); ok {
			ex.Alternatives = append(ex.Alternatives, alt)
		} else {
			ex.NoAlternative = append(ex.NoAlternative, ex.Pairs[i])
		}
	}
	return ex, nil
}

// explainer prices pairs for Explain.
type explainer struct {
	c      *Coster
	forced map[int]int // player -> forced partner
}

// cost returns black (White 0: the bye) against white as posted, with its
// terms; a forbidden pair is marked Broken, with no cost.
func (x explainer) cost(black, white int) (PairCost, error) {
	p := PairCost{Black: black, White: white}
	t, err := x.c.Terms(black, white)
	if err != nil {
		p.Broken = "forbidden pair"
		if white == 0 {
			p.Broken = "the bye to a player in a forced pair"
		}
		return p, err
	}
	p.Terms, p.Cost = t, t.Total()
	return p, nil
}

// cheaper returns a against b (0: the bye) in the cheaper orientation, or
// false if the pair is not allowed (forbidden, or a forced pair broken).
func (x explainer) cheaper(a, b int) (PairCost, bool) {
	if a == 0 {
		a, b = b, a
	}
	if f, ok := x.forced[a]; ok && f != b {
		return PairCost{}, false
	}
	if f, ok := x.forced[b]; ok && f != a {
		return PairCost{}, false
	}
	p, err := x.cost(a, b)
	if err != nil {
		return PairCost{}, false
	}
	if b != 0 {
		if q, err := x.cost(b, a); err == nil && q.Cost < p.Cost {
			p = q
		}
	}
	return p, true
}

// bestSwap returns the cheapest swap of pair i's partners with another
// pair's, or false if none is allowed.
func (x explainer) bestSwap(posted []PairCost, i int) (Alternative, bool) {
	var best Alternative
	found := false
	a, b := posted[i].Black, posted[i].White
	for j, o := range posted {
		if j == i || o.Broken != "" {
			continue
		}
		c, d := o.Black, o.White
		for _, swap := range [2][4]int{{a, c, b, d}, {a, d, b, c}} {
			if swap[0] == 0 && swap[1] == 0 || swap[2] == 0 && swap[3] == 0 {
				continue
			}
			p, okP := x.cheaper(swap[0], swap[1])
			q, okQ := x.cheaper(swap[2], swap[3])
			if !okP || !okQ {
				continue
			}
			delta := p.Cost + q.Cost - posted[i].Cost - o.Cost
			if found && delta >= best.Delta {
				continue
			}
			found = true
			best = Alternative{Pair: posted[i], Other: o, Instead: [2]PairCost{p, q}, Delta: delta,
				DeltaTerms: explainSub(explainAdd(p.Terms, q.Terms), explainAdd(posted[i].Terms, o.Terms))}
		}
	}
	return best, found
}
