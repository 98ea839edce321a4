package pairing

import (
	"cmp"
	"slices"
)

// greedyPairs pairs down the standings as simple programs do: each player in
// turn, from the top, meets the highest-ranked player left whom they have not
// met, or, if there is none, the highest-ranked player left.
func greedyPairs(in Input) []Pair {
	ps := slices.Clone(in.Players)
	slices.SortStableFunc(ps, func(a, b Player) int { return cmp.Compare(b.Points, a.Points) })
	paired := map[int]bool{}
	var out []Pair
	for i, a := range ps {
		if paired[a.ID] {
			continue
		}
		j := -1
		for k := i + 1; k < len(ps); k++ {
			if !paired[ps[k].ID] && (j < 0 || !met(a, ps[k].ID) && met(a, ps[j].ID)) {
				j = k
			}
		}
		if j < 0 {
			break // the bye
		}
		paired[a.ID], paired[ps[j].ID] = true, true
		out = append(out, Pair{a.ID, ps[j].ID})
	}
	return out
}

func met(p Player, id int) bool {
	return slices.ContainsFunc(p.Games, func(g Game) bool { return g.Opponent == id })
}

// countRematches counts the pairs that have met before.
func countRematches(in Input, pairs []Pair) int {
	n := 0
	for _, q := range pairs {
		for _, p := range in.Players {
			if p.ID == q.Black && met(p, q.White) {
				n++
			}
		}
	}
	return n
}
