package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// answer is a Player that answers m and err to every request; with wait,
// only when its context is done.
type answer struct {
	m    engine.Point
	err  error
	wait bool
}

func (a answer) Name() string { return "probed" }
func (a answer) Close() error { return nil }
func (a answer) Move(ctx context.Context, _ player.Game, _ player.Clock) (engine.Point, error) {
	if a.wait {
		<-ctx.Done()
	}
	return a.m, a.err
}

// TestProbe: a legal move from the start position passes; anything else is
// refused with what the player answered. The legal moves of the start are
// d3, c4, f5 and e6 (RULES.md section 1).
func TestProbe(t *testing.T) {
	sq := func(s string) engine.Point {
		p, err := engine.ParsePoint(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	garbage := fmt.Errorf("reply %q is not a move: %w", "6 f6", player.ErrBadMove)
	for _, tc := range []struct {
		name string
		p    answer
		want []string // in the error; none: no error
		is   error
	}{
		{"f5", answer{m: sq("f5")}, nil, nil},
		{"e6", answer{m: sq("e6")}, nil, nil},
		{"occupied", answer{m: sq("d4")}, []string{"probed answered d4", "the legal moves are d3 c4 f5 e6"}, engine.ErrOccupied},
		{"no flip", answer{m: sq("a1")}, []string{"probed answered a1"}, engine.ErrNoFlip},
		{"pass", answer{m: engine.PassPoint}, []string{"probed answered pass"}, engine.ErrPassWrong},
		{"garbage", answer{err: garbage}, []string{`reply "6 f6" is not a move`}, player.ErrBadMove},
		{"crash", answer{err: errors.New("broken pipe")}, []string{"broken pipe"}, nil},
		{"nothing in time", answer{wait: true, err: context.DeadlineExceeded}, []string{"flag fell"}, context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				err := Probe(context.Background(), engine.Othello(), tc.p, 20*time.Millisecond)
				if tc.want == nil {
					if err != nil {
						t.Fatalf("Probe: %v; want nil", err)
					}
					return
				}
				if err == nil {
					t.Fatal("Probe: nil; want an error")
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("Probe: %v; want %q in it", err, w)
					}
				}
				if tc.is != nil && !errors.Is(err, tc.is) {
					t.Errorf("Probe: %v; want it to wrap %v", err, tc.is)
				}
			})
		})
	}
}
