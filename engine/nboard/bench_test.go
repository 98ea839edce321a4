package nboard

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/enginetest"
)

// BenchmarkFloodingGames plays 64 games at once between engines that flood
// their output with status lines of 60 KiB as fast as they are read (128
// processes), all started before the first move, and reports the peak
// resident memory of the process (VmHWM, reset before each round of games):
// what otd queues of an engine's output is bounded, however fast it writes.
func BenchmarkFloodingGames(b *testing.B) {
	const games = 64
	var peak float64
	for b.Loop() {
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			b.Skipf("cannot reset the peak resident memory: %v", err)
		}
		var started, wg sync.WaitGroup
		started.Add(games)
		for range games {
			wg.Go(func() {
				var es [2]*Engine
				for i := range es {
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					e, err := Start(ctx, fakeConfig("stdoutflood", 0, "quiet"))
					cancel()
					if err != nil {
						b.Error(err)
						started.Done()
						return
					}
					defer e.Close()
					es[i] = e
				}
				started.Done()
				started.Wait() // every engine floods while the games begin
				r, err := match.Play(context.Background(), engine.Othello(), player.Player(es[0]), player.Player(es[1]), tc)
				if err != nil || r.End != match.Normal {
					b.Errorf("end %s: %v, %v", r.End, r.Err, err)
				}
			})
		}
		wg.Wait()
		peak = max(peak, vmHWM(b))
	}
	b.ReportMetric(peak, "peak-RSS-MB")
}

// vmHWM returns the process's peak resident memory, in MB (10^6 bytes).
func vmHWM(b *testing.B) float64 {
	s, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	_, v, _ := bytes.Cut(s, []byte("VmHWM:"))
	v, _, _ = bytes.Cut(v, []byte("kB"))
	kb, err := strconv.Atoi(string(bytes.TrimSpace(v)))
	if err != nil {
		b.Fatalf("VmHWM: %v", err)
	}
	return float64(kb) * 1024 / 1e6
}

// BenchmarkGGF is the record set game sends before each move
// (transcript.FormatGGF): a whole game of 60 moves, the fake engines' (the
// first legal move each turn), under a 5m+2s clock. Per op: one record.
func BenchmarkGGF(b *testing.B) {
	g, err := engine.NewPosition(engine.Othello())
	if err != nil {
		b.Fatal(err)
	}
	var ms []engine.Point
	for !g.GameOver() {
		ms = append(ms, g.Moves()[0])
		g, _ = g.Play(ms[len(ms)-1])
	}
	for b.Loop() {
		if _, err := ggf(ms, player.Clock{Remaining: 5 * time.Minute, Increment: 2 * time.Second}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTimeout measures how soon Move gives up on an engine that never
// answers (the fake in mode silent) once its context's deadline has passed:
// late-ms/op, the time from the deadline to Move's return with
// proc.ErrTimeout (TestClient/FakeSilent checks the error, not the time: the
// time is the machine's). An op starts an engine, asks it for the first move
// with a deadline of 50 ms, and closes it; only the lateness is reported.
func BenchmarkTimeout(b *testing.B) {
	g, err := player.NewGame(engine.Othello())
	if err != nil {
		b.Fatal(err)
	}
	var late, worst time.Duration
	for b.Loop() {
		e := enginetest.Start(b, fakeConfig("silent", 1, "quiet"), Start)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		dl, _ := ctx.Deadline()
		_, err := e.Move(ctx, g, clock)
		d := time.Since(dl)
		cancel()
		if !errors.Is(err, proc.ErrTimeout) {
			b.Fatalf("%v; want ErrTimeout", err)
		}
		late, worst = late+d, max(worst, d)
		e.Close()
	}
	b.ReportMetric(float64(late.Microseconds())/1e3/float64(b.N), "late-ms/op")
	b.ReportMetric(float64(worst.Microseconds())/1e3, "worst-late-ms")
}
