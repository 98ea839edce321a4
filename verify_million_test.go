package otd_test

import (
	"bufio"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
)

// randomGame plays a seeded random legal game to its end: each move drawn
// uniformly from the legal moves; passes are left out, as the formats keep them implicit.
func randomGame(rng *rand.Rand, moves []engine.Square) ([]engine.Square, engine.Score) {
	moves = moves[:0]
	p := engine.Start()
	for !p.GameOver() {
		if p.MustPass() {
			p, _ = p.Play(engine.Pass)
			continue
		}
		legal := p.LegalMoves()
		for k := rng.IntN(bits.OnesCount64(legal)); k > 0; k-- {
			legal &= legal - 1 // drop the lowest
		}
		m := engine.Square(bits.TrailingZeros64(legal))
		p, _ = p.Play(m)
		moves = append(moves, m)
	}
	return moves, p.Board.FinalScore()
}

// writeGeneratedGames writes n seeded random legal games to path, as a WTHOR
// database (format "wthor": the final score in each record) or as move lists
// one a line, each with its final score ("moves").
func writeGeneratedGames(path, format string, n int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if format == "wthor" {
		h := []byte{20, 26, 11, 23, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0}
		h[4], h[5], h[6], h[7] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
		h[10], h[11] = byte(2026&0xff), byte(2026>>8)
		w.Write(h)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	var moves []engine.Square
	var points []engine.Point
	rec := make([]byte, 0, 68)
	for i := range n {
		var score engine.Score
		moves, score = randomGame(rng, moves)
		points = points[:0]
		for _, m := range moves {
			points = append(points, m.Point())
		}
		g := transcript.Game{Start: engine.Start(), Moves: points, Result: &transcript.Result{Black: score.Black, White: score.White}}
		if format == "wthor" {
			rec, err := transcript.AppendWTHOR(rec[:0], g, uint16(i%100), uint16(i%1000), uint16((i+1)%1000))
			if err != nil {
				f.Close()
				return err
			}
			w.Write(rec)
		} else {
			fmt.Fprintf(w, "%s %s\n", engine.FormatMoves(points), score)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// millionGames writes, once per test binary and format, 1,000,000 generated games (seed 1).
var millionGames sync.Map // format -> func() (string, error)

func generated(tb testing.TB, format string) string {
	tb.Helper()
	once, _ := millionGames.LoadOrStore(format, sync.OnceValues(func() (string, error) {
		path := filepath.Join(tmp, "million."+map[string]string{"wthor": "wtb", "moves": "txt"}[format])
		return path, writeGeneratedGames(path, format, 1_000_000, 1)
	}))
	path, err := once.(func() (string, error))()
	if err != nil {
		tb.Fatalf("writing 1,000,000 games: %v", err)
	}
	return path
}

// BenchmarkVerifyMillionGames is `otd verify` as a process on 1,000,000
// seeded random legal games (a WTHOR database of 68 MB; a file of move lists
// of about 125 MB, one game a line with its score): the wall time of the
// run, and its peak resident memory (the child's rusage Maxrss), which must
// stay under 200 MB. Generating the files takes a minute or so, outside the
// timing; run it alone:
//
//	go test -run '^$' -bench VerifyMillionGames -benchtime 1x .
func BenchmarkVerifyMillionGames(b *testing.B) {
	for _, format := range []string{"wthor", "moves"} {
		b.Run(format, func(b *testing.B) {
			path := generated(b, format)
			bin := buildOTD(b)
			var peak int64
			for b.Loop() {
				cmd := exec.Command(bin, "verify", path)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					b.Fatalf("otd verify %s: %v\n%s%s", path, err, out, stderr.String())
				}
				if want := "games: 1000000  legal: 1000000  illegal: 0  agreeing: 1000000  disagreeing: 0"; !strings.HasPrefix(string(out), want) {
					b.Fatalf("otd verify %s: %s, want %s", path, out, want)
				}
				peak = max(peak, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) // KiB on Linux
			}
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
			if peak*1024 > 200_000_000 {
				b.Errorf("peak resident memory %d MiB: over 200 MB", peak/1024)
			}
		})
	}
}
