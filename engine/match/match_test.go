package match

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// fake is a Player written in the test: move chooses its moves.
type fake struct {
	name string
	move func(ctx context.Context, g player.Game, c player.Clock, n int) (engine.Point, error)
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
func (f *fake) Move(ctx context.Context, g player.Game, c player.Clock) (engine.Point, error) {
	f.mu.Lock()
	f.n++
	n := f.n
	f.seen = append(f.seen, c)
	f.mu.Unlock()
	return f.move(ctx, g, c, n)
}

func firstLegal(g player.Game) engine.Point { return g.Position.Moves()[0] }

// quick plays the first legal move at once.
func quick() *fake {
	return &fake{name: "quick", move: func(_ context.Context, g player.Game, _ player.Clock, _ int) (engine.Point, error) {
		return firstLegal(g), nil
	}}
}

// sleeper sleeps d (ignoring ctx) on each of its first k moves, then plays at once.
// In a synctest bubble (the tests of the clock), d is exactly what the move
// takes on the bubble's clock: the test decides how long each move takes, not
// the machine.
func sleeper(d time.Duration, k int) *fake {
	return &fake{name: "sleeper", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Point, error) {
		if n <= k {
			time.Sleep(d)
		}
		return firstLegal(g), nil
	}}
}

// checkReplay replays r.Moves from the start of the game's rules and checks
// that they are legal, that the game is over (for a Normal end) and that they
// lead to r.Board and r.Score.
func checkReplay(t *testing.T, r Result) {
	t.Helper()
	p, err := engine.NewPosition(r.Position.Rules())
	if err != nil {
		t.Fatalf("the result's rules: %v", err)
	}
	for i, m := range r.Moves {
		next, err := p.Play(m)
		if err != nil {
			t.Fatalf("move %d (%s, %s): %v\n%s", i+1, m, p.ToMove(), err, diagram(p))
		}
		p = next
	}
	if !sameGame(p, r.Position) {
		t.Errorf("replay ends at\n%s (%s to move)\nResult has\n%s (%s to move)", diagram(p), p.ToMove(), diagram(r.Position), r.Position.ToMove())
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

// sameGame reports whether a and b are the same position: rules, discs, side
// to move and discs placed. (Games are not compared with ==: each NewPosition has
// its own geometry.)
func sameGame(a, b engine.Position) bool {
	return a.Rules() == b.Rules() && a.String() == b.String() && a.ToMove() == b.ToMove() &&
		a.Placed(engine.Black) == b.Placed(engine.Black) && a.Placed(engine.White) == b.Placed(engine.White)
}

// diagram returns g's board as rows.
func diagram(g engine.Position) string {
	s, n := g.String(), g.Rules().Size
	var b strings.Builder
	for i := 0; i+n <= len(s); i += n {
		b.WriteString(s[i:i+n] + "\n")
	}
	return b.String()
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
			timeControl, err := engine.ParseTimeControl(tc.tc)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Play(context.Background(), engine.Othello(), newPlayer(t, tc.black), newPlayer(t, tc.white), timeControl)
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

// TestVariant6x6: a game on 6x6 between two built-in players ends normally
// on the 6x6 board: the score adds up to its 36 squares and the moves
// replay under its rules.
func TestVariant6x6(t *testing.T) {
	rules := engine.Rules{Size: 6}
	for _, pair := range [][2]string{{"greedy", "random"}, {"random", "greedy"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			r, err := Play(context.Background(), rules, newPlayer(t, pair[0]), newPlayer(t, pair[1]), engine.TimeControl{PerMove: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if r.End != Normal || r.Err != nil {
				t.Fatalf("end %s (%v); want normal", r.End, r.Err)
			}
			if got := r.Position.Rules(); got != rules {
				t.Errorf("the result's rules are %s; want %s", got, rules)
			}
			if s := r.Score; s.Black+s.White != 36 {
				t.Errorf("score %s does not add up to 36", s)
			}
			for _, m := range r.Moves {
				if !m.IsPass() && (m.Col >= 6 || m.Row >= 6) {
					t.Errorf("move %s is off the 6x6 board", m)
				}
			}
			checkReplay(t, r)
			t.Logf("%d moves, %s", len(r.Moves), r.Score)
		})
	}
	// A square of the 8x8 board off the 6x6 one is refused as illegal.
	g1 := engine.Point{Col: 6, Row: 6} // g7
	off := &fake{name: "offboard", move: func(context.Context, player.Game, player.Clock, int) (engine.Point, error) {
		return g1, nil
	}}
	r, err := Play(context.Background(), rules, off, quick(), engine.TimeControl{PerMove: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.End != Illegal || r.Fault != engine.Black || r.Bad != g1 || !errors.Is(r.Err, engine.ErrOffBoard) {
		t.Errorf("end %s, fault %s, bad %s: %v; want black's illegal g7, ErrOffBoard", r.End, r.Fault, r.Bad, r.Err)
	}
	if _, err := Play(context.Background(), engine.Rules{Size: 7}, quick(), quick(), engine.TimeControl{PerMove: time.Second}); !errors.Is(err, engine.ErrBadRules) {
		t.Errorf("a 7x7 game: %v; want ErrBadRules", err)
	}
}

// TestAnti: under Anti-Othello the side with fewer discs on the board wins,
// in games between built-in players and in a game wiped out early (white has
// no disc left, with 51 squares empty).
func TestAnti(t *testing.T) {
	anti, err := engine.ParseRules("anti")
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, r Result) {
		t.Helper()
		if r.End != Normal || r.Err != nil {
			t.Fatalf("end %s (%v); want normal", r.End, r.Err)
		}
		if got := r.Position.Rules(); got != anti {
			t.Errorf("the result's rules are %s; want %s", got, anti)
		}
		checkReplay(t, r)
		discs := r.Position.Score() // on the board, before the empties are given
		w, ok := r.Winner()
		switch {
		case discs.Black == discs.White:
			if ok {
				t.Errorf("discs %s: winner %s; want a tie", discs, w)
			}
		case !ok || (w == engine.Black) != (discs.Black < discs.White):
			t.Errorf("discs %s (score %s): winner %s %v; want the side with fewer discs", discs, r.Score, w, ok)
		}
		t.Logf("%d moves, discs %s, score %s, winner %s %v", len(r.Moves), discs, r.Score, w, ok)
	}
	for _, pair := range [][2]string{{"greedy", "random"}, {"random", "greedy"}, {"random:2", "random:5"}} {
		t.Run(pair[0]+"-"+pair[1], func(t *testing.T) {
			r, err := Play(context.Background(), anti, newPlayer(t, pair[0]), newPlayer(t, pair[1]), engine.TimeControl{PerMove: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			check(t, r)
		})
	}
	t.Run("wipeout", func(t *testing.T) {
		var script []engine.Point
		for _, f := range strings.Fields("d3 c3 b3 d2 e1 d6 d7 e3 f4") { // black 13, white 0
			m, err := engine.ParsePoint(f)
			if err != nil {
				t.Fatal(err)
			}
			script = append(script, m)
		}
		scripted := func() *fake {
			return &fake{name: "scripted", move: func(_ context.Context, g player.Game, _ player.Clock, _ int) (engine.Point, error) {
				return script[len(g.Moves)], nil
			}}
		}
		r, err := Play(context.Background(), anti, scripted(), scripted(), engine.TimeControl{PerMove: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if d := r.Position.Score(); len(r.Moves) != len(script) || d != (engine.Score{Black: 13, White: 0}) {
			t.Fatalf("%d moves, discs %s; want the script's 9, 13-0", len(r.Moves), d)
		}
		check(t, r)
	})
}

// TestAutoPass: a forced pass is recorded and never asked for.
func TestAutoPass(t *testing.T) {
	// random:7 against greedy includes passes for some seed; search a few.
	for seed := range 40 {
		f := &fake{name: "strict", move: func(_ context.Context, g player.Game, _ player.Clock, _ int) (engine.Point, error) {
			if g.Position.MustPass() {
				return engine.PassPoint, errors.New("asked to move when it must pass")
			}
			return firstLegal(g), nil
		}}
		rnd := player.NewRandom(uint64(seed))
		r, err := Play(context.Background(), engine.Othello(), rnd, f, engine.TimeControl{PerMove: 5 * time.Second})
		if err != nil || r.End != Normal {
			t.Fatalf("seed %d: end %s, %v, %v", seed, r.End, r.Err, err)
		}
		checkReplay(t, r)
		for _, m := range r.Moves {
			if m == engine.PassPoint {
				return
			}
		}
	}
	t.Fatal("no game with a pass among the seeds tried: choose other seeds") // seeded: the same every run
}

// TestDefaults: each misbehaviour ends the game against the side at fault,
// at the request where the rules say it does, by the faulty side's time plus
// Grace and StopGrace. Each game runs in a synctest bubble: its clock is a
// fake one that moves only when every goroutine of the game waits (a
// sleeper's sleep, a deadline), so the test checks what Play decided on a
// clock it controls, never how fast the machine was (a loaded machine made
// the flag fall one move early when the clock was the real one).
func TestDefaults(t *testing.T) {
	d4 := engine.Point{Col: 3, Row: 3} // occupied at the start
	d9 := engine.Point{Col: 3, Row: 8} // off the 8x8 board
	for _, tc := range []struct {
		name  string
		tc    string
		bad   func(hang <-chan struct{}) *fake // hang is closed when the game is over
		end   End
		atReq int // the request of the faulty player that ends the game
		is    error
	}{
		{"slow per move", "200ms/move", func(<-chan struct{}) *fake { return sleeper(450*time.Millisecond, 1) }, Time, 1, nil},
		{"slow on the clock", "300ms", func(<-chan struct{}) *fake { return sleeper(150*time.Millisecond, 100) }, Time, 3, nil},
		{"gives up at its deadline", "200ms+50ms", func(<-chan struct{}) *fake {
			return &fake{name: "blocker", move: func(ctx context.Context, _ player.Game, _ player.Clock, _ int) (engine.Point, error) {
				<-ctx.Done()
				return engine.PassPoint, ctx.Err()
			}}
		}, Time, 1, context.DeadlineExceeded},
		{"never returns", "200ms/move", func(hang <-chan struct{}) *fake {
			return &fake{name: "deaf", move: func(context.Context, player.Game, player.Clock, int) (engine.Point, error) {
				<-hang
				return engine.PassPoint, nil
			}}
		}, NoReply, 1, nil},
		{"error", "1s/move", func(<-chan struct{}) *fake {
			return &fake{name: "crasher", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Point, error) {
				if n == 3 {
					return engine.PassPoint, errBoom
				}
				return firstLegal(g), nil
			}}
		}, Crash, 3, errBoom},
		{"occupied square", "1s/move", func(<-chan struct{}) *fake {
			return &fake{name: "illegal", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Point, error) {
				if n == 2 {
					return d4, nil
				}
				return firstLegal(g), nil
			}}
		}, Illegal, 2, engine.ErrOccupied},
		{"pass with moves", "1s/move", func(<-chan struct{}) *fake {
			return &fake{name: "passer", move: func(context.Context, player.Game, player.Clock, int) (engine.Point, error) {
				return engine.PassPoint, nil
			}}
		}, Illegal, 1, engine.ErrPassWrong},
		// A square off the board (one an engine may name now that a1..p16
		// parse, e.g. GTP's d9) is refused by the game's rules: ErrOffBoard
		// (it was engine.Square(70) and ErrBadSquare when moves were 8x8 Moves).
		{"off the board", "1s/move", func(<-chan struct{}) *fake {
			return &fake{name: "offboard", move: func(context.Context, player.Game, player.Clock, int) (engine.Point, error) {
				return d9, nil
			}}
		}, Illegal, 1, engine.ErrOffBoard},
	} {
		for _, colour := range []engine.Color{engine.Black, engine.White} {
			t.Run(tc.name+"/"+colour.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					timeControl, err := engine.ParseTimeControl(tc.tc)
					if err != nil {
						t.Fatal(err)
					}
					hang := make(chan struct{})
					defer close(hang) // the abandoned call of "never returns" ends with the bubble
					bad, good := tc.bad(hang), quick()
					black, white := player.Player(bad), player.Player(good)
					if colour == engine.White {
						black, white = white, black
					}
					start := time.Now()
					r, err := Play(context.Background(), engine.Othello(), black, white, timeControl)
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
					if r.Position.ToMove() != colour {
						t.Errorf("the position has %s to move; want the faulty %s", r.Position.ToMove(), colour)
					}
					checkReplay(t, r)
					// On the bubble's clock: the faulty side's time, then at most
					// Grace (its deadline) and StopGrace (abandoned).
					if limit := timeControl.Base + timeControl.Increment*time.Duration(tc.atReq-1) + timeControl.PerMove*time.Duration(tc.atReq) + Grace + StopGrace; took > limit {
						t.Errorf("the game ended after %v on its clock; want at most %v", took, limit)
					}
					if tc.end == Illegal && r.Bad == engine.PassPoint && tc.is != engine.ErrPassWrong {
						t.Errorf("Bad not recorded")
					}
					if want, ok := map[error]engine.Point{engine.ErrOccupied: d4, engine.ErrOffBoard: d9}[tc.is]; ok && r.Bad != want {
						t.Errorf("bad move %s; want %s", r.Bad, want)
					}
				})
			})
		}
	}
}

var errBoom = errors.New("boom")

// TestIncrement: each move adds the increment to the clock and takes off the
// time the move took (on the clock of a synctest bubble, where a sleeper's
// move takes exactly its sleep).
func TestIncrement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const base, inc, took = time.Second, 100 * time.Millisecond, 30 * time.Millisecond
		for _, inc := range []time.Duration{inc, 0} {
			a, b := sleeper(took, 100), sleeper(took, 100)
			r, err := Play(context.Background(), engine.Othello(), a, b, engine.TimeControl{Base: base, Increment: inc})
			if err != nil || r.End != Normal {
				t.Fatalf("increment %v: end %s (%v), %v", inc, r.End, r.Err, err)
			}
			for _, f := range []*fake{a, b} {
				for k, c := range f.seen {
					want := base + time.Duration(k)*(inc-took)
					if c.Remaining != want || c.Increment != inc || c.PerMove != 0 {
						t.Fatalf("increment %v, request %d: clock %+v; want remaining %v, increment %v", inc, k+1, c, want, inc)
					}
				}
			}
		}
		// An increment keeps a slow player alive: 60 ms a move on a 100 ms
		// clock plus 60 ms; without it the flag falls at the 4th request
		// (100 -> 40 -> -20 -> -80: the 4th has 20 ms with the grace).
		s := sleeper(60*time.Millisecond, 6)
		if r, _ := Play(context.Background(), engine.Othello(), s, quick(), engine.TimeControl{Base: 100 * time.Millisecond, Increment: 60 * time.Millisecond}); r.End != Normal {
			t.Errorf("with the increment: end %s (%v); want normal", r.End, r.Err)
		}
		s = sleeper(60*time.Millisecond, 6)
		if r, _ := Play(context.Background(), engine.Othello(), s, quick(), engine.TimeControl{Base: 100 * time.Millisecond}); r.End != Time || r.Fault != engine.Black || s.requests() != 4 {
			t.Errorf("without the increment: end %s, fault %s at request %d (%v); want time, black at 4", r.End, r.Fault, s.requests(), r.Err)
		}
	})
}

// TestPerMove: a fixed time per move does not accumulate: 80 ms a move is
// fine under 100ms/move and flags on a 200 ms clock (in a synctest bubble:
// each move takes exactly 80 ms).
func TestPerMove(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := sleeper(80*time.Millisecond, 5)
		r, err := Play(context.Background(), engine.Othello(), s, quick(), engine.TimeControl{PerMove: 100 * time.Millisecond})
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
		r, err = Play(context.Background(), engine.Othello(), s, quick(), engine.TimeControl{Base: 200 * time.Millisecond})
		// 200 -> 120 -> 40 -> -40 ms: the 4th request has 60 ms with the grace.
		if n := s.requests(); err != nil || r.End != Time || r.Fault != engine.Black || n != 4 {
			t.Fatalf("clock: end %s, fault %s at request %d (%v), %v; want time, black at 4", r.End, r.Fault, n, r.Err, err)
		}
	})
}

// TestInterrupted: a cancelled ctx is nobody's fault.
func TestInterrupted(t *testing.T) {
	synctest.Test(t, testInterrupted)
}

func testInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fake{name: "canceller", move: func(_ context.Context, g player.Game, _ player.Clock, n int) (engine.Point, error) {
		if n == 3 {
			cancel()
		}
		return firstLegal(g), nil
	}}
	r, err := Play(ctx, engine.Othello(), f, quick(), engine.TimeControl{PerMove: time.Second})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v; want context.Canceled", err)
	}
	if r.End != Normal || len(r.Moves) != 4 {
		t.Errorf("end %s, %d moves; want normal, 4", r.End, len(r.Moves))
	}
	if _, err := Play(context.Background(), engine.Othello(), quick(), quick(), engine.TimeControl{}); !errors.Is(err, engine.ErrBadTimeControl) {
		t.Errorf("zero time control: %v; want ErrBadTimeControl", err)
	}
}

func TestEndString(t *testing.T) {
	for e, want := range map[End]string{Normal: "normal", Time: "time", Crash: "crash", Illegal: "illegal", NoReply: "no reply"} {
		if e.String() != want {
			t.Errorf("%d: %q; want %q", int(e), e.String(), want)
		}
	}
}
