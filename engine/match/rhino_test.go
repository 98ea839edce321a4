package match_test

import (
	"context"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/gtp"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/testenv"
)

// TestGTPRhino probes gtp-rhino (Probe: one move from the start position, as
// an engine's registration does), then plays it against a built-in player
// with both colours on the same process; each game must end normally and
// replay legally to the recorded score. It fails under CI=true when
// gtp-rhino is missing (testenv.GTPRhino).
func TestGTPRhino(t *testing.T) {
	path := testenv.GTPRhino(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a guard against a hang
	defer cancel()
	for _, rc := range []engine.Color{engine.Black, engine.White} {
		t.Run("rhino-"+rc.String(), func(t *testing.T) {
			e, err := gtp.Start(ctx, gtp.Config{Config: proc.Config{Argv: []string{path}}})
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := e.Close(); err != nil {
					t.Error(err)
				}
			}()
			b, err := player.New("alphabeta:2")
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if err := match.Probe(ctx, engine.Othello(), e, time.Minute); err != nil {
				t.Fatalf("probe: %v\nstderr: %s", err, e.Stderr())
			}
			black, white := player.Player(e), b
			if rc == engine.White {
				black, white = b, e
			}
			r, err := match.Play(ctx, engine.Othello(), black, white, engine.TimeControl{Base: time.Minute, Increment: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if r.End != match.Normal {
				t.Fatalf("end %s, fault %s: %v\nstderr: %s", r.End, r.Fault, r.Err, e.Stderr())
			}
			p, err := engine.NewPosition(engine.Othello())
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range r.Moves {
				if p, err = p.Play(m); err != nil {
					t.Fatalf("move %d %s: %v", i+1, m, err)
				}
			}
			if !p.GameOver() || p.String() != r.Position.String() || p.ToMove() != r.Position.ToMove() || p.FinalScore() != r.Score {
				t.Errorf("replay: over %v, score %s; Result %s", p.GameOver(), p.FinalScore(), r.Score)
			}
			t.Logf("gtp-rhino %s: %d moves, %s, used %v", rc, len(r.Moves), r.Score, r.Used)
		})
	}
}
