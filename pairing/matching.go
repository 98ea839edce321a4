package pairing

import (
	"fmt"
	"math"
)

// Edge is an undirected edge of a matching graph and the cost of using it.
type Edge struct {
	U, V int
	Cost int64
}

// MinCostPerfectMatching returns a minimum-cost perfect matching of the graph
// with vertices 0..n-1 and the given edges: mate[v] is v's partner. It returns
// ErrNoPerfectMatching if the graph has none, and ErrInvalidInput for vertices out
// of range or costs so large that the computation could overflow. Self-loops are
// ignored; of parallel edges the cheapest counts.
//
// The algorithm is Edmonds' weighted blossom algorithm in its primal-dual form
// (Galil's survey, Van Rantwijk's formulation) in integer arithmetic, O(n^3),
// on adjacency lists: after a greedy start (grown along short alternating
// paths of tight edges), each free vertex grows its own alternating tree, so
// that a stage costs what its tree touches. Within a stage, the next dual
// change comes from a heap of the tree's bounds, and the vertices of a
// blossom share the label of its largest child, so that a blossom is formed
// or expanded without visiting all of its vertices (blossoms nest deep).
func MinCostPerfectMatching(n int, edges []Edge) (mate []int, cost int64, err error) {
	if n < 0 || n > math.MaxInt32/2 {
		return nil, 0, fmt.Errorf("%w: %d vertices", ErrInvalidInput, n)
	}
	m := newMatcher(n, len(edges))
	limit := costLimit(n)
	for _, e := range edges {
		if e.U < 0 || e.U >= n || e.V < 0 || e.V >= n {
			return nil, 0, fmt.Errorf("%w: edge %d-%d outside 0..%d", ErrInvalidInput, e.U, e.V, n-1)
		}
		if e.Cost > limit || e.Cost < -limit {
			return nil, 0, fmt.Errorf("%w: edge cost %d beyond ±%d", ErrInvalidInput, e.Cost, limit)
		}
		m.addEdge(e.U, e.V, e.Cost)
	}
	m.solve()
	if !m.perfect() {
		return nil, 0, ErrNoPerfectMatching
	}
	mate = make([]int, n)
	for v := range mate {
		mate[v] = m.partner(v)
	}
	return mate, m.cost(), nil
}

// costLimit is the largest absolute edge cost a graph of n vertices may have:
// duals and slacks then stay far inside int64.
func costLimit(n int) int64 { return math.MaxInt64 / (64 * int64(n+2)) }

// matcher is the state of the blossom algorithm, after Van Rantwijk's
// mwmatching in its maximum-cardinality mode, with weight = -2*cost. It finds
// a matching of maximum cardinality; when that matching is perfect it has the
// least cost. (Its greedy start gives free vertices unequal duals, so a
// matching that is not perfect need not be the cheapest of its size; only
// perfect ones are used.)
//
// Edge k joins endpoints 2k (vertex eu[k]) and 2k+1 (vertex ev[k]); p^1 is the
// other end of endpoint p. Vertices are 0..n-1, blossoms n..2n-1. The slack of
// an edge is dual[i] + dual[j] - 2*wt[k] plus 2*dual[b] for every blossom b
// that holds both ends; the algorithm keeps every slack >= 0 and the slack of
// every matched edge 0, so that the final duals certify optimality.
type matcher struct {
	n      int32
	eu, ev []int32
	wt     []int64
	adj    []int32 // the far endpoints of v's edges: adj[start[v]:start[v+1]]
	start  []int32
	nbr    []int32 // for each entry of adj: its vertex,
	nwt    []int64 // and 2*wt of its edge (read in order, not by edge)

	mate     []int32 // the remote endpoint of v's matched edge, or -1
	label    []int8  // 0 free, 1 S, 2 T (vertices and top-level blossoms); 5 during scans
	labelEnd []int32 // the endpoint through which the label was reached

	// The top-level blossom of each vertex is topOf[cls[v]] (inBlossom): a
	// blossom's vertices share a class, that of its largest child, so that
	// forming or expanding a blossom relabels the vertices of its other
	// children only (nested blossoms would otherwise cost their whole size
	// at each level).
	cls   []int32 // the class of each vertex
	clsOf []int32 // the class of each vertex (itself) and blossom
	topOf []int32 // the top-level vertex or blossom of each class
	size  []int32 // the vertices in each vertex or blossom

	parent      []int32 // enclosing blossom, -1 at top level
	childs      [][]int32
	base        []int32
	endps       [][]int32
	bestEdge    []int32
	bestFrom    []int32 // for a vertex not in an S-blossom: the other end of its best edge
	bestWt      []int64 // and 2*wt of the edge (its slack without looking the edge up)
	blossomBest [][]int32
	unused      []int32
	dual        []int64
	allowed     []bool
	allowedList []int32
	queue       []int32
	scratch     []int32
	bestTo      []int32 // during addBlossom: the least-slack edge to each S-blossom
	bestToSlack []int64 // and its slack
	bestToList  []int32
	dirty       []int32 // labels and best edges set in this stage
	mark        []bool  // in dirty
	dirtyAt     []int32 // the index of x in dirty
	bounds      bounds  // the candidates for the next dual change (see nextDelta)
	shift       int64   // the total dual change of the stage
	tree        []int32 // the vertices of the stage's tree (of labelled top-level blossoms), each once
	inTree      []bool  // in tree
	lstack      []int32 // leaves' stack

	zpar  []int32 // for fullSlack, after solve
	depth []int32
	zsum  []int64
}

func newMatcher(n, edges int) *matcher {
	return &matcher{n: int32(n), eu: make([]int32, 0, edges), ev: make([]int32, 0, edges), wt: make([]int64, 0, edges)}
}

// addEdge adds edge u-v of the given cost; self-loops are dropped.
func (m *matcher) addEdge(u, v int, cost int64) {
	if u != v {
		m.eu = append(m.eu, int32(u))
		m.ev = append(m.ev, int32(v))
		m.wt = append(m.wt, -2*cost)
	}
}

func (m *matcher) endpoint(p int32) int32 {
	if p&1 == 0 {
		return m.eu[p>>1]
	}
	return m.ev[p>>1]
}

func (m *matcher) slack(k int32) int64 { return m.dual[m.eu[k]] + m.dual[m.ev[k]] - 2*m.wt[k] }

func (m *matcher) allow(k int32) {
	if !m.allowed[k] {
		m.allowed[k] = true
		m.allowedList = append(m.allowedList, k)
	}
}

// touch records that x's label or best edge changes in this stage.
func (m *matcher) touch(x int32) {
	if !m.mark[x] {
		m.mark[x], m.dirtyAt[x] = true, int32(len(m.dirty))
		m.dirty = append(m.dirty, x)
	}
}

// inBlossom returns the top-level vertex or blossom that holds vertex v.
func (m *matcher) inBlossom(v int32) int32 { return m.topOf[m.cls[v]] }

// lift makes x, whose vertices carry class c, a top-level vertex or blossom,
// relabelling its vertices only if its own class is not c.
func (m *matcher) lift(x, c int32) {
	if cx := m.clsOf[x]; cx != c {
		ls := m.leaves(x, m.scratch[:0])
		for _, v := range ls {
			m.cls[v] = cx
		}
		m.scratch = ls[:0]
	}
	m.topOf[m.clsOf[x]] = x
}

// leaves appends the vertices inside blossom b to out, in the order of a
// depth-first walk of its children (without recursion: blossoms nest deep).
func (m *matcher) leaves(b int32, out []int32) []int32 {
	if b < m.n {
		return append(out, b)
	}
	stack := append(m.lstack[:0], b)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		cs := m.childs[x]
		for i := len(cs) - 1; i >= 0; i-- { // the first child on top
			stack = append(stack, cs[i])
		}
		for len(stack) > 0 && stack[len(stack)-1] < m.n {
			out = append(out, stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
	}
	m.lstack = stack
	return out
}

func (m *matcher) init() {
	n, ne := int(m.n), len(m.eu)
	m.start = make([]int32, n+1)
	for k := range ne {
		m.start[m.eu[k]+1]++
		m.start[m.ev[k]+1]++
	}
	for v := range n {
		m.start[v+1] += m.start[v]
	}
	m.adj, m.nbr, m.nwt = make([]int32, 2*ne), make([]int32, 2*ne), make([]int64, 2*ne)
	fill := append([]int32(nil), m.start[:n]...)
	for k := range int32(ne) {
		u, v := m.eu[k], m.ev[k]
		m.adj[fill[u]], m.nbr[fill[u]], m.nwt[fill[u]] = 2*k+1, v, 2*m.wt[k]
		fill[u]++
		m.adj[fill[v]], m.nbr[fill[v]], m.nwt[fill[v]] = 2*k, u, 2*m.wt[k]
		fill[v]++
	}
	m.mate = fill32(make([]int32, n), -1)
	m.label = make([]int8, 2*n)
	m.labelEnd = fill32(make([]int32, 2*n), -1)
	m.cls, m.clsOf, m.topOf = make([]int32, n), make([]int32, 2*n), make([]int32, n)
	m.size = make([]int32, 2*n)
	m.base = fill32(make([]int32, 2*n), -1)
	for v := range int32(n) {
		m.cls[v], m.clsOf[v], m.topOf[v], m.size[v] = v, v, v, 1
		m.base[v] = v
	}
	m.parent = fill32(make([]int32, 2*n), -1)
	m.childs = make([][]int32, 2*n)
	m.endps = make([][]int32, 2*n)
	m.bestEdge = fill32(make([]int32, 2*n), -1)
	m.bestFrom, m.bestWt = make([]int32, n), make([]int64, n)
	m.blossomBest = make([][]int32, 2*n)
	m.bestTo, m.bestToSlack = fill32(make([]int32, 2*n), -1), make([]int64, 2*n)
	for b := int32(2*n) - 1; b >= int32(n); b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]int64, 2*n)
	m.mark, m.dirtyAt = make([]bool, 2*n), make([]int32, 2*n)
	m.inTree = make([]bool, n)
	m.allowed = make([]bool, ne)
	m.greedyStart()
	m.tightAugment()
}

// tightAugment grows the greedy matching along short alternating paths of
// tight edges: from each free vertex, a breadth-first search over at most
// tightSearch matched pairs, each visited once (so every path found is
// simple). The duals do not change and every matched edge stays tight, so the
// blossom algorithm starts from it as from the greedy matching, with fewer
// free vertices, each costing a stage.
func (m *matcher) tightAugment() {
	const tightSearch = 64
	seen := make([]int32, m.n) // the root + 1 whose search reached the vertex
	tail := make([]int32, m.n) // for an outer vertex x: the endpoint, at x's old mate, of the edge that reached it
	var outer []int32
	for r := range m.n {
		if m.mate[r] >= 0 || m.start[r] == m.start[r+1] {
			continue
		}
		seen[r], tail[r] = r+1, -1
		outer = append(outer[:0], r)
	search:
		for i := 0; i < len(outer) && i <= tightSearch; i++ {
			x := outer[i]
			for _, p := range m.adj[m.start[x]:m.start[x+1]] {
				y := m.endpoint(p)
				if seen[y] == r+1 || m.slack(p>>1) != 0 {
					continue
				}
				if m.mate[y] < 0 { // augment along the path r ... x-y
					for q := p; ; {
						m.mate[x], m.mate[m.endpoint(q)] = q, q^1
						if q = tail[x]; q < 0 {
							break
						}
						x = m.endpoint(q ^ 1)
					}
					break search
				}
				y2 := m.endpoint(m.mate[y])
				if seen[y2] == r+1 {
					continue
				}
				seen[y], seen[y2], tail[y2] = r+1, r+1, p
				outer = append(outer, y2)
			}
		}
	}
}

func fill32(s []int32, x int32) []int32 {
	for i := range s {
		s[i] = x
	}
	return s
}

// greedyStart sets feasible vertex duals and a first matching on tight edges:
// each vertex's dual starts at its largest incident weight, then, vertex by
// vertex, drops until an edge is tight, and the vertex is matched along a tight
// edge to a free neighbour if there is one.
func (m *matcher) greedyStart() {
	for v := range m.n {
		best := int64(math.MinInt64)
		for _, p := range m.adj[m.start[v]:m.start[v+1]] {
			best = max(best, m.wt[p>>1])
		}
		if best != math.MinInt64 {
			m.dual[v] = best
		}
	}
	for v := range m.n {
		nb := m.adj[m.start[v]:m.start[v+1]]
		if m.mate[v] >= 0 || len(nb) == 0 {
			continue
		}
		low := int64(math.MaxInt64)
		for _, p := range nb {
			low = min(low, m.slack(p>>1))
		}
		m.dual[v] -= low
		for _, p := range nb {
			if w := m.endpoint(p); m.mate[w] < 0 && m.slack(p>>1) == 0 {
				m.mate[v], m.mate[w] = p, p^1
				break
			}
		}
	}
}

func (m *matcher) assignLabel(w int32, t int8, p int32) {
	for {
		b := m.inBlossom(w)
		m.touch(w)
		m.touch(b)
		m.label[w], m.label[b] = t, t
		m.labelEnd[w], m.labelEnd[b] = p, p
		m.bestEdge[w], m.bestEdge[b] = -1, -1
		m.offer(b)
		k := len(m.tree)
		m.tree = m.leaves(b, m.tree)
		if t == 1 {
			m.queue = append(m.queue, m.tree[k:]...)
		}
		// Each vertex once: a blossom relabelled after an expansion holds
		// vertices already in the tree.
		j := k
		for _, v := range m.tree[k:] {
			if !m.inTree[v] {
				m.inTree[v] = true
				m.tree[j] = v
				j++
			}
		}
		m.tree = m.tree[:j]
		if t == 1 {
			return
		}
		mb := m.mate[m.base[b]]
		w, t, p = m.endpoint(mb), 1, mb^1
	}
}

// scanBlossom traces back from v and w to find a new blossom's base, or -1
// when the roots differ (an augmenting path).
func (m *matcher) scanBlossom(v, w int32) int32 {
	path := m.scratch[:0]
	base := int32(-1)
	for v != -1 || w != -1 {
		b := m.inBlossom(v)
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelEnd[b] == -1 {
			v = -1
		} else {
			v = m.endpoint(m.labelEnd[b])
			v = m.endpoint(m.labelEnd[m.inBlossom(v)])
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	m.scratch = path[:0]
	return base
}

func reverse32(s []int32) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func (m *matcher) addBlossom(base, k int32) {
	v, w := m.eu[k], m.ev[k]
	bb, bv, bw := m.inBlossom(base), m.inBlossom(v), m.inBlossom(w)
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b], m.parent[b], m.parent[bb] = base, -1, b
	path, endps := m.childs[b][:0], m.endps[b][:0] // the space of a blossom expanded before
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelEnd[bv])
		bv = m.inBlossom(m.endpoint(m.labelEnd[bv]))
	}
	path = append(path, bb)
	reverse32(path)
	reverse32(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelEnd[bw]^1)
		bw = m.inBlossom(m.endpoint(m.labelEnd[bw]))
	}
	m.childs[b], m.endps[b] = path, endps
	m.touch(b)
	m.label[b], m.labelEnd[b], m.dual[b] = 1, m.labelEnd[bb], 0
	// b takes the class of its largest child; the T-children's vertices
	// become S and are scanned.
	donor := bb
	m.size[b] = 0
	for _, c := range path {
		m.size[b] += m.size[c]
		if m.size[c] > m.size[donor] {
			donor = c
		}
	}
	cb := m.clsOf[donor]
	m.clsOf[b], m.topOf[cb] = cb, b
	ls := m.scratch[:0]
	for _, c := range path {
		if c == donor && m.label[c] != 2 {
			continue
		}
		ls = m.leaves(c, ls[:0])
		for _, v := range ls {
			if m.label[c] == 2 {
				m.queue = append(m.queue, v)
			}
			m.cls[v] = cb
		}
	}
	// The least-slack edge from b to each other S-blossom.
	consider := func(k, j int32, slack int64) { // j: the end of k outside b, if any
		bj := m.inBlossom(j)
		if bj != b && m.label[bj] == 1 {
			if m.bestTo[bj] == -1 {
				m.bestToList = append(m.bestToList, bj)
				m.bestTo[bj], m.bestToSlack[bj] = k, slack
			} else if slack < m.bestToSlack[bj] {
				m.bestTo[bj], m.bestToSlack[bj] = k, slack
			}
		}
	}
	for _, bv := range path {
		if m.blossomBest[bv] == nil {
			for _, v := range m.leaves(bv, ls[:0]) {
				for i := m.start[v]; i < m.start[v+1]; i++ {
					j := m.nbr[i]
					consider(m.adj[i]>>1, j, m.dual[v]+m.dual[j]-m.nwt[i])
				}
			}
		} else {
			for _, k := range m.blossomBest[bv] {
				j := m.ev[k]
				if m.inBlossom(j) == b {
					j = m.eu[k]
				}
				consider(k, j, m.slack(k))
			}
		}
		m.blossomBest[bv], m.bestEdge[bv] = nil, -1
	}
	m.scratch = ls[:0]
	best := make([]int32, 0, len(m.bestToList))
	myBest := int32(-1)
	var myBestSlack int64
	for _, bj := range m.bestToList {
		k := m.bestTo[bj]
		best = append(best, k)
		if myBest == -1 || m.bestToSlack[bj] < myBestSlack {
			myBest, myBestSlack = k, m.bestToSlack[bj]
		}
		m.bestTo[bj] = -1
	}
	m.bestToList = m.bestToList[:0]
	m.blossomBest[b], m.bestEdge[b] = best, myBest
	m.offer(b)
}

// walk returns the index of child t in blossom b and the direction and
// endpoint trick for going round b from t to its base the even way.
func (m *matcher) walk(b, t int32) (j, step, trick int) {
	for i, c := range m.childs[b] {
		if c == t {
			j = i
			break
		}
	}
	if j&1 != 0 {
		return j - len(m.childs[b]), 1, 0
	}
	return j, -1, 1
}

// at indexes s with Python's negative indices.
func at(s []int32, j int) int32 {
	if j < 0 {
		j += len(s)
	}
	return s[j]
}

// expandBlossom makes the children of top-level blossom b top-level (at the
// end of a stage, those without a dual are expanded in turn).
func (m *matcher) expandBlossom(b int32, endStage bool) { m.expand(b, m.clsOf[b], endStage) }

// expand is expandBlossom for a blossom whose vertices carry class c.
func (m *matcher) expand(b, c int32, endStage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		if endStage && s >= m.n && m.dual[s] == 0 {
			m.expand(s, c, endStage)
		} else {
			m.lift(s, c)
		}
	}
	if !endStage && m.label[b] == 2 {
		// Relabel the children on the even path from the entry child to the base.
		childs, endps := m.childs[b], m.endps[b]
		entry := m.inBlossom(m.endpoint(m.labelEnd[b] ^ 1))
		j, step, trick := m.walk(b, entry)
		p := m.labelEnd[b]
		for j != 0 {
			m.label[m.endpoint(p^1)] = 0
			q := at(endps, j-trick) ^ int32(trick)
			m.label[m.endpoint(q^1)] = 0
			m.assignLabel(m.endpoint(p^1), 2, p)
			m.allow(at(endps, j-trick) >> 1)
			j += step
			p = at(endps, j-trick) ^ int32(trick)
			m.allow(p >> 1)
			j += step
		}
		bv := at(childs, j)
		m.touch(m.endpoint(p ^ 1))
		m.touch(bv)
		m.label[m.endpoint(p^1)], m.label[bv] = 2, 2
		m.labelEnd[m.endpoint(p^1)], m.labelEnd[bv] = p, p
		m.bestEdge[bv] = -1
		m.offer(bv)
		j += step
		for at(childs, j) != entry {
			bv = at(childs, j)
			j += step
			if m.label[bv] == 1 {
				continue
			}
			ls := m.leaves(bv, m.scratch[:0])
			v := int32(-1)
			for _, x := range ls {
				if m.label[x] != 0 {
					v = x
					break
				}
			}
			m.scratch = ls[:0]
			if v >= 0 {
				m.label[v] = 0
				m.label[m.endpoint(m.mate[m.base[bv]])] = 0
				m.assignLabel(v, 2, m.labelEnd[v])
			}
		}
		// The vertices of the children left unlabelled bound the next dual
		// change by their best edges again.
		for _, c := range childs {
			if m.label[c] == 0 {
				ls := m.leaves(c, m.scratch[:0])
				for _, v := range ls {
					m.offer(v)
				}
				m.scratch = ls[:0]
			}
		}
	}
	m.touch(b)
	m.label[b], m.labelEnd[b] = -1, -1
	m.childs[b], m.endps[b], m.blossomBest[b] = m.childs[b][:0], m.endps[b][:0], nil
	m.base[b], m.bestEdge[b] = -1, -1
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps matched and unmatched edges inside b along the even
// path from vertex v to b's base, making v the new base.
func (m *matcher) augmentBlossom(b, v int32) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.childs[b], m.endps[b]
	j, step, trick := m.walk(b, t)
	i := j
	if i < 0 {
		i += len(childs)
	}
	for j != 0 {
		j += step
		t = at(childs, j)
		p := at(endps, j-trick) ^ int32(trick)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint(p))
		}
		j += step
		t = at(childs, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint(p^1))
		}
		m.mate[m.endpoint(p)], m.mate[m.endpoint(p^1)] = p^1, p
	}
	rotate32(childs, i)
	rotate32(endps, i)
	m.base[b] = m.base[childs[0]]
}

// rotate32 rotates s left by i.
func rotate32(s []int32, i int) {
	reverse32(s[:i])
	reverse32(s[i:])
	reverse32(s)
}

func (m *matcher) augmentMatching(k int32) {
	for _, sp := range [2][2]int32{{m.eu[k], 2*k + 1}, {m.ev[k], 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inBlossom(s)
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelEnd[bs] == -1 {
				break
			}
			bt := m.inBlossom(m.endpoint(m.labelEnd[bs]))
			s = m.endpoint(m.labelEnd[bt])
			j := m.endpoint(m.labelEnd[bt] ^ 1)
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelEnd[bt]
			p = m.labelEnd[bt] ^ 1
		}
	}
}

// solve matches the free vertices one by one, each by growing an alternating
// tree from it (changing duals as needed) until it reaches another free
// vertex. A vertex whose tree cannot grow stays free: it is free in every
// maximum matching (Edmonds), so the matching ends with maximum cardinality
// and, if perfect, minimum cost. One tree at a time keeps each stage's work to
// the tree, and the vertex parities integral: all vertices of a tree have
// duals of the parity of its root.
func (m *matcher) solve() {
	m.init()
	for r := range m.n {
		if m.mate[r] != -1 {
			continue
		}
		for _, x := range m.dirty {
			m.mark[x] = false
			m.label[x], m.bestEdge[x] = 0, -1
			if x >= m.n {
				m.blossomBest[x] = nil
			}
		}
		m.dirty = m.dirty[:0]
		for _, k := range m.allowedList {
			m.allowed[k] = false
		}
		m.allowedList, m.queue = m.allowedList[:0], m.queue[:0]
		for _, v := range m.tree {
			m.inTree[v] = false
		}
		m.tree = m.tree[:0]
		m.bounds, m.shift = m.bounds[:0], 0
		m.assignLabel(r, 1, -1)
		m.stage()
		// Blossoms without a dual are of no more use.
		for i := 0; i < len(m.dirty); i++ {
			if b := m.dirty[i]; m.top(b) && b >= m.n && m.dual[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
}

// top reports whether x is a vertex or blossom at the top level.
func (m *matcher) top(x int32) bool {
	if x < m.n {
		return m.inBlossom(x) == x
	}
	return m.base[x] >= 0 && m.parent[x] == -1
}

// stage grows the alternating tree, changing duals as needed, until it
// reaches a free vertex and augments the matching (true), or cannot grow.
func (m *matcher) stage() bool {
	for {
		for len(m.queue) > 0 {
			v := m.queue[len(m.queue)-1]
			m.queue = m.queue[:len(m.queue)-1]
			bv := m.inBlossom(v) // until a new blossom takes v in
			for i := m.start[v]; i < m.start[v+1]; i++ {
				p, w := m.adj[i], m.nbr[i]
				k := p >> 1
				bw := m.inBlossom(w)
				if bv == bw {
					continue
				}
				var kslack int64
				if !m.allowed[k] {
					if kslack = m.dual[v] + m.dual[w] - m.nwt[i]; kslack <= 0 {
						m.allow(k)
					}
				}
				switch {
				case m.allowed[k]:
					switch {
					case m.label[bw] == 0 && m.mate[m.base[bw]] == -1:
						// A free vertex: augment.
						m.touch(bw)
						m.label[bw], m.labelEnd[bw] = 1, -1
						m.augmentMatching(k)
						return true
					case m.label[bw] == 0:
						m.assignLabel(w, 2, p^1)
					case m.label[bw] == 1:
						m.addBlossom(m.scanBlossom(v, w), k)
						bv = m.inBlossom(v)
					case m.label[w] == 0:
						m.touch(w)
						m.label[w], m.labelEnd[w] = 2, p^1
					}
				case m.label[bw] == 1:
					if m.bestEdge[bv] == -1 || kslack < m.slack(m.bestEdge[bv]) {
						m.bestEdge[bv] = k
						m.offer(bv)
					}
				case m.label[w] == 0:
					if m.bestEdge[w] == -1 || kslack < m.dual[m.bestFrom[w]]+m.dual[w]-m.bestWt[w] {
						m.touch(w)
						m.bestEdge[w], m.bestFrom[w], m.bestWt[w] = k, v, m.nwt[i]
						if m.label[bw] == 0 { // see bound
							m.push(w, 2, kslack, k)
						}
					}
				}
			}
		}
		// No progress on tight edges: change the tree's duals by the largest
		// delta that keeps them feasible.
		deltaType, delta, ref := m.nextDelta()
		if deltaType == 0 {
			return false
		}
		if delta > 0 { // most are 0
			m.changeDuals(delta)
		}
		switch deltaType {
		case 2: // ref is an edge
			m.allow(ref)
			i := m.eu[ref]
			if m.label[m.inBlossom(i)] == 0 {
				i = m.ev[ref]
			}
			m.queue = append(m.queue, i)
		case 3: // an edge
			m.allow(ref)
			m.queue = append(m.queue, m.eu[ref])
		case 4: // a blossom
			m.expandBlossom(ref, false)
		}
	}
}

// changeDuals changes the duals of the tree by delta: S-vertices and
// T-blossoms down, T-vertices and S-blossoms up.
func (m *matcher) changeDuals(delta int64) {
	m.shift += delta
	// Every labelled top-level blossom is in dirty, and every vertex
	// inside one is in tree (see assignLabel).
	for _, x := range m.dirty {
		if x >= m.n && m.top(x) {
			switch m.label[x] {
			case 1:
				m.dual[x] += delta
			case 2:
				m.dual[x] -= delta
			}
		}
	}
	for _, v := range m.tree {
		switch m.label[m.inBlossom(v)] {
		case 1:
			m.dual[v] -= delta
		case 2:
			m.dual[v] += delta
		}
	}
}

// bound returns how x limits the next dual change: the kind of limit (0
// none; 2 an edge from an S-vertex to x, not labelled, that turns tight; 3
// an edge between S-blossom x and another that turns tight; 4 T-blossom x,
// whose dual reaches 0), the change allowed and the edge or blossom.
func (m *matcher) bound(x int32) (kind int8, delta int64, ref int32) {
	k := m.bestEdge[x]
	switch {
	case x < m.n && m.label[m.inBlossom(x)] == 0 && k != -1:
		return 2, m.slack(k), k
	case !m.top(x):
	case m.label[x] == 1 && k != -1:
		return 3, m.slack(k) / 2, k
	case m.label[x] == 2 && x >= m.n:
		return 4, m.dual[x], x
	}
	return 0, 0, -1
}

// A candidate bound of some x (see bound), kept in a heap: by the change
// it allows, counted from the start of the stage (every bound falls by each
// dual change, so that its key stays put), then by x's index in dirty.
type bounded struct {
	key  int64
	at   int32 // dirtyAt[x]
	x    int32
	ref  int32
	kind int8
}

type bounds []bounded

func (b bounds) less(i, j int) bool {
	return b[i].key < b[j].key || b[i].key == b[j].key && b[i].at < b[j].at
}

// offer records x's current bound, if it has one. Every change to a bound
// is offered; stale entries stay in the heap until nextDelta finds them.
func (m *matcher) offer(x int32) {
	if kind, delta, ref := m.bound(x); kind != 0 {
		m.push(x, kind, delta, ref)
	}
}

// push adds bound (kind, delta, ref) of x to the heap.
func (m *matcher) push(x int32, kind int8, delta int64, ref int32) {
	h := append(m.bounds, bounded{delta + m.shift, m.dirtyAt[x], x, ref, kind})
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	m.bounds = h
}

// nextDelta returns the least bound of the tree (see bound), the first in
// dirty among equals, or kind 0 if there is none.
func (m *matcher) nextDelta() (kind int8, delta int64, ref int32) {
	for h := m.bounds; len(h) > 0; {
		top := h[0]
		if kind, delta, ref = m.bound(top.x); kind == top.kind && ref == top.ref && delta+m.shift == top.key {
			return kind, delta, ref
		}
		// Stale: drop it.
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for i := 0; ; {
			c := 2*i + 1
			if c >= len(h) {
				break
			}
			if c+1 < len(h) && h.less(c+1, c) {
				c++
			}
			if !h.less(c, i) {
				break
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
		m.bounds = h
	}
	return 0, 0, -1
}

// perfect reports whether every vertex is matched.
func (m *matcher) perfect() bool {
	for _, p := range m.mate {
		if p < 0 {
			return false
		}
	}
	return true
}

// cost returns the cost of the matching.
func (m *matcher) cost() int64 {
	var c int64
	for _, p := range m.mate {
		if p >= 0 {
			c -= m.wt[p>>1]
		}
	}
	return c / 4
}

// partner returns v's partner, or -1.
func (m *matcher) partner(v int) int {
	if p := m.mate[v]; p >= 0 {
		return int(m.endpoint(p))
	}
	return -1
}

// feasible reports whether the final duals allow the edge u-v of the given cost
// (slack >= 0): if every edge left out of the graph is feasible, the matching
// is also optimal on the graph with those edges added (LP duality).
func (m *matcher) feasible(u, v int, cost int64) bool {
	// Blossom duals are >= 0, so only a negative vertex part needs them.
	return m.dual[u]+m.dual[v]+4*cost >= 0 || m.fullSlack(u, v, cost) >= 0
}

// fullSlack returns the slack of an edge u-v of the given cost, counting the
// duals of the blossoms that hold both ends. Only blossoms with a positive
// dual count, so it walks a forest of those only (zpar: the nearest such
// enclosing blossom, zsum: the duals from there up to the top).
func (m *matcher) fullSlack(u, v int, cost int64) int64 {
	m.initZ()
	s := m.dual[u] + m.dual[v] + 4*cost
	for x, y := m.zpar[u], m.zpar[v]; x != -1 && y != -1; {
		switch {
		case x == y:
			return s + 2*m.zsum[x]
		case m.depth[x] >= m.depth[y]:
			x = m.zpar[x]
		default:
			y = m.zpar[y]
		}
	}
	return s
}

// initZ sets zpar, depth and zsum (see fullSlack) once the matching is solved.
func (m *matcher) initZ() {
	if m.zpar == nil {
		m.zpar = fill32(make([]int32, 2*m.n), -2)
		m.depth, m.zsum = make([]int32, 2*m.n), make([]int64, 2*m.n)
		for x := range 2 * m.n {
			m.zchain(x)
		}
	}
}

// topBlossoms returns, for each vertex, the outermost blossom with a positive
// dual that holds it, or -1. Two vertices in the same such blossom t share at
// least dual[t] in the slack of the edge between them (twice: 2*dual[t]).
func (m *matcher) topBlossoms() []int32 {
	m.initZ()
	top := fill32(make([]int32, 2*m.n), -2)
	var find func(x int32) int32
	find = func(x int32) int32 {
		if top[x] == -2 {
			switch p := m.zpar[x]; {
			case p == -1 && x >= m.n:
				top[x] = x
			case p == -1:
				top[x] = -1
			default:
				top[x] = find(p)
			}
		}
		return top[x]
	}
	for v := range m.n {
		find(v)
	}
	return top[:m.n]
}

// zchain sets zpar[x], and depth and zsum for blossoms with a positive dual.
func (m *matcher) zchain(x int32) int32 {
	if m.zpar[x] != -2 {
		return m.zpar[x]
	}
	p := m.parent[x]
	for p != -1 && m.dual[p] <= 0 {
		p = m.parent[p]
	}
	m.zpar[x] = p
	if p != -1 {
		m.zchain(p)
		if x >= m.n {
			m.depth[x], m.zsum[x] = m.depth[p]+1, m.zsum[p]
		}
	}
	if x >= m.n {
		m.zsum[x] += m.dual[x]
	}
	return p
}
