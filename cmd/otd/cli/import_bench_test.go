package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
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

// bigELO is an .ELO file of n players (WOF ids 100001 on) and rounds
// rounds: in round r, player k of the first half has black against player
// (k+r) mod n/2 of the second half and wins 40-24. The standings give each
// player the score and discs of their games, the winners first; wrong adds
// a point to the last player's published score, which the import refuses.
func bigELO(n, rounds int, wrong bool) []byte {
	h := n / 2
	var b strings.Builder
	b.WriteString("%%Tournament: Big\n%%Country: FRA\n%%Date: 01/01/2024\n\n")
	for i := range n {
		score, discs := 0, 24*rounds
		if i < h {
			score, discs = rounds, 40*rounds
		}
		if wrong && i == n-1 {
			score++
		}
		fmt.Fprintf(&b, "%%_%%  %d, PLAYER, number%d, FRA, %d.0, %d\n", 100001+i, i+1, score, discs)
	}
	for r := range rounds {
		fmt.Fprintf(&b, "\n%%Round %d\n", r+1)
		for k := range h {
			fmt.Fprintf(&b, "  %d (40)>(24) %d\n", 100001+k, 100001+h+(k+r)%h)
		}
	}
	return []byte(b.String())
}

// BenchmarkImportELO imports an .ELO file of 10,000 and 100,000 players and
// 3 rounds into a new database, SQLite's and PostgreSQL's (with
// OTD_TEST_POSTGRES), end to end: reading the file, building and checking
// the tournament, saving it. The time grows with the players, not with
// their square (issue 28).
//
//	go test -run '^$' -bench ImportELO -benchtime 1x ./cmd/otd/cli/
func BenchmarkImportELO(b *testing.B) {
	for _, engine := range []string{"sqlite", "postgres"} {
		for _, n := range []int{10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/%d", engine, n), func(b *testing.B) {
				if engine == "postgres" {
					testenv.NeedPostgres(b)
				}
				path := filepath.Join(b.TempDir(), "big.ELO")
				if err := os.WriteFile(path, bigELO(n, 3, false), 0o644); err != nil {
					b.Fatal(err)
				}
				want := fmt.Sprintf("Tournament 1: Big, %d players, 3 rounds imported.", n)
				for b.Loop() {
					b.StopTimer()
					d := newTestDB(b)
					if engine == "postgres" {
						d.path = testenv.Postgres(b)
					}
					b.StartTimer()
					if out := d.must("import", "elo", path); !strings.Contains(out, want) {
						b.Fatalf("import elo: %q, want %q", out, want)
					}
				}
			})
		}
	}
}
