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
	"github.com/otd-project/otd/internal/enginetest"
)

// The test binary is also the fake engines (internal/fakeengine).
func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }

var tc = engine.TimeControl{Base: time.Minute, Increment: time.Second}

// firstLegal is a Player that plays the first legal move in square order, as
// the fake engines do: their games have passes.
type firstLegal struct{}

func (firstLegal) Name() string { return "first legal" }
func (firstLegal) Close() error { return nil }
func (firstLegal) Move(_ context.Context, g player.Game, _ player.Clock) (engine.Point, error) {
	return g.Position.Moves()[0], nil
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

// fakeConfig returns the Config of a fake NBoard engine in mode, striking at
// go n, with fakeengine's options (enginetest.Config).
func fakeConfig(mode string, n int, opts ...string) Config {
	return Config{Config: enginetest.Config("nboard", mode, n, opts...)}
}

func start(t *testing.T, cfg Config) *Engine { return enginetest.Start(t, cfg, Start) }

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
				if r.End != match.Normal || !r.Position.GameOver() {
					t.Fatalf("as %s: end %s: %v\n%s", ec, r.End, r.Err, e.Stderr())
				}
				t.Logf("as %s: %d moves, %s", ec, len(r.Moves), r.Score)
			}
			enginetest.CloseAndCheck(t, e)
		})
	}
}

// TestVersion1: an engine that speaks version 1 of the protocol only (as
// Edax does) plays whole games with each colour.
func TestVersion1(t *testing.T) {
	e := start(t, fakeConfig("good", 0, "version=1"))
	for _, ec := range []engine.Color{engine.Black, engine.White} {
		if r := play(t, e, ec, greedy(t)); r.End != match.Normal || !r.Position.GameOver() {
			t.Fatalf("as %s: end %s: %v\n%s", ec, r.End, r.Err, e.Stderr())
		}
	}
	enginetest.CloseAndCheck(t, e)
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
	enginetest.CloseAndCheck(t, e)
	if !strings.Contains(e.Stderr(), "[PA]") {
		t.Errorf("no pass sent\n%s", e.Stderr())
	}
}

// TestDepth: the depth is sent at the start; the clock goes in TI.
func TestDepth(t *testing.T) {
	cfg := fakeConfig("good", 0)
	cfg.Depth = 7
	e := start(t, cfg)
	if _, err := enginetest.FirstMove(e, time.Minute); err != nil {
		t.Fatal(err)
	}
	enginetest.CloseAndCheck(t, e)
	for _, want := range []string{"fake: got nboard 1\nfake: got set depth 7\nfake: got ping 1\n", "TI[05:00/00:02]"} {
		if !strings.Contains(e.Stderr(), want) {
			t.Errorf("no %q in\n%s", want, e.Stderr())
		}
	}
}

var clock = player.Clock{Remaining: 5 * time.Minute, Increment: 2 * time.Second}

// start8 returns the start of standard Othello.
func start8(t testing.TB) engine.Position {
	t.Helper()
	g, err := engine.NewPosition(engine.Othello())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestFakeLate: a reply after the deadline is ErrTimeout; the late answer
// comes before the next pong and is dropped, and the game goes on.
func TestFakeLate(t *testing.T) {
	e := start(t, fakeConfig("late", 1, "delay=300ms"))
	if _, err := enginetest.FirstMove(e, 100*time.Millisecond); !errors.Is(err, proc.ErrTimeout) {
		t.Fatalf("err = %v; want ErrTimeout", err)
	}
	// The late answer is d3 (black's first legal move), which white cannot
	// play: white is asked next, after black's d3.
	d3 := engine.Point{Col: 3, Row: 2}
	p, _ := start8(t).Play(d3)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang
	defer cancel()
	m, err := e.Move(ctx, player.Game{Moves: []engine.Point{d3}, Position: p}, clock)
	if err != nil {
		t.Fatalf("after a timeout: %v\n%s", err, e.Stderr())
	}
	if _, err := p.Play(m); err != nil {
		t.Errorf("after a timeout the engine plays %s: %v (the late answer?)", m, err)
	}
	if r := play(t, e, engine.White, greedy(t)); r.End != match.Normal {
		t.Errorf("then: end %s: %v", r.End, r.Err)
	}
	enginetest.CloseAndCheck(t, e)
}

// TestFakeCrash: an engine that dies at its fourth go loses by a crash.
func TestFakeCrash(t *testing.T) {
	e := start(t, fakeConfig("crash", 4))
	r := play(t, e, engine.Black, greedy(t))
	if r.End != match.Crash || r.Fault != engine.Black || !errors.Is(r.Err, proc.ErrCrashed) {
		t.Fatalf("end %s, fault %s: %v; want a crash of black", r.End, r.Fault, r.Err)
	}
	if black := (len(r.Moves) + 1) / 2; black != 3 {
		t.Errorf("crashed after %d moves of its own; want 3", black)
	}
	if s := r.Err.Error(); !strings.Contains(s, "crashing at move request 4") || !strings.Contains(s, "exit status 3") {
		t.Errorf("the error does not tell the exit status and stderr: %v", r.Err)
	}
	enginetest.StaysDead(t, e)
}

// TestFakeGarbage: a reply that is not a move is ErrProtocol and
// player.ErrBadMove, which engine/match scores as an illegal move.
func TestFakeGarbage(t *testing.T) {
	for _, mode := range []string{"garbage", "badsquare", "longline"} {
		t.Run(mode, func(t *testing.T) {
			e := start(t, fakeConfig(mode, 2))
			r := play(t, e, engine.White, greedy(t))
			if r.End != match.Illegal || r.Fault != engine.White || !errors.Is(r.Err, proc.ErrProtocol) || !errors.Is(r.Err, player.ErrBadMove) {
				t.Fatalf("end %s, fault %s: %v; want an illegal move of white", r.End, r.Fault, r.Err)
			}
			if len(r.Moves) != 3 || r.Bad != engine.PassPoint {
				t.Errorf("after %d moves, bad move %s; want 3, pass", len(r.Moves), r.Bad)
			}
			t.Log(r.Err)
			enginetest.CloseAndCheck(t, e)
		})
	}
}

// TestFakeIllegal: engine/match refuses an illegal move, which the client
// returns as it came (enginetest.Run's FakeIllegal).
func TestFakeIllegal(t *testing.T) {
	e := start(t, fakeConfig("illegal", 3))
	r := play(t, e, engine.Black, greedy(t))
	if r.End != match.Illegal || r.Fault != engine.Black || !errors.Is(r.Err, engine.ErrOccupied) {
		t.Errorf("end %s, fault %s, bad %s: %v; want an illegal move of black", r.End, r.Fault, r.Bad, r.Err)
	}
	enginetest.CloseAndCheck(t, e)
}

func TestFakeFlood(t *testing.T) {
	e := start(t, fakeConfig("flood", 0))
	if r := play(t, e, engine.Black, greedy(t)); r.End != match.Normal {
		t.Fatalf("end %s: %v", r.End, r.Err)
	}
	enginetest.CheckFlood(t, e, "\nflood flood flood\nfake: got quit\n")
}

// TestFakeStdoutFlood: an engine that writes status lines of 60 KiB to its
// output as fast as they are read plays a whole game.
func TestFakeStdoutFlood(t *testing.T) {
	e := start(t, fakeConfig("stdoutflood", 0))
	if r := play(t, e, engine.White, greedy(t)); r.End != match.Normal {
		t.Fatalf("end %s: %v", r.End, r.Err)
	}
	enginetest.CloseAndCheck(t, e)
}

// TestClient runs the tests every engine client passes alike: an engine
// that never answers, ignores quit, exits at once, or is closed during a
// move (enginetest.Run).
func TestClient(t *testing.T) {
	start := func(ctx context.Context, cfg proc.Config) (*Engine, error) { return Start(ctx, Config{Config: cfg}) }
	enginetest.Run(t, "nboard", start, func(e *Engine) *proc.Process { return e.proc.Process })
}

// TestFakeFork: a child the engine leaves running (and holding its pipes) is
// killed with the group (CloseAndCheck: the group is gone).
func TestFakeFork(t *testing.T) {
	e := start(t, fakeConfig("fork", 0))
	if r := play(t, e, engine.White, greedy(t)); r.End != match.Normal {
		t.Fatalf("end %s: %v", r.End, r.Err)
	}
	enginetest.CloseAndCheck(t, e)
	if !strings.Contains(e.Stderr(), "fake: child ") {
		t.Errorf("no child: %s", e.Stderr())
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
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang
		m, err := e.Move(ctx, g, clock)
		cancel()
		if !errors.Is(err, proc.ErrProtocol) || m != engine.PassPoint {
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
	if r.End != match.Crash || r.Fault != engine.Black || !errors.Is(r.Err, proc.ErrProtocol) || len(r.Moves) != 0 {
		t.Errorf("a 6x6 match: end %s, fault %s after %d moves: %v; want black's default at once", r.End, r.Fault, len(r.Moves), r.Err)
	}
	if m, err := enginetest.FirstMove(e, time.Minute); err != nil {
		t.Errorf("a standard game then: %s, %v", m, err)
	}
	enginetest.CloseAndCheck(t, e)
}

func TestParseMove(t *testing.T) {
	d3 := engine.Point{Col: 3, Row: 2}
	for s, want := range map[string]engine.Point{
		" d3": d3, "D3": d3, " D3/-1.00/0.5": d3, " d3 -1.00 0.0": d3,
		" PA": engine.PassPoint, "pa/0.00": engine.PassPoint, " pass": engine.PassPoint, " H8": {Col: 7, Row: 7},
	} {
		if m, err := parseMove(s); err != nil || m != want {
			t.Errorf("parseMove(%q) = %v, %v; want %v", s, m, err, want)
		}
	}
	for _, s := range []string{"", " ", " z9", " d9", " d", " d3e4", " resign", " thinking... d3"} {
		if _, err := parseMove(s); !errors.Is(err, proc.ErrProtocol) || !errors.Is(err, player.ErrBadMove) {
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
