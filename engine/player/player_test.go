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

// TestCancel: a search without a clock stops when ctx ends, with a legal
// move and ctx's error: at its first look at ctx after the end (it looks
// once before searching, then every 1024 positions), or at once, with no
// search, for a ctx ended before the call.
func TestCancel(t *testing.T) {
	g := randomGame(rand.New(rand.NewPCG(9, 9)), 40)
	if g.Position.GameOver() || g.Position.MustPass() {
		t.Fatal("test position has no move")
	}
	pl := NewAlphaBeta(MaxLevel)
	defer pl.Close()
	for _, looks := range []int{2, 5, 50} {
		ctx := &endAfter{looks: looks}
		m, err := move8(ctx, pl, g, Clock{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ended at look %d: err = %v, want context.Canceled", looks, err)
		}
		if _, perr := g.Position.Play(m); perr != nil {
			t.Errorf("ended at look %d: move %v: %v", looks, m, perr)
		}
		if n, most := pl.Last().Nodes, uint64(looks)*1024; n > most {
			t.Errorf("ended at look %d: %d positions searched; want at most %d", looks, n, most)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if m, err := move8(ctx, pl, g, Clock{}); !errors.Is(err, context.Canceled) || m != engine.Pass {
		t.Errorf("Move with a ctx ended before = %v, %v; want no search: pass, context.Canceled", m, err)
	}
}

// endAfter is a context that ends (context.Canceled) at its looks-th look
// (a call of Err): a test's cancel at a known point of a search.
type endAfter struct {
	context.Context
	looks, seen int
}

func (c *endAfter) Err() error {
	if c.seen++; c.seen >= c.looks {
		return context.Canceled
	}
	return nil
}

func (c *endAfter) Done() <-chan struct{}       { return nil }
func (c *endAfter) Value(key any) any           { return nil }
func (c *endAfter) Deadline() (time.Time, bool) { return time.Time{}, false }

// TestClock: the time the player allots itself to a move, from the clock,
// as budget's rule says: 85% of a fixed time per move less 2 ms; with a game
// clock an even share of what is left over its moves to search (half the
// empty squares above the exact solve, plus 3) and 3/4 of the increment,
// at most a third of what is left, less a tenth (at most 20 ms) for the
// harness; 1 ms at least. A search with a clock answers a legal move, no
// error, having allotted itself that time.
func TestClock(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		c                   Clock
		empties, endEmpties int
		want                time.Duration
	}{
		{Clock{}, 30, 20, 0},
		{Clock{PerMove: 100 * ms}, 30, 20, 83 * ms},
		{Clock{PerMove: time.Second}, 30, 20, 848 * ms},
		{Clock{PerMove: 2 * ms}, 30, 20, ms},
		{Clock{Remaining: 2 * time.Second}, 16, 12, 380 * ms},                                // 5 moves: 400 ms
		{Clock{Remaining: 60 * ms}, 16, 12, 10800 * time.Microsecond},                        // 5 moves: 12 ms
		{Clock{Remaining: 900 * ms}, 10, 20, 280 * ms},                                       // solved: 3 moves
		{Clock{Remaining: 60 * time.Second, Increment: 2 * time.Second}, 50, 20, 4813333333}, // 18 moves: 3.333 s + 1.5 s
		{Clock{Remaining: 3 * time.Second, Increment: 10 * time.Second}, 30, 20, 980 * ms},   // a third of 3 s
		{Clock{Remaining: 2 * ms}, 30, 20, ms},
	} {
		if got := budget(tc.c, tc.empties, tc.endEmpties); got != tc.want {
			t.Errorf("budget(%+v, %d empties, solve at %d) = %v; want %v", tc.c, tc.empties, tc.endEmpties, got, tc.want)
		}
	}
	g := randomGame(rand.New(rand.NewPCG(1, 2)), 44)
	pl := NewAlphaBeta(MaxLevel)
	defer pl.Close()
	for _, tc := range []struct {
		c    Clock
		want time.Duration
	}{
		{Clock{PerMove: 100 * ms}, 83 * ms},
		{Clock{PerMove: 2 * ms}, ms},
	} {
		m, err := move8(context.Background(), pl, g, tc.c)
		if err != nil {
			t.Fatalf("clock %+v: %v", tc.c, err)
		}
		if _, err := g.Position.Play(m); err != nil {
			t.Errorf("clock %+v: %v", tc.c, err)
		}
		if got := pl.Last().Budget; got != tc.want {
			t.Errorf("clock %+v: allotted %v to the move; want %v", tc.c, got, tc.want)
		}
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

// BenchmarkClock: how long a move allotted a time by the clock (TestClock)
// takes on this machine, beside the time allotted: the search's overshoot
// (a machine's figure, not a test's bound; BENCHMARKS.md).
//
//	go test -run '^$' -bench Clock -benchtime 20x ./engine/player
func BenchmarkClock(b *testing.B) {
	g := randomGame(rand.New(rand.NewPCG(1, 2)), 44)
	for _, c := range []Clock{{PerMove: 100 * time.Millisecond}, {Remaining: 2 * time.Second}, {Remaining: 60 * time.Millisecond}} {
		b.Run(fmt.Sprintf("%+v", c), func(b *testing.B) {
			pl := NewAlphaBeta(MaxLevel)
			defer pl.Close()
			var over, worst time.Duration
			n := 0
			for b.Loop() {
				if _, err := move8(context.Background(), pl, g, c); err != nil {
					b.Fatal(err)
				}
				last := pl.Last()
				d := max(last.Elapsed-last.Budget, 0)
				over, worst, n = over+d, max(worst, d), n+1
			}
			b.ReportMetric(float64(pl.Last().Budget.Microseconds())/1000, "budget-ms")
			b.ReportMetric(float64(over.Microseconds())/1000/float64(n), "over-ms/op")
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-over-ms")
		})
	}
}
