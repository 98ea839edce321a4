package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/otd-project/otd/engine"
)

// The built-in players for every rule set but standard Othello (which has
// the bitboard fast path), on the general board engine.Position: random, greedy
// and an alpha-beta search with iterative deepening and an exact endgame.

// randomGameMove returns a uniformly random legal move of g (PassPoint when g
// must pass, or when the game is over) using rng.
func randomGameMove(g engine.Position, rng *rand.Rand) engine.Point {
	ms := g.Moves()
	if len(ms) == 0 {
		return engine.PassPoint
	}
	return ms[rng.IntN(len(ms))]
}

// greedyGameMove returns the move that is best for the side to move at once
// under the rules' goal: the most discs after the move (MostDiscs) or the
// fewest (FewestDiscs); ties go to the first in square order.
func greedyGameMove(g engine.Position) engine.Point {
	ms := g.Moves()
	if len(ms) == 0 {
		return engine.PassPoint
	}
	me, sign := g.ToMove(), goalSign(g.Rules())
	best, bestKey := ms[0], 0
	for i, m := range ms {
		s := g.PlayLegal(m).Score()
		key := sign * s.Black
		if me == engine.White {
			key = sign * s.White
		}
		if i == 0 || key > bestKey {
			best, bestKey = m, key
		}
	}
	return best
}

// goalSign is +1 when discs are good (MostDiscs), -1 when they are bad
// (FewestDiscs).
func goalSign(r engine.Rules) int {
	if r.Winner == engine.FewestDiscs {
		return -1
	}
	return 1
}

// gameLevel is a level of the alpha-beta player (levels) for the general
// board, scaled down: the mailbox visits some 10 times fewer nodes per second
// than the bitboards, without a transposition table, and bigger boards have
// more moves. From depth 4 it searches a ply less on 10x10 and 12x12, two on
// 14x14 and 16x16; it solves the endgame from 6+2*level empties (8 at level
// 1, 18 at level 6; each two more empties cost some 8 times more), fewer on
// boards past 8x8 (16 at most on 16x16).
func gameLevel(r engine.Rules, lvl int) level {
	lvl = min(max(lvl, 1), MaxLevel)
	lv := levels[lvl]
	if r.Size > 8 && lv.depth >= 4 {
		lv.depth -= (r.Size - 6) / 4
	}
	lv.endEmpties = min(lv.endEmpties, 6+2*lvl, 24-r.Size/2)
	return lv
}

// shape is what the evaluation knows of a rule set's board, computed once
// per rule set.
type shape struct {
	corners []engine.Point   // squares that can never be flipped
	near    [][]engine.Point // per corner, its playable neighbours (X- and C-squares)
	weight  [16][16]int8     // move ordering: corners first, their neighbours last
}

var shapes sync.Map // engine.Rules -> *shape

// lines are the four line directions; a disc can be flipped only along one
// whose two neighbours are on the board.
var lines = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

func shapeOf(r engine.Rules) *shape {
	if s, ok := shapes.Load(r); ok {
		return s.(*shape)
	}
	s := &shape{}
	n := r.Size
	for row := range n {
		for col := range n {
			if !r.Playable(col, row) {
				continue
			}
			corner, edge := true, false
			for _, d := range lines {
				off := !r.Playable(col+d[0], row+d[1]) || !r.Playable(col-d[0], row-d[1])
				corner = corner && off
				edge = edge || off
			}
			switch {
			case corner:
				s.corners = append(s.corners, engine.Point{Col: int8(col), Row: int8(row)})
				s.weight[row][col] = 9
			case edge:
				s.weight[row][col] = 6
			default:
				s.weight[row][col] = 4
			}
		}
	}
	for _, c := range s.corners {
		var near []engine.Point
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				col, row := int(c.Col)+dc, int(c.Row)+dr
				if (dr != 0 || dc != 0) && r.Playable(col, row) && s.weight[row][col] != 9 {
					near = append(near, engine.Point{Col: int8(col), Row: int8(row)})
					s.weight[row][col] = 0
				}
			}
		}
		s.near = append(s.near, near)
	}
	v, _ := shapes.LoadOrStore(r, s)
	return v.(*shape)
}

// Weights of the general evaluation, in hundredths of a disc as in eval.go.
const (
	gwMobility  = 70  // per legal move more than the opponent
	gwCorner    = 500 // per corner held: good for MostDiscs, bad for FewestDiscs
	gwNear      = 200 // per neighbour of an empty corner held (MostDiscs: a penalty)
	gwSupply    = 40  // per disc left in hand more than the opponent (Supply), by the goal
	gwDiscLate  = 8   // per disc more, by the goal, in the last lateEmpties
	lateEmpties = 14
)

// gameSearch is one search of the general alpha-beta player.
type gameSearch struct {
	shape    *shape
	sign     int // goalSign
	supply   int
	nodes    uint64
	ctx      context.Context
	deadline time.Time // zero: none
	stop     bool
}

// evaluate scores g, whose side to move has mobility moves, for the side to
// move; the evaluation is sane for every goal:
//
//   - mobility (legal moves, more than the opponent's) is good under both
//     goals: it is how the opponent is forced into bad moves;
//   - a corner (a square that can never be flipped) counts for its holder
//     under MostDiscs and against it under FewestDiscs, where stable discs
//     cannot be given back;
//   - under MostDiscs a disc next to an empty corner is a penalty (it opens
//     the corner to the opponent); under FewestDiscs it is not scored;
//   - with a Supply, discs left in hand are good under MostDiscs (the last
//     moves) and bad under FewestDiscs (the player who still has discs must
//     fill the last squares alone);
//   - in the last lateEmpties, the discs themselves count by the goal.
//
// The search scores a finished game exactly (gameFinal).
func (s *gameSearch) evaluate(g *engine.Position, mobility int) int {
	me := g.ToMove()
	opp := me.Opponent()
	score := gwMobility * (mobility - g.Mobility(opp))
	for k, c := range s.shape.corners {
		switch col, ok := g.At(c); {
		case ok:
			if col == me {
				score += s.sign * gwCorner
			} else {
				score -= s.sign * gwCorner
			}
		case s.sign > 0:
			for _, x := range s.shape.near[k] {
				if col, ok := g.At(x); ok {
					if col == me {
						score -= gwNear
					} else {
						score += gwNear
					}
				}
			}
		}
	}
	if s.supply > 0 {
		score += s.sign * gwSupply * (g.Placed(opp) - g.Placed(me))
	}
	if g.Empties() <= lateEmpties {
		sc := g.Score()
		d := sc.Black - sc.White
		if me == engine.White {
			d = -d
		}
		score += s.sign * gwDiscLate * d
	}
	return score
}

// gameFinal is the result of the finished game g for the side to move: the
// winning margin under the rules' goal (positive when the side to move wins),
// the empty squares going to the winner.
func gameFinal(g *engine.Position, sign int) int {
	sc := g.Score()
	d := sign * (sc.Black - sc.White)
	if g.ToMove() == engine.White {
		d = -d
	}
	switch e := g.Empties(); {
	case d > 0:
		return d + e
	case d < 0:
		return d - e
	}
	return 0
}

// poll sets stop when the deadline has passed or ctx has ended; it looks every
// 256 nodes.
func (s *gameSearch) poll() {
	if s.nodes&255 != 0 || s.stop {
		return
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		s.stop = true
	} else if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stop = true
	}
}

// gscored is a move with its ordering key.
type gscored struct {
	p   engine.Point
	key int
}

// byKey orders moves highest key first.
func byKey(a, b gscored) int { return b.key - a.key }

// order scores the moves ms of g into buf: by the square's weight under
// MostDiscs and, when replies is set, fewest replies for the opponent first.
func (s *gameSearch) order(buf []gscored, g *engine.Position, ms []engine.Point, replies bool) []gscored {
	out := buf[:0]
	for _, m := range ms {
		key := 0
		if s.sign > 0 {
			key = int(s.shape.weight[m.Row][m.Col]) * 4
		}
		if replies {
			h := g.PlayLegal(m)
			key -= 16 * h.Mobility(h.ToMove())
		}
		out = append(out, gscored{m, key})
	}
	slices.SortStableFunc(out, byKey) // ties keep the square order
	return out
}

// maxMoves is room for the moves of any position without allocating.
const maxMoves = 128

// alphaBeta searches depth plies below g (a pass is not a ply) and returns
// its score for the side to move within (alpha, beta), fail-soft.
func (s *gameSearch) alphaBeta(g *engine.Position, depth, alpha, beta int) int {
	s.nodes++
	s.poll()
	if s.stop {
		return 0
	}
	var mbuf [maxMoves]engine.Point
	ms := g.AppendMoves(mbuf[:0])
	switch {
	case len(ms) == 0:
		return gameFinal(g, s.sign) * winScale
	case ms[0] == engine.PassPoint:
		h := g.PlayLegal(engine.PassPoint)
		return -s.alphaBeta(&h, depth, -beta, -alpha)
	case depth <= 0:
		return s.evaluate(g, len(ms))
	}
	var sbuf [maxMoves]gscored
	return s.pvs(g, s.order(sbuf[:], g, ms, depth >= 3), alpha, beta, func(h *engine.Position, alpha, beta int) int {
		return s.alphaBeta(h, depth-1, alpha, beta)
	})
}

// pvs searches the moves ms of g in order with principal variation search:
// the first with the full window, the others with a null window first,
// child giving a child's score for the side to move there; fail-soft.
func (s *gameSearch) pvs(g *engine.Position, ms []gscored, alpha, beta int, child func(h *engine.Position, alpha, beta int) int) int {
	best := -infinity
	for i, m := range ms {
		h := g.PlayLegal(m.p)
		var sc int
		if i == 0 {
			sc = -child(&h, -beta, -alpha)
		} else {
			sc = -child(&h, -alpha-1, -alpha)
			if sc > alpha && sc < beta && !s.stop {
				sc = -child(&h, -beta, -alpha)
			}
		}
		if s.stop {
			return 0
		}
		if sc > best {
			best = sc
			if sc > alpha {
				alpha = sc
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// solveOrderMin is the number of empties from which the solver orders moves
// by fewest replies (fastest first).
const solveOrderMin = 6

// solve returns the exact result of g (gameFinal) for the side to move
// within (alpha, beta), fail-soft.
func (s *gameSearch) solve(g *engine.Position, alpha, beta int) int {
	s.nodes++
	s.poll()
	if s.stop {
		return 0
	}
	var mbuf [maxMoves]engine.Point
	ms := g.AppendMoves(mbuf[:0])
	switch {
	case len(ms) == 0:
		return gameFinal(g, s.sign)
	case ms[0] == engine.PassPoint:
		h := g.PlayLegal(engine.PassPoint)
		return -s.solve(&h, -beta, -alpha)
	}
	var sbuf [maxMoves]gscored
	var ordered []gscored
	if len(ms) > 1 && g.Empties() >= solveOrderMin {
		ordered = s.order(sbuf[:], g, ms, true)
	} else {
		ordered = sbuf[:0]
		for _, m := range ms {
			ordered = append(ordered, gscored{p: m})
		}
	}
	return s.pvs(g, ordered, alpha, beta, s.solve)
}

// root searches every root move of ms in order, at the given depth (solve:
// exactly), and puts the best first. When stopped, it returns false, and
// ms[0] is the best move fully searched if one was better than the first.
func (s *gameSearch) root(g *engine.Position, ms []gscored, depth int, exact bool) bool {
	alpha, beta := -infinity, infinity
	best := -1
	for i := range ms {
		h := g.PlayLegal(ms[i].p)
		search := func(a, b int) int {
			if exact {
				return -s.solve(&h, -b, -a)
			}
			return -s.alphaBeta(&h, depth-1, -b, -a)
		}
		var sc int
		if i == 0 {
			sc = search(alpha, beta)
		} else {
			sc = search(alpha, alpha+1)
			if sc > alpha && !s.stop {
				sc = search(alpha, beta)
			}
		}
		if s.stop {
			break
		}
		if sc > alpha {
			alpha, best = sc, i
		}
	}
	if best > 0 {
		ms[0], ms[best] = ms[best], ms[0]
	}
	return !s.stop
}

// searchGameMove returns the alpha-beta player's move of the given level in g
// (the levels of AlphaBeta, scaled by gameLevel), within the clock's budget:
// iterative deepening of the midgame search, then an exact solve by the
// rules' goal when few empties remain. When ctx ends first it returns at once
// the best move found so far with ctx's error; it always returns a legal move
// (PassPoint when g must pass, with an error when the game is over). Its
// errors do not name the player: the caller does.
func searchGameMove(ctx context.Context, g engine.Position, level int, c Clock) (engine.Point, error) {
	ms := g.Moves()
	switch {
	case len(ms) == 0:
		return engine.PassPoint, fmt.Errorf("asked to move: %w", engine.ErrGameOver)
	case ctx.Err() != nil:
		return ms[0], ctx.Err()
	case len(ms) == 1:
		return ms[0], nil
	}
	start := time.Now()
	r := g.Rules()
	lv := gameLevel(r, level)
	s := newGameSearch(ctx, r)
	if b := budget(c, g.Empties(), lv.endEmpties); b > 0 {
		s.deadline = start.Add(b)
	}
	return s.move(&g, ms, lv, start), ctx.Err()
}

func newGameSearch(ctx context.Context, r engine.Rules) *gameSearch {
	return &gameSearch{shape: shapeOf(r), sign: goalSign(r), supply: r.Supply, ctx: ctx}
}

// move runs the search of a level on g, whose moves ms are not a pass, and
// returns the move to play.
func (s *gameSearch) move(g *engine.Position, ms []engine.Point, lv level, start time.Time) engine.Point {
	var sbuf [maxMoves]gscored
	order := s.order(sbuf[:], g, ms, true)
	empties := g.Empties()
	maxDepth := lv.depth
	solve := empties <= lv.endEmpties
	if solve {
		maxDepth = min(maxDepth, 2) // a fallback move, quickly
	}
	for d := 1; d <= min(maxDepth, empties); d++ {
		if !s.root(g, order, d, false) {
			break
		}
		// The next iteration costs several times this one: do not start
		// what cannot finish.
		if !s.deadline.IsZero() && time.Since(start) > s.deadline.Sub(start)/3 {
			break
		}
	}
	if solve && !s.stop {
		s.root(g, order, 0, true)
	}
	return order[0].p
}
