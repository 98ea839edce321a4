package pairing

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBlossomLCACovers compares blossomLCA.covers with the least sum over
// every pair, on random sets of vertices of matchings of random graphs and
// thresholds around those sums.
func TestBlossomLCACovers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	covered, not := 0, 0
	for range 200 {
		n := 2 * (5 + rng.IntN(60))
		edges := randomGraph(rng, n)
		for v := 0; v < n; v += 2 {
			edges = append(edges, Edge{v, v + 1, 1_000_000})
		}
		m := newMatcher(n, len(edges))
		for _, e := range edges {
			m.addEdge(e.U, e.V, e.Cost)
		}
		m.solve()
		l := newBlossomLCA(m)
		byTour := func(s []int32) []int32 {
			s = slices.Clone(s)
			slices.SortFunc(s, func(a, b int32) int { return cmp.Compare(l.first[a], l.first[b]) })
			return s
		}
		for range 20 {
			same := rng.IntN(3) == 0
			var p, q []int32
			for v := range int32(n) {
				switch r := rng.IntN(4); {
				case r == 0:
					p = append(p, v)
				case r == 1 && !same:
					q = append(q, v)
				}
			}
			if same {
				q = p
			}
			var sums []int64
			for _, a := range p {
				for _, b := range q {
					if a != b {
						sums = append(sums, m.dual[a]+m.dual[b]+2*l.shared(a, b))
					}
				}
			}
			if len(sums) == 0 {
				continue
			}
			least := slices.Min(sums)
			threshold := sums[rng.IntN(len(sums))] + rng.Int64N(3) - 1
			got, want := l.covers(byTour(p), byTour(q), same, threshold), least >= threshold
			if got != want {
				t.Fatalf("covers(%v, %v, %v, %d) = %v, want %v", p, q, same, threshold, got, want)
			}
			if got {
				covered++
			} else {
				not++
			}
		}
	}
	if covered == 0 || not == 0 {
		t.Fatalf("covered %d, not %d: the test tests one side only", covered, not)
	}
}
