package otd_test

import (
	"context"
	"fmt"
	"github.com/otd-project/otd/app"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/otd-project/otd/engine"

	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/store/sqlite"
	"github.com/otd-project/otd/tournament"
)

// tmp holds what the tests and benchmarks of this package share: the otd
// binary and the benchmark database.
var tmp string

func TestMain(m *testing.M) {
	if code, ok := fakeengine.Main(); ok { // the test binary as a fake engine (TestDistributedWorkersKilled)
		os.Exit(code)
	}
	var err error
	if tmp, err = os.MkdirTemp("", "otd-test-"); err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	m.Run()
	if benchPG.drop != nil {
		benchPG.drop()
	}
}

var buildOnce = sync.OnceValue(func() error {
	cmd := exec.Command("go", "build", "-o", filepath.Join(tmp, "otd"), "./cmd/otd")
	cmd.Stderr = os.Stderr
	return cmd.Run()
})

// buildOTD builds the otd binary, once per test binary, and returns its path.
func buildOTD(tb testing.TB) string {
	tb.Helper()
	if err := buildOnce(); err != nil {
		tb.Fatalf("go build: %v", err)
	}
	return filepath.Join(tmp, "otd")
}

// BenchmarkVerifyWTHORProcess is the wall time of one `otd verify` run over
// the four shared WTHOR databases, process start included.
func BenchmarkVerifyWTHORProcess(b *testing.B) {
	dir := filepath.Join(testenv.SharedData(b), "wthor")
	args := []string{"verify"}
	for _, f := range []string{"WTH_2004.wtb", "WTH_2013.wtb", "WTH_2018.wtb", "WTH_2019.wtb"} {
		args = append(args, filepath.Join(dir, f))
	}
	bin := buildOTD(b)
	for b.Loop() {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			b.Fatalf("otd verify: %v\n%s", err, out)
		}
	}
}

// BenchmarkPerft11Process is the wall time of `otd perft 11`, process start included.
func BenchmarkPerft11Process(b *testing.B) {
	bin := buildOTD(b)
	for b.Loop() {
		out, err := exec.Command(bin, "perft", "11").Output()
		if err != nil || string(out) != "212258800\n" {
			b.Fatalf("otd perft 11: %q, %v", out, err)
		}
	}
}

var benchDBOnce = sync.OnceValue(func() error { return writeBenchTournament(filepath.Join(tmp, "bench.db"), 1000, 13) })

// benchDB returns the database of the tournament benchmarks: a finished
// Swiss tournament of 1000 players and 13 rounds, written once.
func benchDB(b *testing.B) string {
	b.Helper()
	if err := benchDBOnce(); err != nil {
		b.Fatal(err)
	}
	return filepath.Join(tmp, "bench.db")
}

// writeBenchTournament writes, through the application layer as otd's
// commands do, a finished Swiss tournament: seeded ratings and countries,
// every round paired by the Swiss pairing and its results drawn from the
// ratings (one in fifty a time default), one withdrawal and one absence a
// round from round 2 (so some rounds have a bye), and so the audit rows of
// every registration, withdrawal, absence, pairing and result. The
// registrations are one action, each round's withdrawal, absence and pairing
// one, and each round's results one.
func writeBenchTournament(path string, players, rounds int) error {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	s, err := sqlite.Open(path, sqlite.Options{Create: true})
	if err != nil {
		return err
	}
	defer s.Close()
	d := app.New(s.App())
	created, err := d.Create(ctx, tournament.DefaultSettings("Benchmark Open", rounds))
	if err != nil {
		return err
	}
	countries := []string{"FR", "GB", "JP", "NL", "US", "DE", "IT", "SE"}
	ops := make([]tournament.Op, 0, players)
	for i := range players {
		in := tournament.PlayerInput{Name: fmt.Sprintf("Player %d", i+1), Rating: 1200 + rng.IntN(1400), Country: countries[rng.IntN(len(countries))]}
		ops = append(ops, func(tm *tournament.Tournament) (tournament.Change, error) { return tm.AddPlayer(in) })
	}
	t, _, err := d.DoForTest(ctx, created.ID, ops...)
	if err != nil {
		return err
	}
	for r := 1; r <= rounds; r++ {
		ops = ops[:0]
		if r > 1 {
			// A withdrawal of a player who has withdrawn already, and an
			// absence of a withdrawn player, would be refused: they are left
			// out.
			w, a := 1+rng.IntN(players), 1+rng.IntN(players)
			if t.Players[w-1].Left == 0 {
				ops = append(ops, func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Withdraw(w) })
			}
			if a != w && !t.Players[a-1].WithdrawnBy(r) {
				ops = append(ops, func(tm *tournament.Tournament) (tournament.Change, error) { return tm.MarkAbsent(a, r) })
			}
		}
		ops = append(ops, func(tm *tournament.Tournament) (tournament.Change, error) { return tm.Pair(tournament.PairOptions{}) })
		if t, _, err = d.DoForTest(ctx, created.ID, ops...); err != nil {
			return fmt.Errorf("round %d: %w", r, err)
		}
		ops = ops[:0]
		for _, g := range t.Round(r) {
			if g.IsBye() {
				continue
			}
			in := tournament.ResultInput{HasScore: true}
			in.Black = pairing.SimulateDiscs(rng, t.Players[g.Black-1].Rating, t.Players[g.White-1].Rating)
			in.White = max(64-in.Black-rng.IntN(3), 0) // now and then a few empty squares
			if rng.IntN(50) == 0 {
				in.TimeDefault = tournament.Black
				if in.Black > 32 {
					in.TimeDefault = tournament.White
				}
			}
			ops = append(ops, func(tm *tournament.Tournament) (tournament.Change, error) {
				return tm.RecordResult(tournament.At(r, g.Table), in, false)
			})
		}
		if t, _, err = d.DoForTest(ctx, created.ID, ops...); err != nil {
			return fmt.Errorf("round %d results: %w", r, err)
		}
	}
	if t.Finished() != rounds || len(t.Players) != players {
		return fmt.Errorf("the benchmark tournament: %d players, %d rounds finished; want %d and %d", len(t.Players), t.Finished(), players, rounds)
	}
	return nil
}

// BenchmarkStandingsProcess is the wall time of `otd standings` on the
// 1000-player, 13-round tournament, process start included.
func BenchmarkStandingsProcess(b *testing.B) {
	benchProcess(b, func(int) []string { return []string{"standings"} })
}

// BenchmarkStandingsJSONProcess is the same with --json.
func BenchmarkStandingsJSONProcess(b *testing.B) {
	benchProcess(b, func(int) []string { return []string{"standings", "--json"} })
}

// BenchmarkResultProcess is the wall time of `otd result --correct` on a
// game of the last round of the 1000-player, 13-round tournament, the score
// alternating so that every run changes the result.
func BenchmarkResultProcess(b *testing.B) {
	benchProcess(b, func(i int) []string {
		return []string{"result", "13", "7", []string{"40-24", "24-40"}[i%2], "--correct"}
	})
}

// benchProcess times one otd process a loop, on the benchmark database, with
// the arguments of the i-th run: on SQLite (sub-benchmark sqlite), and on
// PostgreSQL (postgres), the same tournament copied into a database of the
// test server (internal/testenv).
func benchProcess(b *testing.B, args func(i int) []string) {
	for _, e := range []struct {
		name string
		db   func(*testing.B) string
	}{{"sqlite", benchDB}, {"postgres", benchPostgres}} {
		b.Run(e.name, func(b *testing.B) {
			bin, db := buildOTD(b), e.db(b)
			for i := 0; b.Loop(); i++ {
				a := args(i)
				if out, err := exec.Command(bin, append([]string{"--db", db}, a...)...).CombinedOutput(); err != nil {
					b.Fatalf("otd %v: %v\n%s", a, err, out)
				}
			}
		})
	}
}

// benchPG is the benchmark tournament in PostgreSQL: the URL of its
// database, and the function that drops it (TestMain).
var benchPG struct {
	once sync.Once
	url  string
	drop func()
	err  error
}

// benchPostgres returns the URL of a database of the test server holding
// the benchmark tournament (benchDB's, copied), made once.
func benchPostgres(b *testing.B) string {
	b.Helper()
	testenv.NeedPostgres(b)
	file := benchDB(b)
	benchPG.once.Do(func() {
		if benchPG.url, benchPG.drop, benchPG.err = testenv.NewPostgresDB(); benchPG.err != nil {
			return
		}
		src, err := sqlite.Open(file, sqlite.Options{ReadOnly: true})
		if err != nil {
			benchPG.err = err
			return
		}
		defer src.Close()
		dst, err := postgres.Open(benchPG.url, postgres.Options{Create: true})
		if err != nil {
			benchPG.err = err
			return
		}
		defer dst.Close()
		_, benchPG.err = app.New(src.App()).CopyTo(context.Background(), app.New(dst.App()), nil)
	})
	if benchPG.err != nil {
		b.Fatal(benchPG.err)
	}
	return benchPG.url
}

// BenchmarkEngineRound plays one round of the demo's field twice over (16
// built-in players: alpha-beta 6 down to 1, greedy, random) with the demo's
// time control, two games at once, through Director.PlayRound, and reports
// games per minute.
func BenchmarkEngineRound(b *testing.B) {
	specs := []string{"alphabeta:6", "alphabeta:5", "alphabeta:4", "alphabeta:3", "alphabeta:2", "alphabeta:1", "greedy", "random"}
	tc, err := engine.ParseTimeControl("3s")
	if err != nil {
		b.Fatal(err)
	}
	games := 0
	for b.Loop() {
		b.StopTimer()
		st, err := sqlite.Open(filepath.Join(b.TempDir(), "round.db"), sqlite.Options{Create: true})
		if err != nil {
			b.Fatal(err)
		}
		d := app.New(st.App())
		ctx := context.Background()
		created, err := d.Create(ctx, tournament.DefaultSettings("Bench", 1))
		if err != nil {
			b.Fatal(err)
		}
		for i := range 16 {
			in := tournament.PlayerInput{Name: fmt.Sprintf("P%d", i+1), Engine: "builtin:" + specs[i%len(specs)]}
			if _, _, err := d.DoForTest(ctx, created.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) }); err != nil {
				b.Fatal(err)
			}
		}
		if _, _, err := d.DoForTest(ctx, created.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.Pair(tournament.PairOptions{}) }); err != nil {
			b.Fatal(err)
		}
		start := func(_ context.Context, p tournament.Player, _ engine.Rules) (player.Player, error) {
			e, err := tournament.ParseEngine(p.Engine)
			if err != nil {
				return nil, err
			}
			return player.New(e.Argv[0])
		}
		b.StartTimer()
		rep, err := d.PlayRound(ctx, created.ID, app.PlayOptions{Time: tc, Concurrency: 2, Start: start})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		games += rep.Played
		st.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(games)/b.Elapsed().Minutes(), "games/min")
}
