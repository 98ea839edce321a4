package rating

import (
	"cmp"
	"slices"
)

// graph is the graph of results in compressed rows: the arcs of x are
// to[start[x]:start[x+1]].
type graph struct {
	start []int32
	to    []int32
}

// arcs returns the graph with an arc from x to y when x beat or drew y, or,
// reversed, when y beat or drew x.
func arcs(n int, ps *pairs, reversed bool) graph {
	g := graph{start: make([]int32, n+1)}
	each := func(f func(x, y int32)) {
		for k := range ps.i {
			a, b := ps.i[k], ps.j[k]
			if reversed {
				a, b = b, a
			}
			if ps.sa[k] > 0 { // i scored against j
				f(a, b)
			}
			if ps.sb[k] > 0 {
				f(b, a)
			}
		}
	}
	each(func(x, _ int32) { g.start[x+1]++ })
	for x := range n {
		g.start[x+1] += g.start[x]
	}
	g.to = make([]int32, g.start[n])
	next := slices.Clone(g.start[:n])
	each(func(x, y int32) {
		g.to[next[x]] = y
		next[x]++
	})
	return g
}

// strongParts returns each player's strongly connected part and the parts,
// numbered largest first (ties: the part with the lowest place, that is the
// lowest id, first), by Tarjan's algorithm, iterative.
func strongParts(n int, ps *pairs) ([]int32, []Part) {
	g := arcs(n, ps, false)
	const unseen = -1
	order := make([]int32, n) // the order of discovery, unseen before
	low := make([]int32, n)
	comp := make([]int32, n)
	for x := range n {
		order[x], comp[x] = unseen, unseen
	}
	var stack []int32 // Tarjan's stack of players not yet in a part
	type frame struct{ x, arc int32 }
	var calls []frame
	var sizes []int32
	var lowest []int32 // each part's lowest place
	seen := int32(0)
	for root := range int32(n) {
		if order[root] != unseen {
			continue
		}
		calls = append(calls, frame{root, g.start[root]})
		order[root], low[root] = seen, seen
		seen++
		stack = append(stack, root)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			x := f.x
			if f.arc < g.start[x+1] {
				y := g.to[f.arc]
				f.arc++
				switch {
				case order[y] == unseen:
					order[y], low[y] = seen, seen
					seen++
					stack = append(stack, y)
					calls = append(calls, frame{y, g.start[y]})
				case comp[y] == unseen: // on the stack
					low[x] = min(low[x], order[y])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				parent := calls[len(calls)-1].x
				low[parent] = min(low[parent], low[x])
			}
			if low[x] != order[x] {
				continue
			}
			c := int32(len(sizes))
			sizes = append(sizes, 0)
			lowest = append(lowest, x)
			for {
				y := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				comp[y] = c
				sizes[c]++
				lowest[c] = min(lowest[c], y)
				if y == x {
					break
				}
			}
		}
	}
	// Number the parts largest first.
	byRank := make([]int32, len(sizes))
	for c := range byRank {
		byRank[c] = int32(c)
	}
	slices.SortFunc(byRank, func(a, b int32) int {
		return cmp.Or(cmp.Compare(sizes[b], sizes[a]), cmp.Compare(lowest[a], lowest[b]))
	})
	rank := make([]int32, len(sizes))
	parts := make([]Part, len(sizes))
	for r, c := range byRank {
		rank[c] = int32(r)
		parts[r].Size = int(sizes[c])
	}
	for x := range comp {
		comp[x] = rank[comp[x]]
	}
	return comp, parts
}

// reach returns the players reached from the players from by arcs of
// results (a beat or drew b: from a to b), or, reversed, against them.
func reach(n int, ps *pairs, from []int32, reversed bool) []bool {
	g := arcs(n, ps, reversed)
	seen := make([]bool, n)
	queue := slices.Clone(from)
	for _, x := range from {
		seen[x] = true
	}
	for len(queue) > 0 {
		x := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, y := range g.to[g.start[x]:g.start[x+1]] {
			if !seen[y] {
				seen[y] = true
				queue = append(queue, y)
			}
		}
	}
	return seen
}
