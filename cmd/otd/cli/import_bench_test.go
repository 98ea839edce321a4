package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otd-project/otd/roster"
)

// BenchmarkPlayerImport imports a players file of roster.MaxPlayers rows (the
// documented limit) into a new tournament of a new database, end to end:
// reading the file, the duplicate checks, the action and its audit rows.
//
//	go test -run '^$' -bench PlayerImport -benchtime 1x ./cmd/otd/cli/
func BenchmarkPlayerImport(b *testing.B) {
	for _, rows := range []int{10_000, roster.MaxPlayers} {
		b.Run(fmt.Sprint(rows), func(b *testing.B) {
			var csv strings.Builder
			csv.WriteString("name,rating,country\n")
			for i := range rows {
				fmt.Fprintf(&csv, "\"PLAYER, Number %d\",%d,FRA\n", i+1, 1000+i%2000)
			}
			path := filepath.Join(b.TempDir(), "players.csv")
			if err := os.WriteFile(path, []byte(csv.String()), 0o644); err != nil {
				b.Fatal(err)
			}
			want := fmt.Sprintf("Registered %d players, numbers 1 to %d.", rows, rows)
			for b.Loop() {
				b.StopTimer()
				d := newTestDB(b)
				d.must("tournament", "new", "Big", "--rounds", "9")
				b.StartTimer()
				if out := d.must("player", "import", path); !strings.Contains(out, want) {
					b.Fatalf("player import: %q, want %q", out, want)
				}
			}
		})
	}
}
