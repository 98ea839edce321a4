package rating

import (
	"math"
	"testing"
)

// TestSigmoids: sigmoids(d) is sigmoid(d) and sigmoid(-d), bit for bit, so
// that gain's terms are those of two sigmoids.
func TestSigmoids(t *testing.T) {
	for _, d := range []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 0.3, -0.3, 1, -1, 36.7, -36.7,
		745, -745, 800, -800, math.Inf(1), math.Inf(-1), math.NaN()} {
		same := func(a, b float64) bool {
			return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
		}
		x, y := sigmoids(d)
		if !same(x, sigmoid(d)) || !same(y, sigmoid(-d)) {
			t.Errorf("sigmoids(%v) = %v, %v, want %v, %v", d, x, y, sigmoid(d), sigmoid(-d))
		}
	}
}
