package gtp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/enginetest"
	"github.com/otd-project/otd/internal/testenv"
)

// The test binary is also the fake engines (internal/fakeengine).
func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }

var clock = player.Clock{Remaining: 5 * time.Minute, Increment: 2 * time.Second}

// firstLegal is the in-test opponent: the first legal move in square order
// (engine.PassPoint when it must pass).
func firstLegal(g engine.Position) engine.Point { return g.Moves()[0] }

// newGame returns the start of a game under r.
func newGame(t testing.TB, r engine.Rules) engine.Position {
	t.Helper()
	g, err := engine.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playGame plays a whole game of standard Othello (playRules).
func playGame(t *testing.T, e *Engine, ec engine.Color) ([]engine.Point, engine.Position, int, error) {
	t.Helper()
	return playRules(t, e, engine.Othello(), ec)
}

// playRules plays a whole game under r, the engine with colour ec against
// firstLegal, each engine move within a minute (a guard against a hang: the
// engines answer at once, or as gtp-rhino does); every move the engine returns
// must be legal. It returns the moves and the final position, or the
// engine's first error with the number of the move it failed at (1-based).
func playRules(t *testing.T, e *Engine, r engine.Rules, ec engine.Color) ([]engine.Point, engine.Position, int, error) {
	t.Helper()
	p := newGame(t, r)
	var ms []engine.Point
	for !p.GameOver() {
		m := engine.PassPoint
		if p.ToMove() == ec {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			var err error
			m, err = e.Move(ctx, player.Game{Moves: ms, Position: p}, clock)
			cancel()
			if err != nil {
				return ms, p, len(ms) + 1, err
			}
		} else {
			m = firstLegal(p)
		}
		q, err := p.Play(m)
		if err != nil {
			t.Fatalf("move %d, %s plays %s: %v\n%s", len(ms)+1, p.ToMove(), m, err, diagram(p))
		}
		ms, p = append(ms, m), q
		if len(ms) > 2*r.Squares()+10 {
			t.Fatal("the game does not end")
		}
	}
	return ms, p, 0, nil
}

// diagram returns g's board as rows, with its legal moves.
func diagram(g engine.Position) string {
	s, n := g.String(), g.Rules().Size
	var b strings.Builder
	for i := 0; i+n <= len(s); i += n {
		b.WriteString(s[i:i+n] + "\n")
	}
	fmt.Fprintf(&b, "%s to move, legal %v\n", g.ToMove(), g.Moves())
	return b.String()
}

// fakeConfig returns the Config of a fake GTP engine in mode, striking at
// genmove n, with fakeengine's options (enginetest.Config).
func fakeConfig(mode string, n int, opts ...string) Config {
	return Config{Config: enginetest.Config("gtp", mode, n, opts...)}
}

func start(t *testing.T, cfg Config) *Engine { return enginetest.Start(t, cfg, Start) }

// TestGTPRhino plays whole games between gtp-rhino and firstLegal, gtp-rhino
// with each colour, on one engine process (the second game begins with
// clear_board). It fails under CI=true when gtp-rhino is missing.
func TestGTPRhino(t *testing.T) {
	path := testenv.GTPRhino(t)
	e := start(t, Config{Config: proc.Config{Argv: []string{path}}})
	if !strings.Contains(e.Name(), "GRhino") {
		t.Errorf("name %q; want GRhino's", e.Name())
	}
	for _, ec := range []engine.Color{engine.Black, engine.White, engine.Black} {
		ms, p, at, err := playGame(t, e, ec)
		if err != nil {
			t.Fatalf("gtp-rhino as %s, move %d: %v\nstderr: %s", ec, at, err, e.Stderr())
		}
		s := p.FinalScore()
		t.Logf("gtp-rhino as %s: %d moves, %s, %v", ec, len(ms), s, ms)
		if w, ok := s.Winner(); !ok || w != ec {
			t.Logf("gtp-rhino did not win as %s against the first legal move", ec)
		}
	}
	enginetest.CloseAndCheck(t, e)
}

// TestFakeGood plays games against a well-behaved fake in each reply style:
// "=7 f6" (GTP 2), "=F6" (no ids) and "= 7 f6" (Edax 4.6).
func TestFakeGood(t *testing.T) {
	for _, tc := range []struct{ mode, style string }{
		{"good", ""}, {"good", "tight"}, {"good", "edax"}, {"nopass", ""}, {"nopass", "tight"}, {"nopass", "edax"},
	} {
		t.Run(tc.mode+"/"+tc.style, func(t *testing.T) {
			e := start(t, fakeConfig(tc.mode, 0, "style="+tc.style))
			if pgid, err := syscall.Getpgid(e.Pid()); err != nil || pgid != e.Pid() || pgid == syscall.Getpgrp() {
				t.Errorf("the engine's process group is %d (%v); want its own, %d", pgid, err, e.Pid())
			}
			for _, ec := range []engine.Color{engine.White, engine.Black} {
				if _, _, at, err := playGame(t, e, ec); err != nil {
					t.Fatalf("as %s, move %d: %v\n%s", ec, at, err, e.Stderr())
				}
			}
			enginetest.CloseAndCheck(t, e)
		})
	}
}

// TestPasses: games with passes are sent with "play COLOUR pass", or
// without the passes to an engine that refuses them (as gtp-rhino does).
func TestPasses(t *testing.T) {
	for _, mode := range []string{"good", "nopass"} {
		e := start(t, fakeConfig(mode, 0))
		passes := 0
		for _, ec := range []engine.Color{engine.Black, engine.White} {
			ms, _, at, err := playGame(t, e, ec)
			if err != nil {
				t.Fatalf("%s as %s, move %d: %v", mode, ec, at, err)
			}
			for _, m := range ms {
				if m.IsPass() {
					passes++
				}
			}
		}
		if passes == 0 {
			t.Fatalf("%s: no pass in the games: the test tests nothing", mode)
		}
		stderrHas(e, "genmove white")
		stderrHas(e, " pass")
		if got := strings.Contains(e.Stderr(), " pass"); got != true {
			t.Errorf("%s: no pass sent", mode)
		}
		if e.noPass != (mode == "nopass") {
			t.Errorf("%s: the client sends passes: %v", mode, !e.noPass)
		}
		enginetest.CloseAndCheck(t, e)
	}
}

// TestReplay: after an error reply to play, the client sends clear_board and
// the whole game; a game that does not extend what was sent is replayed too.
func TestReplay(t *testing.T) {
	e := start(t, fakeConfig("refuse", 5))
	if _, _, at, err := playGame(t, e, engine.Black); err != nil {
		t.Fatalf("move %d: %v\n%s", at, err, e.Stderr())
	}
	stderrHas(e, "genmove black")
	log := e.Stderr()
	if n := strings.Count(log, "clear_board"); n != 2 { // the handshake's and the replay's
		t.Errorf("%d clear_board; want 2\n%s", n, log)
	}
	// A take-back: the game no longer extends what the engine has.
	p := newGame(t, engine.Othello())
	m := firstLegal(p)
	p2, _ := p.Play(m)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang
	defer cancel()
	got, err := e.Move(ctx, player.Game{Moves: []engine.Point{m}, Position: p2}, player.Clock{PerMove: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p2.Play(got); err != nil {
		t.Errorf("after the replay the engine plays %s: %v", got, err)
	}
	stderrHas(e, "time_settings 0 1 1")
	if n := strings.Count(e.Stderr(), "clear_board"); n != 3 {
		t.Errorf("%d clear_board; want 3", n)
	}
	if !strings.Contains(e.Stderr(), "time_settings 0 1 1") {
		t.Errorf("no time_settings for a fixed time per move\n%s", e.Stderr())
	}
	enginetest.CloseAndCheck(t, e)
}

// stderrHas waits for s in the engine's stderr, at most a minute (a guard
// against a hang): the log is read from a pipe of its own, so it may lag the
// replies.
func stderrHas(e *Engine, s string) {
	for end := time.Now().Add(time.Minute); time.Now().Before(end) && !strings.Contains(e.Stderr(), s); {
		time.Sleep(5 * time.Millisecond)
	}
}

// TestFakeLate: a reply after the deadline is ErrTimeout; the late reply is
// dropped and the next Move gets its own reply on a board replayed afresh.
func TestFakeLate(t *testing.T) {
	e := start(t, fakeConfig("late", 1, "delay=300ms"))
	if _, err := enginetest.FirstMove(e, 100*time.Millisecond); !errors.Is(err, proc.ErrTimeout) {
		t.Fatalf("err = %v; want ErrTimeout", err)
	}
	_, _, at, err := playGame(t, e, engine.Black)
	if err != nil {
		t.Fatalf("move %d after a timeout: %v\n%s", at, err, e.Stderr())
	}
	enginetest.CloseAndCheck(t, e)
}

func TestFakeCrash(t *testing.T) {
	e := start(t, fakeConfig("crash", 4))
	_, _, at, err := playGame(t, e, engine.White)
	if !errors.Is(err, proc.ErrCrashed) || at != 8 {
		t.Fatalf("move %d: err = %v; want ErrCrashed at move 8", at, err)
	}
	if !strings.Contains(err.Error(), "crashing at move request 4") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("the error does not tell the exit status and stderr: %v", err)
	}
	enginetest.StaysDead(t, e)
}

func TestFakeGarbage(t *testing.T) {
	for _, mode := range []string{"garbage", "badsquare", "longline"} {
		t.Run(mode, func(t *testing.T) {
			e := start(t, fakeConfig(mode, 2))
			_, _, at, err := playGame(t, e, engine.Black)
			if !errors.Is(err, proc.ErrProtocol) || !errors.Is(err, player.ErrBadMove) || at != 3 {
				t.Fatalf("move %d: err = %v; want ErrProtocol and player.ErrBadMove at move 3", at, err)
			}
			t.Log(err)
			enginetest.CloseAndCheck(t, e)
		})
	}
}

func TestFakeFlood(t *testing.T) {
	e := start(t, fakeConfig("flood", 0))
	if _, _, at, err := playGame(t, e, engine.Black); err != nil {
		t.Fatalf("move %d: %v", at, err)
	}
	enginetest.CheckFlood(t, e, "\nflood flood flood\n")
}

// TestClient runs the tests every engine client passes alike: an engine
// that never answers, ignores quit, exits at once, or is closed during a
// move (enginetest.Run).
func TestClient(t *testing.T) {
	start := func(ctx context.Context, cfg proc.Config) (*Engine, error) { return Start(ctx, Config{Config: cfg}) }
	enginetest.Run(t, "gtp", start, func(e *Engine) *proc.Process { return e.proc.Process })
}

// TestArgv: without a configured name the engine is named by its name and
// version replies. (It gets its arguments as they are, through no shell:
// enginetest.Run's Argv.)
func TestArgv(t *testing.T) {
	cfg := fakeConfig("good", 0)
	cfg.Name = ""
	e := start(t, cfg)
	if want := "fake 1.0"; e.Name() != want {
		t.Errorf("name %q; want %q", e.Name(), want)
	}
	enginetest.CloseAndCheck(t, e)
}

// TestFakeFork: a child the engine leaves running (and holding its pipes) is
// killed with the group (CloseAndCheck: the group is gone).
func TestFakeFork(t *testing.T) {
	e := start(t, fakeConfig("fork", 0))
	if _, _, at, err := playGame(t, e, engine.White); err != nil {
		t.Fatalf("move %d: %v", at, err)
	}
	stderrHas(e, "fake: child ")
	if !strings.Contains(e.Stderr(), "fake: child ") {
		t.Fatalf("no child: %s", e.Stderr())
	}
	enginetest.CloseAndCheck(t, e)
}

// TestParse: moves in any case and passes are read; anything else is
// ErrProtocol and player.ErrBadMove. Any square a1..p16 is read, whatever the
// board ("d9" was an error when moves were 8x8 Moves): a square off the board
// is the caller's business (engine/match refuses it with engine.ErrOffBoard).
func TestParse(t *testing.T) {
	pt := func(col, row int8) engine.Point { return engine.Point{Col: col, Row: row} }
	for s, want := range map[string]engine.Point{
		"d3": pt(3, 2), "D3": pt(3, 2), " h8 ": pt(7, 7), "pass": engine.PassPoint, "PASS": engine.PassPoint, "Pass": engine.PassPoint,
		"d9": pt(3, 8), "j10": pt(9, 9), "P16": pt(15, 15), "a1": pt(0, 0),
	} {
		if m, err := parseMove(s); err != nil || m != want {
			t.Errorf("parseMove(%q) = %v, %v; want %v", s, m, err, want)
		}
	}
	for _, s := range []string{"", "z9", "q1", "a17", "d", "d3 e4", "resign", "a0", "a01", "j"} {
		if _, err := parseMove(s); !errors.Is(err, proc.ErrProtocol) || !errors.Is(err, player.ErrBadMove) {
			t.Errorf("parseMove(%q): %v; want ErrProtocol and player.ErrBadMove", s, err)
		}
	}
}

// TestSplitID: the id of a reply is read right after '=' or '?' (GTP 2), or
// after a space when it is the id sent (Edax 4.6 writes printf("= %d ", id)
// then the text); any other text is the reply's.
func TestSplitID(t *testing.T) {
	for _, tc := range []struct {
		line string // after '=' or '?'
		want int    // the id sent; -1 none
		id   int
		text string
	}{
		{"7 f6", 7, 7, "f6"},                        // GTP 2
		{"7", 7, 7, ""},                             // GTP 2, an empty reply
		{" f6", 7, -1, "f6"},                        // no id
		{"", 7, -1, ""},                             // no id, an empty reply
		{" 7 f6", 7, 7, "f6"},                       // Edax
		{" 7 ", 7, 7, ""},                           // Edax, an empty reply
		{" 7\tf6", 7, 7, "f6"},                      // a tab
		{" 6 f6", 7, -1, "6 f6"},                    // not the id sent: text
		{" 1 wrong color", 12, -1, "1 wrong color"}, // Edax's refusal "? 1 wrong color" to any id
		{" 70 f6", 7, -1, "70 f6"},
		{" 07 f6", 7, -1, "07 f6"},
		{" 7f6", 7, -1, "7f6"},
		{"8 f6", 7, 8, "f6"},      // GTP 2, another id: batch refuses it
		{" 7 f6", -1, -1, "7 f6"}, // nothing sent
		{" Edax 4.6", 2, -1, "Edax 4.6"},
	} {
		id, text, err := splitID(tc.line, tc.want)
		if err != nil || id != tc.id || text != tc.text {
			t.Errorf("splitID(%q, %d) = %d, %q, %v; want %d, %q", tc.line, tc.want, id, text, err, tc.id, tc.text)
		}
	}
}

// TestBoardSize: Config.Size is sent as boardsize at the handshake (8 when it
// is 0); the engine plays a whole game on that board, and a game of another
// size is refused with ErrProtocol. An engine that refuses the size is
// refused at Start with ErrRefused.
func TestBoardSize(t *testing.T) {
	e := start(t, fakeConfig("good", 0))
	stderrHas(e, "clear_board")
	if log := e.Stderr(); !regexp.MustCompile(`(?m)^fake: got (\d+ )?boardsize 8$`).MatchString(log) {
		t.Errorf("Size 0: no boardsize 8 sent\n%s", log)
	}
	enginetest.CloseAndCheck(t, e)

	cfg := fakeConfig("good", 0, "sizes=6,8")
	cfg.Size = 6
	e = start(t, cfg)
	six := engine.Rules{Size: 6}
	for _, ec := range []engine.Color{engine.Black, engine.White} {
		ms, p, at, err := playRules(t, e, six, ec)
		if err != nil {
			t.Fatalf("6x6 as %s, move %d: %v\n%s", ec, at, err, e.Stderr())
		}
		if s := p.Score(); s.Black+s.White+p.Empties() != 36 {
			t.Errorf("6x6 as %s ends at %s with %d empties", ec, s, p.Empties())
		}
		t.Logf("6x6 as %s: %d moves, %s, %v", ec, len(ms), p.FinalScore(), ms)
	}
	// A game of another size: refused before anything is sent.
	g, _ := player.NewGame(engine.Othello())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang
	defer cancel()
	if _, err := e.Move(ctx, g, clock); !errors.Is(err, proc.ErrProtocol) {
		t.Errorf("an 8x8 game to a 6x6 engine: %v; want ErrProtocol", err)
	}
	stderrHas(e, "genmove white")
	if log := e.Stderr(); !regexp.MustCompile(`(?m)^fake: got (\d+ )?boardsize 6$`).MatchString(log) || strings.Contains(log, "boardsize 8") {
		t.Errorf("Size 6: boardsize 6 (and no other) not sent\n%s", log)
	}
	// The engine still plays its own size.
	if _, _, at, err := playRules(t, e, six, engine.Black); err != nil {
		t.Errorf("6x6 after the refusal, move %d: %v", at, err)
	}
	enginetest.CloseAndCheck(t, e)

	cfg = fakeConfig("good", 0) // the fake accepts boardsize 8 alone
	cfg.Size = 10
	sctx, scancel := context.WithTimeout(context.Background(), time.Minute)
	defer scancel()
	if e, err := Start(sctx, cfg); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "boardsize 10") {
		if err == nil {
			e.Close()
		}
		t.Errorf("Size 10 to an engine of 8x8 only: %v; want ErrRefused for boardsize 10", err)
	}
}

// BenchmarkMove is the time the harness adds to a move: an engine that
// answers at once (the fake plays its first legal move), played against
// firstLegal under a clock, so that each Move sends play, time_left and
// genmove. Per op: one Move.
func BenchmarkMove(b *testing.B) {
	cfg := fakeConfig("good", 0, "quiet")
	e, err := Start(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	p, ms := newGame(b, engine.Othello()), []engine.Point(nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p.GameOver() {
			p, ms = newGame(b, engine.Othello()), ms[:0]
		}
		m, err := e.Move(ctx, player.Game{Moves: ms, Position: p}, clock)
		if err != nil {
			b.Fatal(err)
		}
		p, _ = p.Play(m)
		ms = append(ms, m)
		if !p.GameOver() {
			m = firstLegal(p)
			p, _ = p.Play(m)
			ms = append(ms, m)
		}
	}
}
