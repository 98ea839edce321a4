// Package rating computes the World Othello rating list (RULES.md section 8):
// games in, ratings out. It is a leaf: it knows no file format and no
// tournament, only games between players given by id (WOF ids), their
// results and their tournaments' dates. It uses only the standard library
// and, given the same games, gives the same list.
//
// # The method
//
// The list is not an incremental Elo: each list is fitted from every result
// up to its date, without previous ratings, by the method of Thomas Jech
// (T. Jech, "The ranking of incomplete tournaments: a mathematician's guide
// to popular sports", Amer. Math. Monthly 90 (1983) 246-266) as the WOF's
// rating officer computes it:
//
//   - The model is Bradley-Terry's: P(i beats j) = e^ri / (e^ri + e^rj), and
//     a rating is R = 1800 + r x 200/ln 3, so that P = 1/(1 + 3^(-(Ri-Rj)/200)):
//     200 points are odds of 3 to 1.
//   - A win scores 2 units, a draw 1 unit to each player; discs and colours
//     do not count. Each game is weighted by its tournament's age at the list
//     date in whole months (Weight): under 7 months 150, under 14 months 100,
//     under 26 months 60, under 38 months 30, older 1. The ratings maximise
//     the weighted log-likelihood
//     L(r) = sum over games of w x (units of i x log P(i beats j) + units of j x log P(j beats i)).
//   - The maximum exists, and is unique up to a common shift, exactly inside
//     each strongly connected part of the graph with an arc from i to j when
//     i beat or drew j (Zermelo 1929; L. R. Ford, Amer. Math. Monthly 64
//     (1957) 28-33; Hunter 2004, assumption 1): a player who never lost to the
//     part would go to plus infinity. Only parts of at least 10 players
//     (Options.MinPart) are rated, each fitted from the games within it and
//     centred so that its mean rating, each player counted once per game
//     they played within the part, is 1800. The parts are found by Tarjan's
//     algorithm (R. E. Tarjan, SIAM J. Comput. 1 (1972) 146-160), iterative.
//
// # The fit
//
// The fit is the exact maximum of L, found by Newton's method with a line
// search (J. Nocedal and S. J. Wright, Numerical Optimization, 2nd ed. 2006,
// chapters 3 and 7). L is concave; its Hessian is minus a weighted graph
// Laplacian, sparse (one entry a pair of players who met), so each Newton
// step solves H d = grad L by conjugate gradients preconditioned by the
// diagonal, with one player of each part held fixed (a common shift of a
// part does not change L; the centring sets it afterwards), and as
// accurately as the gradient is small: until the residual is
// sqrt(|grad L| / |grad L at the start|) of the gradient, half of it at most
// (inexact Newton, Nocedal and Wright section 7.1). The step is taken whole when it
// raises L by at least 1/10,000 of what its slope promises (Armijo's rule),
// otherwise halved until it does, so L rises at every step and the
// iteration converges to the maximum from any start (Nocedal and Wright,
// chapter 3: with one player of each part fixed, L is strictly concave and
// its level sets bounded); close to it, the steps converge superlinearly
// (their theorem 7.2). It stops after a step whose every component is under
// 0.002 rating points: the next would be of the order of its square. On an
// archive the size of the WOF's, a fit stopped so differs from one run until
// the steps are under 2e-9 points, with solves 10,000 times more accurate,
// by under 1e-6 points. The gain of a step is summed from terms computed as log1p(q x
// expm1(e)), accurate however small the step, so that the rule does not
// fail for rounding near the maximum. The same games in any order, or under
// other ids, give the same ratings to within rounding.
//
// Minorisation-maximisation (D. R. Hunter, "MM algorithms for generalized
// Bradley-Terry models", Ann. Statist. 32 (2004) 384-406) converges too, and
// is the simpler iteration, but linearly, and slowly on a graph of 13,000
// players spread over 48 years and many countries; Newton needs about a
// dozen steps.
//
// # The uncertainty
//
// The WOF does not publish how it computes a rating's uncertainty. Here it
// is the standard error from the curvature of the weighted log-likelihood in
// the player's own rating, the others held at their estimates, on the rating
// scale: (200/ln 3) / sqrt(sum over the player's games within the part of
// w/150 x p x (1-p)), p the fitted probability of the game's result going
// either way. Each game is one observation (a draw half a win) and a game of
// the last 7 months counts as one, an older one as its weight's share of
// 150: with the weights as they stand (150 a recent game), a single game
// against an equal opponent three years ago would give +/-66, and "official"
// would mean little. Four recent games against equal opponents give +/-182,
// one +/-364.
package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// ErrInvalidInput is wrapped by the errors of games that cannot be rated as
// given (a player against themself, no result, no date) and of bad options.
var ErrInvalidInput = errors.New("invalid input")

// Result is a game's result for its first player, A.
type Result int8

// Results. The zero Result is none, and refused.
const (
	_    Result = iota
	Win         // A beat B
	Draw        // a draw: one unit to each
	Loss        // B beat A
)

func (r Result) String() string {
	switch r {
	case Win:
		return "win"
	case Draw:
		return "draw"
	case Loss:
		return "loss"
	}
	return fmt.Sprintf("Result(%d)", int8(r))
}

// Game is a rated game: two players by id (WOF ids; a player without one
// needs an id no other player has, a negative one say), A's result and the
// date of the game's tournament (its calendar day, in its own location; the
// time of day does not count).
type Game struct {
	A, B   int
	Result Result
	Date   time.Time
}

// Options are the list's rules beyond RULES.md's, which are the defaults.
type Options struct {
	// MinPart is the fewest players of a strongly connected part that is
	// rated: 0 means the WOF's 10. A federation's own list of a small pool
	// may want fewer; at least 2.
	MinPart int
}

// The WOF's rules (RULES.md section 8).
const (
	// DefaultMinPart is the fewest players of a rated part.
	DefaultMinPart = 10
	// Centre is the game-weighted mean rating of every rated part.
	Centre = 1800
	// OfficialUncertainty is the uncertainty under which a rating is official.
	OfficialUncertainty = 200
	// ListedMonths: a player is listed with a rated tournament younger than
	// this, in whole months (Age), at the list date.
	ListedMonths = 38
)

// scale is the rating points of one unit of r: 200/ln 3.
var scale = 200 / math.Log(3)

// List is the rating list at a date: every player with a game up to it.
type List struct {
	At time.Time
	// Players: the rated, by rating (highest first), then the unrated; ties
	// by id.
	Players []Player
	// Parts are the strongly connected parts, largest first (ties: the one
	// with the lowest id first); Player.Part numbers them from 1.
	Parts []Part
	// Games is how many games counted: those of a tournament up to At.
	Games int
	byID  map[int]int
}

// Part is a strongly connected part of the graph of results: every two of its
// players are linked by a chain of wins or draws each way.
type Part struct {
	Size  int  // players
	Games int  // games between two of its players: those of its fit
	Rated bool // at least Options.MinPart players
}

// Player is one player's entry in a list.
type Player struct {
	ID     int
	Rated  bool    // in a rated part; the fields below up to Official are set only then
	Rating float64 // the maximum-likelihood rating, unrounded
	// Uncertainty is the standard error of Rating in rating points (see the
	// package's doc comment: the curvature in the player's own rating).
	Uncertainty float64
	// Listed: rated, with a rated tournament in the 38 months before the
	// list date (Active): the players the WOF publishes.
	Listed bool
	// Official: listed, with an uncertainty under 200.
	Official bool
	// Active: a tournament in the 38 months before the list date, rated
	// or not.
	Active bool
	// Games is the player's games up to the list date, against anyone.
	Games int
	// Weighted is the same games each counted by its weight's share of a
	// recent game's: 1 for a game of the last 7 months, 2/3, 0.4, 0.2, 1/150.
	Weighted float64
	// Last is the date of the player's latest tournament up to the list date.
	Last time.Time
	// Part is the number of the player's strongly connected part (the list's
	// Parts[Part-1]).
	Part int
	// Missing says what an unrated player lacks to join a rated part (zero
	// for the rated); Why says it in words, with the size of their part.
	Missing Missing
	Why     string
}

// Missing is what links an unrated player lacks to a rated part.
type Missing int8

// What an unrated player lacks. "Beat" stands for beat or drew, "lost to"
// for lost to or drew: a draw links both ways.
const (
	_ Missing = iota
	// NoWin: some rated players beat the player, directly or through a
	// chain of results, but the player beat none of them, nor anyone who did.
	NoWin
	// NoLoss: the player beat rated players, directly or through a chain,
	// but lost to none of them, nor to anyone who did.
	NoLoss
	// NoLink: no chain of results links the player to a rated player either
	// way (there may be no rated part at all).
	NoLink
	// Between: the player beat players of one rated part and lost to players
	// of another, and those two parts are not linked both ways.
	Between
)

func (m Missing) String() string {
	switch m {
	case NoWin:
		return "no win or draw against a rated player, nor against anyone who beat one"
	case NoLoss:
		return "no loss or draw against a rated player, nor against anyone who lost to one"
	case NoLink:
		return "no result linked to a rated player: a draw against one, or a win against one and a loss against another, would link them"
	case Between:
		return "beat players of one rated part and lost to players of another, which are not linked both ways"
	}
	return ""
}

// Player returns the entry of the player with this id.
func (l *List) Player(id int) (Player, bool) {
	i, ok := l.byID[id]
	if !ok {
		return Player{}, false
	}
	return l.Players[i], true
}

// Age is a tournament's age at the list date in whole months, as RULES.md
// section 8 counts them: 12 x years + months between the two, the days of
// the month aside (Jech's Quelle_Anciennete, as the pipeline's
// bel_rating.py re-implements it: a tournament of 31 January is a month old
// on 1 March... and on 28 February). Negative when the tournament is after
// the list date.
func Age(tournament, at time.Time) int {
	ty, tm, _ := tournament.Date()
	ay, am, _ := at.Date()
	return 12*(ay-ty) + int(am-tm)
}

// Weight is the weight of a game of a tournament this many months old
// (Age): under 7 months 150, under 14 months 100, under 26 months 60, under
// 38 months 30, older 1.
func Weight(months int) int {
	switch {
	case months < 7:
		return 150
	case months < 14:
		return 100
	case months < 26:
		return 60
	case months < ListedMonths:
		return 30
	}
	return 1
}

// onOrBefore reports whether the day of t is on or before the day of at.
func onOrBefore(t, at time.Time) bool {
	ty, tm, td := t.Date()
	ay, am, ad := at.Date()
	return cmp.Or(cmp.Compare(ty, ay), cmp.Compare(tm, am), cmp.Compare(td, ad)) <= 0
}

// check returns an error for a game that cannot be rated, naming it
// (what: "game" or "event game") by its 1-based number.
func check(games []Game, what string) error {
	for i, g := range games {
		switch {
		case g.A == g.B:
			return fmt.Errorf("%w: %s %d: player %d against themself", ErrInvalidInput, what, i+1, g.A)
		case g.Result < Win || g.Result > Loss:
			return fmt.Errorf("%w: %s %d (%d against %d): no result (want win, draw or loss)", ErrInvalidInput, what, i+1, g.A, g.B)
		case g.Date.IsZero():
			return fmt.Errorf("%w: %s %d (%d against %d): no tournament date", ErrInvalidInput, what, i+1, g.A, g.B)
		}
	}
	return nil
}

// Compute returns the rating list at the date at from games: those of a
// tournament up to that day count, later ones are left out. Its error wraps
// ErrInvalidInput for a game that cannot be rated (naming it by its number
// in games) or bad options.
func Compute(games []Game, at time.Time, opt Options) (*List, error) {
	if err := check(games, "game"); err != nil {
		return nil, err
	}
	return compute(games, at, opt)
}

func compute(games []Game, at time.Time, opt Options) (*List, error) {
	minPart := cmp.Or(opt.MinPart, DefaultMinPart)
	if minPart < 2 {
		return nil, fmt.Errorf("%w: a rated part of %d players (want at least 2)", ErrInvalidInput, minPart)
	}
	if at.IsZero() {
		return nil, fmt.Errorf("%w: no list date", ErrInvalidInput)
	}
	// The players with a counted game, by id: their index is their place.
	var ids []int
	for _, g := range games {
		if onOrBefore(g.Date, at) {
			ids = append(ids, g.A, g.B)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	index := make(map[int]int32, len(ids))
	for i, id := range ids {
		index[id] = int32(i)
	}

	l := &List{At: at, Players: make([]Player, len(ids))}
	for i, id := range ids {
		l.Players[i].ID = id
	}
	// The pairs of players who met, with their weighted units (integers:
	// their sums are exact in any order).
	pairOf := map[uint64]int32{}
	var ps pairs
	for _, g := range games {
		if !onOrBefore(g.Date, at) {
			continue
		}
		l.Games++
		a, b := index[g.A], index[g.B]
		units := [...]int64{Win: 2, Draw: 1, Loss: 0}[g.Result]
		if a > b {
			a, b, units = b, a, 2-units
		}
		key := uint64(a)<<32 | uint64(b)
		k, ok := pairOf[key]
		if !ok {
			k = int32(len(ps.i))
			pairOf[key] = k
			ps.add(a, b)
		}
		months := Age(g.Date, at)
		w := int64(Weight(months))
		ps.sa[k] += w * units
		ps.sb[k] += w * (2 - units)
		ps.games[k]++
		for _, x := range [2]int32{a, b} {
			p := &l.Players[x]
			p.Games++
			p.Weighted += float64(w) / 150
			p.Active = p.Active || months < ListedMonths
			if p.Last.IsZero() || !onOrBefore(g.Date, p.Last) {
				p.Last = g.Date
			}
		}
	}

	comp, parts := strongParts(len(ids), &ps)
	l.Parts = parts
	for i := range parts {
		parts[i].Rated = parts[i].Size >= minPart
	}
	for i := range l.Players {
		l.Players[i].Part = int(comp[i]) + 1
	}
	if err := l.fit(&ps, comp); err != nil {
		return nil, err
	}
	l.explain(&ps, comp, minPart)

	slices.SortFunc(l.Players, func(x, y Player) int {
		if x.Rated != y.Rated {
			if x.Rated {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(y.Rating, x.Rating), cmp.Compare(x.ID, y.ID))
	})
	l.byID = make(map[int]int, len(l.Players))
	for i, p := range l.Players {
		l.byID[p.ID] = i
	}
	return l, nil
}

// pairs are the pairs of players who met: i < j (players' places), i's and
// j's weighted units, and the games between them.
type pairs struct {
	i, j   []int32
	sa, sb []int64
	games  []int32
}

func (ps *pairs) add(i, j int32) {
	ps.i, ps.j = append(ps.i, i), append(ps.j, j)
	ps.sa, ps.sb = append(ps.sa, 0), append(ps.sb, 0)
	ps.games = append(ps.games, 0)
}

// fit rates the players of the rated parts from the games within their part,
// centres each part and sets the flags.
func (l *List) fit(ps *pairs, comp []int32) error {
	var pr problem
	pr.n = len(l.Players)
	pr.fixed = make([]bool, pr.n)
	fixed := make([]bool, len(l.Parts))
	for x, c := range comp {
		pr.fixed[x] = !fixed[c] // the first player of each part
		fixed[c] = true
	}
	for k := range ps.i {
		a, b := ps.i[k], ps.j[k]
		if comp[a] != comp[b] || !l.Parts[comp[a]].Rated {
			continue
		}
		l.Parts[comp[a]].Games += int(ps.games[k])
		pr.i, pr.j = append(pr.i, a), append(pr.j, b)
		pr.s = append(pr.s, float64(ps.sa[k]))
		pr.t = append(pr.t, float64(ps.sa[k]+ps.sb[k]))
		pr.games = append(pr.games, float64(ps.games[k]))
	}
	r, info, err := pr.solve()
	if err != nil {
		return err
	}
	// Centre each part: its mean, each player counted once a game of the fit.
	sum := make([]float64, len(l.Parts))
	count := make([]float64, len(l.Parts))
	for k := range pr.i {
		for _, x := range [2]int32{pr.i[k], pr.j[k]} {
			sum[comp[x]] += pr.games[k] * r[x]
			count[comp[x]] += pr.games[k]
		}
	}
	for x := range l.Players {
		c := comp[x]
		if !l.Parts[c].Rated {
			continue
		}
		p := &l.Players[x]
		p.Rated = true
		p.Rating = Centre + (r[x]-sum[c]/count[c])*scale
		// info is in weighted units, 2 a game: a game of weight 150 is 300.
		p.Uncertainty = scale / math.Sqrt(info[x]/300)
		p.Listed = p.Active
		p.Official = p.Listed && p.Uncertainty < OfficialUncertainty
	}
	return nil
}

// explain says what each unrated player lacks: whether their results reach a
// rated part (they beat a rated player, directly or through a chain) and
// whether a rated part reaches them.
func (l *List) explain(ps *pairs, comp []int32, minPart int) {
	n := len(l.Players)
	var from []int32
	for x := range n {
		if l.Parts[comp[x]].Rated {
			from = append(from, int32(x))
		}
	}
	down := reach(n, ps, from, false) // a rated player beat them, through a chain
	up := reach(n, ps, from, true)    // they beat a rated player, through a chain
	for x := range l.Players {
		p := &l.Players[x]
		if p.Rated {
			continue
		}
		switch {
		case up[x] && down[x]:
			p.Missing = Between
		case up[x]:
			p.Missing = NoLoss
		case down[x]:
			p.Missing = NoWin
		default:
			p.Missing = NoLink
		}
		size := l.Parts[comp[x]].Size
		noun := "players"
		if size == 1 {
			noun = "player"
		}
		p.Why = fmt.Sprintf("in a linked part of %d %s (%d needed): %s", size, noun, minPart, p.Missing)
	}
}

// Change is one player of an event in a preview: their entry in the list
// without the event and with it.
type Change struct {
	ID     int
	Before Player // the zero Player but for its ID when the list without the event has not seen them
	After  Player
}

// Preview is what an event does to the list: the list at the date at (the
// event's) from games, and the same list with the event's games added,
// played at that date (their own Date is not read). It returns the event's
// players in the order of the list with the event. Its error wraps
// ErrInvalidInput for a game that cannot be rated, naming it "game N" in
// games or "event game N" in event.
func Preview(games, event []Game, at time.Time, opt Options) ([]Change, error) {
	before, err := Compute(games, at, opt)
	if err != nil {
		return nil, err
	}
	all := make([]Game, 0, len(games)+len(event))
	all = append(all, games...)
	for _, g := range event {
		g.Date = at
		all = append(all, g)
	}
	if err := check(all[len(games):], "event game"); err != nil {
		return nil, err
	}
	after, err := compute(all, at, opt)
	if err != nil {
		return nil, err
	}
	in := map[int]bool{}
	for _, g := range event {
		in[g.A], in[g.B] = true, true
	}
	var changes []Change
	for _, p := range after.Players {
		if in[p.ID] {
			b, _ := before.Player(p.ID)
			b.ID = p.ID
			changes = append(changes, Change{ID: p.ID, Before: b, After: p})
		}
	}
	return changes, nil
}
