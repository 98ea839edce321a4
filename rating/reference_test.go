package rating_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/otd-project/otd/rating"
)

// refWeight is RULES.md's weight of a tournament this many whole months old,
// written again here so that the reference does not use the package's.
func refWeight(months int) float64 {
	for _, b := range []struct{ under, w int }{{7, 150}, {14, 100}, {26, 60}, {38, 30}} {
		if months < b.under {
			return float64(b.w)
		}
	}
	return 1
}

// randomArchive is n players, 0 to n-1, of random strengths, and games
// between them drawn from the model (5% draws), each in a tournament a
// random number of whole months (0-60) before the list date; some players
// play much more than others, so that some are left outside the rated part.
// With connected, every player also beats the next and the last the first:
// all are then one strongly connected part. It returns the games and each
// game's age in months.
func randomArchive(seed uint64, n, games int, connected ...bool) ([]rating.Game, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	strength := make([]float64, n)
	for i := range strength {
		strength[i] = rng.NormFloat64()
	}
	var gs []rating.Game
	var ages []int
	play := func(a, b int, res rating.Result) {
		m := rng.IntN(61)
		gs = append(gs, rating.Game{A: a, B: b, Result: res, Date: monthsAgo(m)})
		ages = append(ages, m)
	}
	if len(connected) > 0 && connected[0] {
		for i := range n {
			play(i, (i+1)%n, rating.Win)
		}
	}
	for len(gs) < games {
		a := rng.IntN(n)
		u := rng.Float64()
		b := int(float64(n) * u * u * u) // favour low numbers: the last ones play little
		if a == b {
			continue
		}
		p := 1 / (1 + math.Exp(strength[b]-strength[a]))
		switch x := rng.Float64(); {
		case x < 0.05:
			play(a, b, rating.Draw)
		case x < 0.05+0.95*p:
			play(a, b, rating.Win)
		default:
			play(a, b, rating.Loss)
		}
	}
	return gs, ages
}

// reference fits the ratings of players 0 to n-1, all one strongly connected
// part, by plain gradient ascent on the weighted log-likelihood of RULES.md
// section 8 (2 units a win, 1 a draw, a game's units times its weight),
// one game at a time, with the step 1/(the largest weighted games of a
// player), under the Hessian's largest eigenvalue, until the steps are
// under 1e-13; then centres the mean, each player counted once a game, at
// 1800, and returns the ratings and the uncertainties as the package
// defines them (200/ln 3 / sqrt(sum of w/150 p(1-p))).
func reference(t *testing.T, gs []rating.Game, ages []int, n int) (ratings, uncert []float64) {
	r := make([]float64, n)
	load := make([]float64, n)
	played := make([]float64, n)
	units := make([]float64, len(gs))
	weight := make([]float64, len(gs))
	for k, g := range gs {
		weight[k] = refWeight(ages[k])
		units[k] = map[rating.Result]float64{rating.Win: 2, rating.Draw: 1, rating.Loss: 0}[g.Result]
		load[g.A] += refWeight(ages[k])
		load[g.B] += refWeight(ages[k])
		played[g.A]++
		played[g.B]++
	}
	step := 0.0
	for _, l := range load {
		step = max(step, l)
	}
	step = 1 / step
	grad := make([]float64, n)
	converged := false
	for it := 0; it < 20_000_000 && !converged; it++ {
		clear(grad)
		for k, g := range gs {
			p := 1 / (1 + math.Exp(r[g.B]-r[g.A]))
			d := weight[k] * (units[k] - 2*p)
			grad[g.A] += d
			grad[g.B] -= d
		}
		converged = true
		for i := range r {
			r[i] += step * grad[i]
			converged = converged && math.Abs(step*grad[i]) < 1e-13
		}
	}
	if !converged {
		t.Fatal("the reference did not converge")
	}
	mean, count := 0.0, 0.0
	for i := range r {
		mean += played[i] * r[i]
		count += played[i]
	}
	mean /= count
	ratings = make([]float64, n)
	uncert = make([]float64, n)
	info := make([]float64, n)
	for k, g := range gs {
		p := 1 / (1 + math.Exp(r[g.B]-r[g.A]))
		info[g.A] += refWeight(ages[k]) / 150 * p * (1 - p)
		info[g.B] += refWeight(ages[k]) / 150 * p * (1 - p)
	}
	for i := range r {
		ratings[i] = 1800 + (r[i]-mean)*points
		uncert[i] = points / math.Sqrt(info[i])
	}
	return ratings, uncert
}

// TestReference: the list agrees with plain gradient ascent to 0.01 points
// on small random archives (seeded), ratings and uncertainties.
func TestReference(t *testing.T) {
	for seed := range uint64(12) {
		n := 10 + int(seed)%6
		gs, ages := randomArchive(seed, n, 4*n+int(seed)*5, true)
		want, wantU := reference(t, gs, ages, n)
		l, err := rating.Compute(gs, listDate, rating.Options{})
		if err != nil {
			t.Fatal(err)
		}
		spread := 0.0
		for i := range n {
			p := find(t, l, i)
			if !p.Rated || !near(p.Rating, want[i], 0.01) || !near(p.Uncertainty, wantU[i], 0.01) {
				t.Errorf("seed %d, player %d: rated %v, %.4f +/- %.4f; the reference %.4f +/- %.4f", seed, i, p.Rated, p.Rating, p.Uncertainty, want[i], wantU[i])
			}
			spread = max(spread, math.Abs(want[i]-1800))
		}
		if spread < 100 {
			t.Errorf("seed %d: ratings within %.0f of 1800: the archive tests little", seed, spread)
		}
	}
}
