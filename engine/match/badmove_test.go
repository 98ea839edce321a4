package match

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// badReply is a Player whose second move is an error: err, returned at once
// or, with late, when its context is done.
type badReply struct {
	err  error
	late bool
	n    int
}

func (b *badReply) Name() string { return "bad reply" }
func (b *badReply) Close() error { return nil }
func (b *badReply) Move(ctx context.Context, g player.Game, _ player.Clock) (engine.Point, error) {
	if b.n++; b.n < 2 {
		return g.Position.Moves()[0], nil
	}
	if b.late {
		<-ctx.Done()
	}
	return engine.PassPoint, b.err
}

// TestBadMove: a reply that could not be read as a move (player.ErrBadMove)
// before the deadline is an illegal move, any other error a crash, and either
// after the deadline a flag fall (on the clock of a synctest bubble, which
// the machine's speed does not move).
func TestBadMove(t *testing.T) {
	badMove := fmt.Errorf("reply %q is not a move: %w", "z9", player.ErrBadMove)
	for _, tc := range []struct {
		name string
		bad  *badReply
		end  End
	}{
		{"bad move", &badReply{err: badMove}, Illegal},
		{"other error", &badReply{err: errors.New("broken pipe")}, Crash},
		{"bad move late", &badReply{err: badMove, late: true}, Time},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, err := Play(context.Background(), engine.Othello(), quick(), tc.bad, engine.TimeControl{PerMove: 50 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				if r.End != tc.end || r.Fault != engine.White || !errors.Is(r.Err, tc.bad.err) || len(r.Moves) != 3 {
					t.Fatalf("end %s, fault %s after %d moves: %v; want %s of white after 3", r.End, r.Fault, len(r.Moves), r.Err, tc.end)
				}
				if tc.end == Illegal && r.Bad != engine.PassPoint {
					t.Errorf("bad move %s; want pass (none was read)", r.Bad)
				}
				if w, _ := r.Winner(); w != engine.Black {
					t.Errorf("winner %s; want black", w)
				}
				checkReplay(t, r)
			})
		})
	}
}
