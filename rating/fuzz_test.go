package rating_test

import (
	"math"
	"testing"

	"github.com/otd-project/otd/rating"
)

// FuzzCompute: any games among 12 players at any ages give a list, and the
// list is what RULES.md says, checked without the package's code: two
// players share a part exactly when a chain of wins or draws leads from each
// to the other (Floyd-Warshall); a part is rated when it has at least
// MinPart players; at every rated player the weighted log-likelihood's
// gradient is zero (the maximum) to within what 0.002 points leave; each
// rated part's mean, each player counted once a game within the part, is
// 1800; official implies listed, listed rated; the unrated say why.
func FuzzCompute(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 1, 2, 3, 1, 2, 0, 2, 0, 3})
	f.Add([]byte{1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1, 150, 2, 3, 4, 3, 2, 149, 4, 5, 7, 5, 4, 8})
	f.Add([]byte{8, 0, 1, 0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5, 0, 5, 6, 0, 6, 7, 0, 7, 8, 0, 8, 9, 0, 9, 0, 0, 10, 11, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		const n = 12
		minPart := 2 + int(data[0])%9
		var gs []rating.Game
		var ages []int
		for k := 1; k+2 < len(data); k += 3 {
			a, b := int(data[k])%n, int(data[k+1])%n
			if a == b {
				continue
			}
			res := rating.Result(1 + data[k+2]%3)
			months := int(data[k+2]/3) % 50
			gs = append(gs, rating.Game{A: a, B: b, Result: res, Date: monthsAgo(months)})
			ages = append(ages, months)
		}
		l, err := rating.Compute(gs, listDate, rating.Options{MinPart: minPart})
		if err != nil {
			t.Fatal(err)
		}
		// Who reaches whom by wins and draws.
		var link [n][n]bool
		for _, g := range gs {
			if g.Result != rating.Loss {
				link[g.A][g.B] = true
			}
			if g.Result != rating.Win {
				link[g.B][g.A] = true
			}
		}
		for k := range n {
			for i := range n {
				for j := range n {
					link[i][j] = link[i][j] || link[i][k] && link[k][j]
				}
			}
		}
		size := map[int]int{}
		for _, p := range l.Players {
			size[p.Part]++
		}
		for _, p := range l.Players {
			for _, q := range l.Players {
				same := p.ID == q.ID || link[p.ID][q.ID] && link[q.ID][p.ID]
				if same != (p.Part == q.Part) {
					t.Fatalf("players %d and %d: parts %d and %d, linked both ways %v", p.ID, q.ID, p.Part, q.Part, same)
				}
			}
			if l.Parts[p.Part-1].Size != size[p.Part] || p.Rated != (size[p.Part] >= minPart) {
				t.Fatalf("player %d: rated %v in part %d of %d players (%d counted), min %d", p.ID, p.Rated, p.Part, l.Parts[p.Part-1].Size, size[p.Part], minPart)
			}
			if p.Official && !p.Listed || p.Listed && !p.Rated || p.Rated == (p.Why != "") {
				t.Fatalf("flags: %+v", p)
			}
			if p.Rated && (math.IsNaN(p.Rating) || math.IsInf(p.Rating, 0) || !(p.Uncertainty > 0) || math.IsInf(p.Uncertainty, 0)) {
				t.Fatalf("rating: %+v", p)
			}
		}
		// The maximum: the gradient in r of the weighted log-likelihood.
		grad, load := map[int]float64{}, map[int]float64{}
		sum, count := map[int]float64{}, map[int]float64{}
		for k, g := range gs {
			a, b := find(t, l, g.A), find(t, l, g.B)
			if !a.Rated || a.Part != b.Part {
				continue
			}
			w := refWeight(ages[k])
			units := map[rating.Result]float64{rating.Win: 2, rating.Draw: 1, rating.Loss: 0}[g.Result]
			p := 1 / (1 + math.Pow(3, -(a.Rating-b.Rating)/200))
			grad[g.A] += w * (units - 2*p)
			grad[g.B] -= w * (units - 2*p)
			load[g.A] += 2 * w
			load[g.B] += 2 * w
			for _, x := range []rating.Player{a, b} {
				sum[x.Part] += x.Rating
				count[x.Part]++
			}
		}
		for id, g := range grad {
			if math.Abs(g) > 1e-4*load[id] {
				t.Errorf("player %d: gradient %g of %g weighted units: not the maximum", id, g, load[id])
			}
		}
		for part, s := range sum {
			if mean := s / count[part]; !near(mean, 1800, 1e-6) {
				t.Errorf("part %d: mean %.9f", part, mean)
			}
		}
	})
}
