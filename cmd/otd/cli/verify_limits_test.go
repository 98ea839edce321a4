package cli

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/otd-project/otd/engine/transcript"
)

// endlessZeros is standard input that never ends, as /dev/zero.
type endlessZeros struct{}

func (endlessZeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// wthorStream is a WTHOR database of n copies of one game, made as it is read.
type wthorStream struct {
	head, rec []byte
	n, at     int // records to give; bytes given of the current one
}

// newWTHORStream returns a database whose header counts count games, of n records.
func newWTHORStream(t testing.TB, moves string, count, n int) *wthorStream {
	g, err := transcript.ParseMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := transcript.AppendWTHOR(nil, g, 0, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	h := make([]byte, 16)
	binary.LittleEndian.PutUint32(h[4:], uint32(count))
	h[12] = 8
	return &wthorStream{head: h, rec: rec, n: n}
}

func (s *wthorStream) Read(p []byte) (int, error) {
	if len(s.head) > 0 {
		c := copy(p, s.head)
		s.head = s.head[c:]
		return c, nil
	}
	c := 0
	for c < len(p) && s.n > 0 {
		k := copy(p[c:], s.rec[s.at:])
		c += k
		if s.at += k; s.at == len(s.rec) {
			s.at, s.n = 0, s.n-1
		}
	}
	if c == 0 {
		return 0, io.EOF
	}
	return c, nil
}

// A full legal game, black 33-31 (FlipTheDisc, tournament 559).
const fullGame3331 = "f5f6e6d6c4f3e7f4c5f7e3c7c6d8b8d7f8d2g8c3d3c2e2d1b3a4a3a2f1b4b5e1c1e8c8b6a5a6g3g4h4f2g5h6h5g6h7h2g7h3h1h8b7b1g1g2a1b2a7a8"

// runOTD runs otd in-process on stdin.
func runStdin(stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Run(args, stdin, &out, &errb)
	return out.String(), errb.String(), code
}

// TestVerifyStopsAtLimits: an input that never ends, or a record over its
// format's limit, is refused in one line with exit status 2.
func TestVerifyStopsAtLimits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		stdin io.Reader
		args  []string
		want  string
	}{
		{"standard input of zeros", endlessZeros{}, []string{"verify", "-"}, "verify: standard input: wthor: expected 16 bytes for 0 games (the count in its header), found more bytes"},
		{"zeros read as move lists", endlessZeros{}, []string{"verify", "--format", "moves"}, "verify: standard input: moves: line 1: expected a line of at most 64 KiB, found a longer line"},
		{"zeros read as a sheet", endlessZeros{}, []string{"verify", "--format", "sheet"}, "verify: standard input: sheet: expected a transcript sheet of at most 64 KiB"},
		{"61 moves", nil, []string{"verify", write("61.txt", fullGame3331+"a1\n")}, "61.txt: moves: line 1, column 121: expected at most 60 moves in a game: the board has 60 empty squares, found \"a1\""},
		{"a line over 64 KiB in a batch", nil, []string{"verify", write("long.txt", fullGame3331+"\n"+strings.Repeat(" ", 70_000)+"f5\n")}, "long.txt: moves: line 2: expected a line of at most 64 KiB"},
		{"a WTHOR database longer than its count", newWTHORStream(t, fullGame3331, 2, 3), []string{"verify", "--format", "wthor", "-"}, "wthor: expected 152 bytes for 2 games (the count in its header), found more bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdin := tc.stdin
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			out, errs, code := runStdin(stdin, tc.args...)
			if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, out, errs, tc.want)
			}
		})
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, errs, code := runStdin(nil, "verify", "/dev/zero")
		if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "/dev/zero: not a regular file but a character device") {
			t.Errorf("verify /dev/zero: exit %d, %q", code, errs)
		}
	}
}

// peakHeap runs f and returns the largest live heap seen while it ran (the
// heap the last garbage collection found reachable, runtime/metrics'
// /gc/heap/live:bytes), sampled every millisecond: what f holds, not the
// garbage a collector starved of CPU has not yet reclaimed.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	runtime.GC() // the live heap of f's end
	close(done)
	wg.Wait()
	return peak.Load()
}

// TestVerifyStreams verifies a WTHOR database of 10,000 games and one of
// 150,000 from standard input: the heap does not grow with the number of
// games (reading all of them first took about 300 bytes a game: 45 MB).
func TestVerifyStreams(t *testing.T) {
	verify := func(n int) uint64 {
		return peakHeap(func() {
			out, errs, code := runStdin(newWTHORStream(t, fullGame3331, n, n), "verify", "-")
			want := fmt.Sprintf("games: %d  legal: %d  illegal: 0  agreeing: %d", n, n, n)
			if code != 0 || !strings.Contains(out, want) {
				t.Fatalf("verify of %d games: exit %d, %q %q", n, code, out, errs)
			}
		})
	}
	small := verify(10_000)
	large := verify(150_000)
	t.Logf("live heap peak: %d KB for 10,000, %d KB for 150,000", small>>10, large>>10)
	if large > small+8<<20 {
		t.Errorf("heap peak %d MB for 150,000 games, %d MB for 10,000: verify holds the games it read", large>>20, small>>20)
	}
}

// TestPlayersFileLimits: 'player import' of /dev/zero stops at once, with
// one line naming the file and why (the limits themselves:
// roster.TestReadLimits).
func TestPlayersFileLimits(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	d := newTestDB(t)
	d.must("tournament", "new", "Limits", "--rounds", "3")
	_, errs, code := d.run("player", "import", "/dev/zero")
	if code != exitUsage || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "/dev/zero: not a regular file but a character device") {
		t.Errorf("player import /dev/zero: exit %d, %q", code, errs)
	}
}
