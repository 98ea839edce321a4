package pairing

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// System is a pairing system.
type System int8

// Systems.
const (
	SystemSwiss System = iota
	SystemRoundRobin
)

func (s System) String() string {
	if s == SystemRoundRobin {
		return "roundrobin"
	}
	return "swiss"
}

// ParseSystem parses "swiss" or "roundrobin".
func ParseSystem(name string) (System, error) {
	switch name {
	case "swiss":
		return SystemSwiss, nil
	case "roundrobin":
		return SystemRoundRobin, nil
	}
	return 0, fmt.Errorf("%w: pairing system %q (want swiss or roundrobin)", ErrInvalidInput, name)
}

// SimConfig describes a simulated tournament.
type SimConfig struct {
	Players int // 2 to 100000 (1000 for a round robin)
	Rounds  int // 1 to 1000; for a round robin, 0 plays one cycle, more plays it again (RoundRobin)
	Seed    uint64
	System  System
	Options Options // Swiss options; Options.Seed is set from Seed
}

// SimRound is what the simulator saw in one round.
type SimRound struct {
	Round     int     `json:"round"`
	Seconds   float64 `json:"seconds"` // time to pair the round
	Pairs     int     `json:"pairs"`
	Bye       int     `json:"bye,omitempty"`
	Cost      int64   `json:"cost"`
	Rematches int     `json:"rematches"`
	Floats    int     `json:"floats"`                  // pairs across score groups
	MaxGap    int     `json:"largest_gap_half_points"` // the largest score gap of a pair
	// ForcedGap is the least largest gap that any pairing keeping the absolute
	// rules, with no rematch and the bye no higher, can have: the gap the field
	// forces (Swiss only; -1 when not computed).
	ForcedGap  int `json:"forced_gap_half_points"`
	Violations int `json:"violations"` // absolute rules broken, found by Check
}

// GapCount counts the pairs across a score gap.
type GapCount struct {
	Gap   int `json:"half_points"`
	Pairs int `json:"pairs"`
}

// SimReport summarises a simulated tournament.
type SimReport struct {
	System     string `json:"system"`
	Players    int    `json:"players"`
	Rounds     int    `json:"rounds"`
	Seed       uint64 `json:"seed"`
	Rematches  int    `json:"rematches"`
	DoubleByes int    `json:"double_byes"` // byes beyond a player's first
	// Gaps is the histogram of pairs across score groups, by gap.
	Gaps []GapCount `json:"gaps"`
	// ExcessGaps counts the rounds whose largest gap is larger than the field forces.
	ExcessGaps int `json:"excess_gaps"`
	// WorstColour is the largest |blacks - whites| of any player after any round.
	WorstColour int `json:"worst_colour_imbalance"`
	// ColourRuns counts the players who had the same colour three games running.
	ColourRuns    int        `json:"same_colour_three_running"`
	Violations    int        `json:"violations"`
	MedianSeconds float64    `json:"median_seconds"`
	MaxSeconds    float64    `json:"max_seconds"`
	PerRound      []SimRound `json:"per_round"`
}

// simPlayer is a player of the simulated tournament.
type simPlayer struct {
	Player
	discs int
}

// Simulate plays a seeded random tournament: ratings drawn at random, each
// game won with probability 1/(1+3^(-diff/200)) for a rating difference diff,
// some ties, plausible disc counts. It pairs every round with this package,
// checks every pairing and reports rematches, byes, score gaps, colours and
// the time each pairing took. The standings order is points, discs, rating.
func Simulate(cfg SimConfig) (SimReport, error) { return simulate(cfg, nil) }

// simulate is Simulate, calling each (if not nil) with every round's input
// before pairing it.
func simulate(cfg SimConfig, each func(Input)) (SimReport, error) {
	switch {
	case cfg.Players < 2 || cfg.Players > 100000 || cfg.System == SystemRoundRobin && cfg.Players > 1000:
		return SimReport{}, fmt.Errorf("%w: %d players: want 2 to 100000 (1000 for a round robin)", ErrInvalidInput, cfg.Players)
	case cfg.Rounds < 0 || cfg.Rounds == 0 && cfg.System == SystemSwiss || cfg.Rounds > 1000:
		return SimReport{}, fmt.Errorf("%w: %d rounds: want 1 to 1000 (0 plays a whole round robin)", ErrInvalidInput, cfg.Rounds)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 1))
	ps := make([]simPlayer, cfg.Players)
	countries := []string{"FRA", "JPN", "GBR", "NED", "ITA", "USA", "GER", "BEL", "CZE", "SWE", "CHN", "THA"}
	for i := range ps {
		ps[i].ID = i + 1
		ps[i].Rating = 1000 + rng.IntN(301) + rng.IntN(301) + rng.IntN(301) + rng.IntN(301)
		ps[i].Country = countries[min(rng.IntN(len(countries)), rng.IntN(len(countries)))]
	}
	var schedule []Pairing
	if cfg.System == SystemRoundRobin {
		ids := make([]int, len(ps)) // seeded by rating
		for i := range ids {
			ids[i] = i + 1
		}
		slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(ps[b-1].Rating, ps[a-1].Rating) })
		var err error
		if schedule, err = RoundRobin(ids, cfg.Rounds); err != nil {
			return SimReport{}, err
		}
		cfg.Rounds = len(schedule)
	}
	rep := SimReport{System: cfg.System.String(), Players: cfg.Players, Rounds: cfg.Rounds, Seed: cfg.Seed}
	opt := cfg.Options
	opt.Seed = cfg.Seed
	gaps := map[int]int{}
	for r := 1; r <= cfg.Rounds; r++ {
		slices.SortStableFunc(ps, func(a, b simPlayer) int {
			return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.discs, a.discs),
				cmp.Compare(b.Rating, a.Rating), cmp.Compare(a.ID, b.ID))
		})
		in := Input{Round: r, Players: make([]Player, len(ps))}
		for i := range ps {
			in.Players[i] = ps[i].Player
		}
		if each != nil {
			each(in)
		}
		start := time.Now()
		s, err := newSwiss(in, opt)
		if err != nil {
			return rep, err
		}
		var p Pairing
		if cfg.System == SystemRoundRobin {
			p = schedule[r-1]
		} else if p, err = s.pair(); err != nil {
			return rep, fmt.Errorf("round %d: %w", r, err)
		}
		sr := SimRound{Round: r, Seconds: time.Since(start).Seconds(), Pairs: len(p.Pairs), Bye: p.Bye, ForcedGap: -1}
		check := s.check(in, p)
		sr.Cost = check.Cost
		for _, v := range check.Violations {
			if v.Rule.Absolute() {
				sr.Violations++
			}
		}
		byID := map[int]*simPlayer{}
		for i := range ps {
			byID[ps[i].ID] = &ps[i]
		}
		for _, q := range p.Pairs {
			b, w := byID[q.Black], byID[q.White]
			if slices.ContainsFunc(b.Games, func(g Game) bool { return g.Opponent == w.ID }) {
				sr.Rematches++
			}
			if g := abs(b.Points - w.Points); g > 0 {
				sr.Floats++
				sr.MaxGap = max(sr.MaxGap, g)
				gaps[g]++
			}
			play(rng, b, w)
		}
		if p.Bye != 0 {
			x := byID[p.Bye]
			if slices.ContainsFunc(x.Games, func(g Game) bool { return g.Bye }) {
				rep.DoubleByes++
			}
			x.Games = append(x.Games, Game{Bye: true, Float: FloatDown})
			x.Points += 2
			x.discs += 32
		}
		if cfg.System == SystemSwiss {
			sr.ForcedGap = s.forcedGap(sr.MaxGap, p.Bye)
			if sr.MaxGap > sr.ForcedGap {
				rep.ExcessGaps++
			}
		}
		for _, x := range ps {
			b := 0
			for _, g := range x.Games {
				switch g.Colour {
				case Black:
					b++
				case White:
					b--
				}
			}
			rep.WorstColour = max(rep.WorstColour, abs(b))
		}
		rep.Rematches += sr.Rematches
		rep.Violations += sr.Violations
		rep.PerRound = append(rep.PerRound, sr)
	}
	for _, x := range ps {
		if hasRun(x.Games, 3) {
			rep.ColourRuns++
		}
	}
	for g, n := range gaps {
		rep.Gaps = append(rep.Gaps, GapCount{g, n})
	}
	slices.SortFunc(rep.Gaps, func(a, b GapCount) int { return cmp.Compare(a.Gap, b.Gap) })
	secs := make([]float64, len(rep.PerRound))
	for i, r := range rep.PerRound {
		secs[i] = r.Seconds
	}
	slices.Sort(secs)
	if len(secs) > 0 {
		rep.MedianSeconds, rep.MaxSeconds = secs[(len(secs)-1)/2], secs[len(secs)-1]
	}
	return rep, nil
}

// SimulateDiscs draws the result of a game between players rated black and
// white and returns Black's discs (of 64; 32 for a tie): 3% of games are
// ties, the rest are won with probability 1/(1+3^(-diff/200)) for a rating
// difference diff, by a plausible margin.
func SimulateDiscs(rng *rand.Rand, black, white int) int {
	if rng.IntN(100) < 3 {
		return 32
	}
	win := 33 + rng.IntN(16) + rng.IntN(16)
	if rng.Float64() < 1/(1+math.Pow(3, -float64(black-white)/200)) {
		return win
	}
	return 64 - win
}

// play plays a game between b (Black) and w (White) and records it.
func play(rng *rand.Rand, b, w *simPlayer) {
	discs := SimulateDiscs(rng, b.Rating, w.Rating)
	fb, fw := NoFloat, NoFloat
	switch {
	case b.Points > w.Points:
		fb, fw = FloatDown, FloatUp
	case b.Points < w.Points:
		fb, fw = FloatUp, FloatDown
	}
	b.Games = append(b.Games, Game{Opponent: w.ID, Colour: Black, Float: fb})
	w.Games = append(w.Games, Game{Opponent: b.ID, Colour: White, Float: fw})
	b.discs += discs
	w.discs += 64 - discs
	pb := 1 // Black's half-points
	switch {
	case discs > 32:
		pb = 2
	case discs < 32:
		pb = 0
	}
	b.Points += pb
	w.Points += 2 - pb
	b.Games[len(b.Games)-1].Points = pb
	w.Games[len(w.Games)-1].Points = 2 - pb
}

// hasRun reports whether the games played hold n of the same colour running.
func hasRun(games []Game, n int) bool {
	run, last := 0, NoColour
	for _, g := range games {
		if g.Colour == NoColour {
			continue
		}
		if g.Colour != last {
			run, last = 0, g.Colour
		}
		if run++; run >= n {
			return true
		}
	}
	return false
}

// forcedGap returns the least largest score gap of a pairing of this round
// that keeps the absolute rules, has no rematch, and gives the bye (if given,
// to the player bye) to no one with more points. It tries gaps below got, the
// largest gap of the pairing made, as ceilings: the cheapest pairing that
// counts each pair over the ceiling (and each rematch as not allowed) costs
// nothing if and only if the ceiling can be kept.
func (s *swiss) forcedGap(got, bye int) int {
	c := *s
	c.scale, c.byeCeiling = 1, maxPoints
	if last := len(s.v) - 1; last >= 0 && s.v[last].bye {
		for _, v := range s.v {
			if v.id == bye && bye != 0 {
				c.byeCeiling = v.points - s.v[last].points + 1
			}
		}
	}
	t := got
	for ; t > 0; t-- {
		c.ceiling, c.dense = t, false
		m, err := c.match()
		if err != nil || m.cost() > 0 {
			break
		}
	}
	return t
}
