package otd_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
)

// tmp holds what the tests and benchmarks of this package share: the otd
// binary and the benchmark database.
var tmp string

func TestMain(m *testing.M) {
	var err error
	if tmp, err = os.MkdirTemp("", "otd-test-"); err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	m.Run()
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

// writeBenchTournament writes, through the domain and the store as otd's
// commands would, a finished Swiss tournament: seeded ratings and countries,
// every round paired by the Swiss pairing and its results drawn from the
// ratings (one in fifty a time default), one withdrawal and one absence a
// round from round 2 (so some rounds have a bye), and the audit rows of
// every registration, pairing and result.
func writeBenchTournament(path string, players, rounds int) error {
	rng := rand.New(rand.NewPCG(1, 2))
	t := &tournament.Tournament{Settings: tournament.DefaultSettings("Benchmark Open", rounds)}
	countries := []string{"FR", "GB", "JP", "NL", "US", "DE", "IT", "SE"}
	for i := range players {
		in := tournament.PlayerInput{Name: fmt.Sprintf("Player %d", i+1), Rating: 1200 + rng.IntN(1400), Country: countries[rng.IntN(len(countries))]}
		if _, err := t.AddPlayer(in); err != nil {
			return err
		}
	}
	for r := 1; r <= rounds; r++ {
		if r > 1 {
			// Refused for a player who has already withdrawn: no matter.
			t.Withdraw(1 + rng.IntN(players))
			t.MarkAbsent(1+rng.IntN(players), r)
		}
		games, err := t.Pair(tournament.PairOptions{})
		if err != nil {
			return err
		}
		for _, g := range games {
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
			if _, _, err := t.RecordResult(r, g.Table, in, false); err != nil {
				return err
			}
		}
	}
	s, err := store.Open(path, store.Options{Create: true})
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Update(context.Background(), func(tx *store.Tx) error {
		id, err := tx.CreateTournament(t.Settings)
		if err != nil {
			return err
		}
		for _, p := range t.Players {
			if err := tx.SavePlayer(id, p); err != nil {
				return err
			}
			if _, err := tx.Audit(id, "player add", "player "+strconv.Itoa(p.Number), nil, p); err != nil {
				return err
			}
		}
		if err := tx.InsertGames(id, t.Games); err != nil {
			return err
		}
		for r := 1; r <= rounds; r++ {
			if _, err := tx.Audit(id, "round pair", fmt.Sprintf("round %d", r), nil, t.Round(r)); err != nil {
				return err
			}
		}
		for _, g := range t.Games {
			if g.Result == nil {
				continue
			}
			after := map[string]any{"Round": g.Round, "Table": g.Table, "Result": g.Result}
			if _, err := tx.Audit(id, "result", fmt.Sprintf("round %d table %d", g.Round, g.Table), nil, after); err != nil {
				return err
			}
		}
		return nil
	})
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
// the arguments of the i-th run.
func benchProcess(b *testing.B, args func(i int) []string) {
	bin, db := buildOTD(b), benchDB(b)
	for i := 0; b.Loop(); i++ {
		a := args(i)
		if out, err := exec.Command(bin, append([]string{"--db", db}, a...)...).CombinedOutput(); err != nil {
			b.Fatalf("otd %v: %v\n%s", a, err, out)
		}
	}
}
