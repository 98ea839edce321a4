package player

import (
	"math/rand/v2"
	"testing"

	"github.com/otd-project/otd/engine"
)

// TestStableNeverFlips plays random games: a disc found stable at any point
// keeps its colour to the end of the game.
func TestStableNeverFlips(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	seen := 0
	for range 300 {
		pos := engine.Start()
		type claim struct{ black, white uint64 }
		var claims []claim
		for !pos.GameOver() {
			filled := pos.Black | pos.White
			c := claim{stableDiscs(pos.Black, filled), stableDiscs(pos.White, filled)}
			claims = append(claims, c)
			ms := pos.Moves()
			next, err := pos.Play(ms[rng.IntN(len(ms))])
			if err != nil {
				t.Fatal(err)
			}
			pos = next
		}
		for i, c := range claims {
			if c.black&^pos.Black != 0 || c.white&^pos.White != 0 {
				t.Fatalf("ply %d: discs claimed stable changed colour: black %x, white %x", i, c.black&^pos.Black, c.white&^pos.White)
			}
			seen += popcount(c.black | c.white)
		}
	}
	if seen == 0 {
		t.Fatal("no stable disc found in 300 games")
	}
}

func popcount(b uint64) int {
	n := 0
	for ; b != 0; b &= b - 1 {
		n++
	}
	return n
}
