package engine

import (
	"strconv"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

// Published perft counts from the start position (Aart Bik, 2009; RULES.md section 1).
var perftCounts = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800}

func TestPerft(t *testing.T) {
	for d := 1; d <= 9; d++ {
		t.Run(strconv.Itoa(d), func(t *testing.T) {
			if got := Perft(Start(), d); got != perftCounts[d] {
				t.Errorf("perft(%d) = %d, want %d", d, got, perftCounts[d])
			}
		})
	}
}

// TestPerftSharedData checks depths 1-9 against the shared data file, which
// cites its sources independently of the table above.
func TestPerftSharedData(t *testing.T) {
	rows := testenv.CSV(t, "othello-perft/perft_start_position.csv")
	checked := 0
	for _, row := range rows[1:] {
		d, _ := strconv.Atoi(row[0])
		want, _ := strconv.ParseUint(row[1], 10, 64)
		if d > 9 {
			continue
		}
		checked++
		if got := Perft(Start(), d); got != want {
			t.Errorf("perft(%d) = %d, want %d (shared data)", d, got, want)
		}
	}
	if checked != 9 {
		t.Errorf("checked %d depths of the shared file, want 9", checked)
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, d := range []int{9, 11} {
		b.Run(strconv.Itoa(d), func(b *testing.B) {
			for b.Loop() {
				if n := Perft(Start(), d); n != perftCounts[d] {
					b.Fatalf("perft(%d) = %d", d, n)
				}
			}
		})
	}
}
