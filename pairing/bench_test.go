package pairing

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchInputs holds round 7 of the simulated tournaments, by field size:
// simulating 5000 players takes seconds, once is enough.
var benchInputs = map[int]Input{}

// BenchmarkSwiss pairs round 7, the median round of a 13-round Swiss, of a
// simulated tournament (seed 1) of 100, 1000, 5000 and 10000 players.
func BenchmarkSwiss(b *testing.B) {
	for _, n := range []int{100, 1000, 5000, 10000} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			in, ok := benchInputs[n]
			if !ok {
				if _, err := simulate(SimConfig{Players: n, Rounds: 7, Seed: 1}, func(x Input) { in = x }); err != nil {
					b.Fatal(err)
				}
				benchInputs[n] = in
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Swiss(in, Options{Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMinCostPerfectMatching matches a complete graph of 200 vertices
// with random costs.
func BenchmarkMinCostPerfectMatching(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var edges []Edge
	for u := range 200 {
		for v := u + 1; v < 200; v++ {
			edges = append(edges, Edge{u, v, rng.Int64N(1_000_000)})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := MinCostPerfectMatching(200, edges); err != nil {
			b.Fatal(err)
		}
	}
}
