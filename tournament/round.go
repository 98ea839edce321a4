package tournament

import (
	"fmt"
	"slices"

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
			return Change{}, &RoundStartedError{Round: r, Table: g.Table}
		}
	}
	t.Games = t.Games[:len(t.Games)-len(games)]
	before := State{Games: games}
	if rules := t.rulesOf(r); !rules.IsZero() {
		before.RoundRules = []RoundRules{rules}
		t.RoundRules = slices.DeleteFunc(t.RoundRules, func(x RoundRules) bool { return x.Round == r })
	}
	return t.change(ActRoundUnpair, fmt.Sprintf("round %d", r), before, State{}), nil
}

// CheckReport is the pairing checker's verdict on a round.
//
// A pairing that breaks an absolute rule (a rematch with the same colours, a
// second bye, a withdrawn player paired, ...) is not valid at any cost: its
// Cost leaves the broken rule out, so it is not compared with the best valid
// pairing's. Cheaper is only said of a valid pairing; an invalid one gets the
// best valid pairing as the one to use.
type CheckReport struct {
	Round       int      // the round checked
	Broken      bool     // the pairing breaks an absolute rule: it is not valid
	BrokenRules []string // the absolute rules it breaks
	Violations  []string // every rule broken, with the players and what it costs
	Cost        int64    // the pairing's cost; of its allowed parts only when Broken
	Cheaper     bool     // the pairing is valid and a valid pairing costs less
	BestCost    *int64   // the best valid pairing's cost, when Cheaper or Broken
	Best        string   // its pairs, black first, and the bye
	Rules       string   // the director's rules the round was paired under, which it is checked with
}

// CheckRound checks round r's pairing with the pairing rules and the
// director's rules it was paired under (RoundRules), as if it were about to
// be paired: rematches, second byes, inactive players, colours,
// floats; whether the pairing is valid, and whether a cheaper valid pairing
// exists (for an invalid one, what the best valid pairing costs).
func (t *Tournament) CheckRound(r int) (CheckReport, error) {
	if err := t.CheckPaired(r); err != nil {
		return CheckReport{}, err
	}
	rules := t.rulesOf(r)
	in, err := t.pairingInput(r, rules.Forced, rules.Forbidden, rules.Bye)
	if err != nil {
		return CheckReport{}, err
	}
	var proposed pairing.Pairing
	for _, g := range t.Round(r) {
		if g.IsBye() {
			if g.Black != rules.Bye { // a bye given by hand is priced below
				proposed.Bye = g.Black
			}
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
	// A bye given by hand costs what it would cost had the pairing chosen
	// it, in the pairing and in the best one (which keeps it).
	bye, err := t.handBye(r, rules)
	if err != nil {
		return CheckReport{}, err
	}
	out := CheckReport{Round: r, Broken: !rep.Valid, Cost: rep.Cost + bye.Cost, Violations: []string{}}
	if !rules.IsZero() {
		out.Rules = rules.String()
	}
	if bye.Terms.Rematch > 0 { // a missed round counted as a bye (Weights.AbsentAsBye)
		out.Violations = append(out.Violations, pairing.Violation{Rule: pairing.RuleSecondBye, Players: []int{bye.Black},
			Cost: bye.Terms.Rematch, Detail: "given by hand"}.String())
	}
	for _, v := range rep.Violations {
		out.Violations = append(out.Violations, v.String())
		if name := v.Rule.String(); v.Rule.Absolute() && !slices.Contains(out.BrokenRules, name) {
			out.BrokenRules = append(out.BrokenRules, name)
		}
	}
	// pairing.Check calls any valid pairing "cheaper" than an invalid one;
	// here an invalid pairing is not compared, only given the best valid one.
	out.Cheaper = rep.Valid && rep.Cheaper
	if rep.Best != nil && rep.BestValid && (out.Cheaper || out.Broken) { // a least bad pairing that breaks a rule too is not offered
		best := *rep.Best
		best.Cost += bye.Cost
		if bye.Black != 0 {
			best.Bye = bye.Black
		}
		out.BestCost, out.Best = &best.Cost, best.String()
	}
	return out, nil
}

// handBye prices the bye given by hand in round r (RULES.md section 4: the
// virtual player half a point below the lowest score present, the colour
// cost of the current imbalance, ...) as the pairing would price it had it
// chosen that bye: in the whole field of the round. It is zero when the bye
// of round r was not given by hand, or its player is no longer active.
func (t *Tournament) handBye(r int, rules RoundRules) (pairing.PairCost, error) {
	n := rules.Bye
	if n == 0 || !t.Players[n-1].Active(r) || !slices.ContainsFunc(t.Round(r), func(g Game) bool { return g.IsBye() && g.Black == n }) {
		return pairing.PairCost{}, nil
	}
	in, err := t.pairingInput(r, rules.Forced, rules.Forbidden, 0)
	if err != nil {
		return pairing.PairCost{}, err
	}
	terms, err := pairing.PairTerms(in, t.pairingOptions(r, 0), n, 0)
	if err != nil {
		return pairing.PairCost{}, fmt.Errorf("round %d: the bye given to %d: %w: %w", r, n, ErrInconsistent, err)
	}
	return pairing.PairCost{Black: n, Terms: terms, Cost: terms.Total()}, nil
}
