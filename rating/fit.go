package rating

import (
	"errors"
	"math"
	"runtime"
	"sync"
)

// problem is a weighted Bradley-Terry likelihood over n players: for pair k,
// players i[k] and j[k], i's weighted units s[k] of t[k] in all (and games
// the number of games, for the centring only).
type problem struct {
	n        int
	i, j     []int32
	s, t     []float64
	games    []float64
	fixed    []bool    // one player of each part, whose r stays 0
	h        []float64 // t p (1-p) of each pair at the current point
	diag     []float64 // the Hessian's diagonal (minus): the sum of h of each player's pairs
	gradient []float64
	terms    []float64 // gain's two terms of each pair
	pairs    []int     // the bounds of each core's share of the pairs in gain
}

// workers is how many cores share gain's terms (GOMAXPROCS by default; tests
// set others: the result is the same bit for bit, the terms being added up
// in the pairs' order).
var workers = runtime.GOMAXPROCS(0)

const (
	// stepTol: the fit stops after a Newton step of under this in r in
	// every component (0.002 rating points).
	stepTol = 1e-5
	// maxSteps bounds Newton's iterations; about a dozen are needed.
	maxSteps = 200
	// armijo is the share of the slope's promised gain a step must make.
	armijo = 1e-4
)

// errNoConvergence should never be seen: the fit is convergent.
var errNoConvergence = errors.New("rating: the fit did not converge (a bug: please report it with the games)")

// solve returns the maximum-likelihood r (unique up to a shift in each part;
// 0 for a player with no pair) and the Hessian's diagonal there.
func (p *problem) solve() (r, diag []float64, err error) {
	r = make([]float64, p.n)
	p.h = make([]float64, len(p.i))
	p.diag = make([]float64, p.n)
	p.gradient = make([]float64, p.n)
	p.terms = make([]float64, 2*len(p.i))
	w := max(1, min(workers, len(p.i)))
	for x := range w + 1 {
		p.pairs = append(p.pairs, x*len(p.i)/w)
	}
	c := newCG(p.n)
	first := -1.0
	for range maxSteps {
		p.derivatives(r)
		size := math.Sqrt(dot(p.gradient, p.gradient))
		if first < 0 {
			first = size
		}
		// Inexact Newton (Nocedal and Wright, section 7.1): the step's solve
		// is as accurate as the gradient is small, so that the iteration
		// converges superlinearly without exact solves far from the maximum.
		tol := 0.0 // a gradient of zero: the step is zero
		if first > 0 {
			tol = min(0.5, math.Sqrt(size/first))
		}
		d := c.solve(p, tol)

		largest := 0.0
		slope := 0.0
		for x, dx := range d {
			largest = max(largest, math.Abs(dx))
			slope += p.gradient[x] * dx
		}
		if largest < stepTol {
			for x := range r {
				r[x] += d[x]
			}
			p.derivatives(r)
			return r, p.diag, nil
		}
		t := 1.0
		for p.gain(r, d, t) < armijo*t*slope {
			t /= 2
			if t < 1e-20 {
				return nil, nil, errNoConvergence
			}
		}
		for x := range r {
			r[x] += t * d[x]
		}
	}
	return nil, nil, errNoConvergence
}

// sigmoid is 1/(1+e^-d), without overflow.
func sigmoid(d float64) float64 {
	if d >= 0 {
		return 1 / (1 + math.Exp(-d))
	}
	e := math.Exp(d)
	return e / (1 + e)
}

// sigmoids is sigmoid(d) and sigmoid(-d), the same bits, from one
// exponential.
func sigmoids(d float64) (float64, float64) {
	e := math.Exp(-math.Abs(d))
	if d < 0 {
		return e / (1 + e), 1 / (1 + e)
	}
	if d > 0 {
		return 1 / (1 + e), e / (1 + e)
	}
	x := 1 / (1 + e) // 1/2, or NaN
	return x, x
}

// derivatives sets the gradient of the log-likelihood at r, each pair's
// weight in the Hessian and its diagonal.
func (p *problem) derivatives(r []float64) {
	clear(p.gradient)
	clear(p.diag)
	for k := range p.i {
		a, b := p.i[k], p.j[k]
		q := sigmoid(r[a] - r[b])
		g := p.s[k] - p.t[k]*q
		p.gradient[a] += g
		p.gradient[b] -= g
		h := p.t[k] * q * (1 - q)
		p.h[k] = h
		p.diag[a] += h
		p.diag[b] += h
	}
}

// hessian sets out to H v, H minus the Hessian of the log-likelihood.
func (p *problem) hessian(v, out []float64) {
	clear(out)
	for k := range p.i {
		a, b := p.i[k], p.j[k]
		x := p.h[k] * (v[a] - v[b])
		out[a] += x
		out[b] -= x
	}
}

// gain is L(r + t d) - L(r), summed from terms accurate however small t d:
// log P(a beats b) rises by log1p(P(b beats a, after) x expm1(e)) for a
// change e of r[a]-r[b], and log P(b beats a) by log1p(P(a beats b, after)
// x expm1(-e)). The terms are computed on all cores, each a share of the
// pairs, and added up in the pairs' order.
func (p *problem) gain(r, d []float64, t float64) float64 {
	var wg sync.WaitGroup
	for w := range len(p.pairs) - 1 {
		wg.Go(func() {
			for k := p.pairs[w]; k < p.pairs[w+1]; k++ {
				a, b := p.i[k], p.j[k]
				e := t * (d[a] - d[b])
				beats, beaten := sigmoids(r[a] - r[b] + e)
				if s := p.s[k]; s > 0 {
					p.terms[2*k] = s * math.Log1p(beaten*math.Expm1(e))
				}
				if s := p.t[k] - p.s[k]; s > 0 {
					p.terms[2*k+1] = s * math.Log1p(beats*math.Expm1(-e))
				}
			}
		})
	}
	wg.Wait()
	sum := 0.0
	for k := range p.i {
		if p.s[k] > 0 {
			sum += p.terms[2*k]
		}
		if p.t[k]-p.s[k] > 0 {
			sum += p.terms[2*k+1]
		}
	}
	if math.IsNaN(sum) {
		return math.Inf(-1)
	}
	return sum
}

// cg solves H d = gradient by conjugate gradients preconditioned by H's
// diagonal, with d = 0 for one player of each part (fixed): H, a weighted
// Laplacian, is singular (a common shift of a part changes nothing), and
// without that row and column it is positive definite on a strongly
// connected part. The fixed players' preconditioner is 0, so that d, every
// search direction and the residuals that count stay off their rows.
type cg struct {
	d, res, z, dir, hd []float64
}

func newCG(n int) *cg {
	return &cg{d: make([]float64, n), res: make([]float64, n), z: make([]float64, n), dir: make([]float64, n), hd: make([]float64, n)}
}

// solve stops when the residual is tol times the gradient (in the norm of
// the preconditioner's inverse).
func (c *cg) solve(p *problem, tol float64) []float64 {
	clear(c.d)
	copy(c.res, p.gradient)
	rz := c.precondition(p)
	copy(c.dir, c.z)
	stop := rz * tol * tol
	for it := 0; rz > stop && it < 10*p.n+100; it++ {
		p.hessian(c.dir, c.hd)
		dHd := dot(c.dir, c.hd)
		if dHd <= 0 {
			break
		}
		alpha := rz / dHd
		for x := range c.d {
			c.d[x] += alpha * c.dir[x]
			c.res[x] -= alpha * c.hd[x]
		}
		next := c.precondition(p)
		beta := next / rz
		rz = next
		for x := range c.dir {
			c.dir[x] = c.z[x] + beta*c.dir[x]
		}
	}
	return c.d
}

// precondition sets z to the residual divided by H's diagonal (0 for a
// player with no pair, and for the fixed) and returns res . z.
func (c *cg) precondition(p *problem) float64 {
	for x, h := range p.diag {
		c.z[x] = 0
		if h > 0 && !p.fixed[x] {
			c.z[x] = c.res[x] / h
		}
	}
	return dot(c.res, c.z)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for x := range a {
		s += a[x] * b[x]
	}
	return s
}
