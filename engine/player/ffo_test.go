package player

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/testenv"
)

// ffoCase is one position of the FFO endgame suite.
type ffoCase struct {
	id    int
	pos   engine.Bitboard
	score int
	best  []string
}

// ffoCases reads ../shared/data/ffo-endgame/ffo_40_59.csv (a failure under CI
// when it is missing, a skip elsewhere).
func ffoCases(tb testing.TB) map[int]ffoCase {
	tb.Helper()
	rows := testenv.CSV(tb, "ffo-endgame/ffo_40_59.csv")
	if len(rows) < 2 || len(rows[0]) < 6 || rows[0][1] != "board" || rows[0][5] != "best_moves" {
		tb.Fatalf("ffo_40_59.csv: unexpected header %v", rows[0])
	}
	cases := map[int]ffoCase{}
	for _, r := range rows[1:] {
		id, err1 := strconv.Atoi(r[0])
		score, err2 := strconv.Atoi(r[4])
		b, err3 := engine.ParseBoard(r[1])
		if err1 != nil || err2 != nil || err3 != nil {
			tb.Fatalf("ffo_40_59.csv row %v: %v %v %v", r, err1, err2, err3)
		}
		pos := engine.Bitboard{Board: b}
		switch r[2] {
		case "black":
		case "white":
			pos.ToMove = engine.White
		default:
			tb.Fatalf("ffo_40_59.csv row %v: side to move %q", r, r[2])
		}
		cases[id] = ffoCase{id, pos, score, strings.Fields(strings.ToLower(r[5]))}
	}
	return cases
}

func checkFFO(tb testing.TB, c ffoCase) {
	tb.Helper()
	start := time.Now()
	m, score, err := Solve(context.Background(), c.pos)
	if err != nil {
		tb.Fatalf("FFO #%d: %v", c.id, err)
	}
	ok := false
	for _, b := range c.best {
		ok = ok || b == m.String()
	}
	if score != c.score || !ok {
		tb.Errorf("FFO #%d: Solve = %v %+d, want one of %v %+d", c.id, m, score, c.best, c.score)
	}
	tb.Logf("FFO #%d: %v %+d in %v", c.id, m, score, time.Since(start).Round(time.Millisecond))
}

// TestSolveFFO solves FFO #40 and #41 exactly (20 and 22 empties); the
// benchmark BenchmarkSolveFFO does #40-#44.
func TestSolveFFO(t *testing.T) {
	cases := ffoCases(t)
	for _, id := range []int{40, 41} {
		c, ok := cases[id]
		if !ok {
			t.Fatalf("FFO #%d missing from ffo_40_59.csv", id)
		}
		t.Run("ffo"+strconv.Itoa(id), func(t *testing.T) { checkFFO(t, c) })
	}
}

// BenchmarkSolveFFO solves FFO #40-#44, checking each answer.
func BenchmarkSolveFFO(b *testing.B) {
	cases := ffoCases(b)
	for id := 40; id <= 44; id++ {
		c, ok := cases[id]
		if !ok {
			b.Fatalf("FFO #%d missing from ffo_40_59.csv", id)
		}
		b.Run("ffo"+strconv.Itoa(id), func(b *testing.B) {
			for range b.N {
				checkFFO(b, c)
			}
		})
	}
}
