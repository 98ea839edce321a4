package scoring_test

import (
	"testing"

	"github.com/otd-project/otd/scoring"
)

// benchEvent generates, deterministically, a finished event of n players and
// the given rounds: random pairings, random results with some empty squares,
// a bye when the field is odd, and one player in a hundred withdrawing.
func benchEvent(n, rounds int) scoring.Event {
	seed := uint64(1)
	rnd := func(k int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int(seed>>33) % k
	}
	ev := scoring.Event{Rounds: rounds}
	for i := range n {
		p := scoring.Player{ID: i + 1}
		if i%100 == 99 {
			p.WithdrawnAfter = 1 + i/100%(rounds-1)
		}
		ev.Players = append(ev.Players, p)
	}
	for r := 1; r <= rounds; r++ {
		var field []int
		for _, p := range ev.Players {
			if p.WithdrawnAfter == 0 || r <= p.WithdrawnAfter {
				field = append(field, p.ID)
			}
		}
		for i := len(field) - 1; i > 0; i-- {
			j := rnd(i + 1)
			field[i], field[j] = field[j], field[i]
		}
		if len(field)%2 == 1 {
			ev.Games = append(ev.Games, scoring.Game{Round: r, Black: field[0], Result: scoring.Result{Kind: scoring.Bye}})
			field = field[1:]
		}
		for i := 0; i < len(field); i += 2 {
			b := rnd(65)
			w := 64 - b - rnd(3)
			if w < 0 {
				w = 0
			}
			ev.Games = append(ev.Games, scoring.Game{Round: r, Black: field[i], White: field[i+1], Result: scoring.Result{BlackDiscs: b, WhiteDiscs: w}})
		}
	}
	return ev
}

// BenchmarkStandings: the standings (with the crosstable) of a finished
// 1000-player, 13-round event under each BQ rule, tie-breaks points, bq,
// discs, h2h.
func BenchmarkStandings(b *testing.B) {
	ev := benchEvent(1000, 13)
	for _, rule := range []string{"nearest", "wof", "exact"} {
		b.Run(rule, func(b *testing.B) {
			ev.Rules.BQ, _ = scoring.ParseBQRule(rule)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ev.Standings(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
