package match

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// TestComplete: the winner of a default completes the game, both sides'
// moves, to a legal end; a winner that fails leaves an error (the caller
// then scores the board as it stood).
func TestComplete(t *testing.T) {
	// Black plays first legal moves; white's flag falls at its 5th move.
	late := &fake{name: "late", move: func(ctx context.Context, g player.Game, _ player.Clock, n int) (engine.Move, error) {
		if n == 5 {
			<-ctx.Done()
			return engine.Pass, ctx.Err()
		}
		return firstLegal(g), nil
	}}
	r, err := Play(context.Background(), quick(), late, TimeControl{PerMove: 50 * time.Millisecond})
	if err != nil || r.End != Time || r.Fault != engine.White {
		t.Fatalf("Play: %+v, %v", r, err)
	}
	winner := quick()
	moves, score, err := Complete(context.Background(), winner, r, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	whole := r
	whole.Moves = append(append([]engine.Move(nil), r.Moves...), moves...)
	p := engine.Start()
	for _, m := range whole.Moves {
		if p, err = p.Play(m); err != nil {
			t.Fatalf("the completed game: %v", err)
		}
	}
	if !p.GameOver() || p.FinalScore() != score {
		t.Errorf("completion ends at %s (over %v), returned %s", p.FinalScore(), p.GameOver(), score)
	}
	// The winner made both sides' moves: it was asked for every move but
	// the forced passes.
	asked := 0
	for _, m := range moves {
		if !m.IsPass() {
			asked++
		}
	}
	if winner.requests() != asked {
		t.Errorf("the winner was asked %d moves, the completion has %d", winner.requests(), asked)
	}

	for _, tc := range []struct {
		name   string
		winner *fake
	}{
		{"fails", &fake{name: "fails", move: func(context.Context, player.Game, player.Clock, int) (engine.Move, error) {
			return engine.Pass, errors.New("broken")
		}}},
		{"illegal", &fake{name: "illegal", move: func(context.Context, player.Game, player.Clock, int) (engine.Move, error) {
			return engine.MoveAt(engine.SquareAt(3, 3)), nil // d4: occupied
		}}},
		{"late", sleeper(200*time.Millisecond, 99)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := Complete(context.Background(), tc.winner, r, 10*time.Millisecond); err == nil {
				t.Error("Complete succeeded")
			}
		})
	}
	if _, _, err := Complete(context.Background(), quick(), Result{End: Normal}, time.Second); err == nil {
		t.Error("Complete of a normal end succeeded")
	}
}
