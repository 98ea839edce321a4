package match

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// Probe asks p for a move in the start position of rules, with limit as its
// time per move, and checks it as Play would: a player that answers no legal
// move (garbage, an illegal square, an error, nothing in time) gets an error
// that says what it answered. It checks an engine before it enters an event.
//
// p is left with a move on its board that no game played: the next Move sets
// the engine's board again (engine/gtp replays the game after clear_board,
// engine/nboard sends the whole game each time).
func Probe(ctx context.Context, rules engine.Rules, p player.Player, limit time.Duration) error {
	pos, err := engine.NewPosition(rules)
	if err != nil {
		return err
	}
	m, _, end, err := ask(ctx, p, player.Game{Position: pos}, player.Clock{PerMove: limit}, limit)
	if end != Normal {
		return fmt.Errorf("asked for a move from the start position (%v a move): %w", limit, err)
	}
	if _, err := pos.Play(m); err != nil {
		legal := make([]string, 0, 4)
		for _, l := range pos.Moves() {
			legal = append(legal, l.String())
		}
		return fmt.Errorf("asked for a move from the start position, %s answered %s: %w (the legal moves are %s)",
			p.Name(), m, err, strings.Join(legal, " "))
	}
	return nil
}
