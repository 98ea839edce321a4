package nboard

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/fakeengine"
)

// The test binary is also the fake engines (internal/fakeengine).
func TestMain(m *testing.M) {
	if code, ok := fakeengine.Main(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

var tc = match.TimeControl{Base: time.Minute, Increment: time.Second}

// fakeConfig returns the Config of a fake NBoard engine in mode, striking at
// go n, with fakeengine's options.
func fakeConfig(mode string, n int, opts ...string) Config {
	return Config{Argv: fakeengine.Argv("nboard", mode, n, opts...), Name: "fake " + mode, Grace: 150 * time.Millisecond}
}

func start(t *testing.T, cfg Config) *Engine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e, err := Start(ctx, cfg)
	if err != nil {
		t.Fatalf("start %v: %v", cfg.Argv, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// closeAndCheck closes e and checks that no process of its group is left.
func closeAndCheck(t *testing.T, e *Engine) time.Duration {
	t.Helper()
	t0 := time.Now()
	if err := e.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	took := time.Since(t0)
	if err := proc.Gone(e.Pid(), 10*time.Second); err != nil {
		t.Error(err)
	}
	return took
}

// firstLegal is a Player that plays the first legal move in square order, as
// the fake engines do: their games have passes.
type firstLegal struct{}

func (firstLegal) Name() string { return "first legal" }
func (firstLegal) Close() error { return nil }
func (firstLegal) Move(_ context.Context, g player.Game, _ player.Clock) (engine.Point, error) {
	return g.Board.Moves()[0], nil
}

// play plays a game of e, with colour ec, against opp under tc.
func play(t *testing.T, e *Engine, ec engine.Color, opp player.Player) match.Result {
	t.Helper()
	black, white := player.Player(e), opp
	if ec == engine.White {
		black, white = opp, e
	}
	r, err := match.Play(context.Background(), engine.Othello(), black, white, tc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func greedy(t *testing.T) player.Player {
	t.Helper()
	p, err := player.New("greedy")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFakeGood plays whole games against the built-in greedy player, the
// engine with each colour on one process, in both reply styles; the fake
// checks every game it is sent.
func TestFakeGood(t *testing.T) {
	for _, style := range []string{"", "tight"} {
		t.Run("style="+style, func(t *testing.T) {
			cfg := fakeConfig("good", 0, "style="+style)
			cfg.Name = ""
			e := start(t, cfg)
			if want := map[string]string{"": "fake", "tight": cfg.Argv[0]}[style]; e.Name() != want {
				t.Errorf("name %q; want %q", e.Name(), want)
			}
			if pgid, err := syscall.Getpgid(e.Pid()); err != nil || pgid != e.Pid() || pgid == syscall.Getpgrp() {
				t.Errorf("the engine's process group is %d (%v); want its own, %d", pgid, err, e.Pid())
			}
			for _, ec := range []engine.Color{engine.Black, engine.White} {
				r := play(t, e, ec, greedy(t))
				if r.End != match.Normal || !r.Board.GameOver() {
					t.Fatalf("as %s: end %s: %v\n%s", ec, r.End, r.Err, e.Stderr())
				}
				t.Logf("as %s: %d moves, %s", ec, len(r.Moves), r.Score)
			}
			closeAndCheck(t, e)
		})
	}
}

// TestVersion1: an engine that speaks version 1 of the protocol only (as
// Edax does) plays whole games with each colour.
func TestVersion1(t *testing.T) {
	e := start(t, fakeConfig("good", 0, "version=1"))
	for _, ec := range []engine.Color{engine.Black, engine.White} {
		if r := play(t, e, ec, greedy(t)); r.End != match.Normal || !r.Board.GameOver() {
			t.Fatalf("as %s: end %s: %v\n%s", ec, r.End, r.Err, e.Stderr())
		}
	}
	closeAndCheck(t, e)
}

// TestPasses: a game with passes reaches the engine with PA in its record.
func TestPasses(t *testing.T) {
	e := start(t, fakeConfig("good", 0))
	r := play(t, e, engine.Black, firstLegal{})
	if r.End != match.Normal {
		t.Fatalf("end %s: %v\n%s", r.End, r.Err, e.Stderr())
	}
	passes := 0
	for _, m := range r.Moves {
		if m.IsPass() {
			passes++
		}
	}
	if passes == 0 {
		t.Fatal("no pass in the game: the test tests nothing")
	}
	closeAndCheck(t, e)
	if !strings.Contains(e.Stderr(), "[PA]") {
		t.Errorf("no pass sent\n%s", e.Stderr())
	}
}

// TestDepth: the depth is sent at the start; the clock goes in TI.
func TestDepth(t *testing.T) {
	cfg := fakeConfig("good", 0)
	cfg.Depth = 7
	e := start(t, cfg)
	if _, err := firstMove(e, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	closeAndCheck(t, e)
	for _, want := range []string{"fake: got nboard 1\nfake: got set depth 7\nfake: got ping 1\n", "TI[05:00/00:02]"} {
		if !strings.Contains(e.Stderr(), want) {
			t.Errorf("no %q in\n%s", want, e.Stderr())
		}
	}
}

var clock = player.Clock{Remaining: 5 * time.Minute, Increment: 2 * time.Second}

// start8 returns the start of standard Othello.
func start8(t testing.TB) engine.Game {
	t.Helper()
	g, err := engine.NewGame(engine.Othello())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func firstMove(e *Engine, d time.Duration) (engine.Point, error) {
	g, err := player.NewGame(engine.Othello())
	if err != nil {
		return engine.PassPoint, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return e.Move(ctx, g, clock)
}

func TestFakeSilent(t *testing.T) {
	e := start(t, fakeConfig("silent", 1))
	t0 := time.Now()
	_, err := firstMove(e, 200*time.Millisecond)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v; want ErrTimeout", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("the timeout took %v", d)
	}
	closeAndCheck(t, e)
}

// TestFakeLate: a reply after the deadline is ErrTimeout; the late answer
// comes before the next pong and is dropped, and the game goes on.
func TestFakeLate(t *testing.T) {
	e := start(t, fakeConfig("late", 1, "delay=300ms"))
	if _, err := firstMove(e, 100*time.Millisecond); !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v; want ErrTimeout", err)
	}
	// The late answer is d3 (black's first legal move), which white cannot
	// play: white is asked next, after black's d3.
	d3 := engine.Point{Col: 3, Row: 2}
	p, _ := start8(t).Play(d3)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	m, err := e.Move(ctx, player.Game{Moves: []engine.Point{d3}, Board: p}, clock)
	if err != nil {
		t.Fatalf("after a timeout: %v\n%s", err, e.Stderr())
	}
	if _, err := p.Play(m); err != nil {
		t.Errorf("after a timeout the engine plays %s: %v (the late answer?)", m, err)
	}
	if r := play(t, e, engine.White, greedy(t)); r.End != match.Normal {
		t.Errorf("then: end %s: %v", r.End, r.Err)
	}
	closeAndCheck(t, e)
}

// TestFakeCrash: an engine that dies at its fourth go loses by a crash.
func TestFakeCrash(t *testing.T) {
	e := start(t, fakeConfig("crash", 4))
	r := play(t, e, engine.Black, greedy(t))
	if r.End != match.Crash || r.Fault != engine.Black || !errors.Is(r.Err, ErrCrashed) {
		t.Fatalf("end %s, fault %s: %v; want a crash of black", r.End, r.Fault, r.Err)
	}
	if black := (len(r.Moves) + 1) / 2; black != 3 {
		t.Errorf("crashed after %d moves of its own; want 3", black)
	}
	if s := r.Err.Error(); !strings.Contains(s, "crashing at move request 4") || !strings.Contains(s, "exit status 3") {
		t.Errorf("the error does not tell the exit status and stderr: %v", r.Err)
	}
	if _, err := firstMove(e, time.Second); !errors.Is(err, ErrCrashed) {
		t.Errorf("then: %v; want ErrCrashed", err)
	}
	closeAndCheck(t, e)
	if _, err := firstMove(e, time.Second); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v; want ErrClosed", err)
	}
}

// TestFakeGarbage: a reply that is not a move is ErrProtocol and
// player.ErrBadMove, which engine/match scores as an illegal move.
func TestFakeGarbage(t *testing.T) {
	for _, mode := range []string{"garbage", "badsquare", "longline"} {
		t.Run(mode, func(t *testing.T) {
			e := start(t, fakeConfig(mode, 2))
			r := play(t, e, engine.White, greedy(t))
			if r.End != match.Illegal || r.Fault != engine.White || !errors.Is(r.Err, ErrProtocol) || !errors.Is(r.Err, player.ErrBadMove) {
				t.Fatalf("end %s, fault %s: %v; want an illegal move of white", r.End, r.Fault, r.Err)
			}
			if len(r.Moves) != 3 || r.Bad != engine.PassPoint {
				t.Errorf("after %d moves, bad move %s; want 3, pass", len(r.Moves), r.Bad)
			}
			t.Log(r.Err)
			closeAndCheck(t, e)
		})
	}
}

// TestFakeIllegal: the client returns an illegal move as it came; engine/match
// refuses it.
func TestFakeIllegal(t *testing.T) {
	e := start(t, fakeConfig("illegal", 1))
	m, err := firstMove(e, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := start8(t).Play(m); !errors.Is(err, engine.ErrOccupied) {
		t.Errorf("move %s: %v; want an occupied square", m, err)
	}
	closeAndCheck(t, e)
	e = start(t, fakeConfig("illegal", 3))
	r := play(t, e, engine.Black, greedy(t))
	if r.End != match.Illegal || r.Fault != engine.Black || !errors.Is(r.Err, engine.ErrOccupied) {
		t.Errorf("end %s, fault %s, bad %s: %v; want an illegal move of black", r.End, r.Fault, r.Bad, r.Err)
	}
	closeAndCheck(t, e)
}

func TestFakeFlood(t *testing.T) {
	e := start(t, fakeConfig("flood", 0))
	if r := play(t, e, engine.Black, greedy(t)); r.End != match.Normal {
		t.Fatalf("end %s: %v", r.End, r.Err)
	}
	closeAndCheck(t, e) // Close waits for the end of stderr
	log := e.Stderr()
	if len(log) != DefaultStderrLimit {
		t.Errorf("stderr log of %d bytes; want the last %d", len(log), DefaultStderrLimit)
	}
	if !strings.HasSuffix(log, "\nflood flood flood\nfake: got quit\n") {
		t.Errorf("the log does not end with the last output: %q", log[max(0, len(log)-100):])
	}
}

// TestFakeStdoutFlood: an engine that writes status lines of 60 KiB to its
// output as fast as they are read plays a whole game.
func TestFakeStdoutFlood(t *testing.T) {
	e := start(t, fakeConfig("stdoutflood", 0))
	if r := play(t, e, engine.White, greedy(t)); r.End != match.Normal {
		t.Fatalf("end %s: %v", r.End, r.Err)
	}
	closeAndCheck(t, e)
}

// TestFakeIgnoresQuit: an engine that ignores quit and SIGINT is killed.
func TestFakeIgnoresQuit(t *testing.T) {
	e := start(t, fakeConfig("ignorequit", 0))
	if _, err := firstMove(e, 500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	took := closeAndCheck(t, e)
	if took < 2*e.cfg.Grace || took > 3*time.Second {
		t.Errorf("Close took %v; want two graces (%v) and the kill", took, e.cfg.Grace)
	}
	if err := e.proc.ExitErr(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("exit %v; want killed", err)
	}
}

// TestArgv: the engine gets its arguments as they are, through no shell, and
// names itself.
func TestArgv(t *testing.T) {
	cfg := fakeConfig("good", 0, "a b", "$(echo hi)", "*", ";|&")
	cfg.Name = ""
	e := start(t, cfg)
	if want := "fake[a b|$(echo hi)|*|;|&]"; e.Name() != want {
		t.Errorf("name %q; want %q", e.Name(), want)
	}
	closeAndCheck(t, e)
}

func TestFakeExitAtStart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := Start(ctx, fakeConfig("exitstart", 0))
	if !errors.Is(err, ErrCrashed) || !strings.Contains(err.Error(), "cannot open the opening book") {
		t.Fatalf("err = %v; want ErrCrashed with the engine's message", err)
	}
	if _, err := Start(ctx, Config{Argv: []string{"/nonexistent/engine"}}); err == nil {
		t.Error("a missing program started")
	}
}

// TestFakeFork: a child the engine leaves running (and holding its pipes) is
// killed with the group.
func TestFakeFork(t *testing.T) {
	e := start(t, fakeConfig("fork", 0))
	if r := play(t, e, engine.White, greedy(t)); r.End != match.Normal {
		t.Fatalf("end %s: %v", r.End, r.Err)
	}
	if took := closeAndCheck(t, e); took > 3*time.Second {
		t.Errorf("Close took %v", took)
	}
	if !strings.Contains(e.Stderr(), "fake: child ") {
		t.Errorf("no child: %s", e.Stderr())
	}
}

// TestCloseDuringMove: Close from another goroutine ends a Move that waits.
func TestCloseDuringMove(t *testing.T) {
	e := start(t, fakeConfig("silent", 1))
	errc := make(chan error, 1)
	go func() {
		_, err := firstMove(e, 10*time.Second)
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	closeAndCheck(t, e)
	select {
	case err := <-errc:
		if !errors.Is(err, ErrCrashed) && !errors.Is(err, ErrClosed) {
			t.Errorf("err = %v; want ErrCrashed or ErrClosed", err)
		}
	case <-time.After(2 * time.Second):
		t.Error("Move still waits after Close")
	}
}

// TestNonStandard: NBoard plays standard 8x8 Othello only: a game under
// other rules (another size, Anti-Othello) is refused with ErrProtocol
// before anything is sent, and the engine goes on with standard games.
func TestNonStandard(t *testing.T) {
	e := start(t, fakeConfig("good", 0))
	anti, err := engine.ParseRules("anti")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []engine.Rules{{Size: 6}, {Size: 10}, anti} {
		g, err := player.NewGame(r)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		m, err := e.Move(ctx, g, clock)
		cancel()
		if !errors.Is(err, ErrProtocol) || m != engine.PassPoint {
			t.Errorf("a game of %s: %s, %v; want ErrProtocol", r, m, err)
		}
	}
	if strings.Contains(e.Stderr(), "set game") {
		t.Errorf("a game was sent\n%s", e.Stderr())
	}
	// In a match, the refusal is the engine's default.
	six := engine.Rules{Size: 6}
	r, err := match.Play(context.Background(), six, e, greedy(t), tc)
	if err != nil {
		t.Fatal(err)
	}
	if r.End != match.Crash || r.Fault != engine.Black || !errors.Is(r.Err, ErrProtocol) || len(r.Moves) != 0 {
		t.Errorf("a 6x6 match: end %s, fault %s after %d moves: %v; want black's default at once", r.End, r.Fault, len(r.Moves), r.Err)
	}
	if m, err := firstMove(e, 2*time.Second); err != nil {
		t.Errorf("a standard game then: %s, %v", m, err)
	}
	closeAndCheck(t, e)
}

func TestParseMove(t *testing.T) {
	d3 := engine.MoveAt(engine.SquareAt(3, 2))
	for s, want := range map[string]engine.Move{
		" d3": d3, "D3": d3, " D3/-1.00/0.5": d3, " d3 -1.00 0.0": d3,
		" PA": engine.Pass, "pa/0.00": engine.Pass, " pass": engine.Pass, " H8": 63,
	} {
		if m, err := parseMove(s); err != nil || m != want {
			t.Errorf("parseMove(%q) = %v, %v; want %v", s, m, err, want)
		}
	}
	for _, s := range []string{"", " ", " z9", " d9", " d", " d3e4", " resign", " thinking... d3"} {
		if _, err := parseMove(s); !errors.Is(err, ErrProtocol) || !errors.Is(err, player.ErrBadMove) {
			t.Errorf("parseMove(%q): %v; want ErrProtocol and player.ErrBadMove", s, err)
		}
	}
}

func TestGGF(t *testing.T) {
	const head, bo = "(;GM[Othello]PC[otd]PB[?]PW[?]RE[?]", "TY[8]BO[8 ---------------------------O*------*O--------------------------- *]"
	f5, d6 := engine.Point{Col: 5, Row: 4}, engine.Point{Col: 3, Row: 5}
	for _, tc := range []struct {
		moves []engine.Point
		clock player.Clock
		want  string
	}{
		{nil, player.Clock{}, head + bo + ";)"},
		{[]engine.Point{f5, d6}, player.Clock{Remaining: 90*time.Second + 999*time.Millisecond}, head + "TI[01:30]" + bo + "B[F5]W[D6];)"},
		{[]engine.Point{f5}, player.Clock{Remaining: time.Hour, Increment: 2 * time.Second}, head + "TI[60:00/00:02]" + bo + "B[F5];)"},
		{nil, player.Clock{PerMove: 10 * time.Millisecond}, head + "TI[00:01]" + bo + ";)"},
	} {
		if got, err := ggf(tc.moves, tc.clock); err != nil || got != tc.want {
			t.Errorf("ggf(%v, %+v) =\n%s, %v; want\n%s", tc.moves, tc.clock, got, err, tc.want)
		}
	}
	if _, err := ggf([]engine.Point{f5, f5}, player.Clock{}); !errors.Is(err, engine.ErrOccupied) {
		t.Errorf("an illegal game: %v", err)
	}
}
