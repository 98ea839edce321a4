package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/otd-project/otd/pairing"
)

// PairOptions are a director's instructions for pairing a round.
type PairOptions struct {
	Forced    [][2]int // pairs to keep: black, white (player numbers)
	Forbidden [][2]int // pairs that must not meet
	Bye       int      // the player to get the bye (0: the pairing chooses)
	Manual    bool     // take only Forced and Bye; they must cover every active player
	Seed      uint64   // 0: the tournament's seed
}

// Pair pairs the next round: with the Swiss matching (or the round-robin
// table), keeping forced pairs and completing the rest. The round before must
// be finished.
func (t *Tournament) Pair(o PairOptions) (Change, error) {
	r := t.Paired() + 1
	if r > t.Rounds {
		return Change{}, fmt.Errorf("%w: all %d rounds are paired", ErrAllPaired, t.Rounds)
	}
	for _, g := range t.Round(r - 1) {
		if g.Result == nil && !g.IsBye() {
			return Change{}, &NoResultError{Round: g.Round, Table: g.Table, Black: g.Black, White: g.White}
		}
	}
	active := map[int]bool{}
	for _, p := range t.Players {
		if p.Active(r) {
			active[p.Number] = true
		}
	}
	if len(active) < 2 {
		return Change{}, &TooFewPlayersError{Round: r, Active: len(active)}
	}
	if err := t.checkOverrides(o, active, r); err != nil {
		return Change{}, err
	}
	rules := t.roundRules(r, o, active)
	var pr pairing.Pairing
	var err error
	if o.Manual { // a manual pairing must be complete before its colours are checked
		if pr, err = manual(o, active, r); err != nil {
			return Change{}, err
		}
	}
	if err := t.checkForcedColours(o.Forced, r); err != nil {
		return Change{}, err
	}
	switch {
	case o.Manual:
	case t.System == RoundRobin:
		pr, err = t.roundRobin(r, active)
		for _, p := range pr.Pairs {
			if f, ok := t.forbidden(p.Black, p.White); ok && err == nil {
				err = &ForbiddenPairError{Round: r, Black: p.Black, White: p.White, Rule: f}
			}
		}
	default:
		o.Forbidden = rules.Forbidden
		pr, err = t.swiss(r, o)
	}
	if err != nil {
		return Change{}, err
	}
	games := make([]Game, 0, len(pr.Pairs)+1)
	for i, p := range pr.Pairs {
		games = append(games, Game{Round: r, Table: i + 1, Black: p.Black, White: p.White})
	}
	if pr.Bye != 0 {
		games = append(games, Game{Round: r, Table: len(games) + 1, Black: pr.Bye})
	}
	t.Games = append(t.Games, games...)
	after := State{Games: games}
	if !rules.IsZero() {
		t.RoundRules = append(t.RoundRules, rules)
		after.RoundRules = []RoundRules{rules}
	}
	c := t.change(ActRoundPair, fmt.Sprintf("round %d", r), State{}, after)
	for _, n := range pr.Notes { // the last resorts the matching took, said where the director reads the change
		c.Notes = append(c.Notes, n.Text)
	}
	return c, nil
}

// roundRules are the rules round r is paired under: the director's options
// o and the standing forbidden pairs of two players active in the round.
func (t *Tournament) roundRules(r int, o PairOptions, active map[int]bool) RoundRules {
	rules := RoundRules{Round: r, Manual: o.Manual, Bye: o.Bye}
	if len(o.Forced) > 0 {
		rules.Forced = slices.Clone(o.Forced)
	}
	seen := map[[2]int]bool{}
	add := func(a, b int) {
		if k := pairKey(a, b); active[a] && active[b] && !seen[k] {
			seen[k] = true
			rules.Forbidden = append(rules.Forbidden, k)
		}
	}
	if !o.Manual {
		for _, f := range o.Forbidden {
			add(f[0], f[1])
		}
		if t.System != RoundRobin {
			for _, f := range t.Forbidden {
				add(f.A, f.B)
			}
		}
	}
	slices.SortFunc(rules.Forbidden, func(x, y [2]int) int { return cmp.Or(x[0]-y[0], x[1]-y[1]) })
	return rules
}

// PairNotes returns the last resorts a pairing took (a second bye, a
// rematch with the same colours), the notes of its change (Pair's); none
// for another change.
func PairNotes(c Change) []string {
	if c.Action != ActRoundPair {
		return nil
	}
	return c.Notes
}

// checkOverrides checks the forced and forbidden pairs and the bye.
func (t *Tournament) checkOverrides(o PairOptions, active map[int]bool, r int) error {
	seen := map[int]string{}
	use := func(n int, as string) error {
		p, err := t.Player(n)
		if err != nil {
			return err
		}
		if !active[n] {
			why := "is absent from"
			if p.WithdrawnBy(r) {
				why = "has withdrawn before"
			} else if r < p.FirstRound {
				why = "entered after"
			}
			return fmt.Errorf("player %d (%s) %s round %d and cannot be %s: %w", n, p.Name, why, r, as, ErrBadPairing)
		}
		if prev, dup := seen[n]; dup {
			return fmt.Errorf("player %d (%s) is named twice (%s and %s): %w", n, p.Name, prev, as, ErrBadPairing)
		}
		seen[n] = as
		return nil
	}
	for _, f := range o.Forced {
		if f[0] == f[1] {
			return fmt.Errorf("forced pair %d-%d: a player cannot play themself: %w", f[0], f[1], ErrBadPairing)
		}
		for _, n := range f {
			if err := use(n, fmt.Sprintf("in the forced pair %d-%d", f[0], f[1])); err != nil {
				return err
			}
		}
	}
	if o.Bye != 0 {
		if err := use(o.Bye, "given the bye"); err != nil {
			return err
		}
		if len(active)%2 == 0 {
			return fmt.Errorf("round %d has %d active players, an even number: no bye to give: %w", r, len(active), ErrBadPairing)
		}
		for _, g := range t.Games {
			if g.IsBye() && g.Black == o.Bye {
				return fmt.Errorf("player %d (%s) already had the bye in round %d: %w: a player gets one bye at most", o.Bye, t.Players[o.Bye-1].Name, g.Round, ErrBadPairing)
			}
		}
	}
	for _, f := range o.Forbidden {
		for _, n := range f {
			if _, err := t.Player(n); err != nil {
				return err
			}
		}
		for _, g := range o.Forced {
			if (g[0] == f[0] && g[1] == f[1]) || (g[0] == f[1] && g[1] == f[0]) {
				return fmt.Errorf("pair %d-%d is both forced and forbidden: %w", f[0], f[1], ErrBadPairing)
			}
		}
	}
	for _, g := range o.Forced {
		if f, ok := t.forbidden(g[0], g[1]); ok {
			return &ForbiddenPairError{Round: r, Black: g[0], White: g[1], Rule: f, Forced: true}
		}
	}
	return nil
}

// checkForcedColours refuses a forced pair (black, white) that repeats the
// colours of an earlier game between the two: a rematch with the same colours
// breaks an absolute rule (RULES.md section 4: "infinity"; pairing.Check
// calls the round invalid), while the colours reversed only cost (5,000,000).
//
// The director's colours are kept, not swapped into the allowed orientation,
// and the pair is refused rather than re-oriented in the matching: --force
// B-W says who has black, and a pairing sheet with other colours than the
// director typed (perhaps already announced) would be a surprise found at the
// board. Nor would passing the orientation into the matching change anything
// else: a forced pair is fixed, costs nothing there, and the other players
// are matched around it the same way whatever its colours. So the pair is
// refused with the reason and the orientation to type instead, which the
// director may well prefer to forcing another pair; when the two have met
// with both colours, no orientation is allowed. A same-colour rematch
// ("infinity") is never the least bad choice while the other orientation
// (5,000,000) is open, so refusing it loses the director nothing. --manual is checked
// the same way, as it takes the forced pairs as they are.
func (t *Tournament) checkForcedColours(forced [][2]int, r int) error {
	if len(forced) == 0 {
		return nil
	}
	hist, err := t.history(r - 1) // the meetings as the pairing sees them
	if err != nil {
		return err
	}
	for _, f := range forced {
		if err := t.forcedColours(f, hist); err != nil {
			return err
		}
	}
	return nil
}

// forcedColours checks one forced pair (black, white) against the games before.
func (t *Tournament) forcedColours(f [2]int, hist history) error {
	var same, reversed int // the round of an earlier game with these colours, and with the other ones
	for r, g := range hist.games[f[0]] {
		if g.Opponent != f[1] {
			continue
		}
		switch g.Colour {
		case pairing.Black:
			same = r + 1
		case pairing.White:
			reversed = r + 1
		}
	}
	b, w := t.Players[f[0]-1], t.Players[f[1]-1]
	switch {
	case same != 0 && reversed != 0:
		return fmt.Errorf("forced pair %d-%d: players %d (%s) and %d (%s) have met with both colours (rounds %d and %d): either way is a rematch with the same colours, which is not allowed: %w",
			f[0], f[1], f[0], b.Name, f[1], w.Name, min(same, reversed), max(same, reversed), ErrBadPairing)
	case same != 0:
		return fmt.Errorf("forced pair %d-%d: player %d (%s) had black against player %d (%s) in round %d, and a rematch with the same colours is not allowed; force %d-%d to give them the other colours: %w",
			f[0], f[1], f[0], b.Name, f[1], w.Name, same, f[1], f[0], ErrBadPairing)
	}
	return nil
}

func manual(o PairOptions, active map[int]bool, r int) (pairing.Pairing, error) {
	pr := pairing.Pairing{Bye: o.Bye}
	covered := map[int]bool{o.Bye: o.Bye != 0}
	for _, f := range o.Forced {
		pr.Pairs = append(pr.Pairs, pairing.Pair{Black: f[0], White: f[1]})
		covered[f[0]], covered[f[1]] = true, true
	}
	var missing []int
	for n := range active {
		if !covered[n] {
			missing = append(missing, n)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		return pr, fmt.Errorf("round %d: --manual pairs only the forced pairs and the bye, and they leave players %v unpaired: %w", r, missing, ErrBadPairing)
	}
	return pr, nil
}

func (t *Tournament) roundRobin(r int, active map[int]bool) (pairing.Pairing, error) {
	var ids []int
	for _, p := range t.Players {
		if p.FirstRound == 1 {
			ids = append(ids, p.Number)
		}
	}
	rounds, err := pairing.RoundRobin(ids, r) // as many cycles as the rounds ask, colours swapped in every second one
	if err != nil {
		return pairing.Pairing{}, fmt.Errorf("round robin: %w", err)
	}
	pr := rounds[r-1]
	out := pairing.Pairing{Bye: pr.Bye}
	for _, p := range pr.Pairs { // a pair with a player who left: the other sits out with the bye
		switch {
		case active[p.Black] && active[p.White]:
			out.Pairs = append(out.Pairs, p)
		case active[p.Black] && out.Bye == 0:
			out.Bye = p.Black
		case active[p.White] && out.Bye == 0:
			out.Bye = p.White
		case active[p.Black] || active[p.White]:
			return out, fmt.Errorf("round robin round %d: two players would need the bye: %w; pair it with --manual", r, ErrBadPairing)
		}
	}
	return out, nil
}

// swiss pairs round r with the minimum-cost matching.
func (t *Tournament) swiss(r int, o PairOptions) (pairing.Pairing, error) {
	in, err := t.pairingInput(r, o.Forced, o.Forbidden, o.Bye)
	if err != nil {
		return pairing.Pairing{}, err
	}
	pr, err := pairing.Swiss(in, t.pairingOptions(r, o.Seed))
	if err != nil {
		if errors.Is(err, pairing.ErrNoValidPairing) {
			return pr, fmt.Errorf("round %d: %w: %w", r, ErrBadPairing, err)
		}
		return pr, err
	}
	if o.Bye != 0 {
		pr.Bye = o.Bye
	}
	// Forced pairs keep the colours the director gave (checkForcedColours
	// has refused those that repeat an earlier game's colours).
	for i, p := range pr.Pairs {
		for _, f := range o.Forced {
			if p.Black == f[1] && p.White == f[0] {
				pr.Pairs[i] = pairing.Pair{Black: f[0], White: f[1]}
			}
		}
	}
	return pr, nil
}

// pairingInput is round r as the pairing sees it: the active players in
// standings order after round r-1 (less the one given the bye), with their
// histories.
func (t *Tournament) pairingInput(r int, forced, forbidden [][2]int, bye int) (pairing.Input, error) {
	in := pairing.Input{Round: r, Forced: forced, Forbidden: forbidden}
	hist, err := t.history(r - 1)
	if err != nil {
		return in, err
	}
	order, err := t.rankOrder(r - 1)
	if err != nil {
		return in, err
	}
	for _, n := range order {
		if t.Players[n-1].Active(r) && n != bye {
			in.Players = append(in.Players, t.pairingPlayer(n, r, hist))
		}
	}
	return in, nil
}

func (t *Tournament) pairingPlayer(n, r int, hist history) pairing.Player {
	p := t.Players[n-1]
	return pairing.Player{ID: n, Points: hist.points[n], Rating: p.Rating, Country: p.Country, Games: hist.games[n]}
}

func (t *Tournament) pairingOptions(r int, seed uint64) pairing.Options {
	if seed == 0 {
		seed = t.Seed
	}
	// The model is checked when it is set (Settings.Check) and when it is
	// read back (UnmarshalText): it parses.
	w, err := t.Pairing.Weights()
	if err != nil {
		w = pairing.Papp()
	}
	return pairing.Options{Weights: &w, FirstRound: t.FirstRound, Seed: seed + uint64(r)}
}

// history is what the pairing needs to know of the rounds played.
type history struct {
	points map[int]int            // half-points after the rounds
	games  map[int][]pairing.Game // per player, one entry per round
}

func (t *Tournament) history(rounds int) (history, error) {
	h := history{points: map[int]int{}, games: map[int][]pairing.Game{}}
	for _, p := range t.Players {
		h.games[p.Number] = make([]pairing.Game, rounds)
	}
	rules := t.Rules()
	before := map[int]int{} // points before the round of the game at hand
	r := 0
	for _, g := range t.Games { // in round order
		if g.Round > rounds {
			break
		}
		if g.Round != r {
			r = g.Round
			clear(before)
			for k, v := range h.points {
				before[k] = v
			}
		}
		b, w, err := gamePoints(g, rules)
		if err != nil {
			return h, err
		}
		h.points[g.Black] += b
		if g.IsBye() {
			h.games[g.Black][r-1] = pairing.Game{Bye: true, Float: pairing.FloatDown}
			continue
		}
		h.points[g.White] += w
		h.games[g.Black][r-1] = pairing.Game{Opponent: g.White, Colour: pairing.Black, Float: float(before[g.Black], before[g.White]), Points: b}
		h.games[g.White][r-1] = pairing.Game{Opponent: g.Black, Colour: pairing.White, Float: float(before[g.White], before[g.Black]), Points: w}
	}
	return h, nil
}

func float(own, opp int) pairing.Float {
	switch {
	case opp < own:
		return pairing.FloatDown
	case opp > own:
		return pairing.FloatUp
	}
	return pairing.NoFloat
}

// Plural gives "1 active player", "0 active players", "3 active players".
func Plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
