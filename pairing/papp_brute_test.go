package pairing

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// mutate turns a simulated round into one with what a director meets: an
// absent player, a late entrant, a forbidden pair and a forced pair (some
// of them, chosen by rng).
func mutate(rng *rand.Rand, in Input) Input {
	out := in
	out.Players = slices.Clone(in.Players)
	n := len(out.Players)
	if rng.IntN(2) == 0 && n > 3 {
		out.Players[rng.IntN(n)].Status = Absent
	}
	if rng.IntN(2) == 0 {
		out.Players = append(out.Players, Player{ID: 1000 + in.Round, Country: "FRA"})
	}
	var act []int
	for _, p := range out.Players {
		if p.Status == Active {
			act = append(act, p.ID)
		}
	}
	rng.Shuffle(len(act), func(i, j int) { act[i], act[j] = act[j], act[i] })
	if len(act) >= 4 && rng.IntN(2) == 0 {
		out.Forbidden = [][2]int{{act[0], act[1]}}
	}
	if len(act) >= 4 && rng.IntN(2) == 0 {
		out.Forced = [][2]int{{act[2], act[3]}}
	}
	return out
}

// internalCost pairs s and returns the matching's internal cost: the costs
// with their tie-breaks (the bye's rank, round 1's distance).
func internalCost(t *testing.T, s *swiss) int64 {
	t.Helper()
	m, err := s.match()
	if err != nil {
		t.Fatal(err)
	}
	var c int64
	for a := range s.v {
		if b := m.partner(a); a < b {
			x, ok := s.edgeCost(a, b)
			if !ok {
				t.Fatalf("pair %d-%d not allowed", s.v[a].id, s.v[b].id)
			}
			c += x
		}
	}
	return c
}

// bruteForce returns the least internal cost of a perfect matching of s's
// vertices, by enumerating them all; false if there is none.
func (s *swiss) bruteForce() (int64, bool) {
	used := make([]bool, len(s.v))
	var rec func() (int64, bool)
	rec = func() (int64, bool) {
		a := slices.Index(used, false)
		if a < 0 {
			return 0, true
		}
		used[a] = true
		best, found := int64(0), false
		for b := a + 1; b < len(s.v); b++ {
			c, ok := s.edgeCost(a, b)
			if used[b] || !ok {
				continue
			}
			used[b] = true
			if rest, ok := rec(); ok && (!found || c+rest < best) {
				best, found = c+rest, true
			}
			used[b] = false
		}
		used[a] = false
		return best, found
	}
	return rec()
}

// TestSwissBruteForcePapp: on small simulated rounds with absences, late
// entrants, forced and forbidden pairs, under Papp's and the plain weights,
// the matching's internal cost (tie-breaks included) is the least over every
// perfect matching, and the sparse graph's equals the complete graph's.
func TestSwissBruteForcePapp(t *testing.T) {
	rounds := 0
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 77))
		opt := Options{Seed: seed, FirstRound: FirstRound(seed % 2)}
		if seed%3 == 0 {
			opt.Weights = ptr(Plain())
		}
		cfg := SimConfig{Players: 4 + int(seed%7), Rounds: 6 + int(seed%5), Seed: seed, Options: opt}
		_, err := simulate(cfg, func(in Input) {
			in = mutate(rng, in)
			s, err := newSwiss(in, opt)
			if err != nil {
				t.Fatalf("seed %d round %d: %v", seed, in.Round, err)
			}
			want, ok := s.bruteForce()
			if !ok { // only a forced and a forbidden pair can do that
				if _, err := s.pair(); !errors.Is(err, ErrNoValidPairing) || len(in.Forbidden) == 0 {
					t.Errorf("seed %d round %d: no perfect matching, yet %v", seed, in.Round, err)
				}
				return
			}
			var got [2]int64
			for i, dense := range []bool{false, true} {
				s, _ := newSwiss(in, opt)
				s.dense = dense
				got[i] = internalCost(t, s)
			}
			if got[0] != want || got[1] != want {
				t.Errorf("seed %d round %d (%+v): sparse %d, dense %d, brute force %d (%v)", seed, in.Round, in, got[0], got[1], want, ok)
			}
			rounds++
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if rounds < 200 {
		t.Errorf("%d rounds checked", rounds)
	}
}

// TestSwissSparseDensePapp: larger simulated rounds with absences, late
// entrants, forced and forbidden pairs: the sparse graph's internal cost
// (tie-breaks included) equals the complete graph's.
func TestSwissSparseDensePapp(t *testing.T) {
	rounds := 0
	defer func() {
		if rounds != 17 {
			t.Errorf("%d rounds checked, want 17", rounds)
		}
	}()
	for _, cfg := range []SimConfig{{Players: 61, Rounds: 9, Seed: 4}, {Players: 80, Rounds: 8, Seed: 5, Options: Options{Weights: ptr(Plain())}}} {
		rng := rand.New(rand.NewPCG(cfg.Seed, 9))
		opt := cfg.Options
		opt.Seed = cfg.Seed
		_, err := simulate(cfg, func(in Input) {
			in = mutate(rng, in)
			var got [2]int64
			for i, dense := range []bool{false, true} {
				s, err := newSwiss(in, opt)
				if err != nil {
					t.Fatal(err)
				}
				s.dense = dense
				got[i] = internalCost(t, s)
			}
			rounds++
			if got[0] != got[1] {
				t.Errorf("%d players, seed %d, round %d: sparse %d, dense %d", cfg.Players, cfg.Seed, in.Round, got[0], got[1])
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
