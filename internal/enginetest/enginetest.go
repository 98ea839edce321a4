// Package enginetest holds the tests every engine client (engine/gtp,
// engine/nboard) passes alike against the fake engines of
// internal/fakeengine, whatever its protocol: what proc.Client and the
// engine's process do for both. Run runs them; the helpers serve the
// clients' own tests.
package enginetest

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/fakeengine"
)

// Client is an engine client: a player.Player and its process.
type Client interface {
	player.Player
	Pid() int
	Stderr() string
}

// Main runs a client's tests, m, and returns their exit status, or the fake
// engine's when the test binary was started as one (fakeengine.Main):
//
//	func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }
func Main(m *testing.M) int {
	if code, ok := fakeengine.Main(); ok {
		return code
	}
	return m.Run()
}

// grace is the Config.Grace of a fake engine.
const grace = 150 * time.Millisecond

// Config returns the config of a fake engine of protocol proto ("gtp",
// "nboard") in mode, striking at move request n, with fakeengine's options:
// named "fake MODE", with a grace of 150 ms.
func Config(proto, mode string, n int, opts ...string) proc.Config {
	return proc.Config{Argv: fakeengine.Argv(proto, mode, n, opts...), Name: "fake " + mode, Grace: grace}
}

// Start starts a client by start from cfg (within hang, a guard against a
// hang), and closes it when the test ends.
func Start[C any, E Client](t testing.TB, cfg C, start func(context.Context, C) (E, error)) E {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	e, err := start(ctx, cfg)
	if err != nil {
		t.Fatalf("start %+v: %v", cfg, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// hang bounds Close in CloseAndCheck, and the waits of the tests for a
// state: longer than all the waits of Stop (its graces, and at most 10 s for
// each of three states that SIGKILL brings), it catches a Close that never
// returns, not a slow machine.
const hang = time.Minute

// CloseAndCheck closes e and checks that it returns (within hang) and that
// no process of its group is left (proc.Gone). It returns how long Close
// took.
func CloseAndCheck(t testing.TB, e Client) time.Duration {
	t.Helper()
	t0 := time.Now()
	errc := make(chan error, 1)
	go func() { errc <- e.Close() }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("close: %v", err)
		}
	case <-time.After(hang):
		t.Fatalf("Close did not return within %v", hang)
	}
	took := time.Since(t0)
	if err := proc.Gone(e.Pid(), 10*time.Second); err != nil {
		t.Error(err)
	}
	return took
}

// FirstMove asks e for the first move of a game of standard Othello, with 5
// minutes left and an increment of 2 s, within d.
func FirstMove(e player.Player, d time.Duration) (engine.Point, error) {
	g, err := player.NewGame(engine.Othello())
	if err != nil {
		return engine.PassPoint, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return e.Move(ctx, g, player.Clock{Remaining: 5 * time.Minute, Increment: 2 * time.Second})
}

// CheckFlood closes e, an engine that flooded its stderr, and checks that
// the log kept is the last proc.DefaultStderrLimit bytes, ending with end.
func CheckFlood(t testing.TB, e Client, end string) {
	t.Helper()
	CloseAndCheck(t, e) // Close waits for the end of stderr
	log := e.Stderr()
	if len(log) != proc.DefaultStderrLimit {
		t.Errorf("stderr log of %d bytes; want the last %d", len(log), proc.DefaultStderrLimit)
	}
	if !strings.HasSuffix(log, end) {
		t.Errorf("the log does not end with the last output: %q", log[max(0, len(log)-100):])
	}
}

// StaysDead checks that e, whose engine crashed, answers ErrCrashed, and
// ErrClosed once closed.
func StaysDead(t testing.TB, e Client) {
	t.Helper()
	if _, err := FirstMove(e, hang); !errors.Is(err, proc.ErrCrashed) {
		t.Errorf("then: %v; want ErrCrashed", err)
	}
	CloseAndCheck(t, e)
	if _, err := FirstMove(e, hang); !errors.Is(err, proc.ErrClosed) {
		t.Errorf("after Close: %v; want ErrClosed", err)
	}
}

// Run runs the tests of the clients of protocol proto that start starts
// from a fake engine's config (Config); process returns a client's process.
func Run[E Client](t *testing.T, proto string, start func(context.Context, proc.Config) (E, error), process func(E) *proc.Process) {
	fake := func(t *testing.T, mode string, n int, opts ...string) E {
		return Start(t, Config(proto, mode, n, opts...), start)
	}

	// An engine that never answers: ErrTimeout, because ctx is done (how
	// soon after is the machine's business, not the test's).
	t.Run("FakeSilent", func(t *testing.T) {
		e := fake(t, "silent", 1)
		_, err := FirstMove(e, 200*time.Millisecond)
		if !errors.Is(err, proc.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v; want ErrTimeout", err)
		}
		CloseAndCheck(t, e)
	})

	// An engine that ignores quit and SIGINT is killed.
	t.Run("FakeIgnoresQuit", func(t *testing.T) {
		e := fake(t, "ignorequit", 0)
		if _, err := FirstMove(e, hang); err != nil {
			t.Fatal(err)
		}
		// Quit and SIGINT were each given a grace (how long the kill then
		// takes is the machine's business).
		if took := CloseAndCheck(t, e); took < 2*grace {
			t.Errorf("Close took %v; want at least two graces (%v)", took, grace)
		}
		if err := process(e).ExitErr(); err == nil || !strings.Contains(err.Error(), "killed") {
			t.Errorf("exit %v; want killed", err)
		}
	})

	// The engine gets its arguments as they are, through no shell: the fake
	// names itself by them (and the client names it so without a name of
	// its own; GTP adds the version).
	t.Run("Argv", func(t *testing.T) {
		cfg := Config(proto, "good", 0, "a b", "$(echo hi)", "*", ";|&")
		cfg.Name = ""
		e := Start(t, cfg, start)
		if want := "fake[a b|$(echo hi)|*|;|&]"; !strings.HasPrefix(e.Name(), want) {
			t.Errorf("name %q; want %q", e.Name(), want)
		}
		CloseAndCheck(t, e)
	})

	// An engine that exits at once is ErrCrashed with its last words (on
	// Linux they are always there: its stderr ends with its box, which ends
	// with it); a missing program does not start.
	t.Run("FakeExitAtStart", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("elsewhere the last words are waited for a grace only")
		}
		ctx, cancel := context.WithTimeout(context.Background(), hang) // the engine exits by itself
		defer cancel()
		_, err := start(ctx, Config(proto, "exitstart", 0))
		if !errors.Is(err, proc.ErrCrashed) || !strings.Contains(err.Error(), "cannot open the opening book") {
			t.Fatalf("err = %v; want ErrCrashed with the engine's message", err)
		}
		if e, err := start(ctx, proc.Config{Argv: []string{"/nonexistent/engine"}}); err == nil {
			e.Close()
			t.Error("a missing program started")
		}
	})

	// The client returns an illegal move as it came; legality is the
	// caller's business.
	t.Run("FakeIllegal", func(t *testing.T) {
		e := fake(t, "illegal", 1)
		m, err := FirstMove(e, hang)
		if err != nil {
			t.Fatal(err)
		}
		g, err := engine.NewPosition(engine.Othello())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(m); !errors.Is(err, engine.ErrOccupied) {
			t.Errorf("move %s: %v; want an occupied square", m, err)
		}
		CloseAndCheck(t, e)
	})

	// Close from another goroutine ends a Move that waits: once the engine
	// has the move request (its log says so), Move waits for the reply, and
	// Close ends it with ErrCrashed.
	t.Run("CloseDuringMove", func(t *testing.T) {
		e := fake(t, "silent", 1)
		errc := make(chan error, 1)
		go func() {
			_, err := FirstMove(e, hang)
			errc <- err
		}()
		asked := map[string]string{"gtp": "genmove ", "nboard": "fake: got go\n"}[proto]
		for end := time.Now().Add(hang); !strings.Contains(e.Stderr(), asked); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("no %q in the engine's log after %v:\n%s", asked, hang, e.Stderr())
			}
		}
		CloseAndCheck(t, e)
		select {
		case err := <-errc:
			if !errors.Is(err, proc.ErrCrashed) {
				t.Errorf("err = %v; want ErrCrashed", err)
			}
		case <-time.After(hang):
			t.Errorf("Move still waits %v after Close", hang)
		}
	})
}
