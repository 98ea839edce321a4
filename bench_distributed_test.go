package otd_test

import (
	"context"
	"fmt"
	"github.com/otd-project/otd/app"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/tournament"
)

// BenchmarkDistributedRound plays rounds of a 20-engine round robin (10
// games a round) on PostgreSQL, one round a loop: queued by
// Director.PlayDistributed for 1, 2 or 4 'otd worker' processes (one game at
// a time each), or played here by Director.PlayRound (local, one game at a
// time: the same games without the queue). It reports games per minute and
// the wall time per game. The engines are fakes that answer at once
// (internal/fakeengine: the harness and the queue alone) or the built-in
// alpha-beta at depth 5 (alphabeta:5, CPU-bound: the machine's cores). Run
// with -benchtime Nx, N at most 60 (the rounds of the round robin, its table
// played again, colours swapped, after 19):
//
//	go test -run '^$' -bench DistributedRound -benchtime 6x .
func BenchmarkDistributedRound(b *testing.B) {
	for _, kind := range []string{"fake", "alphabeta:5"} {
		for _, workers := range []int{0, 1, 2, 4} {
			name := fmt.Sprintf("%s/workers=%d", kind, workers)
			if workers == 0 {
				name = kind + "/local"
			}
			b.Run(name, func(b *testing.B) { benchDistributed(b, kind, workers) })
		}
	}
}

func benchDistributed(b *testing.B, kind string, workers int) {
	testenv.NeedPostgres(b)
	pg, drop, err := testenv.NewPostgresDB()
	if err != nil {
		b.Fatal(err)
	}
	defer drop()
	bin := buildOTD(b)
	st, err := postgres.Open(pg, postgres.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	d := app.New(st.App())
	ctx := context.Background()
	s := tournament.DefaultSettings("Bench RR", 60)
	s.System = tournament.RoundRobin
	if s.Time, err = engine.ParseTimeControl("1m"); err != nil {
		b.Fatal(err)
	}
	created, err := d.Create(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	spec := "builtin:" + kind
	if kind == "fake" {
		spec = tournament.Engine{Protocol: tournament.GTP, Argv: fakeengine.Argv("gtp", "good", 0, "quiet")}.String()
	}
	for i := range 20 {
		in := tournament.PlayerInput{Name: fmt.Sprintf("E%02d", i+1), Engine: spec}
		if _, _, err := d.DoForTest(ctx, created.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) }); err != nil {
			b.Fatal(err)
		}
	}
	var procs []*exec.Cmd
	for range workers {
		cmd := exec.Command(bin, "--db", pg, "worker")
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		procs = append(procs, cmd)
	}
	defer func() {
		for _, p := range procs {
			p.Process.Signal(syscall.SIGTERM)
			p.Wait()
		}
	}()
	time.Sleep(time.Second) // the workers connect
	games := 0
	var played time.Duration
	for b.Loop() {
		if _, _, err := d.DoForTest(ctx, created.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.Pair(tournament.PairOptions{}) }); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		var rep app.PlayReport
		if workers == 0 {
			rep, err = d.PlayRound(ctx, created.ID, app.PlayOptions{Concurrency: 1})
		} else {
			rep, err = d.PlayDistributed(ctx, created.ID, app.PlayOptions{})
		}
		if err != nil {
			b.Fatal(err)
		}
		played += time.Since(start)
		games += rep.Played
	}
	b.ReportMetric(float64(games)/played.Minutes(), "games/min")
	b.ReportMetric(float64(played.Milliseconds())/float64(games), "ms/game")
}
