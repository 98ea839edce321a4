package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/otd-project/otd/internal/txt"
)

// Validate checks the invariants that every operation keeps: valid settings;
// players numbered 1 to n; rounds paired from 1 on, no more than planned,
// tables numbered 1 to k; every game between two registered players (or a
// bye), no player twice in a round; results within the board, a bye without
// one, and every round before the last with all its results. A database
// edited by hand may break them: the error, wrapping ErrInconsistent, names
// the first broken.
func (t *Tournament) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrInconsistent, fmt.Sprintf(format, a...))
	}
	if err := t.Settings.Check(); err != nil {
		return bad("settings: %v", err)
	}
	for i, p := range t.Players {
		if p.Number != i+1 {
			return bad("player %d is numbered %d", i+1, p.Number)
		}
		if p.NewID && p.WOFID == 0 {
			return bad("player %d is new to the rating list but has no WOF id", p.Number)
		}
	}
	n := len(t.Players)
	seen := make([]int, n+1)       // player: 1 + the index of their game in the round at hand, or 0
	round, table, first := 0, 0, 0 // first: the index of the round's first game
	for i, g := range t.Games {
		switch {
		case g.Round == round && g.Table == table+1:
		case g.Round == round+1 && g.Table == 1:
			for _, h := range t.Games[first:i] {
				if h.Result == nil && !h.IsBye() && round > 0 {
					return bad("round %d is paired but round %d table %d has no result", g.Round, round, h.Table)
				}
			}
			clear(seen)
			first = i
		default:
			return bad("round %d table %d follows round %d table %d: rounds and tables are numbered from 1 without gaps", g.Round, g.Table, round, table)
		}
		round, table = g.Round, g.Table
		if g.Black < 1 || g.Black > n || g.White < 0 || g.White > n || g.Black == g.White {
			return bad("round %d table %d: players %d and %d (players are 1 to %d)", g.Round, g.Table, g.Black, g.White, n)
		}
		for _, p := range []int{g.Black, g.White} {
			if p != 0 && seen[p] != 0 {
				return bad("round %d table %d: player %d plays at table %d of the round too", g.Round, g.Table, p, t.Games[seen[p]-1].Table)
			}
			seen[p] = i + 1
		}
		if err := g.Result.check(t.GameRules().Squares()); err != nil {
			return bad("round %d table %d: %v", g.Round, g.Table, err)
		}
		if g.IsBye() && g.Result != nil {
			return bad("round %d table %d: a bye with a result", g.Round, g.Table)
		}
	}
	if round > t.Rounds {
		return bad("round %d is paired but the tournament has %d rounds", round, t.Rounds)
	}
	keys := map[string]bool{}
	for i, g := range t.FinalGames {
		if g.Black < 1 || g.Black > n || g.White < 1 || g.White > n || g.Black == g.White {
			return bad("%s: players %d and %d (players are 1 to %d)", g, g.Black, g.White, n)
		}
		if i > 0 && g.Seq <= t.FinalGames[i-1].Seq || g.Seq < 1 || g.Game < 1 || keys[g.Code()+"/"+strconv.Itoa(g.Game)] && g.Match != "" {
			return bad("%s: final games are numbered 1, 2... in the order paired (a game dropped leaves a gap), each game of a match once", g)
		}
		keys[g.Code()+"/"+strconv.Itoa(g.Game)] = true
		if g.Match != "" && g.Category != "" {
			if _, ok := t.category(g.Category); !ok {
				return bad("%s: no category %q", g, g.Category)
			}
		}
		if err := g.Result.check(t.GameRules().Squares()); err != nil {
			return bad("%s: %v", g, err)
		}
	}
	for i, f := range t.Forbidden {
		if f.A < 1 || f.A >= f.B || f.B > n || i > 0 && cmp.Or(f.A-t.Forbidden[i-1].A, f.B-t.Forbidden[i-1].B) <= 0 {
			return bad("forbidden pair %d-%d (players are 1 to %d, each pair once, lower number first)", f.A, f.B, n)
		}
	}
	for i, rr := range t.RoundRules {
		if rr.Round < 1 || rr.Round > round || i > 0 && rr.Round <= t.RoundRules[i-1].Round {
			return bad("the rules of round %d (rounds 1 to %d are paired, each has its rules once)", rr.Round, round)
		}
		for _, p := range slices.Concat(rr.Forced, rr.Forbidden) {
			if p[0] < 1 || p[0] > n || p[1] < 1 || p[1] > n {
				return bad("the rules of round %d: pair %d-%d (players are 1 to %d)", rr.Round, p[0], p[1], n)
			}
		}
	}
	return nil
}

// check checks a result of a board of the given number of squares.
func (r *Result) check(squares int) error {
	switch {
	case r == nil:
		return nil
	case r.Black < 0 || r.White < 0 || r.Black+r.White > squares:
		return fmt.Errorf("result %d-%d is not a score on %d squares", r.Black, r.White, squares)
	case r.Kind == Normal && (r.Loser == "" || (r.Loser == Black || r.Loser == White) && r.Black == r.White):
		return nil // a draw on the board may say who lost it
	case r.Kind == NoDiscs && r.Black == 0 && r.White == 0 && (r.Loser == "" || r.Loser == Black || r.Loser == White):
		return nil
	case (r.Kind == TimeDefault || r.Kind == Forfeit) && (r.Loser == Black || r.Loser == White):
		return nil
	}
	return fmt.Errorf("result %d-%d: kind %q, loser %q", r.Black, r.White, r.Kind, r.Loser)
}

// checkName checks a name as otd keeps it (txt.CheckName, the one check of
// every way a name comes in): not empty, valid UTF-8, at most txt.MaxName
// characters, and no control, format, line or paragraph separator characters
// (no line breaks, escape sequences or bidirectional overrides).
func checkName(what, s string) error {
	switch err := txt.CheckName(s); {
	case err == nil:
		return nil
	case s == "":
		return invalidf("a %s needs a name", what)
	case utf8.RuneCountInString(s) > txt.MaxName:
		return invalidf("%s name %.20q...: longer than %d characters", what, s, txt.MaxName)
	default:
		return invalidf("%s name %q: %v", what, s, err)
	}
}
