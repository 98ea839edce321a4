package tournament

import (
	"fmt"

	"github.com/otd-project/otd/pairing"
)

// ExplainDearest is how many of a round's dearest pairs Explain gives the
// cheapest alternative for.
const ExplainDearest = 3

// ExplainReport says why a round is paired as it is: the cost of each pair
// under the tournament's pairing weights, term by term (RULES.md section 4),
// and for the dearest pairs the cheapest partner swap with another pair and
// what it would add to the round's cost.
type ExplainReport struct {
	Round int
	Cost  int64           // the round's cost: the sum of its pairs'
	Pairs []ExplainedPair // in table order, the bye last
	// Alternatives are, for the dearest pairs (dearest first), the cheapest
	// swap of partners with another pair (or the bye). A Delta below 0 says
	// that the pairing is not the cheapest: forced, manual or imported pairs.
	Alternatives  []pairing.Alternative
	NoAlternative []pairing.PairCost // dear pairs that no allowed swap changes
	// RoundRobin: the tournament pairs by the round-robin table, not by cost;
	// the costs are those the Swiss pairing would see.
	RoundRobin bool
	// Rules are the director's rules the round was paired under, which it
	// is priced with: its forced pairs cost what they cost but no swap
	// breaks them, its forbidden pairs are not offered, a bye given by hand
	// costs what it would had the pairing chosen it, but no swap moves it.
	Rules RoundRules
}

// ExplainedPair is a table of the round with its cost by term.
type ExplainedPair struct {
	Table int
	pairing.PairCost
}

// Explain breaks down round r's pairing: for each pair the cost terms that
// made it (gap, colours, repeated colour and float, compensation, elitism,
// rematch, country), and for the ExplainDearest dearest pairs the cheapest
// alternative (a swap of partners with another pair) and why it lost: what it
// adds to the round's cost, by term. The round is seen as the pairing saw it:
// the standings and histories after round r-1, under the director's rules it
// was paired with (RoundRules; none recorded for a round paired before otd
// kept them, whose forced pairs may then show a cheaper swap).
func (t *Tournament) Explain(r int) (ExplainReport, error) {
	if err := t.CheckPaired(r); err != nil {
		return ExplainReport{}, err
	}
	rules := t.rulesOf(r)
	in, err := t.pairingInput(r, rules.Forced, rules.Forbidden, rules.Bye)
	if err != nil {
		return ExplainReport{}, err
	}
	hist, err := t.history(r - 1)
	if err != nil {
		return ExplainReport{}, err
	}
	var posted pairing.Pairing
	var tables []int
	byeTable, handTable := 0, 0
	for _, g := range t.Round(r) {
		if g.IsBye() {
			if g.Black == rules.Bye { // given by hand: priced below, never swapped
				handTable = g.Table
				continue
			}
			posted.Bye, byeTable = g.Black, g.Table
		} else {
			posted.Pairs = append(posted.Pairs, pairing.Pair{Black: g.Black, White: g.White})
			tables = append(tables, g.Table)
		}
		// Players of the round who are no longer active are still part of it.
		for _, n := range []int{g.Black, g.White} {
			if n != 0 && !t.Players[n-1].Active(r) {
				in.Players = append(in.Players, t.pairingPlayer(n, r, hist))
			}
		}
	}
	if byeTable != 0 {
		tables = append(tables, byeTable)
	}
	ex, err := pairing.Explain(in, posted, t.pairingOptions(r, 0), ExplainDearest)
	if err != nil {
		return ExplainReport{}, fmt.Errorf("round %d: %w: %w", r, ErrInconsistent, err)
	}
	out := ExplainReport{Round: r, Cost: ex.Cost, Alternatives: ex.Alternatives, NoAlternative: ex.NoAlternative,
		RoundRobin: t.System == RoundRobin, Rules: rules}
	for i, p := range ex.Pairs {
		out.Pairs = append(out.Pairs, ExplainedPair{Table: tables[i], PairCost: p})
	}
	if bye, err := t.handBye(r, rules); err != nil {
		return ExplainReport{}, err
	} else if bye.Black != 0 {
		out.Pairs = append(out.Pairs, ExplainedPair{Table: handTable, PairCost: bye})
		out.Cost += bye.Cost
	}
	return out, nil
}
