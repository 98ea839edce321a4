package match

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// fake is a Player written in the test: move chooses its moves.
type fake struct {
	name string
	move func(ctx context.Context, g player.Game, c player.Clock, n int) (engine.Move, error)
	mu   sync.Mutex
	n    int            // requests so far
	seen []player.Clock // the clock of each request
}

func (f *fake) Name() string { return f.name }
func (f *fake) Close() error { return nil }

// requests returns the number of requests so far (an abandoned call may still run).
func (f *fake) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}
func (f *fake) Move(ctx context.Context, g player.Game, c player.Clock) (engine.Move, error) {
	f.mu.Lock()
	f.n++
	n := f.n
	f.seen = append(f.seen, c)
	f.mu.Unlock()
	return f.move(ctx, g, c, n)
}

func firstLegal(g player.Game) engine.Move { return g.Position.Moves()[0] }

// quick plays the first legal move at once.
func quick() *fake {
	return &fake{name: "quick", move: func(_ context.Context, g player.Game, _ player.Clock, _ int) (engine.Move, error) {
		return firstLegal(g), nil
	}}
}

// sleeper sleeps d (ignoring ctx) on each of its first k moves, then plays at once.
func sleeper(d time.Duration, k int) *fake {
	return &fake{name: "sleeper", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Move, error) {
		if n <= k {
			time.Sleep(d)
		}
		return firstLegal(g), nil
	}}
}

// checkReplay replays r.Moves from the start and checks that they are legal,
// that the game is over (for a Normal end) and that they lead to r.Position
// and r.Score.
func checkReplay(t *testing.T, r Result) {
	t.Helper()
	p := engine.Start()
	for i, m := range r.Moves {
		next, err := p.Play(m)
		if err != nil {
			t.Fatalf("move %d (%s, %s): %v\n%s", i+1, m, p.ToMove, err, p.Board)
		}
		p = next
	}
	if p != r.Position {
		t.Errorf("replay ends at\n%s\nResult has\n%s", p.Board, r.Position.Board)
	}
	want := p.Score()
	if r.End == Normal {
		if !p.GameOver() {
			t.Errorf("normal end but the game is not over")
		}
		want = p.FinalScore()
	}
	if r.Score != want {
		t.Errorf("score %s; the replay gives %s", r.Score, want)
	}
}

func newPlayer(t *testing.T, spec string) player.Player {
	t.Helper()
	p, err := player.New(spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func TestBuiltinGames(t *testing.T) {
	for _, tc := range []struct{ black, white, tc string }{
		{"random:7", "greedy", "10s+0s"},
		{"greedy", "random:7", "10s/move"},
		{"alphabeta:2", "random:3", "5m+2s"},
		{"random:9", "alphabeta:2", "1m"},
		{"greedy", "alphabeta:2", "30s+1s"},
	} {
		t.Run(tc.black+"-"+tc.white, func(t *testing.T) {
			timeControl, err := ParseTimeControl(tc.tc)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Play(context.Background(), newPlayer(t, tc.black), newPlayer(t, tc.white), timeControl)
			if err != nil {
				t.Fatal(err)
			}
			if r.End != Normal || r.Err != nil {
				t.Fatalf("end %s (%v); want normal", r.End, r.Err)
			}
			if s := r.Score; s.Black+s.White != 64 {
				t.Errorf("score %s does not add up to 64", s)
			}
			checkReplay(t, r)
			t.Logf("%s: %d moves, %s", tc.tc, len(r.Moves), r.Score)
		})
	}
}

// TestAutoPass: a forced pass is recorded and never asked for.
func TestAutoPass(t *testing.T) {
	// random:7 against greedy includes passes for some seed; search a few.
	for seed := range 40 {
		f := &fake{name: "strict", move: func(_ context.Context, g player.Game, _ player.Clock, _ int) (engine.Move, error) {
			if g.Position.MustPass() {
				return engine.Pass, errors.New("asked to move when it must pass")
			}
			return firstLegal(g), nil
		}}
		rnd := player.NewRandom(uint64(seed))
		r, err := Play(context.Background(), rnd, f, TimeControl{PerMove: 5 * time.Second})
		if err != nil || r.End != Normal {
			t.Fatalf("seed %d: end %s, %v, %v", seed, r.End, r.Err, err)
		}
		checkReplay(t, r)
		for _, m := range r.Moves {
			if m == engine.Pass {
				return
			}
		}
	}
	t.Fatal("no game with a pass among the seeds tried: choose other seeds") // seeded: the same every run
}

// TestDefaults: each misbehaviour ends the game against the side at fault,
// within the time control plus one second.
func TestDefaults(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	d4 := engine.MoveAt(engine.SquareAt(3, 3)) // occupied at the start
	for _, tc := range []struct {
		name  string
		tc    string
		bad   func() *fake
		end   End
		atReq int // the request of the faulty player that ends the game
		is    error
	}{
		{"slow per move", "200ms/move", func() *fake { return sleeper(450*time.Millisecond, 1) }, Time, 1, nil},
		{"slow on the clock", "300ms", func() *fake { return sleeper(150*time.Millisecond, 100) }, Time, 3, nil},
		{"gives up at its deadline", "200ms+50ms", func() *fake {
			return &fake{name: "blocker", move: func(ctx context.Context, _ player.Game, _ player.Clock, _ int) (engine.Move, error) {
				<-ctx.Done()
				return engine.Pass, ctx.Err()
			}}
		}, Time, 1, context.DeadlineExceeded},
		{"never returns", "200ms/move", func() *fake {
			return &fake{name: "deaf", move: func(context.Context, player.Game, player.Clock, int) (engine.Move, error) {
				<-hang
				return engine.Pass, nil
			}}
		}, NoReply, 1, nil},
		{"error", "1s/move", func() *fake {
			return &fake{name: "crasher", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Move, error) {
				if n == 3 {
					return engine.Pass, errBoom
				}
				return firstLegal(g), nil
			}}
		}, Crash, 3, errBoom},
		{"occupied square", "1s/move", func() *fake {
			return &fake{name: "illegal", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Move, error) {
				if n == 2 {
					return d4, nil
				}
				return firstLegal(g), nil
			}}
		}, Illegal, 2, engine.ErrOccupied},
		{"pass with moves", "1s/move", func() *fake {
			return &fake{name: "passer", move: func(context.Context, player.Game, player.Clock, int) (engine.Move, error) {
				return engine.Pass, nil
			}}
		}, Illegal, 1, engine.ErrPassWrong},
		{"off the board", "1s/move", func() *fake {
			return &fake{name: "offboard", move: func(context.Context, player.Game, player.Clock, int) (engine.Move, error) {
				return engine.Move(70), nil
			}}
		}, Illegal, 1, engine.ErrBadSquare},
	} {
		for _, colour := range []engine.Color{engine.Black, engine.White} {
			t.Run(tc.name+"/"+colour.String(), func(t *testing.T) {
				t.Parallel() // each waits on its own clock
				timeControl, err := ParseTimeControl(tc.tc)
				if err != nil {
					t.Fatal(err)
				}
				bad, good := tc.bad(), quick()
				black, white := player.Player(bad), player.Player(good)
				if colour == engine.White {
					black, white = white, black
				}
				start := time.Now()
				r, err := Play(context.Background(), black, white, timeControl)
				took := time.Since(start)
				if err != nil {
					t.Fatal(err)
				}
				if r.End != tc.end || r.Fault != colour {
					t.Fatalf("end %s, fault %s (%v); want %s, %s", r.End, r.Fault, r.Err, tc.end, colour)
				}
				if w, ok := r.Winner(); !ok || w != colour.Opponent() {
					t.Errorf("winner %s %v; want %s", w, ok, colour.Opponent())
				}
				if r.Err == nil || !strings.Contains(r.Err.Error(), bad.name) {
					t.Errorf("error %v; want one naming %s", r.Err, bad.name)
				}
				if tc.is != nil && !errors.Is(r.Err, tc.is) {
					t.Errorf("error %v; want one wrapping %v", r.Err, tc.is)
				}
				if n := bad.requests(); n != tc.atReq {
					t.Errorf("the game ended at request %d of %s; want %d", n, bad.name, tc.atReq)
				}
				if r.Position.ToMove != colour {
					t.Errorf("the position has %s to move; want the faulty %s", r.Position.ToMove, colour)
				}
				checkReplay(t, r)
				if limit := timeControl.Base + timeControl.PerMove*time.Duration(tc.atReq) + time.Second; took > limit {
					t.Errorf("the game took %v; want at most %v", took, limit)
				}
				if tc.end == Illegal && r.Bad == engine.Pass && tc.is != engine.ErrPassWrong {
					t.Errorf("Bad not recorded")
				}
			})
		}
	}
}

var errBoom = errors.New("boom")

// TestIncrement: each move adds the increment to the clock.
func TestIncrement(t *testing.T) {
	const base, inc = time.Second, 100 * time.Millisecond
	a, b := quick(), quick()
	r, err := Play(context.Background(), a, b, TimeControl{Base: base, Increment: inc})
	if err != nil || r.End != Normal {
		t.Fatalf("end %s (%v), %v", r.End, r.Err, err)
	}
	for _, f := range []*fake{a, b} {
		for k, c := range f.seen {
			hi := base + time.Duration(k)*inc
			lo := hi - time.Duration(k+1)*20*time.Millisecond
			if c.Remaining > hi || c.Remaining < lo || c.Increment != inc || c.PerMove != 0 {
				t.Fatalf("request %d: clock %+v; want remaining in [%v, %v], increment %v", k+1, c, lo, hi, inc)
			}
		}
	}
	// Without the increment the same player's clock only goes down.
	c := quick()
	if _, err := Play(context.Background(), c, quick(), TimeControl{Base: base}); err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(c.seen); k++ {
		if c.seen[k].Remaining > c.seen[k-1].Remaining {
			t.Fatalf("request %d: remaining %v grew from %v", k+1, c.seen[k].Remaining, c.seen[k-1].Remaining)
		}
	}
	// An increment keeps a slow player alive: 60 ms a move on a 100 ms clock
	// plus 60 ms.
	s := sleeper(60*time.Millisecond, 6)
	if r, _ := Play(context.Background(), s, quick(), TimeControl{Base: 100 * time.Millisecond, Increment: 60 * time.Millisecond}); r.End != Normal {
		t.Errorf("with the increment: end %s (%v); want normal", r.End, r.Err)
	}
	s = sleeper(60*time.Millisecond, 6)
	if r, _ := Play(context.Background(), s, quick(), TimeControl{Base: 100 * time.Millisecond}); r.End != Time || r.Fault != engine.Black {
		t.Errorf("without the increment: end %s, fault %s (%v); want time, black", r.End, r.Fault, r.Err)
	}
}

// TestPerMove: a fixed time per move does not accumulate: 80 ms a move is
// fine under 100ms/move and flags on a 200 ms clock.
func TestPerMove(t *testing.T) {
	s := sleeper(80*time.Millisecond, 5)
	r, err := Play(context.Background(), s, quick(), TimeControl{PerMove: 100 * time.Millisecond})
	if err != nil || r.End != Normal {
		t.Fatalf("per move: end %s (%v), %v", r.End, r.Err, err)
	}
	for k, c := range s.seen {
		if c.PerMove != 100*time.Millisecond || c.Remaining != 0 || c.Increment != 0 {
			t.Fatalf("request %d: clock %+v; want PerMove 100ms only", k+1, c)
		}
	}
	checkReplay(t, r)
	s = sleeper(80*time.Millisecond, 5)
	r, err = Play(context.Background(), s, quick(), TimeControl{Base: 200 * time.Millisecond})
	// 200 -> 120 -> 40 -> -40 ms: the flag falls at the 4th request (the 3rd if sleeps overshoot).
	if n := s.requests(); err != nil || r.End != Time || r.Fault != engine.Black || n != 4 && n != 3 {
		t.Fatalf("clock: end %s, fault %s at request %d (%v), %v; want time, black at 4", r.End, r.Fault, n, r.Err, err)
	}
}

// TestInterrupted: a cancelled ctx is nobody's fault.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fake{name: "canceller", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Move, error) {
		if n == 3 {
			cancel()
		}
		return firstLegal(g), nil
	}}
	r, err := Play(ctx, f, quick(), TimeControl{PerMove: time.Second})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v; want context.Canceled", err)
	}
	if r.End != Normal || len(r.Moves) != 4 {
		t.Errorf("end %s, %d moves; want normal, 4", r.End, len(r.Moves))
	}
	if _, err := Play(context.Background(), quick(), quick(), TimeControl{}); !errors.Is(err, ErrBadTimeControl) {
		t.Errorf("zero time control: %v; want ErrBadTimeControl", err)
	}
}

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want TimeControl
		str  string
	}{
		{"5m+2s", TimeControl{Base: 5 * time.Minute, Increment: 2 * time.Second}, "5m+2s"},
		{" 5m + 2s ", TimeControl{Base: 5 * time.Minute, Increment: 2 * time.Second}, "5m+2s"},
		{"10m", TimeControl{Base: 10 * time.Minute}, "10m"},
		{"10m+0s", TimeControl{Base: 10 * time.Minute}, "10m"},
		{"1h30m+30s", TimeControl{Base: 90 * time.Minute, Increment: 30 * time.Second}, "1h30m+30s"},
		{"1h", TimeControl{Base: time.Hour}, "1h"},
		{"1m30s+500ms", TimeControl{Base: 90 * time.Second, Increment: 500 * time.Millisecond}, "1m30s+500ms"},
		{"10s/move", TimeControl{PerMove: 10 * time.Second}, "10s/move"},
		{"250ms/move", TimeControl{PerMove: 250 * time.Millisecond}, "250ms/move"},
		{"2m/move", TimeControl{PerMove: 2 * time.Minute}, "2m/move"},
	} {
		got, err := ParseTimeControl(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.str {
			t.Errorf("%q: String() = %q; want %q", tc.in, s, tc.str)
		}
		if back, err := ParseTimeControl(got.String()); err != nil || back != got {
			t.Errorf("%q: String() %q does not parse back: %+v, %v", tc.in, got.String(), back, err)
		}
	}
	for _, in := range []string{"", "5", "5m+", "+2s", "5m+2", "0s", "-5m", "5m+-2s", "0s/move", "/move",
		"10s/moves", "10s/move+2s", "5m+2s+1s", "abc", "5x+2s", "-1s/move"} {
		if tc, err := ParseTimeControl(in); !errors.Is(err, ErrBadTimeControl) {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want ErrBadTimeControl", in, tc, err)
		}
	}
}

func TestEndString(t *testing.T) {
	for e, want := range map[End]string{Normal: "normal", Time: "time", Crash: "crash", Illegal: "illegal", NoReply: "no reply"} {
		if e.String() != want {
			t.Errorf("%d: %q; want %q", int(e), e.String(), want)
		}
	}
}
