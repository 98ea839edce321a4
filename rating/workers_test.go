package rating_test

import (
	"math"
	"testing"
	"time"

	"github.com/otd-project/otd/rating"
)

// TestWorkersSameBits: the fit's result does not depend on how many cores
// share its work, to the last bit (the sums are added up in one order).
func TestWorkersSameBits(t *testing.T) {
	games := synthetic(3, 3000, 40_000)
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	defer func(w int) { *rating.Workers = w }(*rating.Workers)
	var want *rating.List
	for _, w := range []int{1, 2, 3, 8} {
		*rating.Workers = w
		l, err := rating.Compute(games, at, rating.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = l
			continue
		}
		for i, p := range l.Players {
			q := want.Players[i]
			if p.ID != q.ID || math.Float64bits(p.Rating) != math.Float64bits(q.Rating) ||
				math.Float64bits(p.Uncertainty) != math.Float64bits(q.Uncertainty) {
				t.Fatalf("%d workers: player %d rated %v +/- %v, one worker: player %d %v +/- %v",
					w, p.ID, p.Rating, p.Uncertainty, q.ID, q.Rating, q.Uncertainty)
			}
		}
	}
	if want.Parts[0].Size < 100 {
		t.Fatalf("largest part %d players: too small a fit to test", want.Parts[0].Size)
	}
}
