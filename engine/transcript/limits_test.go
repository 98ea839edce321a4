package transcript_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
)

// zeros is an input that never ends, as /dev/zero; it counts what was read.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// endless is an input that never ends: prefix, then body over and over.
type endless struct {
	prefix, body []byte
	at           int
	n            int64
}

func (e *endless) Read(p []byte) (int, error) {
	if len(e.prefix) > 0 {
		n := copy(p, e.prefix)
		e.prefix = e.prefix[n:]
		e.n += int64(n)
		return n, nil
	}
	n := 0
	for n < len(p) {
		c := copy(p[n:], e.body[e.at:])
		n += c
		e.at = (e.at + c) % len(e.body)
	}
	e.n += int64(n)
	return n, nil
}

// TestReaderStopsAtLimits reads inputs over each limit: each is refused with a
// *ParseError wrapping ErrTooLarge, at its place, after reading little more
// than the limit (an input that never ends included).
func TestReaderStopsAtLimits(t *testing.T) {
	long := strings.Repeat("f5", transcript.MaxLine/2+1) // one line of 64 KiB + 2 bytes
	grid := strings.Repeat(". . . . . . . .\n", 8)
	ggfMoves := func(n int) string { // n moves, alternating colours
		var b strings.Builder
		b.WriteString("(;GM[Othello]")
		for i := range n {
			b.WriteString("BW"[i%2:i%2+1] + "[a1]")
		}
		return b.String() + ";)"
	}
	for _, tc := range []struct {
		name      string
		f         transcript.Format
		in        string
		line, col int
		expected  string
	}{
		{"move list line over 64 KiB", transcript.Moves, "f5d6\n" + long + "\n", 2, 0, "a line of at most 64 KiB"},
		{"61 moves on a line", transcript.Moves, gameFull + "a1\n", 1, 121, "at most 60 moves in a game"},
		{"61 moves over 61 lines", transcript.Moves, strings.Repeat("a1\n", 61), 61, 1, "at most 60 moves in a game"},
		{"123 passes", transcript.Moves, "f5 " + strings.Repeat("pass ", 122), 1, 4 + 5*121, "at most 122 moves and passes"},
		{"passes over lines", transcript.Moves, strings.Repeat("--\n", 200), 123, 1, "at most 122 moves and passes"},
		{"OBF line over 64 KiB", transcript.OBF, strings.Repeat("-", 64) + " X;" + strings.Repeat(" ", transcript.MaxLine), 1, 0, "a line of at most 64 KiB"},
		{"sheet over 64 KiB", transcript.SheetFormat, grid + strings.Repeat("\n", transcript.MaxSheet), 0, 0, "a transcript sheet of at most 64 KiB"},
		{"GGF record over 64 KiB", transcript.GGF, "(;GM[Othello];)\n (;GM[Othello]C[" + long + "];)", 2, 2, "a game record \"(;...;)\" of at most 64 KiB"},
		{"GGF game of 61 moves", transcript.GGF, ggfMoves(61), 1, 14 + 60*5, "at most 60 moves in a game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transcript.Parse([]byte(tc.in), tc.f)
			wantParseError(t, err, tc.line, tc.col, transcript.ErrTooLarge, tc.expected)
		})
	}
	if _, err := transcript.ParseMoves(gameFull + "\na1"); !errors.Is(err, transcript.ErrTooLarge) {
		t.Errorf("ParseMoves of 61 moves: %v, want ErrTooLarge", err)
	}
	if _, err := transcript.Parse([]byte(ggfMoves(60)), transcript.GGF); err != nil {
		t.Errorf("a GGF game of 60 moves: %v", err)
	}

	// Inputs that never end: each text format stops after its limit.
	for _, f := range []transcript.Format{transcript.Auto, transcript.Moves, transcript.OBF, transcript.SheetFormat, transcript.GGF, transcript.WTHOR} {
		t.Run("endless zeros as "+f.String(), func(t *testing.T) {
			z := &zeros{}
			rd, err := transcript.NewReader(z, f, nil)
			for i := 0; err == nil && i < 10; i++ {
				_, err = rd.Next()
			}
			var pe *transcript.ParseError
			if !errors.As(err, &pe) || pe.Error() == "" {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if z.n > 2*transcript.MaxLine+2 {
				t.Errorf("read %d bytes before refusing (%v)", z.n, err)
			}
		})
	}
	t.Run("endless a1 lines", func(t *testing.T) {
		e := &endless{body: []byte("a1\n")}
		rd, _ := transcript.NewReader(e, transcript.Moves, nil)
		_, err := rd.Next()
		wantParseError(t, err, 61, 1, transcript.ErrTooLarge, "at most 60 moves")
	})
	t.Run("WTHOR database longer than its header says", func(t *testing.T) {
		rec := wthorRecord(t, nil, transcript.Game{Start: engine.Start(), Moves: movesOf(t, gameFull)}, 0, 0, 0)
		h := make([]byte, 16)
		binary.LittleEndian.PutUint32(h[4:], 3)
		h[12] = 8
		rd, err := transcript.NewReader(&endless{prefix: h, body: rec}, transcript.Auto, nil)
		if err != nil || rd.Format() != transcript.WTHOR {
			t.Fatalf("NewReader: %v, %v; want a WTHOR reader", rd, err)
		}
		for i := range 3 {
			if _, err := rd.Next(); err != nil {
				t.Fatalf("game %d: %v", i+1, err)
			}
		}
		_, err = rd.Next()
		wantParseError(t, err, 0, 0, transcript.ErrTruncated, "220 bytes for 3 games")
	})
}

// moveLines is a batch of move lists: legal full games and a short one, with scores.
const moveLines = gamePasses + " 8-56\n" + gameFull + " 33-31\n" + gameWipeout + " 40-0\n"

// heapAfter reads n games of rd and returns the heap in use after a collection.
func heapAfter(t *testing.T, rd *transcript.Reader, n int) uint64 {
	t.Helper()
	for i := range n {
		g, err := rd.Next()
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if len(g.Moves) == 0 {
			t.Fatalf("game %d: no move", i+1)
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestReaderStreams reads 300,000 games from inputs that never end (a batch
// of move lists; a WTHOR database whose header counts 4,000,000,000 games):
// the heap after them is what it was after the first 1,000.
func TestReaderStreams(t *testing.T) {
	rec := wthorRecord(t, nil, transcript.Game{Start: engine.Start(), Moves: movesOf(t, gameFull)}, 0, 0, 0)
	h := make([]byte, 16)
	binary.LittleEndian.PutUint32(h[4:], 4_000_000_000)
	h[12] = 8
	for _, tc := range []struct {
		name string
		in   io.Reader
	}{
		{"move lists", &endless{body: []byte(moveLines)}},
		{"WTHOR", &endless{prefix: h, body: rec}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd, err := transcript.NewReader(tc.in, transcript.Auto, nil)
			if err != nil {
				t.Fatal(err)
			}
			before := heapAfter(t, rd, 1000)
			after := heapAfter(t, rd, 300_000)
			if after > before+1<<20 {
				t.Errorf("heap %d bytes after 301,000 games, %d after 1,000: the reader keeps what it read", after, before)
			}
		})
	}
}

// TestReaderAsParse checks that the Reader reads a batch as Parse does.
func TestReaderAsParse(t *testing.T) {
	want, err := transcript.Parse([]byte(moveLines), transcript.Auto)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := transcript.NewReader(bytes.NewReader([]byte(moveLines)), transcript.Auto, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			if i != len(want) {
				t.Errorf("%d games, want %d", i, len(want))
			}
			break
		}
		if err != nil || i >= len(want) || g.Name != want[i].Name || engine.FormatMoves(g.Moves) != engine.FormatMoves(want[i].Moves) {
			t.Fatalf("game %d: %+v, %v", i+1, g, err)
		}
	}
}
