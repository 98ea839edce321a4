package player

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
)

// randomGame plays random legal moves from the start until empties squares
// are left (or the game ends), returning the game.
func randomGame(rng *rand.Rand, empties int) game8 {
	g := game8{Position: engine.Start()}
	for bits.OnesCount64(g.Position.Empty()) > empties {
		ms := g.Position.Moves()
		if len(ms) == 0 {
			break
		}
		m := ms[rng.IntN(len(ms))]
		next, err := g.Position.Play(m)
		if err != nil {
			panic(err)
		}
		g.Moves = append(g.Moves, m)
		g.Position = next
	}
	return g
}

// minimax is the slow reference: the final disc difference for the side to
// move with best play, by plain minimax over engine.Position (no pruning).
func minimax(pos engine.Bitboard) int {
	if pos.GameOver() {
		s := pos.FinalScore()
		if pos.ToMove == engine.Black {
			return s.Black - s.White
		}
		return s.White - s.Black
	}
	best := -100
	for _, m := range pos.Moves() {
		next, err := pos.Play(m)
		if err != nil {
			panic(err)
		}
		best = max(best, -minimax(next))
	}
	return best
}

func TestSolveAgainstMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := range n {
		g := randomGame(rng, 1+i%8)
		if g.Position.GameOver() {
			continue
		}
		want := minimax(g.Position)
		m, got, err := solveSmall(g.Position)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("position %s %v: Solve = %+d, minimax = %+d", g.Position.String(), g.Position.ToMove, got, want)
		}
		// The move must be legal and achieve the score.
		next, err := g.Position.Play(m)
		if err != nil {
			t.Fatalf("position %s %v: Solve's move %v: %v", g.Position.String(), g.Position.ToMove, m, err)
		}
		if v := -minimax(next); v != want {
			t.Fatalf("position %s %v: Solve's move %v scores %+d, best is %+d", g.Position.String(), g.Position.ToMove, m, v, want)
		}
	}
}

// solveSmall is Solve with small tables (Solve's are sized for real endgames).
func solveSmall(pos engine.Bitboard) (engine.Square, int, error) {
	p, o := sides(pos)
	if engine.MovesOf(p, o) == 0 {
		_, sc, err := solveSmall(engine.Bitboard{Board: pos.Board, ToMove: pos.ToMove.Opponent()})
		return engine.Pass, -sc, err
	}
	s := newSearcher(10)
	best, sc, ok := s.rootSolve(p, o, engine.NoSquare)
	if !ok {
		return engine.Pass, 0, errors.New("stopped")
	}
	return best, sc, nil
}

func TestSolvePassAndGameOver(t *testing.T) {
	// All black but h8: neither side can move.
	b, _ := engine.ParseBoard("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-")
	if _, _, err := Solve(context.Background(), engine.Bitboard{Board: b}); !errors.Is(err, engine.ErrGameOver) {
		t.Errorf("Solve of a finished game: err = %v, want ErrGameOver", err)
	}
	// White a1, black b1, c1 empty: black to move must pass, white has c1.
	b, _ = engine.ParseBoard("OX-" + "-------------------------------------------------------------")
	pos := engine.Bitboard{Board: b, ToMove: engine.Black}
	if !pos.MustPass() {
		t.Fatal("test position: black should have to pass")
	}
	m, sc, err := Solve(context.Background(), pos)
	if err != nil || m != engine.Pass || sc != -minimax(engine.Bitboard{Board: b, ToMove: engine.White}) {
		t.Errorf("Solve of a forced pass = %v %+d %v", m, sc, err)
	}
}

func allPlayers(t *testing.T) []Player {
	t.Helper()
	var ps []Player
	for _, spec := range []string{"random", "random:7", "greedy", "alphabeta:1", "alphabeta:2", "alphabeta:3", "alphabeta:4", "alphabeta:5", "alphabeta:6"} {
		p, err := New(spec)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestLegalMoves asks every player for a move in many random positions of
// every stage, under a short clock: the answer is always legal, and Pass
// exactly when the side to move has no move.
func TestLegalMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 120
	if testing.Short() {
		n = 30
	}
	players := allPlayers(t)
	defer func() {
		for _, p := range players {
			p.Close()
		}
	}()
	ctx := context.Background()
	for i := range n {
		g := randomGame(rng, rng.IntN(61))
		if g.Position.GameOver() {
			continue
		}
		for _, pl := range players {
			c := Clock{PerMove: 5 * time.Millisecond}
			if i%3 == 1 {
				c = Clock{Remaining: 300 * time.Millisecond, Increment: 10 * time.Millisecond}
			}
			m, err := move8(ctx, pl, g, c)
			if err != nil {
				t.Fatalf("%s in %s %v: %v", pl.Name(), g.Position.String(), g.Position.ToMove, err)
			}
			if _, err := g.Position.Play(m); err != nil {
				t.Fatalf("%s in %s %v plays %v: %v", pl.Name(), g.Position.String(), g.Position.ToMove, m, err)
			}
		}
	}
}

// TestGameOver: asked to move in a finished game, a player says so.
func TestGameOver(t *testing.T) {
	b, _ := engine.ParseBoard("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-")
	g := game8{Position: engine.Bitboard{Board: b}}
	for _, pl := range allPlayers(t) {
		if _, err := move8(context.Background(), pl, g, Clock{}); !errors.Is(err, engine.ErrGameOver) {
			t.Errorf("%s: err = %v, want ErrGameOver", pl.Name(), err)
		}
	}
}

// TestFullGames plays whole games between players: every move legal, and
// the stronger level beats random.
func TestFullGames(t *testing.T) {
	pairs := [][2]string{{"alphabeta:3", "random:5"}, {"random:6", "alphabeta:3"}, {"greedy", "alphabeta:2"}}
	for _, pr := range pairs {
		black, _ := New(pr[0])
		white, _ := New(pr[1])
		g := game8{Position: engine.Start()}
		for !g.Position.GameOver() {
			pl := black
			if g.Position.ToMove == engine.White {
				pl = white
			}
			m, err := move8(context.Background(), pl, g, Clock{PerMove: 20 * time.Millisecond})
			if err != nil {
				t.Fatalf("%s: %v", pl.Name(), err)
			}
			next, err := g.Position.Play(m)
			if err != nil {
				t.Fatalf("%s plays %v in %s: %v", pl.Name(), m, g.Position.String(), err)
			}
			g.Moves, g.Position = append(g.Moves, m), next
		}
		s := g.Position.FinalScore()
		t.Logf("%s (black) vs %s (white): %v", pr[0], pr[1], s)
		if pr[0] == "alphabeta:3" && s.Black <= s.White || pr[1] == "alphabeta:3" && s.White <= s.Black {
			t.Errorf("alphabeta:3 lost to random: %v", s)
		}
	}
}

// TestCancel: a search without a clock ends promptly when ctx is cancelled,
// with a legal move and ctx's error.
func TestCancel(t *testing.T) {
	g := randomGame(rand.New(rand.NewPCG(9, 9)), 40)
	if g.Position.GameOver() || g.Position.MustPass() {
		t.Fatal("test position has no move")
	}
	pl := NewAlphaBeta(MaxLevel)
	defer pl.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	m, err := move8(ctx, pl, g, Clock{})
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if _, perr := g.Position.Play(m); perr != nil {
		t.Errorf("move after cancel %v: %v", m, perr)
	}
	if took > 300*time.Millisecond {
		t.Errorf("Move returned %v after the start, 100ms after cancel expected", took)
	}
	// A context ended before the call: at once.
	start = time.Now()
	if _, err := move8(ctx, pl, g, Clock{}); !errors.Is(err, context.Canceled) || time.Since(start) > 50*time.Millisecond {
		t.Errorf("Move with a cancelled ctx: %v after %v", err, time.Since(start))
	}
	// A deadline on ctx is obeyed too.
	dctx, dcancel := context.WithTimeout(context.Background(), 80*time.Millisecond)
	defer dcancel()
	start = time.Now()
	_, err = move8(dctx, pl, g, Clock{})
	if took := time.Since(start); took > 300*time.Millisecond {
		t.Errorf("Move under an 80ms deadline took %v (err %v)", took, err)
	}
}

// TestClock: the player keeps within its share of the clock.
func TestClock(t *testing.T) {
	g := randomGame(rand.New(rand.NewPCG(1, 2)), 44)
	pl := NewAlphaBeta(MaxLevel)
	defer pl.Close()
	for _, tc := range []struct {
		c   Clock
		max time.Duration
	}{
		{Clock{PerMove: 100 * time.Millisecond}, 100 * time.Millisecond},
		{Clock{Remaining: 2 * time.Second}, 2 * time.Second / 3},
		{Clock{Remaining: 60 * time.Millisecond, Increment: 0}, 40 * time.Millisecond},
	} {
		start := time.Now()
		m, err := move8(context.Background(), pl, g, tc.c)
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Position.Play(m); err != nil {
			t.Fatal(err)
		}
		if took > tc.max+60*time.Millisecond { // slack for a loaded machine
			t.Errorf("clock %+v: took %v, at most %v expected", tc.c, took, tc.max)
		}
		t.Logf("clock %+v: %v in %v, %+v", tc.c, m, took, pl.Last())
	}
}

// TestRandomSeed: the same seed gives the same game, another seed another.
func TestRandomSeed(t *testing.T) {
	play := func(seed uint64) []engine.Square {
		a, b := NewRandom(seed), NewRandom(seed+100)
		g := game8{Position: engine.Start()}
		for !g.Position.GameOver() {
			pl := a
			if g.Position.ToMove == engine.White {
				pl = b
			}
			m, err := move8(context.Background(), pl, g, Clock{})
			if err != nil {
				t.Fatal(err)
			}
			g.Position, _ = g.Position.Play(m)
			g.Moves = append(g.Moves, m)
		}
		return g.Moves
	}
	x, y, z := play(42), play(42), play(43)
	if len(x) != len(y) {
		t.Fatalf("seed 42 gave games of %d and %d moves", len(x), len(y))
	}
	for i := range x {
		if x[i] != y[i] {
			t.Fatalf("seed 42: move %d differs: %v, %v", i, x[i], y[i])
		}
	}
	same := len(x) == len(z)
	for i := 0; same && i < len(x); i++ {
		same = x[i] == z[i]
	}
	if same {
		t.Error("seeds 42 and 43 gave the same game")
	}
}

// TestGreedy: greedy takes the most flips, ties by square then index.
func TestGreedy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	gr := NewGreedy()
	for range 200 {
		g := randomGame(rng, rng.IntN(60))
		if g.Position.GameOver() || g.Position.MustPass() {
			continue
		}
		m, err := move8(context.Background(), gr, g, Clock{})
		if err != nil {
			t.Fatal(err)
		}
		got := bits.OnesCount64(g.Position.Flips(m))
		for _, o := range g.Position.Moves() {
			if n := bits.OnesCount64(g.Position.Flips(o)); n > got {
				t.Fatalf("greedy played %v (%d flips) but %v flips %d", m, got, o, n)
			}
		}
		m2, _ := move8(context.Background(), gr, g, Clock{})
		if m2 != m {
			t.Fatalf("greedy is not deterministic: %v then %v", m, m2)
		}
	}
}

func TestNew(t *testing.T) {
	for spec, name := range map[string]string{
		"random": "random", "random:9": "random:9", "greedy": "greedy", "GREEDY": "greedy",
		"alphabeta:1": "alphabeta:1", "alphabeta:6": "alphabeta:6",
	} {
		p, err := New(spec)
		if err != nil || p.Name() != name {
			t.Errorf("New(%q) = %v, %v; want %s", spec, p, err, name)
		}
	}
	for _, bad := range []string{"", "minimax", "alphabeta", "alphabeta:0", "alphabeta:7", "alphabeta:x", "random:-1", "greedy:2"} {
		if _, err := New(bad); !errors.Is(err, ErrBadSpec) {
			t.Errorf("New(%q) error = %v, want ErrBadSpec", bad, err)
		}
	}
}

// BenchmarkNodes measures the alpha-beta player's nodes per second: a
// fixed-depth midgame search (level 5, depth 8, no clock) from a few
// positions of 30-42 empties, and an exact solve of 18 empties.
func BenchmarkNodes(b *testing.B) {
	rng := rand.New(rand.NewPCG(21, 21))
	var games []game8
	for len(games) < 4 {
		g := randomGame(rng, 30+4*len(games))
		if !g.Position.GameOver() && !g.Position.MustPass() {
			games = append(games, g)
		}
	}
	b.Run("midgame", func(b *testing.B) {
		var nodes uint64
		var took time.Duration
		for range b.N {
			for _, g := range games {
				pl := NewAlphaBeta(5)
				pl.s = newSearcher(levels[5].ttBits) // the tables' allocation is not search
				if _, err := move8(context.Background(), pl, g, Clock{}); err != nil {
					b.Fatal(err)
				}
				nodes += pl.Last().Nodes
				took += pl.Last().Elapsed
			}
		}
		b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
		b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	})
	var eg []game8
	for len(eg) < 3 {
		g := randomGame(rng, 18)
		if !g.Position.GameOver() && !g.Position.MustPass() {
			eg = append(eg, g)
		}
	}
	b.Run("endgame18", func(b *testing.B) {
		var nodes uint64
		var took time.Duration
		for range b.N {
			for _, g := range eg {
				p, o := sides(g.Position)
				s := newSearcher(18)
				start := time.Now()
				s.rootSolve(p, o, engine.NoSquare)
				took += time.Since(start)
				nodes += s.nodes
			}
		}
		b.ReportMetric(float64(nodes)/took.Seconds(), "nodes/s")
		b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	})
}

// game8 is a standard game on the 8x8 fast path, as these tests build it.
type game8 struct {
	Moves    []engine.Square
	Position engine.Bitboard
}

// move8 asks p for its move in g and returns it as a move of the 8x8 board.
func move8(ctx context.Context, p Player, g game8, c Clock) (engine.Square, error) {
	pg := Game{Position: engine.FromBitboard(g.Position)}
	for _, m := range g.Moves {
		pg.Moves = append(pg.Moves, m.Point())
	}
	pt, err := p.Move(ctx, pg, c)
	m, ok := pt.Square()
	if !ok {
		return engine.Pass, fmt.Errorf("%s off the 8x8 board", pt)
	}
	return m, err
}
