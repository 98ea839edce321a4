package pairing

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// bruteForce returns the largest cardinality of a matching and the least cost
// among matchings of that cardinality, by dynamic programming over vertex sets.
// (The blossom code guarantees the least cost only for perfect matchings.)
func bruteForce(n int, edges []Edge) (size int, cost int64) {
	const none = math.MaxInt64
	c := make([][]int64, n)
	for i := range c {
		c[i] = make([]int64, n)
		for j := range c[i] {
			c[i][j] = none
		}
	}
	for _, e := range edges {
		if e.U != e.V && e.Cost < c[e.U][e.V] {
			c[e.U][e.V], c[e.V][e.U] = e.Cost, e.Cost
		}
	}
	type best struct {
		size int
		cost int64
	}
	memo := make([]best, 1<<n)
	for mask := 1; mask < 1<<n; mask++ {
		i := 0
		for mask&(1<<i) == 0 {
			i++
		}
		rest := mask &^ (1 << i)
		b := memo[rest] // i stays unmatched
		for j := i + 1; j < n; j++ {
			if rest&(1<<j) != 0 && c[i][j] != none {
				r := memo[rest&^(1<<j)]
				if r.size+1 > b.size || r.size+1 == b.size && r.cost+c[i][j] < b.cost {
					b = best{r.size + 1, r.cost + c[i][j]}
				}
			}
		}
		memo[mask] = b
	}
	return memo[1<<n-1].size, memo[1<<n-1].cost
}

func randomGraph(rng *rand.Rand, n int) []Edge {
	density := 0.15 + 0.85*rng.Float64()
	span := []int64{3, 50, 1_000_000}[rng.IntN(3)] // small spans give many ties
	var edges []Edge
	for u := range n {
		for v := u + 1; v < n; v++ {
			if rng.Float64() < density {
				edges = append(edges, Edge{u, v, rng.Int64N(2*span+1) - span})
			}
		}
	}
	if len(edges) > 0 && rng.IntN(4) == 0 { // a parallel edge
		e := edges[rng.IntN(len(edges))]
		edges = append(edges, Edge{e.V, e.U, e.Cost - rng.Int64N(span+1)})
	}
	rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
	return edges
}

// TestMatchingBruteForce compares the blossom algorithm with brute force on
// thousands of random graphs of up to 12 vertices: the same maximum
// cardinality and, when it is perfect, the same least cost and duals that
// certify it.
func TestMatchingBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	graphs := 0
	for n := 0; n <= 12; n++ {
		for range 1000 {
			graphs++
			edges := randomGraph(rng, n)
			wantSize, wantCost := bruteForce(n, edges)
			m := newMatcher(n, len(edges))
			for _, e := range edges {
				m.addEdge(e.U, e.V, e.Cost)
			}
			m.solve()
			size, cost := 0, int64(0)
			for v := range n {
				if w := m.partner(v); w > v {
					size++
					cost += -m.wt[m.mate[v]>>1] / 2
				}
			}
			if size != wantSize || 2*size == n && cost != wantCost {
				t.Fatalf("n=%d edges=%v: got %d pairs cost %d, brute force %d pairs cost %d", n, edges, size, cost, wantSize, wantCost)
			}
			if 2*size == n {
				for _, e := range edges {
					if e.U != e.V && !m.feasible(e.U, e.V, e.Cost) {
						t.Fatalf("n=%d edges=%v: dual infeasible on %v", n, edges, e)
					}
				}
			}
			mate, pc, err := MinCostPerfectMatching(n, edges)
			switch {
			case 2*wantSize == n && (err != nil || pc != wantCost):
				t.Fatalf("n=%d edges=%v: MinCostPerfectMatching = %v, %d, %v; want cost %d", n, edges, mate, pc, err, wantCost)
			case 2*wantSize != n && !errors.Is(err, ErrNoPerfectMatching):
				t.Fatalf("n=%d edges=%v: err = %v, want ErrNoPerfectMatching", n, edges, err)
			}
		}
	}
	t.Logf("%d graphs", graphs)
}

func TestMinCostPerfectMatchingErrors(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		edges []Edge
		want  error
	}{
		{"vertex out of range", 2, []Edge{{0, 2, 1}}, ErrInvalidInput},
		{"negative vertex", 2, []Edge{{-1, 1, 1}}, ErrInvalidInput},
		{"negative count", -1, nil, ErrInvalidInput},
		{"cost too large", 2, []Edge{{0, 1, math.MaxInt64}}, ErrInvalidInput},
		{"odd", 3, []Edge{{0, 1, 1}, {1, 2, 1}}, ErrNoPerfectMatching},
		{"self loop only", 2, []Edge{{0, 0, 1}}, ErrNoPerfectMatching},
		{"empty", 0, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := MinCostPerfectMatching(tt.n, tt.edges); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func ExampleMinCostPerfectMatching() {
	// A square 0-1-2-3 with one expensive side and a cheap diagonal.
	edges := []Edge{{0, 1, 5}, {1, 2, 1}, {2, 3, 5}, {3, 0, 1}, {0, 2, 1}}
	mate, cost, err := MinCostPerfectMatching(4, edges)
	fmt.Println(mate, cost, err)
	// Output: [3 2 1 0] 2 <nil>
}

// certify checks the LP optimality certificate of a perfect matching: every
// edge has slack >= 0 counting blossom duals, matched edges have slack 0, and
// every blossom with a positive dual is full.
func certify(t *testing.T, m *matcher, edges []Edge) {
	t.Helper()
	for _, e := range edges {
		if e.U != e.V && !m.feasible(e.U, e.V, e.Cost) {
			t.Fatalf("edge %v: negative slack", e)
		}
	}
	for v := range int(m.n) {
		w := m.partner(v)
		if s := m.fullSlack(v, w, -m.wt[m.mate[v]>>1]/2); s != 0 {
			t.Fatalf("matched edge %d-%d: slack %d", v, w, s)
		}
	}
	for b := m.n; b < 2*m.n; b++ {
		if m.base[b] < 0 {
			continue
		}
		if m.dual[b] < 0 {
			t.Fatalf("blossom %d: dual %d", b, m.dual[b])
		}
		in := map[int32]bool{}
		for _, v := range m.leaves(b, nil) {
			in[v] = true
		}
		inside := 0
		for v := range in {
			if in[int32(m.partner(int(v)))] {
				inside++
			}
		}
		if inside != len(in)-1 {
			t.Fatalf("blossom %d of %d vertices holds %d matched ends", b, len(in), inside)
		}
	}
}

// TestMatchingCertificate checks larger random graphs, beyond brute force, by
// the duality certificate.
func TestMatchingCertificate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 60 {
		n := 2 * (10 + rng.IntN(90))
		edges := randomGraph(rng, n)
		for v := 0; v < n; v += 2 { // make a perfect matching exist
			edges = append(edges, Edge{v, v + 1, 1_000_000})
		}
		m := newMatcher(n, len(edges))
		for _, e := range edges {
			m.addEdge(e.U, e.V, e.Cost)
		}
		m.solve()
		if !m.perfect() {
			t.Fatalf("graph %d: no perfect matching found", i)
		}
		certify(t, m, edges)
	}
}
