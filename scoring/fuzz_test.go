package scoring_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/otd-project/otd/scoring"
)

// Every parser either fails with ErrSyntax or gives a value whose String
// parses back to the same value.

func FuzzParseBQRule(f *testing.F) {
	for _, s := range []string{"nearest", "wof", "exact", "6", "64", "65", "-1", "", "0x10", "WOF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := scoring.ParseBQRule(s)
		if err != nil {
			if !errors.Is(err, scoring.ErrSyntax) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if err := (scoring.Rules{BQ: r}).Validate(); err != nil {
			t.Fatalf("%q gives %+v: %v", s, r, err)
		}
		if back, err := scoring.ParseBQRule(r.String()); err != nil || back != r {
			t.Fatalf("%q gives %+v, whose String %q gives %+v, %v", s, r, r.String(), back, err)
		}
	})
}

func FuzzParseTieBreaks(f *testing.F) {
	for _, s := range []string{"points,bq,discs,h2h", "japanese", "points,,bq", "bq,bq", "Wins, Diff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := scoring.ParseTieBreaks(s)
		if err != nil {
			if !errors.Is(err, scoring.ErrSyntax) {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		if err := (scoring.Rules{TieBreaks: ts}).Validate(); err != nil || len(ts) == 0 {
			t.Fatalf("%q gives %v: %v", s, ts, err)
		}
		if back, err := scoring.ParseTieBreaks(ts.String()); err != nil || !slices.Equal(back, ts) {
			t.Fatalf("%q gives %v, whose String gives %v, %v", s, ts, back, err)
		}
	})
}

func FuzzParseHalfPoints(f *testing.F) {
	for _, s := range []string{"0", "0.5", "1", "8.5", "4.0", "3.25", "-1", "1e3", "1000000.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := scoring.ParseHalfPoints(s)
		if err != nil {
			if !errors.Is(err, scoring.ErrSyntax) {
				t.Fatalf("%q: %v", s, err)
			}
		} else if back, err := scoring.ParseHalfPoints(h.String()); err != nil || back != h || h < 0 {
			t.Fatalf("%q gives %d, whose String %q gives %d, %v", s, int(h), h.String(), back, err)
		}
		if b, err := scoring.ParseByePoints(s); err == nil && b != scoring.Half && b != scoring.Point {
			t.Fatalf("ParseByePoints(%q) = %v", s, b)
		}
		if p, err := scoring.ParseTimePolicy(s); err == nil {
			if back, _ := scoring.ParseTimePolicy(p.String()); back != p {
				t.Fatalf("ParseTimePolicy(%q) = %v", s, p)
			}
		} else if !errors.Is(err, scoring.ErrSyntax) {
			t.Fatalf("ParseTimePolicy(%q): %v", s, err)
		}
	})
}

// FuzzScoreGame: any result either fails with a sentinel or is recorded as a
// score that adds up to 64, with points that add up to a whole point (a bye:
// the bye's points), and scores the same again.
func FuzzScoreGame(f *testing.F) {
	f.Add(uint8(0), uint8(0), 40, 22, uint8(0), uint8(0), uint8(0))
	f.Add(uint8(1), uint8(2), 20, 30, uint8(0), uint8(0), uint8(0))
	f.Add(uint8(2), uint8(1), 0, 0, uint8(1), uint8(1), uint8(40))
	f.Add(uint8(3), uint8(0), 0, 0, uint8(2), uint8(1), uint8(40))
	f.Fuzz(func(t *testing.T, kind, outcome uint8, b, w int, policy, byePoints, byeDiscs uint8) {
		r := scoring.Result{Kind: scoring.Kind(kind % 6), Outcome: scoring.Outcome(outcome % 5), BlackDiscs: b, WhiteDiscs: w}
		rules := scoring.Rules{TimeDefault: scoring.TimePolicy(policy % 4), ByePoints: scoring.HalfPoints(byePoints % 4), ByeDiscs: int(byeDiscs)}
		s, err := scoring.ScoreGame(r, rules)
		if err != nil {
			for _, e := range []error{scoring.ErrDiscs, scoring.ErrOutcome, scoring.ErrKind, scoring.ErrOption} {
				if errors.Is(err, e) {
					return
				}
			}
			t.Fatalf("%+v: unexpected error %v", r, err)
		}
		total := s.BlackPoints + s.WhitePoints
		if s.BlackDiscs+s.WhiteDiscs != scoring.Squares || s.BlackDiscs < 0 || s.WhiteDiscs < 0 ||
			r.Kind != scoring.Bye && total != scoring.Point || r.Kind == scoring.Bye && total != rules.ByePoints && total != scoring.Point {
			t.Fatalf("%+v, %+v: %v", r, rules, s)
		}
		if r.Kind == scoring.Normal && (s.BlackPoints > s.WhitePoints) != (s.BlackDiscs > s.WhiteDiscs) {
			t.Fatalf("%+v: %v", r, s)
		}
		r.BlackDiscs, r.WhiteDiscs = s.BlackDiscs, s.WhiteDiscs
		if again, err := scoring.ScoreGame(r, rules); err != nil || again != s {
			t.Fatalf("%+v: %v, then %v, %v", r, s, again, err)
		}
	})
}

// FuzzStandings: any small event either fails with a sentinel or gives one
// row per player, ranked in order, with the points of the games.
func FuzzStandings(f *testing.F) {
	f.Add([]byte{3, 0, 4, 0, 0, 0, 0, 1, 1, 2, 0, 0, 40, 0, 1, 3, 4, 0, 0, 24, 0, 2, 1, 3, 0, 0, 33, 1, 2, 2, 0, 3, 0, 0, 0})
	f.Add([]byte{8, 1, 5, 0, 2, 0, 0, 0, 1, 1, 2, 0, 0, 30, 0, 1, 3, 4, 0, 0, 33, 0, 1, 5, 0, 3, 0, 0, 0,
		2, 1, 3, 1, 2, 20, 0, 2, 4, 5, 2, 1, 0, 0, 3, 1, 5, 0, 0, 32, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		ev := scoring.Event{Rounds: next() % 9, Rules: scoring.Rules{BQ: scoring.BQRule{Kind: scoring.BQKind(next() % 4)},
			TieBreaks: scoring.TieBreaks{scoring.ByPoints, scoring.ByBQ, scoring.ByH2H, scoring.ByDiscDiff}}}
		if ev.Rules.BQ.Kind == scoring.Fixed {
			ev.Rules.BQ.C = 6
		}
		for n := next() % 7; len(ev.Players) < n; {
			p := scoring.Player{ID: len(ev.Players) + 1, WithdrawnAfter: next() % 8}
			if p.WithdrawnAfter > 4 {
				p.Withdrawn = p.WithdrawnAfter == 7 // 7: before round 1
				p.WithdrawnAfter = 0
			}
			ev.Players = append(ev.Players, p)
		}
		for len(data) > 0 {
			g := scoring.Game{Round: next() % 10, Black: next() % 8, White: next() % 8,
				Result: scoring.Result{Kind: scoring.Kind(next() % 5), Outcome: scoring.Outcome(next() % 4), BlackDiscs: next() % 70}}
			g.WhiteDiscs = 64 - g.BlackDiscs - next()%3
			ev.Games = append(ev.Games, g)
		}
		rows, err := ev.Standings()
		if err != nil {
			for _, e := range []error{scoring.ErrDiscs, scoring.ErrOutcome, scoring.ErrKind, scoring.ErrRound, scoring.ErrPlayer} {
				if errors.Is(err, e) {
					return
				}
			}
			t.Fatalf("unexpected error %v", err)
		}
		if len(rows) != len(ev.Players) {
			t.Fatalf("%d rows for %d players", len(rows), len(ev.Players))
		}
		// A player withdrawn before round 1 is marked, has BQ 0 (but under
		// wof) and ranks below every player who played.
		early := false
		for _, r := range rows {
			p := ev.Players[r.Player-1]
			switch {
			case p.Withdrawn:
				early = true
				if !r.Withdrawn || r.Points != 0 || r.Games != 0 || ev.Rules.BQ.Kind != scoring.WOF && r.BQ.Cmp(scoring.BQ{}) != 0 {
					t.Fatalf("withdrawn before round 1: %+v", r)
				}
			case early && (r.Games > 0 || r.Wins > 0):
				t.Fatalf("player %d, who played, ranks below one withdrawn before round 1: %+v", r.Player, rows)
			}
		}
		var total scoring.HalfPoints
		for i, r := range rows {
			total += r.Points
			if r.Rank < 1 || i > 0 && r.Rank != rows[i-1].Rank && r.Rank != i+1 || i == 0 && r.Rank != 1 ||
				i > 0 && r.Points > rows[i-1].Points || r.BQ.Cmp(scoring.BQ{}) < 0 {
				t.Fatalf("row %d: %+v after %+v", i, r, rows[max(i-1, 0)])
			}
		}
		var want scoring.HalfPoints
		for _, g := range ev.Games {
			s, _ := scoring.ScoreGame(g.Result, ev.Rules)
			want += s.BlackPoints + s.WhitePoints
		}
		if total != want {
			t.Fatalf("%v points in the standings, %v in the games", total, want)
		}
	})
}
