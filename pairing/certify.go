package pairing

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// The certificate of a sparse matching, by cost classes.
//
// The pairing is proved optimal for the complete graph when no allowed pair
// has a negative reduced cost under the matching's duals (see Swiss). Testing
// every pair is quadratic: 50 million pairs for 10,000 players. But players
// who agree on everything the cost reads but their identity (points,
// colours, floats, byes, country, ...) cost the same to pair with anyone,
// bar pair-specific terms (a rematch, a forbidden pair) that only raise a
// cost or forbid the pair. So the players fall into cost classes, and the
// pairs of two classes form a block whose pairs cost at least the block's
// base: the cost of one of its pairs that has no pair-specific term, less
// any tie-break (tie-breaks are >= 0 and below the scale). A pair of the
// block can then have a negative reduced cost only if the sum of its two
// vertex duals is below -4 x base (blossom duals are >= 0 and only add); with
// each class sorted by dual, those candidates are found without looking at
// the others; a candidate inside a blossom whose dual covers the deficit is
// passed over, and each other one is priced exactly (edgeCost and the
// blossom duals). Candidates inside deeply nested blossoms can be millions,
// all covered: a block with more candidates than members is first tested
// whole, in one pass over its members (blossomLCA.covers), and looked at
// pair by pair only if some pair is not covered. The bye and the players of
// forced pairs are priced pair by pair.

// certClass is a cost class: players of one score group who cost the same.
type certClass struct {
	group   int
	members []int32 // sorted by dual before each check
	byTour  []int32 // the members in the order of the Euler tour of blossomLCA
}

// classKey writes what the cost of pairing v reads, less v's identity and
// pair-specific data: everything in v but its ID, rating, round-1 position,
// bye rank (a tie-break only with the bye, which is priced pair by pair),
// meetings and forbidden partners (pair-specific terms, which only raise a
// cost) and colour history (which orients a pair, not its cost). Any field
// added to vertex is in the key, which can only split classes, never merge
// players who cost differently.
func classKey(v vertex, buf []byte) []byte {
	v.id, v.rating, v.pos, v.byeRank = 0, 0, 0, 0
	v.met, v.forbid, v.prevOpp, v.colours = nil, nil, -1, nil
	return fmt.Appendf(buf[:0], "%v", v)
}

// buildClasses sets s.cls (in score-group order) and s.clsStart: the classes
// of group g are s.cls[s.clsStart[g]:s.clsStart[g+1]].
func (s *swiss) buildClasses() {
	var buf []byte
	s.clsStart = make([]int, len(s.groups)+1)
	for g, x := range s.groups {
		s.clsStart[g] = len(s.cls)
		idx := map[string]int{}
		for a := x[0]; a < x[1]; a++ {
			v := &s.v[a]
			if v.bye || v.forced >= 0 {
				continue
			}
			buf = classKey(*v, buf)
			k, ok := idx[string(buf)]
			if !ok {
				k = len(s.cls)
				idx[string(buf)] = k
				s.cls = append(s.cls, certClass{group: g})
			}
			s.cls[k].members = append(s.cls[k].members, int32(a))
		}
	}
	s.clsStart[len(s.groups)] = len(s.cls)
}

// special reports whether the pair a-b has a pair-specific cost term: a
// meeting before, or a forbidden pair.
func (s *swiss) special(a, b int32) bool {
	va := &s.v[a]
	return va.prevOpp == b || slices.Contains(va.forbid, b) ||
		slices.ContainsFunc(va.met, func(g meeting) bool { return g.opp == b })
}

// blockBase returns a lower bound on the internal cost of every allowed pair
// between classes p and q: the cost of a pair of theirs without a
// pair-specific term, its tie-break taken off; false if there is no such pair
// or it is not allowed (the block is then priced pair by pair).
func (s *swiss) blockBase(p, q []int32) (int64, bool) {
	for _, a := range p {
		for _, b := range q {
			if a == b || s.special(a, b) {
				continue
			}
			c, ok := s.edgeCost(int(a), int(b))
			if !ok {
				return 0, false
			}
			r := c % s.scale
			if r < 0 {
				r += s.scale
			}
			return c - r, true
		}
	}
	return 0, false
}

// violationsByClass returns allowed pairs whose reduced cost under m's duals
// is negative, by cost classes (see above). With limit > 0 it returns at most
// about limit pairs per player, the most negative first within each block;
// it returns none only when no allowed pair has a negative reduced cost,
// which proves m optimal for the complete graph.
func (s *swiss) violationsByClass(m *matcher, limit int) [][2]int32 {
	if s.clsStart == nil {
		s.buildClasses()
	}
	dual, top, lca := m.dual, m.topBlossoms(), newBlossomLCA(m)
	count := make([]int32, len(s.v))
	var out [][2]int32
	capped := false
	check := func(a, b int32) {
		if c, ok := s.edgeCost(int(a), int(b)); ok && !m.feasible(int(a), int(b), c) {
			out = append(out, [2]int32{a, b})
			count[a]++
			count[b]++
		}
	}
	full := func(a, b int32) bool { return limit > 0 && (count[a] >= int32(limit) || count[b] >= int32(limit)) }
	// The bye and the forced pairs, pair by pair.
	for a := range int32(len(s.v)) {
		switch va := &s.v[a]; {
		case va.bye:
			for b := range int32(len(s.v)) {
				if b != a {
					check(a, b)
				}
			}
		case va.forced > a:
			check(a, va.forced)
		}
	}
	for i := range s.cls {
		c := &s.cls[i]
		slices.SortFunc(c.members, func(a, b int32) int { return cmp.Or(cmp.Compare(dual[a], dual[b]), cmp.Compare(a, b)) })
		c.byTour = append(c.byTour[:0], c.members...)
		slices.SortFunc(c.byTour, func(a, b int32) int { return cmp.Compare(lca.first[a], lca.first[b]) })
	}
	low := make([]int64, len(s.groups))
	for g := range s.groups {
		low[g] = 0
		for _, c := range s.cls[s.clsStart[g]:s.clsStart[g+1]] {
			low[g] = min(low[g], dual[c.members[0]])
		}
	}
	for g := range s.groups {
		for h := g; h < len(s.groups); h++ {
			lb := s.lowerBound(s.v[s.groups[g][0]].points-s.v[s.groups[h][0]].points, false) * s.scale
			if low[g]+low[h]+4*lb >= 0 {
				continue
			}
			for i := s.clsStart[g]; i < s.clsStart[g+1]; i++ {
				j0 := s.clsStart[h]
				if g == h {
					j0 = i
				}
				for j := j0; j < s.clsStart[h+1]; j++ {
					p, q := s.cls[i].members, s.cls[j].members
					if dual[p[0]]+dual[q[0]]+4*lb >= 0 {
						continue
					}
					base, ok := s.blockBase(p, q)
					if !ok { // every pair exactly
						for x, a := range p {
							if i == j {
								q = p[x+1:]
							}
							for _, b := range q {
								if a != b {
									check(a, b)
								}
							}
						}
						continue
					}
					t := -4 * base
					if manyBelow(dual, p, q, i == j, t) && lca.covers(s.cls[i].byTour, s.cls[j].byTour, i == j, t) {
						continue // no pair to look at
					}
					for x, a := range p {
						if dual[a]+dual[q[0]] >= t {
							break
						}
						y := 0
						if i == j {
							y = x + 1
						}
						for tried := 0; y < len(q) && dual[a]+dual[q[y]] < t; y++ {
							if tb := top[a]; tb >= 0 && tb == top[q[y]] &&
								(dual[a]+dual[q[y]]+2*dual[tb] >= t || lca.slack(a, q[y], base) >= 0) {
								continue // the blossoms' duals cover the pair
							}
							if limit > 0 {
								if count[a] >= int32(limit) || tried >= 4*limit {
									capped = true
									break
								}
								if full(a, q[y]) {
									capped = true
									continue
								}
								tried++
							}
							check(a, q[y])
						}
					}
				}
			}
		}
	}
	if capped && len(out) == 0 {
		return s.violationsByClass(m, 0)
	}
	return out
}

// manyBelow reports whether the pairs of p and q (of p if same), sorted by
// dual, whose duals sum below t outnumber their members: then covers costs
// less than looking at each such pair.
func manyBelow(dual []int64, p, q []int32, same bool, t int64) bool {
	pairs, y := 0, len(q)
	for x, a := range p {
		for y > 0 && dual[a]+dual[q[y-1]] >= t {
			y--
		}
		if same {
			pairs += max(0, y-x-1)
		} else {
			pairs += y
		}
		if pairs > len(p)+len(q) {
			return true
		}
	}
	return false
}

// violationLimit is about how many of the pairs of negative reduced cost of
// each player one pass adds to the graph: enough to move the duals, few
// enough that the next matching stays fast.
const violationLimit = 8

// blossomLCA answers, in constant time, the sum of the duals of the blossoms
// that hold two vertices (the zsum of their lowest common positive-dual
// blossom: see fullSlack), by an Euler tour of the forest of positive-dual
// blossoms and a sparse table of its depths.
type blossomLCA struct {
	m     *matcher
	first []int32 // first[x]: x's first index in the tour
	// tour[j][i]: the shallowest node of tour[0][i : i+2^j], as its depth
	// << 32 | the node (the least such number)
	tour  [][]uint64
	root  []int32
	seq   []tourMember // covers' buffers
	after [][2]int64
}

// tourMember is a vertex of the pairs that covers looks at: of p, of q or both.
type tourMember struct {
	v        int32
	inP, inQ bool
}

func newBlossomLCA(m *matcher) *blossomLCA {
	m.initZ()
	n2 := 2 * m.n
	l := &blossomLCA{m: m, first: fill32(make([]int32, n2), -1), root: fill32(make([]int32, n2), -1)}
	depth := make([]uint64, n2)
	// Children lists of the forest: x under zpar[x], for vertices and the
	// blossoms with a positive dual.
	inForest := func(x int32) bool { return x < m.n || m.base[x] >= 0 && m.dual[x] > 0 }
	start := make([]int32, n2+1)
	for x := range n2 {
		if p := m.zpar[x]; p >= 0 && inForest(x) {
			start[p+1]++
		}
	}
	for x := range n2 {
		start[x+1] += start[x]
	}
	kids := make([]int32, start[n2])
	fill := append([]int32(nil), start[:n2]...)
	for x := range n2 {
		if p := m.zpar[x]; p >= 0 && inForest(x) {
			kids[fill[p]] = x
			fill[p]++
		}
	}
	var tour []uint64
	node := func(x int32) uint64 { return depth[x]<<32 | uint64(x) }
	type frame struct{ x, next int32 }
	var stack []frame
	for r := range n2 {
		if m.zpar[r] != -1 || !inForest(r) {
			continue
		}
		stack = append(stack[:0], frame{r, start[r]})
		l.first[r], l.root[r] = int32(len(tour)), r
		tour = append(tour, node(r))
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next == start[f.x+1] {
				stack = stack[:len(stack)-1]
				if len(stack) > 0 {
					tour = append(tour, node(stack[len(stack)-1].x))
				}
				continue
			}
			c := kids[f.next]
			f.next++
			depth[c], l.root[c], l.first[c] = depth[f.x]+1, r, int32(len(tour))
			tour = append(tour, node(c))
			stack = append(stack, frame{c, start[c]})
		}
	}
	l.tour = [][]uint64{tour}
	for w := 1; 2*w <= len(tour); w *= 2 {
		prev := l.tour[len(l.tour)-1]
		next := make([]uint64, len(tour)-2*w+1)
		for i := range next {
			next[i] = min(prev[i], prev[i+w])
		}
		l.tour = append(l.tour, next)
	}
	return l
}

// slack returns the slack of the edge u-v of internal cost c: fullSlack.
func (l *blossomLCA) slack(u, v int32, c int64) int64 {
	return l.m.dual[u] + l.m.dual[v] + 4*c + 2*l.shared(u, v)
}

// shared returns the sum of the duals of the blossoms that hold both u and
// v: the zsum of their lowest common blossom of positive dual, or 0.
func (l *blossomLCA) shared(u, v int32) int64 {
	if l.root[u] != l.root[v] || l.root[u] < 0 {
		return 0
	}
	i, j := l.first[u], l.first[v]
	if i > j {
		i, j = j, i
	}
	k := bits.Len32(uint32(j-i+1)) - 1
	if a := int32(uint32(min(l.tour[k][i], l.tour[k][j-(1<<k)+1]))); a >= l.m.n {
		return l.m.zsum[a]
	}
	return 0 // not in a common blossom
}

// covers reports whether every pair a-b of a vertex of p and one of q
// (distinct vertices of p if same), both in the order of the Euler tour, has
// dual[a] + dual[b] + 2*shared(a, b) >= t. One pass: in the tour's order,
// the lowest common blossom of two vertices is the shallowest of those of
// the neighbours between them, and zsum only grows with depth, so the least
// such sum is, over each gap between neighbours, 2*shared(neighbours) plus
// the least dual before the gap of one side and the least after it of the
// other.
func (l *blossomLCA) covers(p, q []int32, same bool, t int64) bool {
	dual := l.m.dual
	seq := l.seq[:0]
	if same {
		for _, v := range p {
			seq = append(seq, tourMember{v, true, true})
		}
	} else {
		for len(p) > 0 || len(q) > 0 {
			if len(q) == 0 || len(p) > 0 && l.first[p[0]] < l.first[q[0]] {
				seq, p = append(seq, tourMember{p[0], true, false}), p[1:]
			} else {
				seq, q = append(seq, tourMember{q[0], false, true}), q[1:]
			}
		}
	}
	l.seq = seq
	const none = math.MaxInt64
	// after[k]: the least duals of p and of q from seq[k] on.
	after := append(l.after[:0], make([][2]int64, len(seq)+1)...)
	after[len(seq)] = [2]int64{none, none}
	for k := len(seq) - 1; k >= 0; k-- {
		after[k] = after[k+1]
		if seq[k].inP {
			after[k][0] = min(after[k][0], dual[seq[k].v])
		}
		if seq[k].inQ {
			after[k][1] = min(after[k][1], dual[seq[k].v])
		}
	}
	l.after = after
	lowP, lowQ := int64(none), int64(none)
	for k := 0; k+1 < len(seq); k++ {
		if seq[k].inP {
			lowP = min(lowP, dual[seq[k].v])
		}
		if seq[k].inQ {
			lowQ = min(lowQ, dual[seq[k].v])
		}
		next := after[k+1]
		if (lowP == none || next[1] == none) && (lowQ == none || next[0] == none) {
			continue
		}
		z := 2 * l.shared(seq[k].v, seq[k+1].v)
		if lowP != none && next[1] != none && lowP+next[1]+z < t ||
			lowQ != none && next[0] != none && lowQ+next[0]+z < t {
			return false
		}
	}
	return true
}
