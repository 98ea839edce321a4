package rating_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/rating"
)

// synthetic is an archive of games, 1977-2024, from a pool of players in 40
// countries of Zipf-like sizes, of normal strengths (a country's mean itself
// spread), each active for a career of random length (a third for one month
// only): Swiss tournaments of 8-30 players of one country, one in six with a
// few foreigners, more of them every year, 5-11 rounds paired by score,
// results drawn from the model with 2% draws. Of a pool of 22,000, about
// 13,000 play: 390,000 games of them make an archive the size of the WOF's.
func synthetic(seed uint64, players, games int) []rating.Game {
	rng := rand.New(rand.NewPCG(seed, 2))
	const countries, first, months = 40, 1977, 48 * 12
	type player struct {
		country, from, to int // active from month from to month to
		strength          float64
	}
	share := make([]float64, countries)
	for c := range share {
		share[c] = 1 / float64(c+1)
	}
	pick := func(weights []float64) int {
		x := rng.Float64() * floatSum(weights)
		for i, w := range weights {
			if x -= w; x < 0 {
				return i
			}
		}
		return len(weights) - 1
	}
	mean := make([]float64, countries)
	for c := range mean {
		mean[c] = 0.7 * rng.NormFloat64()
	}
	ps := make([]player, players)
	byCountry := make([][]int, countries)
	for i := range ps {
		c := pick(share)
		from := rng.IntN(months)
		career := 0
		if rng.IntN(3) > 0 {
			career = int(rng.ExpFloat64() * 60)
		}
		ps[i] = player{c, from, min(from+career, months-1), mean[c] + rng.NormFloat64()}
		byCountry[c] = append(byCountry[c], i)
	}
	var gs []rating.Game
	for len(gs) < games {
		// More tournaments in later years: the month's density rises linearly.
		m := int(float64(months) * math.Sqrt(rng.Float64()))
		c := pick(share)
		var active, foreign []int
		for _, i := range byCountry[c] {
			if ps[i].from <= m && m <= ps[i].to {
				active = append(active, i)
			}
		}
		rng.Shuffle(len(active), func(a, b int) { active[a], active[b] = active[b], active[a] })
		field := active[:min(len(active), 8+rng.IntN(23))]
		if rng.IntN(6) == 0 {
			for range 1 + rng.IntN(5) {
				i := rng.IntN(players)
				if ps[i].country != c && ps[i].from <= m && m <= ps[i].to {
					foreign = append(foreign, i)
				}
			}
		}
		field = append(slices.Clip(field), foreign...)
		if len(field) < 4 {
			continue
		}
		date := time.Date(first, time.January, 1+rng.IntN(28), 0, 0, 0, 0, time.UTC).AddDate(0, m, 0)
		score := map[int]int{}
		for range min(5+rng.IntN(7), len(field)-1) {
			slices.SortFunc(field, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
			for k := 0; k+1 < len(field); k += 2 {
				a, b := field[k], field[k+1]
				p := 1 / (1 + math.Exp(ps[b].strength-ps[a].strength))
				res := rating.Loss
				switch x := rng.Float64(); {
				case x < 0.02:
					res = rating.Draw
				case x < 0.02+0.98*p:
					res = rating.Win
				}
				units := [...]int{rating.Win: 2, rating.Draw: 1, rating.Loss: 0}[res]
				score[a] += units
				score[b] += 2 - units
				gs = append(gs, rating.Game{A: 100000 + a, B: 100000 + b, Result: res, Date: date})
			}
		}
	}
	return gs[:games]
}

func floatSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

var wofSized = sync.OnceValue(func() []rating.Game { return synthetic(1, 22_000, 390_000) })

// BenchmarkCompute computes the list at 2025-01-01 of a synthetic archive
// the size of the WOF's (synthetic): 13,069 players, 390,000 games.
func BenchmarkCompute(b *testing.B) {
	gs := wofSized()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var l *rating.List
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if l, err = rating.Compute(gs, at, rating.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	rated, listed := 0, 0
	for _, p := range l.Players {
		if p.Rated {
			rated++
		}
		if p.Listed {
			listed++
		}
	}
	b.ReportMetric(float64(len(l.Players)), "players")
	b.ReportMetric(float64(rated), "rated")
	b.ReportMetric(float64(listed), "listed")
	b.ReportMetric(float64(l.Parts[0].Size), "largest-part")
}
