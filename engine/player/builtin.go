package player

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/otd-project/otd/engine"
)

// ErrBadSpec is returned by New for a spec it does not know.
var ErrBadSpec = errors.New(`a built-in player is "random", "random:SEED", "greedy" or "alphabeta:LEVEL" (LEVEL 1..` +
	strconv.Itoa(MaxLevel) + ")")

// New returns the built-in player a spec names: "random" (seed 1),
// "random:SEED", "greedy", or "alphabeta:LEVEL" with LEVEL 1 (weakest) to
// MaxLevel (strongest). `otd player add --engine builtin:SPEC` passes the
// part after "builtin:".
func New(spec string) (Player, error) {
	kind, arg, hasArg := strings.Cut(strings.TrimSpace(spec), ":")
	switch strings.ToLower(kind) {
	case "random":
		if !hasArg {
			return NewRandom(1), nil
		}
		seed, err := strconv.ParseUint(arg, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", spec, ErrBadSpec)
		}
		return NewRandom(seed), nil
	case "greedy":
		if hasArg {
			return nil, fmt.Errorf("%q: %w", spec, ErrBadSpec)
		}
		return NewGreedy(), nil
	case "alphabeta":
		level, err := strconv.Atoi(arg)
		if !hasArg || err != nil || level < 1 || level > MaxLevel {
			return nil, fmt.Errorf("%q: %w", spec, ErrBadSpec)
		}
		return NewAlphaBeta(level), nil
	}
	return nil, fmt.Errorf("%q: %w", spec, ErrBadSpec)
}

// gameOverErr is what a built-in player answers when asked to move in a
// finished game.
func gameOverErr(name string) error {
	return fmt.Errorf("%s: asked to move: %w", name, engine.ErrGameOver)
}

func sides(pos engine.Bitboard) (p, o uint64) {
	if pos.ToMove == engine.Black {
		return pos.Black, pos.White
	}
	return pos.White, pos.Black
}

// prepare handles what every built-in player does first. It returns done
// with the move (PassPoint) and error to answer when ctx has ended, the side
// to move must pass or the game is over; otherwise the position on the 8x8
// fast path when fast (standard Othello), else the player uses g.Board.
func prepare(ctx context.Context, name string, g Game) (pos engine.Bitboard, fast bool, m engine.Point, done bool, err error) {
	if err := ctx.Err(); err != nil {
		return pos, false, engine.PassPoint, true, fmt.Errorf("%s: %w", name, err)
	}
	if pos, fast = g.Position.Bitboard(); fast {
		p, o := sides(pos)
		if engine.MovesOf(p, o) != 0 {
			return pos, true, engine.PassPoint, false, nil
		}
		if engine.MovesOf(o, p) == 0 {
			return pos, true, engine.PassPoint, true, gameOverErr(name)
		}
		return pos, true, engine.PassPoint, true, nil
	}
	switch {
	case g.Position.GameOver():
		return pos, false, engine.PassPoint, true, gameOverErr(name)
	case g.Position.MustPass():
		return pos, false, engine.PassPoint, true, nil
	}
	return pos, false, engine.PassPoint, false, nil
}

// Random plays a legal move chosen uniformly at random from its seed: the
// same seed and the same positions give the same moves.
type Random struct {
	seed uint64
	mu   sync.Mutex
	rng  *rand.Rand
}

// NewRandom returns a random player with the given seed.
func NewRandom(seed uint64) *Random {
	return &Random{seed: seed, rng: rand.New(rand.NewPCG(seed, 0x6f7464))}
}

// Name returns "random" (with its seed when it is not 1).
func (r *Random) Name() string {
	if r.seed == 1 {
		return "random"
	}
	return "random:" + strconv.FormatUint(r.seed, 10)
}

func (r *Random) String() string { return r.Name() }

// Move returns a random legal move.
func (r *Random) Move(ctx context.Context, g Game, _ Clock) (engine.Point, error) {
	pos, fast, m, done, err := prepare(ctx, r.Name(), g)
	if done {
		return m, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !fast {
		return randomGameMove(g.Position, r.rng), nil
	}
	moves := pos.LegalMoves()
	for k := r.rng.IntN(bits.OnesCount64(moves)); k > 0; k-- {
		moves &= moves - 1
	}
	return engine.Square(bits.TrailingZeros64(moves)).Point(), nil
}

// Close does nothing.
func (r *Random) Close() error { return nil }

// Greedy plays the move that flips the most discs; ties go to the better
// square (corners first, X-squares last), then to the lower square (a1 first).
type Greedy struct{}

// NewGreedy returns the greedy player.
func NewGreedy() *Greedy { return &Greedy{} }

// Name returns "greedy".
func (*Greedy) Name() string { return "greedy" }

func (g *Greedy) String() string { return g.Name() }

// Move returns the move flipping the most discs (under Anti-Othello's rules,
// the move leaving the fewest discs).
func (gr *Greedy) Move(ctx context.Context, g Game, _ Clock) (engine.Point, error) {
	pos, fast, m, done, err := prepare(ctx, gr.Name(), g)
	if done {
		return m, err
	}
	if !fast {
		return greedyGameMove(g.Position), nil
	}
	p, o := sides(pos)
	best, bestKey := engine.Pass, -1
	for m := engine.MovesOf(p, o); m != 0; m &= m - 1 {
		sq := engine.Square(bits.TrailingZeros64(m))
		key := bits.OnesCount64(engine.FlipsOf(p, o, sq))*16 + int(squareWeight[sq])
		if key > bestKey { // strict: the lower square keeps a tie
			best, bestKey = sq, key
		}
	}
	return best.Point(), nil
}

// Close does nothing.
func (*Greedy) Close() error { return nil }

// MaxLevel is the strongest level of the alpha-beta player.
const MaxLevel = 6

// A level bounds the search: its nominal depth in plies, the number of
// empties from which it solves the endgame exactly, and the size of its
// transposition tables (2^ttBits entries of 24 bytes each, two tables).
type level struct {
	depth, endEmpties, ttBits int
}

var levels = [MaxLevel + 1]level{
	1: {depth: 1, endEmpties: 8, ttBits: 14},
	2: {depth: 2, endEmpties: 10, ttBits: 14},
	3: {depth: 4, endEmpties: 14, ttBits: 16},
	4: {depth: 6, endEmpties: 16, ttBits: 17},
	5: {depth: 8, endEmpties: 18, ttBits: 18},
	6: {depth: 20, endEmpties: 20, ttBits: 19},
}

// AlphaBeta searches with iterative deepening, principal variation search,
// move ordering and a transposition table, scoring positions by mobility,
// potential mobility, corners, X- and C-squares, edges and parity; from a
// level's number of empties on it solves the game exactly. It stops at the
// level's depth or when its share of the clock is spent, whichever is first.
// Level 1 searches 1 ply and solves the last 8 empties; level MaxLevel searches
// as deep as its clock allows (20 plies without a clock) and solves from 20
// empties, when its clock allows it (otherwise it keeps the midgame move).
// Its tables take 2^(ttBits+1) x 24 bytes: 25 MB at the top level.
type AlphaBeta struct {
	level int
	mu    sync.Mutex // one Move at a time
	s     *searcher
	last  SearchInfo
}

// SearchInfo describes the last search of an AlphaBeta player.
type SearchInfo struct {
	Depth   int           // the deepest midgame iteration completed
	Exact   bool          // the endgame was solved: Score is the final disc difference
	Score   int           // for the side to move: hundredths of a disc (midgame) or discs (Exact)
	Nodes   uint64        // positions visited
	Budget  time.Duration // the time allotted to the move, from the clock (0: none)
	Elapsed time.Duration // time taken
}

// NewAlphaBeta returns the alpha-beta player of a level, 1 to MaxLevel
// (clamped).
func NewAlphaBeta(lvl int) *AlphaBeta {
	return &AlphaBeta{level: min(max(lvl, 1), MaxLevel)}
}

// Name returns "alphabeta:LEVEL".
func (a *AlphaBeta) Name() string { return "alphabeta:" + strconv.Itoa(a.level) }

func (a *AlphaBeta) String() string { return a.Name() }

// Level returns the player's level.
func (a *AlphaBeta) Level() int { return a.level }

// Last returns what the last Move searched.
func (a *AlphaBeta) Last() SearchInfo {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.last
}

// Close frees the player's tables.
func (a *AlphaBeta) Close() error {
	a.mu.Lock()
	a.s = nil
	a.mu.Unlock()
	return nil
}

// budget returns the time to spend on this move (0: no limit but depth).
// With a fixed time per move it uses 85% of it; with a game clock, an even
// share of what is left over the moves still to search (the moves after the
// exact solve are instant), plus most of the increment, never more than a
// third of what is left.
func budget(c Clock, empties, endEmpties int) time.Duration {
	if c.PerMove > 0 {
		return max(c.PerMove*85/100-2*time.Millisecond, time.Millisecond)
	}
	if c.Remaining <= 0 {
		return 0
	}
	movesLeft := max(empties-endEmpties, 0)/2 + 3
	b := c.Remaining/time.Duration(movesLeft) + c.Increment*3/4
	b = min(b, c.Remaining/3)
	b -= min(b/10, 20*time.Millisecond) // margin for the harness
	return max(b, time.Millisecond)
}

// Move searches g.Board and returns the best move found. When ctx ends
// first it returns at once the best move found so far with ctx's error.
func (a *AlphaBeta) Move(ctx context.Context, g Game, c Clock) (engine.Point, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	pos, fast, m, done, err := prepare(ctx, a.Name(), g)
	if done {
		return m, err
	}
	if !fast {
		m, err := searchGameMove(ctx, g.Position, a.level, c)
		if err != nil {
			err = fmt.Errorf("%s: %w", a.Name(), err)
		}
		return m, err
	}
	start := time.Now()
	lv := levels[a.level]
	if a.s == nil {
		a.s = newSearcher(lv.ttBits)
	}
	s := a.s
	p, o := sides(pos)
	empties := bits.OnesCount64(^(p | o))
	s.ctx, s.stop, s.nodes, s.deadline = ctx, false, 0, time.Time{}
	info := SearchInfo{Budget: budget(c, empties, lv.endEmpties)}
	if info.Budget > 0 {
		s.deadline = start.Add(info.Budget)
	}
	best := a.iterate(p, o, lv, empties, start, &info)
	info.Nodes, info.Elapsed = s.nodes, time.Since(start)
	a.last = info
	s.ctx = nil
	if err := ctx.Err(); err != nil {
		return best.Point(), fmt.Errorf("%s: %w", a.Name(), err)
	}
	return best.Point(), nil
}

// iterate runs the iterative deepening, then the exact solve when the game is
// near its end, and returns the move to play.
func (a *AlphaBeta) iterate(p, o uint64, lv level, empties int, start time.Time, info *SearchInfo) engine.Square {
	s := a.s
	var buf [32]scored
	ms := orderMid(buf[:], p, o, engine.MovesOf(p, o), -1, 3)
	best := ms[0].sq
	if len(ms) == 1 {
		return best
	}
	maxDepth := lv.depth
	solve := empties <= lv.endEmpties
	if solve {
		maxDepth = min(maxDepth, 4, empties) // a fallback move, quickly
	}
	for d := 1; d <= min(maxDepth, empties); d++ {
		b, sc := s.rootMid(p, o, ms, d)
		if b != engine.NoSquare {
			best = b
		}
		if s.stop {
			break
		}
		info.Depth, info.Score = d, sc
		// The next iteration costs several times this one: do not start what
		// cannot finish.
		if !s.deadline.IsZero() && time.Since(start) > s.deadline.Sub(start)/3 {
			break
		}
	}
	if solve && !s.stop {
		if b, sc, ok := s.rootSolve(p, o, best); ok {
			best = b
			info.Exact, info.Score = true, sc
		}
	}
	return best
}

// Solve solves pos exactly: a best move for the side to move and the final
// disc difference it leads to with best play (the empties going to the
// winner), as endgame test suites give it. It returns ctx's error if ctx ends
// first, and an error for a finished game; it returns Pass (and the score
// after the pass) when the side to move must pass.
func Solve(ctx context.Context, pos engine.Bitboard) (engine.Square, int, error) {
	p, o := sides(pos)
	if engine.MovesOf(p, o) == 0 {
		if engine.MovesOf(o, p) == 0 {
			return engine.Pass, finalDiff(p, o), gameOverErr("solve")
		}
		_, sc, err := Solve(ctx, engine.Bitboard{Board: pos.Board, ToMove: pos.ToMove.Opponent()})
		return engine.Pass, -sc, err
	}
	s := newSearcher(20) // 50 MB of tables
	s.ctx = ctx
	best, sc, ok := s.rootSolve(p, o, engine.NoSquare)
	if !ok {
		return engine.Pass, 0, fmt.Errorf("solve: %w", ctx.Err())
	}
	return best, sc, nil
}
