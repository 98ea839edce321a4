package match

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// TestComplete: the winner of a default completes the game, both sides'
// moves, to a legal end; a winner that fails leaves an error (the caller
// then scores the board as it stood). Each runs in a synctest bubble, on a
// clock that the machine's speed does not move.
func TestComplete(t *testing.T) {
	var r Result
	synctest.Test(t, func(t *testing.T) {
		// Black plays first legal moves; white's flag falls at its 5th move.
		late := &fake{name: "late", move: func(ctx context.Context, g player.Game, _ player.Clock, n int) (engine.Point, error) {
			if n == 5 {
				<-ctx.Done()
				return engine.PassPoint, ctx.Err()
			}
			return firstLegal(g), nil
		}}
		var err error
		r, err = Play(context.Background(), engine.Othello(), quick(), late, engine.TimeControl{PerMove: 50 * time.Millisecond})
		if err != nil || r.End != Time || r.Fault != engine.White {
			t.Fatalf("Play: %+v, %v", r, err)
		}
		winner := quick()
		moves, score, err := Complete(context.Background(), winner, r, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		whole := r
		whole.Moves = append(append([]engine.Point(nil), r.Moves...), moves...)
		p, err := engine.NewPosition(r.Position.Rules())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range whole.Moves {
			if p, err = p.Play(m); err != nil {
				t.Fatalf("the completed game: %v", err)
			}
		}
		// The score is the discs on the final board, not FinalScore: the empty
		// squares go to the winner on time when the default is scored, not to
		// the side with more discs (Complete returned FinalScore before).
		if !p.GameOver() || p.Score() != score {
			t.Errorf("completion ends at %s (over %v), returned %s", p.Score(), p.GameOver(), score)
		}
		if s := p.Score(); s.Black+s.White+p.Empties() != 64 {
			t.Errorf("score %s and %d empties do not add up to 64", s, p.Empties())
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
	})
	if t.Failed() {
		return
	}

	for _, tc := range []struct {
		name   string
		winner *fake
	}{
		{"fails", &fake{name: "fails", move: func(context.Context, player.Game, player.Clock, int) (engine.Point, error) {
			return engine.PassPoint, errors.New("broken")
		}}},
		{"illegal", &fake{name: "illegal", move: func(context.Context, player.Game, player.Clock, int) (engine.Point, error) {
			return engine.Point{Col: 3, Row: 3}, nil // d4: occupied
		}}},
		{"late", sleeper(200*time.Millisecond, 99)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				if _, _, err := Complete(context.Background(), tc.winner, r, 10*time.Millisecond); err == nil {
					t.Error("Complete succeeded")
				}
			})
		})
	}
	if _, _, err := Complete(context.Background(), quick(), Result{End: Normal}, time.Second); err == nil {
		t.Error("Complete of a normal end succeeded")
	}
}
