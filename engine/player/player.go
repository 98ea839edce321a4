// Package player defines a Player: a program that chooses Othello moves
// under a clock. otd owns the board: a Player is told the game so far and
// asked for a move; it never decides legality. Built-in players live here
// (New("random"), New("greedy"), New("alphabeta:LEVEL"); Solve solves an
// endgame exactly); external engines (engine/gtp, engine/nboard) implement the
// same interface.
package player

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/otd-project/otd/engine"
)

// Clock is the time the player to move has, as the time control gives it.
type Clock struct {
	Remaining time.Duration // left on the player's clock for the rest of the game; 0: no clock
	Increment time.Duration // added after each move
	PerMove   time.Duration // a fixed time for each move, if the time control is one; 0: none
}

// Game is a game in progress from the start position of its rules: the moves
// so far, passes included (engine.PassPoint), and the position they lead to
// (its side to move is the player asked; Board.Rules() are the game's rules).
type Game struct {
	Moves    []engine.Point
	Position engine.Position
}

// NewGame returns the game of the moves from the start of r; it fails on an
// illegal move.
func NewGame(r engine.Rules, moves ...engine.Point) (Game, error) {
	b, err := engine.NewPosition(r)
	if err != nil {
		return Game{}, err
	}
	for i, m := range moves {
		if b, err = b.Play(m); err != nil {
			return Game{}, fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	return Game{Moves: moves, Position: b}, nil
}

// ErrBadMove is wrapped by a Player's error when what it answered could not
// be read as a move (an engine's garbage, a bad square, an overlong line):
// engine/match scores it as an illegal move, not a crash.
var ErrBadMove = errors.New("the player's move could not be read")

// Player chooses moves; one Player plays one game at a time.
type Player interface {
	// Name is the player's name as the event shows it.
	Name() string
	// Move returns the player's move in g.Board (engine.PassPoint when it
	// has none), within the clock; ctx is cancelled when its time is up.
	Move(ctx context.Context, g Game, c Clock) (engine.Point, error)
	// Close ends the player: an external engine is told to quit, then stopped.
	Close() error
}
