package match

import (
	"context"
	"fmt"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// Complete plays out a game lost by default the way RULES.md section 2 has a
// time default completed: the winner makes both sides' moves to the end. p is
// the winner; each of its moves must come within perMove (plus Grace). It
// returns the moves of the completion (passes included) and the discs on the
// final board (scoring gives its empty squares to the winner on time). On an error (p fails, is late
// or plays an illegal move) the caller scores the board as it stood.
func Complete(ctx context.Context, p player.Player, r Result, perMove time.Duration) ([]engine.Point, engine.Score, error) {
	if r.End == Normal {
		return nil, r.Score, fmt.Errorf("completing a game that ended normally")
	}
	moves := append([]engine.Point(nil), r.Moves...)
	pos := r.Position
	for !pos.GameOver() {
		if pos.MustPass() {
			pos, _ = pos.Play(engine.PassPoint)
			moves = append(moves, engine.PassPoint)
			continue
		}
		g := player.Game{Moves: append([]engine.Point(nil), moves...), Position: pos}
		m, _, end, err := ask(ctx, p, g, player.Clock{PerMove: perMove}, perMove)
		if end != Normal {
			return moves[len(r.Moves):], engine.Score{}, fmt.Errorf("completing the game: %v: %w", end, err)
		}
		next, err := pos.Play(m)
		if err != nil {
			return moves[len(r.Moves):], engine.Score{}, fmt.Errorf("completing the game: %s played %s: %w", p.Name(), m, err)
		}
		pos = next
		moves = append(moves, m)
	}
	return moves[len(r.Moves):], pos.Score(), nil
}
