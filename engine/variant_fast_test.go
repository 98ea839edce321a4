package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestGameFastPath plays random games of every kind of rule set and checks at
// each position the fast path against the checked one: AppendMoves against
// Moves, PlayLegal against Play, Mobility against the moves each side has.
func TestGameFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for _, name := range []string{"othello", "othello:4", "othello:6", "othello:10", "othello:16", "8stars",
		"anti", "anti:10", "reversi", "reversi:6", "anti+reversi:10", "othello+supply=20", "anti+8stars+reversi"} {
		t.Run(name, func(t *testing.T) {
			r, err := ParseRules(name)
			if err != nil {
				t.Fatal(err)
			}
			for range 10 {
				g, err := NewPosition(r)
				if err != nil {
					t.Fatal(err)
				}
				prefix := []Point{{3, 4}}
				for {
					ms := g.Moves()
					got := g.AppendMoves(append(make([]Point, 0, 4), prefix...))
					if fmt.Sprint(got) != fmt.Sprint(append(prefix, ms...)) {
						t.Fatalf("%s: AppendMoves %v, Moves %v", g, got[1:], ms)
					}
					if len(ms) == 0 {
						break
					}
					// The opponent's placements are the moves of the same
					// board with the other side to move.
					flipped := g.PlayLegal(PassPoint)
					if flipped.ToMove() == g.ToMove() || flipped.String() != g.String() {
						t.Fatalf("%s: PlayLegal(pass) changed the board or kept the side", g)
					}
					for _, tc := range []struct {
						h    Position
						side Color
					}{{g, g.ToMove()}, {flipped, g.ToMove().Opponent()}} {
						want := 0
						for _, m := range tc.h.Moves() {
							if m != PassPoint {
								want++
							}
						}
						if n := g.Mobility(tc.side); n != want {
							t.Fatalf("%s: Mobility(%v) %d, want %d", g, tc.side, n, want)
						}
					}
					for _, m := range ms {
						want, err := g.Play(m)
						if err != nil {
							t.Fatalf("%s: Play(%v): %v", g, m, err)
						}
						if h := g.PlayLegal(m); h != want {
							t.Fatalf("%s: PlayLegal(%v) gives %s, Play %s", g, m, h, want)
						}
					}
					g = g.PlayLegal(ms[rng.IntN(len(ms))])
				}
				if !g.GameOver() {
					t.Fatalf("%s: no moves but the game is not over", g)
				}
			}
		})
	}
}

func TestAppendMovesNoAlloc(t *testing.T) {
	g, err := NewPosition(Rules{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]Point, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = g.AppendMoves(buf[:0]) }); n != 0 {
		t.Errorf("AppendMoves allocates %v times", n)
	}
	if len(buf) != 4 {
		t.Errorf("10x10 start: %d moves, want 4", len(buf))
	}
}

// BenchmarkGameMobility counts the moves of both sides of a 10x10 middle game.
func BenchmarkGameMobility(b *testing.B) {
	g, err := NewPosition(Rules{Size: 10})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for g.Empties() > 60 {
		ms := g.Moves()
		g = g.PlayLegal(ms[rng.IntN(len(ms))])
	}
	for b.Loop() {
		g.Mobility(Black)
		g.Mobility(White)
	}
}
