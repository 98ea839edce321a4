package tournament

import (
	"fmt"
	"slices"
	"strings"
)

// Facts stay facts (DESIGN.md): a final game paired keeps its two players
// and its result whatever changes later, so a change may not alter what it
// was paired on. What a final game rests on is its match as the final phase
// derives it from the Swiss standings, the categories and the rules: the
// match's two players in seed order (who qualified, the seeds, so the
// pairing and the colours), whether the game was needed (the match not
// decided by the games before it), and the match's outcome once its games
// are played (a level match goes to the higher seed, the discs...).
type finalFact struct {
	a, b, winner int
	needed       bool
}

// phaseNames are the final phases, by category: "" the open's, first.
func (t *Tournament) phaseNames() []string {
	names := []string{""}
	for _, c := range t.Categories {
		names = append(names, c.Name)
	}
	return names
}

// finalFacts derives what each paired final game rests on, by its Seq; a
// game no phase derives (of a phase not played any more, or a match it
// does not pair) has none.
func (t *Tournament) finalFacts() (map[int]finalFact, error) {
	facts := map[int]finalFact{}
	for _, cat := range t.phaseNames() {
		if !slices.ContainsFunc(t.FinalGames, func(g Game) bool { return g.Match != "" && g.Category == cat }) {
			continue
		}
		ph, err := t.Phase(cat)
		if err != nil {
			return nil, err
		}
		for _, m := range ph.Matches {
			for i, g := range m.Games {
				before := Match{A: m.A, B: m.B, BestOf: m.BestOf, Games: m.Games[:i]}
				Decide(&before, ph.Rules)
				facts[g.Seq] = finalFact{a: m.A, b: m.B, winner: m.Winner, needed: !before.Decided()}
			}
		}
	}
	return facts, nil
}

// FinalStarted reports whether a final phase has a game paired (one of a
// match: a game read from a file without its match rests on nothing otd
// derives).
func (t *Tournament) FinalStarted() bool {
	return slices.ContainsFunc(t.FinalGames, func(g Game) bool { return g.Match != "" })
}

// Unfounded returns the final games paired in before (the tournament as it
// was before a change) that t, the tournament after it, still has but
// derives otherwise: another pair or seed order for their match, a game
// the match no longer needs, or, for a match whose own games stand as they
// were, another outcome. The games paired by hand from a file (no match)
// rest on nothing that otd derives. With them come the games that rest on
// them (those Rederive would drop too: a final paired on a semi-final
// whose games are unfounded), so that a refusal names every game at stake.
// It returns them in the order paired.
func (t *Tournament) Unfounded(before *Tournament) ([]Game, error) {
	gone, err := t.unfounded(before, true)
	if err != nil || len(gone) == 0 {
		return gone, err
	}
	c := *t
	c.FinalGames = slices.Clone(t.FinalGames)
	dropped, err := c.Rederive(before)
	if err != nil {
		return nil, err
	}
	for _, g := range dropped {
		if !slices.ContainsFunc(gone, g.same) {
			gone = append(gone, g)
		}
	}
	slices.SortFunc(gone, func(a, b Game) int { return a.Seq - b.Seq })
	return gone, nil
}

// unfounded is Unfounded, the matches' outcomes compared if outcomes.
func (t *Tournament) unfounded(before *Tournament, outcomes bool) ([]Game, error) {
	if !before.FinalStarted() {
		return nil, nil
	}
	was, err := before.finalFacts()
	if err != nil {
		return nil, err
	}
	now, err := t.finalFacts()
	if err != nil {
		return nil, err
	}
	// The matches whose own games changed (a result corrected): their
	// outcome may change with them.
	moved := map[string]bool{}
	for _, g := range before.FinalGames {
		if h := t.game(g.key()); h != nil && !sameGame(*h, g) {
			moved[g.Code()] = true
		}
	}
	var out []Game
	for _, g := range t.FinalGames {
		w, ok := was[g.Seq]
		if !ok || before.game(g.key()) == nil {
			continue
		}
		n, ok := now[g.Seq]
		if !ok || n.a != w.a || n.b != w.b || n.needed != w.needed || outcomes && n.winner != w.winner && !moved[g.Code()] {
			out = append(out, g)
		}
	}
	return out, nil
}

// Rederive drops the final games of t that a change (from before) left
// unfounded (Unfounded), and those that rest on the games dropped, so that
// 'final next' pairs the final phase again as t derives it. A game whose
// match only ends otherwise (its outcome) stays: it was played as paired.
// It returns the games dropped, in the order paired.
func (t *Tournament) Rederive(before *Tournament) ([]Game, error) {
	var dropped []Game
	for {
		gone, err := t.unfounded(before, false)
		if err != nil || len(gone) == 0 {
			slices.SortFunc(dropped, func(a, b Game) int { return a.Seq - b.Seq })
			return dropped, err
		}
		dropped = append(dropped, gone...)
		t.FinalGames = slices.DeleteFunc(t.FinalGames, func(g Game) bool { return slices.ContainsFunc(gone, g.same) })
	}
}

// FinalFactsError is a change refused because final games paired (Games)
// rest on what it changes: who qualified, the seeds and so the pairings
// and colours, a match's outcome. It is ErrFinalFacts for errors.Is.
type FinalFactsError struct{ Games []Game }

func (e *FinalFactsError) Error() string {
	return fmt.Sprintf("%v: %s", ErrFinalFacts, MatchList(e.Games))
}

// MatchList names final games by match, in the order their matches come
// first, without their results (shorter than GameList, for a refusal that
// may name a whole final phase): "PO game 1, SF2 games 1-3, F games 1 and 3".
func MatchList(games []Game) string {
	var codes []string
	nums := map[string][]int{}
	for _, g := range games {
		if _, ok := nums[g.Code()]; !ok {
			codes = append(codes, g.Code())
		}
		nums[g.Code()] = append(nums[g.Code()], g.Game)
	}
	out := make([]string, len(codes))
	for i, c := range codes {
		n := nums[c]
		slices.Sort(n)
		var runs []string
		for j := 0; j < len(n); {
			k := j
			for k+1 < len(n) && n[k+1] == n[k]+1 {
				k++
			}
			run := fmt.Sprint(n[j])
			if k > j {
				run += fmt.Sprintf("-%d", n[k])
			}
			runs = append(runs, run)
			j = k + 1
		}
		word := "games"
		if len(n) == 1 {
			word = "game"
		}
		out[i] = fmt.Sprintf("%s %s %s", c, word, strings.Join(runs, " and "))
	}
	return strings.Join(out, ", ")
}

func (e *FinalFactsError) Unwrap() error { return ErrFinalFacts }

// GameList names final games in words: "SF1 game 1 (6-1 24-40), F game 1 (1-3)".
func GameList(games []Game) string {
	var out []string
	for _, g := range games {
		s := fmt.Sprintf("%s game %d (%d-%d", g.Code(), g.Game, g.Black, g.White)
		if g.Result != nil {
			s += " " + g.Result.String()
		}
		out = append(out, s+")")
	}
	return strings.Join(out, ", ")
}
