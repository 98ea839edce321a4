package tournament

import (
	"fmt"

	"github.com/otd-project/otd/pairing"
)

// Unpair removes the last round's pairing, which must have no result yet.
func (t *Tournament) Unpair() (Change, error) {
	r := t.Paired()
	if r == 0 {
		return Change{}, fmt.Errorf("%w: no round is paired", ErrNoRound)
	}
	games := t.Round(r)
	for _, g := range games {
		if g.Result != nil && !g.IsBye() {
			return Change{}, fmt.Errorf("round %d: %w (table %d); undo them first with 'otd undo'", r, ErrRoundStarted, g.Table)
		}
	}
	t.Games = t.Games[:len(t.Games)-len(games)]
	return t.change(ActRoundUnpair, fmt.Sprintf("round %d", r), State{Games: games}, State{}), nil
}

// CheckReport is the pairing checker's verdict on a round.
type CheckReport struct {
	Round      int      `json:"round"`
	Broken     bool     `json:"broken"` // an absolute rule is broken
	Violations []string `json:"violations"`
	Cost       int64    `json:"cost"`
	Cheaper    bool     `json:"cheaper"`             // a cheaper valid pairing exists
	BestCost   int64    `json:"best_cost,omitempty"` // its cost
	Best       string   `json:"best,omitempty"`      // and its pairs
}

// CheckRound checks round r's pairing with the pairing rules, as if it were
// about to be paired: rematches, second byes, inactive players, colours,
// floats, and whether a cheaper valid pairing exists.
func (t *Tournament) CheckRound(r int) (CheckReport, error) {
	if err := t.CheckPaired(r); err != nil {
		return CheckReport{}, err
	}
	in, err := t.pairingInput(r, nil, nil, 0)
	if err != nil {
		return CheckReport{}, err
	}
	var proposed pairing.Pairing
	for _, g := range t.Round(r) {
		if g.IsBye() {
			proposed.Bye = g.Black
		} else {
			proposed.Pairs = append(proposed.Pairs, pairing.Pair{Black: g.Black, White: g.White})
		}
	}
	// Players of the round who are no longer active are still part of it.
	hist, err := t.history(r - 1)
	if err != nil {
		return CheckReport{}, err
	}
	for _, g := range t.Round(r) {
		for _, n := range []int{g.Black, g.White} {
			if n != 0 && !t.Players[n-1].Active(r) {
				in.Players = append(in.Players, t.pairingPlayer(n, r, hist))
			}
		}
	}
	rep, err := pairing.Check(in, proposed, t.pairingOptions(r, 0))
	if err != nil {
		return CheckReport{}, err
	}
	out := CheckReport{Round: r, Broken: !rep.Valid, Cost: rep.Cost, Cheaper: rep.Cheaper, Violations: []string{}}
	for _, v := range rep.Violations {
		out.Violations = append(out.Violations, v.String())
	}
	if rep.Best != nil && rep.Cheaper {
		out.BestCost, out.Best = rep.Best.Cost, rep.Best.String()
	}
	return out, nil
}
