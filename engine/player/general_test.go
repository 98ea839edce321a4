package player

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
)

// The rule sets the general players are tested on: every variant but
// standard Othello (which has the bitboard players).
var variantNames = []string{"othello:6", "othello:10", "othello:16", "8stars", "anti", "anti:10",
	"reversi", "reversi:6", "anti+reversi:10"}

func mustBoard(t testing.TB, name string) engine.Position {
	t.Helper()
	r, err := engine.ParseRules(name)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestShapeCorners checks the squares the evaluation counts as corners
// (never flipped) against the rule texts: the four corners of an n x n board,
// the eight of 8Stars, with their neighbours.
func TestShapeCorners(t *testing.T) {
	for _, tc := range []struct {
		name, corners string
		near          int // neighbours of all corners
	}{
		{"othello:4", "[a1 d1 a4 d4]", 12},
		{"othello:10", "[a1 j1 a10 j10]", 12},
		{"8stars", "[c1 h1 a3 j3 a8 j8 c10 h10]", 8 * 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := shapeOf(mustBoard(t, tc.name).Rules())
			if got := fmt.Sprint(s.corners); got != tc.corners {
				t.Errorf("corners %s, want %s", got, tc.corners)
			}
			n := 0
			for _, near := range s.near {
				n += len(near)
			}
			if n != tc.near {
				t.Errorf("%d neighbours of corners %v, want %d", n, s.near, tc.near)
			}
		})
	}
}

// gamePlayer is one of the three general players as a function of the game.
type gamePlayer struct {
	name string
	move func(g engine.Position) (engine.Point, error)
}

func generalPlayers(seed uint64, level int) []gamePlayer {
	rng := rand.New(rand.NewPCG(seed, 7))
	return []gamePlayer{
		{"random", func(g engine.Position) (engine.Point, error) { return randomGameMove(g, rng), nil }},
		{"greedy", func(g engine.Position) (engine.Point, error) { return greedyGameMove(g), nil }},
		{"search", func(g engine.Position) (engine.Point, error) {
			return searchGameMove(context.Background(), g, level, Clock{})
		}},
	}
}

// playOut plays g to its end between black and white, failing on any illegal
// move (engine.Position.Play checks each one).
func playOut(t *testing.T, g engine.Position, black, white gamePlayer) engine.Position {
	t.Helper()
	for !g.GameOver() {
		p := black
		if g.ToMove() == engine.White {
			p = white
		}
		m, err := p.move(g)
		if err != nil {
			t.Fatalf("%s in %s: %v", p.name, g, err)
		}
		h, err := g.Play(m)
		if err != nil {
			t.Fatalf("%s played %v in %s (moves %v): %v", p.name, m, g, g.Moves(), err)
		}
		g = h
	}
	return g
}

// TestGamePlayersLegal plays whole games between the three players, in every
// pairing and both colours, under every rule set.
func TestGamePlayersLegal(t *testing.T) {
	for _, name := range variantNames {
		t.Run(name, func(t *testing.T) {
			ps := generalPlayers(1, 1)
			for _, b := range ps {
				for _, w := range ps {
					if b.name != w.name {
						playOut(t, mustBoard(t, name), b, w)
					}
				}
			}
		})
	}
}

// TestGreedyGameMove checks on random positions that greedy's move leaves the
// most discs to the mover (the fewest under Anti-Othello) and is the first
// such move in square order.
func TestGreedyGameMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, name := range []string{"othello:6", "anti:6", "8stars", "anti+reversi:10"} {
		t.Run(name, func(t *testing.T) {
			for g := mustBoard(t, name); !g.GameOver(); g = g.PlayLegal(randomGameMove(g, rng)) {
				ms := g.Moves()
				if ms[0] == engine.PassPoint {
					if m := greedyGameMove(g); m != engine.PassPoint {
						t.Fatalf("%s must pass; greedy plays %v", g, m)
					}
					continue
				}
				var best []engine.Point
				bestKey := -1 << 30
				for _, m := range ms {
					h, err := g.Play(m)
					if err != nil {
						t.Fatal(err)
					}
					s := h.Score()
					mine := map[engine.Color]int{engine.Black: s.Black, engine.White: s.White}[g.ToMove()]
					if g.Rules().Winner == engine.FewestDiscs {
						mine = -mine
					}
					switch {
					case mine > bestKey:
						best, bestKey = []engine.Point{m}, mine
					case mine == bestKey:
						best = append(best, m)
					}
				}
				if m := greedyGameMove(g); m != best[0] {
					t.Fatalf("%s: greedy plays %v, want %v (best: %v)", g, m, best[0], best)
				}
			}
		})
	}
}

// gameMinimax is the plain reference: the final margin for the side to move
// under the rules' goal (the empty squares to the winner), by exhaustive
// search with the checked Moves and Play.
func gameMinimax(t *testing.T, g engine.Position) int {
	ms := g.Moves()
	if len(ms) == 0 {
		s, e := g.Score(), g.Empties()
		mine, theirs := s.Black, s.White
		if g.ToMove() == engine.White {
			mine, theirs = theirs, mine
		}
		if g.Rules().Winner == engine.FewestDiscs {
			mine, theirs = theirs, mine
		}
		switch {
		case mine > theirs:
			return mine + e - theirs
		case mine < theirs:
			return mine - theirs - e
		}
		return 0
	}
	best := -1000
	for _, m := range ms {
		h, err := g.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		best = max(best, -gameMinimax(t, h))
	}
	return best
}

// TestSearchGameSolves checks that the search's move keeps the exact result
// of random positions with 8 empties (it solves them at every level).
func TestSearchGameSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, name := range []string{"othello:6", "anti:6", "reversi:6"} {
		t.Run(name, func(t *testing.T) {
			for k := 0; k < 12; {
				g := mustBoard(t, name)
				for g.Empties() > 8 && !g.GameOver() {
					g = g.PlayLegal(randomGameMove(g, rng))
				}
				if len(g.Moves()) < 2 {
					continue // no choice to check
				}
				k++
				want := gameMinimax(t, g)
				level := 1 + k%2
				m, err := searchGameMove(context.Background(), g, level, Clock{})
				if err != nil {
					t.Fatal(err)
				}
				h, err := g.Play(m)
				if err != nil {
					t.Fatal(err)
				}
				if got := -gameMinimax(t, h); got != want {
					t.Errorf("%s level %d: %v leads to %+d, the best is %+d", g, level, m, got, want)
				}
			}
		})
	}
}

// TestSearchGameBeatsRandom is a sanity check of the evaluation: at a modest
// level the search wins almost every game against random moves and against
// greedy, under Othello's goal and Anti-Othello's, each game from its own
// seeded random opening of four moves, colours alternating. (With the
// evaluation's sign reversed it wins 1 to 15 of 20 games in these matches;
// with a zero evaluation, 9 to 19.)
func TestSearchGameBeatsRandom(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opponent  int // 0 random, 1 greedy (generalPlayers)
		level     int
		games, at int // wins needed out of games
	}{
		{"othello:6", 0, 2, 20, 17},
		{"othello:10", 0, 1, 20, 17},
		{"anti", 0, 2, 20, 17},
		{"othello:6", 1, 2, 20, 17},
		{"othello:10", 1, 1, 20, 17},
		{"anti", 1, 2, 20, 17},
	} {
		ps := generalPlayers(0, 0)
		t.Run(tc.name+" vs "+ps[tc.opponent].name, func(t *testing.T) {
			wins := 0
			for k := range tc.games {
				ps := generalPlayers(uint64(k), tc.level)
				opp, search := ps[tc.opponent], ps[2]
				g := mustBoard(t, tc.name)
				rng := rand.New(rand.NewPCG(uint64(k), 8))
				for range 4 {
					g = g.PlayLegal(randomGameMove(g, rng))
				}
				me := engine.Color(k % 2)
				b, w := search, opp
				if me == engine.White {
					b, w = opp, search
				}
				g = playOut(t, g, b, w)
				if c, ok := g.Winner(); ok && c == me {
					wins++
				}
			}
			t.Logf("the search won %d of %d", wins, tc.games)
			if wins < tc.at {
				t.Errorf("the search won %d of %d games, want at least %d", wins, tc.games, tc.at)
			}
		})
	}
}

// TestSearchGameStops checks that the search answers a legal move when ctx
// has ended or ends during the search, and within a small clock, on the
// biggest board at the top level (which without a limit would search for
// hours).
func TestSearchGameStops(t *testing.T) {
	g := mustBoard(t, "othello:16")
	rng := rand.New(rand.NewPCG(4, 4))
	for range 40 {
		g = g.PlayLegal(randomGameMove(g, rng))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	soon, cancel2 := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel2()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		c    Clock
		want error
	}{
		{"cancelled", cancelled, Clock{}, context.Canceled},
		{"deadline", soon, Clock{}, context.DeadlineExceeded},
		{"per move", context.Background(), Clock{PerMove: 50 * time.Millisecond}, nil},
		{"remaining", context.Background(), Clock{Remaining: 300 * time.Millisecond}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := searchGameMove(tc.ctx, g, MaxLevel, tc.c)
			if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if !slices.Contains(g.Moves(), m) {
				t.Errorf("%v is not a legal move of %s", m, g)
			}
		})
	}
}

// TestSearchGameOver checks the answers without a choice: a pass when the
// side to move must pass, an error at the end of the game.
func TestSearchGameOver(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	sawPass := false
	for k := 0; k < 200 && !sawPass; k++ {
		g := mustBoard(t, "othello:6")
		for !g.GameOver() {
			if g.MustPass() {
				sawPass = true
				if m, err := searchGameMove(context.Background(), g, 3, Clock{}); m != engine.PassPoint || err != nil {
					t.Errorf("%s must pass: %v, %v", g, m, err)
				}
			}
			g = g.PlayLegal(randomGameMove(g, rng))
		}
		if m, err := searchGameMove(context.Background(), g, 3, Clock{}); m != engine.PassPoint || !errors.Is(err, engine.ErrGameOver) {
			t.Fatalf("%s is over: %v, %v", g, m, err)
		}
		if m := randomGameMove(g, rng); m != engine.PassPoint {
			t.Fatalf("%s is over: random plays %v", g, m)
		}
	}
	if !sawPass {
		t.Fatal("no pass in 200 random games on 6x6")
	}
}

// BenchmarkGameSearch measures the search's nodes per second on 10x10 from a
// middle-game position, at a fixed depth.
func BenchmarkGameSearch(b *testing.B) {
	g := mustBoard(b, "othello:10")
	rng := rand.New(rand.NewPCG(6, 6))
	for g.Empties() > 60 {
		g = g.PlayLegal(randomGameMove(g, rng))
	}
	ms := g.Moves()
	lv := level{depth: 5}
	var nodes uint64
	start := time.Now()
	for b.Loop() {
		s := newGameSearch(context.Background(), g.Rules())
		s.move(&g, ms, lv, time.Now())
		nodes += s.nodes
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
