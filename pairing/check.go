package pairing

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Rule is a pairing rule that a proposed pairing can break.
type Rule int8

// Rules. Up to RuleForced they are absolute: a valid pairing breaks none of
// them. The others only cost.
const (
	RuleUnknown     Rule = iota + 1 // a player not in the input
	RuleNotActive                   // a withdrawn or absent player is paired
	RuleTwice                       // a player appears more than once
	RuleUnpaired                    // an active player has neither a game nor the bye
	RuleBye                         // a bye in an even field, or none in an odd one
	RuleSecondBye                   // the bye to a player who has had it
	RuleSameColours                 // a rematch with the colours of an earlier game
	RuleForbidden                   // a forbidden pair
	RuleForced                      // a forced pair is not kept
	RuleRematch                     // a rematch, colours reversed
	RuleScoreGap                    // a pair across score groups (or the bye above the lowest)
	RuleColour                      // a player's colours out of balance: |blacks - whites| >= 2 after the game
	RuleColourRun                   // a player gets the same colour a third time running
	RuleColourSwap                  // the other colour allocation costs less
	RuleCountry                     // compatriots
)

var ruleNames = [...]string{"", "unknown player", "not active", "paired twice", "unpaired", "bye",
	"second bye", "rematch with the same colours", "forbidden pair", "forced pair broken",
	"rematch", "score gap", "colour imbalance", "colour three times running", "colours swapped", "compatriots"}

func (r Rule) String() string {
	if r > 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return "rule(" + strconv.Itoa(int(r)) + ")"
}

// Absolute reports whether no valid pairing may break r.
func (r Rule) Absolute() bool { return r >= RuleUnknown && r <= RuleForced }

// Violation is one rule broken by a proposed pairing.
type Violation struct {
	Rule    Rule
	Players []int // the IDs concerned
	Cost    int64 // what it adds to the pairing's cost (0 for absolute rules)
	Detail  string
}

func (v Violation) String() string {
	ids := make([]string, len(v.Players))
	for i, id := range v.Players {
		ids[i] = strconv.Itoa(id)
	}
	s := v.Rule.String() + " " + strings.Join(ids, "-")
	if v.Detail != "" {
		s += ": " + v.Detail
	}
	if v.Cost != 0 {
		s += fmt.Sprintf(" (cost %d)", v.Cost)
	}
	return s
}

// Report is the verdict on a proposed pairing.
type Report struct {
	Violations []Violation
	Valid      bool  // no absolute rule broken
	Cost       int64 // the pairing's cost (of its allowed parts when not valid)
	Best       *Pairing
	// Cheaper says that Best, the cheapest pairing, costs less than the
	// proposal (or that the proposal is not valid and Best is). Best is nil
	// only when no pairing keeps the forced and forbidden pairs.
	Cheaper bool
	// BestValid says that Best breaks no absolute rule. When no pairing
	// avoids a second bye or a rematch with the same colours, Best is the
	// least bad and its Notes name them.
	BestValid bool
	full      int64 // Cost plus the (finite) costs of the broken pairs
}

// Check lists every rule a proposed round breaks, with its cost, and finds the
// cheapest valid pairing to compare. The proposal's colours are taken as
// given. Malformed input gives an error wrapping ErrInvalidInput.
func Check(in Input, proposed Pairing, opt Options) (Report, error) {
	s, err := newSwiss(in, opt)
	if err != nil {
		return Report{}, err
	}
	r := s.check(in, proposed)
	best, err := s.pair()
	switch {
	case err == nil:
		r.Best = &best
		r.BestValid = len(best.Notes) == 0
		switch {
		case r.Valid:
			r.Cheaper = best.Cost < r.Cost
		case r.BestValid:
			r.Cheaper = true
		default: // both break absolute rules: compare their whole costs
			r.Cheaper = best.Cost < r.Cost+r.full
		}
	case !errors.Is(err, ErrNoValidPairing):
		return Report{}, err
	}
	return r, nil
}

// check lists the violations of a proposed pairing.
func (s *swiss) check(in Input, p Pairing) Report {
	r := Report{Valid: true}
	add := func(rule Rule, cost int64, detail string, ids ...int) {
		r.Cost += cost
		if rule == 0 { // a cost that breaks no rule
			return
		}
		r.Violations = append(r.Violations, Violation{rule, ids, cost, detail})
		r.Valid = r.Valid && !rule.Absolute()
	}
	vx := map[int]int{}
	for i, v := range s.v {
		if !v.bye {
			vx[v.id] = i
		}
	}
	status := map[int]Status{}
	for _, p := range in.Players {
		status[p.ID] = p.Status
	}
	seen := map[int]bool{}
	// use returns the vertex of a player in the proposal, or -1.
	use := func(id int) int {
		st, known := status[id]
		switch {
		case !known:
			add(RuleUnknown, 0, "", id)
		case st != Active:
			add(RuleNotActive, 0, st.String(), id)
		case seen[id]:
			add(RuleTwice, 0, "", id)
		}
		seen[id] = true
		if i, ok := vx[id]; ok && known && st == Active {
			return i
		}
		return -1
	}
	for _, q := range p.Pairs {
		a, b := use(q.Black), use(q.White)
		if a < 0 || b < 0 || a == b {
			continue
		}
		if f := s.v[a].forced; f >= 0 && int(f) != b {
			add(RuleForced, 0, "forced to meet "+strconv.Itoa(s.v[f].id), q.Black)
		}
		if f := s.v[b].forced; f >= 0 && int(f) != a {
			add(RuleForced, 0, "forced to meet "+strconv.Itoa(s.v[f].id), q.White)
		}
		s.checkPair(a, b, add, &r.full)
	}
	odd := len(s.v) > 0 && s.v[len(s.v)-1].bye
	if p.Bye == 0 && odd {
		add(RuleBye, 0, "no bye in an odd field")
	}
	if p.Bye != 0 {
		a := use(p.Bye)
		switch {
		case !odd:
			add(RuleBye, 0, "a bye in an even field", p.Bye)
		case a < 0:
		case s.v[a].byes > 0:
			add(RuleSecondBye, 0, "", p.Bye)
			c, _ := s.costs(a, len(s.v)-1)
			r.full += c
		case s.v[a].forced >= 0:
			add(RuleForced, 0, "forced to meet "+strconv.Itoa(s.v[s.v[a].forced].id), p.Bye)
		default:
			c, _ := s.costs(a, len(s.v)-1)
			r.Cost += c
			if g := s.v[a].points - s.v[len(s.v)-1].points - 1; g > 0 {
				r.Violations = append(r.Violations, Violation{RuleScoreGap, []int{p.Bye}, 0,
					fmt.Sprintf("the bye %s above the lowest score", halves(g))})
			}
		}
	}
	for _, v := range s.v {
		if !v.bye && !seen[v.id] {
			add(RuleUnpaired, 0, "", v.id)
		}
	}
	return r
}

// checkPair lists what pair a (Black) - b (White) breaks.
// The cost of a pair that breaks an absolute rule goes to full only.
func (s *swiss) checkPair(a, b int, add func(Rule, int64, string, ...int), full *int64) {
	va, vb := &s.v[a], &s.v[b]
	ids := []int{va.id, vb.id}
	if slices.Contains(va.forbid, int32(b)) {
		add(RuleForbidden, 0, "", ids...)
		return
	}
	c, _ := s.rematch(a, b)
	switch {
	case s.sameColours(a, b):
		add(RuleSameColours, 0, fmt.Sprintf("%d had black before", va.id), ids...)
		x, _ := s.costs(a, b)
		*full += x
		return
	case c > 0:
		add(RuleRematch, c, "", ids...)
	}
	gap, repeat, comp, elit := s.between(a, b)
	if c := gap + repeat + comp + elit; c != 0 {
		add(RuleScoreGap, c, halves(abs(va.points-vb.points)), ids...)
	}
	if c := s.compatriots(a, b); c != 0 {
		add(RuleCountry, c, va.country, ids...)
	}
	for _, x := range []struct {
		v *vertex
		c Colour
	}{{va, Black}, {vb, White}} {
		cost, d := s.colourCost(x.v, x.c), x.v.balance+1
		if x.c == White {
			d = x.v.balance - 1
		}
		switch {
		case abs(d) >= 2:
			add(RuleColour, cost, fmt.Sprintf("%d: blacks - whites %+d after %s", x.v.id, d, x.c), ids...)
		case x.v.last == x.c && x.v.run >= 2:
			add(RuleColourRun, cost, fmt.Sprintf("%d: %s", x.v.id, x.c), ids...)
		default:
			// Colour costs below these are part of every pairing; they count
			// in the total only.
			add(0, cost, "", ids...)
		}
	}
	if x, y := s.costs(a, b); y < x {
		add(RuleColourSwap, 0, fmt.Sprintf("%d less with %d black", x-y, vb.id), ids...)
	}
}

// halves formats a score difference in half-points as points.
func halves(h int) string {
	s := strconv.Itoa(h / 2)
	if h%2 != 0 {
		s += ".5"
	}
	if h == 2 {
		return s + " point"
	}
	return s + " points"
}
