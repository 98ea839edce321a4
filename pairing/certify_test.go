package pairing

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// certStates returns the rounds of a few small simulated tournaments, with
// forced and forbidden pairs and absences added at random, as swiss values
// ready to match.
func certStates(t *testing.T) []*swiss {
	t.Helper()
	var out []*swiss
	rng := rand.New(rand.NewPCG(7, 8))
	for _, cfg := range []SimConfig{{Players: 60, Rounds: 8, Seed: 4}, {Players: 45, Rounds: 7, Seed: 5}, {Players: 90, Rounds: 6, Seed: 6}} {
		_, err := simulate(cfg, func(in Input) {
			in.Players = slices.Clone(in.Players)
			for i := range in.Players {
				if rng.IntN(15) == 0 {
					in.Players[i].Status = Absent
				}
			}
			n := len(in.Players)
			for range 2 {
				a, b := in.Players[rng.IntN(n)], in.Players[rng.IntN(n)]
				if a.ID != b.ID {
					in.Forbidden = append(in.Forbidden, [2]int{a.ID, b.ID})
				}
			}
			if a, b := in.Players[rng.IntN(n)], in.Players[rng.IntN(n)]; a.ID != b.ID && a.Status == Active && b.Status == Active &&
				!slices.ContainsFunc(a.Games, func(g Game) bool { return g.Opponent == b.ID }) {
				in.Forced = append(in.Forced, [2]int{a.ID, b.ID})
			}
			s, err := newSwiss(in, Options{Seed: cfg.Seed})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestClassBaseIsLowerBound checks what the class certificate rests on: every
// allowed pair of two cost classes costs at least the classes' block base.
// A cost term that reads a player's data outside the class key, or a
// pair-specific term that lowers a cost, makes it fail.
func TestClassBaseIsLowerBound(t *testing.T) {
	for i, s := range certStates(t) {
		s.buildClasses()
		class := make([]int, len(s.v))
		for k := range class {
			class[k] = -1
		}
		for c, x := range s.cls {
			for _, a := range x.members {
				class[a] = c
			}
		}
		for a := range s.v {
			for b := a + 1; b < len(s.v); b++ {
				if class[a] < 0 || class[b] < 0 {
					continue
				}
				base, ok := s.blockBase(s.cls[class[a]].members, s.cls[class[b]].members)
				if c, allowed := s.edgeCost(a, b); ok && allowed && c < base {
					t.Fatalf("state %d: pair %d-%d costs %d, below its block's base %d", i, s.v[a].id, s.v[b].id, c, base)
				}
			}
		}
	}
}

// TestViolationsByClass compares the certificate by classes with the pair by
// pair one on matchings of thinned graphs (so that some pairs left out have
// a negative reduced cost): the same pairs, and the limited version returns
// some of them whenever there are any.
func TestViolationsByClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	found := 0
	for i, s := range certStates(t) {
		d := *s
		d.dense = true
		full := d.graph(0, nil)
		full.solve()
		if !full.perfect() {
			continue
		}
		// Keep the optimal matching and a random part of the other edges.
		m := newMatcher(len(s.v), len(full.eu))
		for k := range full.eu {
			u, v := int(full.eu[k]), int(full.ev[k])
			if full.partner(u) == v || rng.IntN(3) == 0 {
				m.addEdge(u, v, -full.wt[k]/2)
			}
		}
		m.solve()
		if !m.perfect() {
			t.Fatalf("state %d: no perfect matching", i)
		}
		want := s.violations(m)
		got := s.violationsByClass(m, 0)
		norm := func(p [][2]int32) [][2]int32 {
			p = slices.Clone(p)
			for k := range p {
				p[k] = [2]int32{min(p[k][0], p[k][1]), max(p[k][0], p[k][1])}
			}
			slices.SortFunc(p, func(a, b [2]int32) int {
				if a[0] != b[0] {
					return int(a[0] - b[0])
				}
				return int(a[1] - b[1])
			})
			return p
		}
		if !slices.Equal(norm(got), norm(want)) {
			t.Fatalf("state %d: by class %d pairs %v, pair by pair %d pairs %v", i, len(got), norm(got), len(want), norm(want))
		}
		if lim := s.violationsByClass(m, 1); len(want) > 0 && len(lim) == 0 || len(want) == 0 && len(lim) > 0 {
			t.Fatalf("state %d: limited certificate found %d pairs, full %d", i, len(lim), len(want))
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no state had a pair of negative reduced cost: the test tests nothing")
	}
}

// TestBlossomLCA compares the constant-time slack of blossomLCA with
// fullSlack's walk on every pair of matchings of random graphs, which form
// nested blossoms with positive duals.
func TestBlossomLCA(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	nested := 0
	for range 40 {
		n := 2 * (5 + rng.IntN(40))
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
		for u := range int32(n) {
			for v := u + 1; v < int32(n); v++ {
				c := rng.Int64N(100) - 50
				if got, want := l.slack(u, v, c), m.fullSlack(int(u), int(v), c); got != want {
					t.Fatalf("pair %d-%d: slack %d, fullSlack %d", u, v, got, want)
				}
				if m.fullSlack(int(u), int(v), c) != m.dual[u]+m.dual[v]+4*c {
					nested++
				}
			}
		}
	}
	if nested == 0 {
		t.Fatal("no pair shared a blossom with a positive dual: the test tests nothing")
	}
}
