package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// ForbiddenPair is two players whom the director has forbidden to meet for
// the rest of the event (a married couple, a parent and child, two club-mates
// who travelled together), with why: a standing rule that every later
// pairing obeys, until 'otd pair allow'.
type ForbiddenPair struct {
	A      int    `json:"a"` // player numbers, A < B
	B      int    `json:"b"`
	Reason string `json:"reason,omitempty"`
}

func (f ForbiddenPair) String() string {
	s := fmt.Sprintf("%d-%d forbidden", f.A, f.B)
	if f.Reason != "" {
		s += " (" + f.Reason + ")"
	}
	return s
}

// RoundRules are the director's rules a round was paired under: its pairs
// forced for that round, the pairs forbidden in it (for that round, and the
// standing ones then in force), the bye given by hand, or a manual pairing.
// The pairing checker and the explanation price the round under them, so
// that the director's own constraints never read as "a cheaper valid
// pairing exists". A round paired without any has no RoundRules.
type RoundRules struct {
	Round     int      `json:"round"`
	Manual    bool     `json:"manual,omitempty"`
	Forced    [][2]int `json:"forced,omitempty"`    // black, white
	Forbidden [][2]int `json:"forbidden,omitempty"` // lower number first
	Bye       int      `json:"bye,omitempty"`
}

// IsZero reports whether the rules say nothing: the round was paired as
// the pairing chose.
func (r RoundRules) IsZero() bool {
	return !r.Manual && len(r.Forced) == 0 && len(r.Forbidden) == 0 && r.Bye == 0
}

func (r RoundRules) String() string {
	var parts []string
	if r.Manual {
		parts = append(parts, "paired by hand")
	}
	for _, f := range r.Forced {
		parts = append(parts, fmt.Sprintf("%d-%d forced", f[0], f[1]))
	}
	for _, f := range r.Forbidden {
		parts = append(parts, fmt.Sprintf("%d-%d forbidden", f[0], f[1]))
	}
	if r.Bye != 0 {
		parts = append(parts, fmt.Sprintf("bye %d", r.Bye))
	}
	return fmt.Sprintf("round %d rules: %s", r.Round, strings.Join(parts, ", "))
}

// pairKey is a pair of players, lower number first.
func pairKey(a, b int) [2]int { return [2]int{min(a, b), max(a, b)} }

// forbidden returns the standing forbidden pair of a and b, if any.
func (t *Tournament) forbidden(a, b int) (ForbiddenPair, bool) {
	k := pairKey(a, b)
	i := slices.IndexFunc(t.Forbidden, func(f ForbiddenPair) bool { return f.A == k[0] && f.B == k[1] })
	if i < 0 {
		return ForbiddenPair{}, false
	}
	return t.Forbidden[i], true
}

// Forbid forbids players a and b to meet in every round paired from now on,
// for reason (which may be empty). The change notes a round already paired
// in which they meet: the rule applies from the next pairing.
func (t *Tournament) Forbid(a, b int, reason string) (Change, error) {
	pa, err := t.Player(a)
	if err != nil {
		return Change{}, err
	}
	pb, err := t.Player(b)
	if err != nil {
		return Change{}, err
	}
	if a == b {
		return Change{}, invalidf("pair %d-%d: a player cannot be forbidden to meet themself", a, b)
	}
	reason = strings.Join(strings.Fields(reason), " ")
	if err := checkName("the reason", reason); err != nil && reason != "" {
		return Change{}, err
	}
	if f, ok := t.forbidden(a, b); ok {
		return Change{}, fmt.Errorf("players %d (%s) and %d (%s) are forbidden to meet already (%s): nothing changed", a, pa.Name, b, pb.Name, f)
	}
	k := pairKey(a, b)
	f := ForbiddenPair{A: k[0], B: k[1], Reason: reason}
	t.Forbidden = append(t.Forbidden, f)
	sortForbidden(t.Forbidden)
	subject := fmt.Sprintf("players %d (%s) and %d (%s) never paired", k[0], t.Players[k[0]-1].Name, k[1], t.Players[k[1]-1].Name)
	c := t.change(ActPairForbid, subject, State{}, State{Forbidden: []ForbiddenPair{f}})
	if r := t.Paired(); r > 0 {
		for _, g := range t.Round(r) {
			if pairKey(g.Black, g.White) == k {
				c.Notes = append(c.Notes, fmt.Sprintf("they meet at table %d of round %d, paired before: the rule applies from the next pairing (unpair round %d to pair it again)", g.Table, r, r))
			}
		}
	}
	return c, nil
}

// Allow lifts the standing rule that forbids players a and b to meet.
func (t *Tournament) Allow(a, b int) (Change, error) {
	f, ok := t.forbidden(a, b)
	if !ok {
		if _, err := t.Player(a); err != nil {
			return Change{}, err
		}
		if _, err := t.Player(b); err != nil {
			return Change{}, err
		}
		return Change{}, fmt.Errorf("players %d and %d: %w", a, b, ErrNotForbidden)
	}
	t.Forbidden = slices.DeleteFunc(t.Forbidden, func(g ForbiddenPair) bool { return g == f })
	subject := fmt.Sprintf("players %d (%s) and %d (%s) may meet again", f.A, t.Players[f.A-1].Name, f.B, t.Players[f.B-1].Name)
	return t.change(ActPairAllow, subject, State{Forbidden: []ForbiddenPair{f}}, State{}), nil
}

func sortForbidden(fs []ForbiddenPair) {
	slices.SortFunc(fs, func(x, y ForbiddenPair) int { return cmp.Or(x.A-y.A, x.B-y.B) })
}

// rulesOf returns the rules round r was paired under (the zero value if it
// has none).
func (t *Tournament) rulesOf(r int) RoundRules {
	i := slices.IndexFunc(t.RoundRules, func(x RoundRules) bool { return x.Round == r })
	if i < 0 {
		return RoundRules{Round: r}
	}
	return t.RoundRules[i]
}
