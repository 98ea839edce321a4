package match_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/gtp"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/testenv"
)

// instant answers every request at once with its first legal move (the
// lowest square): a player that takes no time, to measure the harness.
type instant struct{}

func (instant) Name() string { return "instant" }
func (instant) Close() error { return nil }
func (instant) Move(_ context.Context, g player.Game, _ player.Clock) (engine.Point, error) {
	ms := g.Position.Moves() // in square order; [PassPoint] for a forced pass
	if len(ms) == 0 {
		return engine.PassPoint, nil
	}
	return ms[0], nil
}

// timed measures the time spent inside its player's Move.
type timed struct {
	player.Player
	mu    sync.Mutex
	in    time.Duration
	moves int
}

func (t *timed) Move(ctx context.Context, g player.Game, c player.Clock) (engine.Point, error) {
	start := time.Now()
	m, err := t.Player.Move(ctx, g, c)
	d := time.Since(start)
	t.mu.Lock()
	t.in += d
	t.moves++
	t.mu.Unlock()
	return m, err
}

// instantEngineEnv makes the test binary, run with
// -test.run=^TestInstantGTPEngine$, the instant GTP engine of
// BenchmarkHarness.
const instantEngineEnv = "OTD_MATCH_INSTANT_GTP"

// instantArgv is the argv of the instant GTP engine: this test binary again.
func instantArgv(tb testing.TB) []string {
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	return []string{exe, "-test.run=^TestInstantGTPEngine$"}
}

// serveInstantGTP is a GTP engine that answers every genmove at once with
// its first legal move: the subprocess of BenchmarkHarness/gtp-instant.
func serveInstantGTP() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	rules := engine.Othello()
	pos, _ := engine.NewPosition(rules)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		id := ""
		if f[0][0] >= '0' && f[0][0] <= '9' {
			id, f = f[0], f[1:]
		}
		if len(f) == 0 {
			continue
		}
		ok, text := true, ""
		switch f[0] {
		case "name":
			text = "instant"
		case "version":
			text = "1"
		case "protocol_version":
			text = "2"
		case "clear_board":
			pos, _ = engine.NewPosition(rules)
		case "boardsize":
			r := engine.Othello()
			if len(f) == 2 {
				r.Size, _ = strconv.Atoi(f[1])
			}
			next, err := engine.NewPosition(r)
			if err != nil {
				ok, text = false, "unacceptable size"
				break
			}
			rules, pos = r, next
		case "komi", "time_settings", "time_left", "quit":
		case "play":
			if len(f) != 3 {
				ok, text = false, "syntax error"
				break
			}
			m := engine.PassPoint
			if !strings.EqualFold(f[2], "pass") {
				var err error
				if m, err = engine.ParsePoint(f[2]); err != nil {
					ok, text = false, "bad move"
					break
				}
			}
			next, err := pos.Play(m)
			if err != nil {
				ok, text = false, "illegal move"
				break
			}
			pos = next
		case "genmove":
			m, _ := instant{}.Move(context.Background(), player.Game{Position: pos}, player.Clock{})
			pos, _ = pos.Play(m)
			text = m.String()
		default:
			ok, text = false, "unknown command"
		}
		mark := "="
		if !ok {
			mark = "?"
		}
		fmt.Fprintf(out, "%s%s %s\n\n", mark, id, text)
		out.Flush()
		if f[0] == "quit" {
			os.Exit(0)
		}
	}
	os.Exit(0)
}

// TestInstantGTPEngine is, with OTD_MATCH_INSTANT_GTP=1 in its environment,
// the instant GTP engine of BenchmarkHarness (it never returns). Otherwise it
// checks that engine: a game against the greedy player, both colours, ends
// normally.
func TestInstantGTPEngine(t *testing.T) {
	if os.Getenv(instantEngineEnv) == "1" {
		serveInstantGTP()
	}
	// A guard against a hang, not a bound on the machine's speed.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, ec := range []engine.Color{engine.Black, engine.White} {
		t.Run("instant-"+ec.String(), func(t *testing.T) {
			e := startInstant(ctx, t)
			defer func() {
				if err := e.Close(); err != nil {
					t.Error(err)
				}
			}()
			black, white := player.Player(e), player.Player(player.NewGreedy())
			if ec == engine.White {
				black, white = white, black
			}
			r, err := match.Play(ctx, engine.Othello(), black, white, engine.TimeControl{Base: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if r.End != match.Normal || !r.Position.GameOver() {
				t.Fatalf("end %s (fault %s): %v", r.End, r.Fault, r.Err)
			}
		})
	}
}

func startInstant(ctx context.Context, tb testing.TB) *gtp.Engine {
	tb.Helper()
	e, err := gtp.Start(ctx, gtp.Config{Config: proc.Config{Argv: instantArgv(tb), Env: append(os.Environ(), instantEngineEnv+"=1")}})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// BenchmarkHarness measures the time match.Play adds to each move, with
// players that answer at once; an op is one game. It reports:
//
//   - ns/move: the game's wall time over the moves asked for, everything
//     included (the players' own time too);
//   - harness-ns/move: the same less the time spent inside the players'
//     Move: what match.Play adds (a goroutine, a context with a deadline
//     and the clock per move, and the copy of the game);
//   - player-ns/move: the time inside the Move of the player under test
//     (the second player; the first is the in-process instant player), per
//     move of its own: for a GTP engine, the round trip through the GTP
//     client, the pipes and the engine;
//
// for two in-process players that answer at once (in-process), for a GTP
// engine in a subprocess that answers at once (gtp-instant: this test binary
// as a GTP engine; its ns/move is the round trip through pipes, the GTP client
// and the engine's parsing, since it thinks for no time) against the in-process
// player, and for gtp-rhino at its weakest level (gtp-rhino-l1: level 1, mid-
// game depth 1, end-game depth 1) against the in-process player.
//
//	go test -run '^$' -bench Harness -benchtime 2s ./engine/match/
func BenchmarkHarness(b *testing.B) {
	tc := engine.TimeControl{Base: time.Hour}
	run := func(b *testing.B, newEngine func(context.Context, testing.TB) player.Player) {
		ctx := context.Background()
		var eng player.Player = instant{}
		if newEngine != nil {
			eng = newEngine(ctx, b)
			defer eng.Close()
		}
		moves, emoves := 0, 0
		var inside, einside time.Duration
		b.ResetTimer()
		for i := range b.N {
			a, e := &timed{Player: instant{}}, &timed{Player: eng}
			black, white := player.Player(a), player.Player(e)
			if i%2 == 1 {
				black, white = white, black
			}
			r, err := match.Play(ctx, engine.Othello(), black, white, tc)
			if err != nil {
				b.Fatal(err)
			}
			if r.End != match.Normal {
				b.Fatalf("end %s (fault %s): %v", r.End, r.Fault, r.Err)
			}
			moves += a.moves + e.moves
			inside += a.in + e.in
			emoves += e.moves
			einside += e.in
		}
		b.StopTimer()
		el := b.Elapsed()
		b.ReportMetric(float64(el.Nanoseconds())/float64(moves), "ns/move")
		b.ReportMetric(float64((el-inside).Nanoseconds())/float64(moves), "harness-ns/move")
		b.ReportMetric(float64(einside.Nanoseconds())/float64(emoves), "player-ns/move")
		b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
	}
	b.Run("in-process", func(b *testing.B) { run(b, nil) })
	b.Run("gtp-instant", func(b *testing.B) {
		run(b, func(ctx context.Context, tb testing.TB) player.Player { return startInstant(ctx, tb) })
	})
	b.Run("gtp-rhino-l1", func(b *testing.B) {
		path := testenv.GTPRhino(b)
		run(b, func(ctx context.Context, tb testing.TB) player.Player {
			e, err := gtp.Start(ctx, gtp.Config{Config: proc.Config{Argv: []string{path, "-l", "1"}}})
			if err != nil {
				tb.Fatal(err)
			}
			return e
		})
	})
}
