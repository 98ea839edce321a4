package interchange

import (
	"fmt"
	"slices"
	"strings"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// InferFinal gives the final games that have no match (an imported file's
// games after the Swiss, in the file's order) their matches, from who
// played whom and the Swiss standings, and sets the rules that make them
// so. The open's phase first: the rules (top 2, 4 or 8, a play-off for the
// last place or not, best of K, the 3rd-place match, how a level match is
// decided) are those under which its matches, as Phase makes them from
// the standings, take the most of the games (and end it), the WOC's
// where several do equally (inferredFinal). The games left, among other players, are a
// category's knockout (women's, youth: a file does not say which): each
// group of players connected by them becomes a category, "other" (other1,
// other2... when there are several), its members entered by name, with the
// rules that fit its games best (tournament.CategoryFinal's where several do).
//
// A match's games are taken in the file's order unless that order has the
// match decided before its last game: then in the order closest to it
// that does not, colours alternating (the order played is then a guess,
// and said so). A game that fits no match keeps tournament.Match "".
//
// It returns what it could not infer for certain, in words, each naming
// games with where (an .ELO import gives "line 614"; nil: "final game 3").
// The Swiss must be over. For a tournament not yet stored (an import): it
// makes no Change.
func InferFinal(t *tournament.Tournament, where func(seq int) string) ([]string, error) {
	if where == nil {
		where = func(seq int) string { return fmt.Sprintf("final game %d", seq) }
	}
	var pending []tournament.Game
	for _, g := range t.FinalGames {
		if g.Match == "" {
			pending = append(pending, g)
		}
	}
	if len(pending) == 0 {
		return nil, nil
	}
	if t.Finished() < t.Rounds {
		return []string{fmt.Sprintf("the Swiss is not over (%d of %d rounds finished): the %s after it are in no match", t.Finished(), t.Rounds, tournament.Plural(len(pending), "game"))}, nil
	}
	rows, err := t.SwissOrder("")
	if err != nil {
		return nil, err
	}
	var notes []string
	x := inference{t: t, where: where}
	open := x.best("", rows, pending, inferredFinal)
	if len(open.placed) > 0 {
		t.Final = open.rules
		x.label(open)
		notes = append(notes, x.describe(open, rows, pending)...)
	}
	// The rest, group by group of players.
	rest := groups(unplaced(pending, open.placed))
	for i, group := range rest {
		name := x.categoryName(i, len(rest))
		members := map[int]bool{}
		for _, g := range group {
			members[g.Black], members[g.White] = true, true
		}
		var crows []scoring.Row
		for _, r := range rows {
			if members[r.Player] {
				crows = append(crows, r)
			}
		}
		fit := x.best(name, crows, group, tournament.CategoryFinal)
		if len(fit.placed) == 0 {
			continue
		}
		t.Categories = append(t.Categories, tournament.Category{Name: name, Final: fit.rules})
		var names []string
		for _, r := range crows {
			p := &t.Players[r.Player-1]
			p.Categories = append(p.Categories, name)
			names = append(names, p.Name)
		}
		x.label(fit)
		if ph, err := t.Phase(name); err != nil {
			return nil, err
		} else if !ph.Skipped.IsZero() { // its phase would not be played: no category
			t.Categories = t.Categories[:len(t.Categories)-1]
			for _, r := range crows {
				p := &t.Players[r.Player-1]
				p.Categories = p.Categories[:len(p.Categories)-1]
			}
			x.made = x.made[:len(x.made)-1]
			x.unlabel(func(g tournament.Game) bool { return g.Category == name })
			notes = append(notes, fmt.Sprintf("%s: %s played among themselves, but make no category's knockout: %s", x.span(group), strings.Join(names, "; "), ph.Skipped))
			continue
		}
		level := ""
		if len(crows) == 2 && crows[0].Points == crows[1].Points {
			level = fmt.Sprintf(", a play-off between two players level on %v points", crows[0].Points)
		}
		notes = append(notes, fmt.Sprintf("category %s: %s, who played %s among themselves (%s%s): the file does not say what they have in common (women, youth...)",
			name, strings.Join(names, "; "), tournament.Plural(len(group), "game"), x.span(group), level))
		notes = append(notes, x.describe(fit, crows, group)...)
		if len(fit.placed) < len(group) {
			if why := x.missing(name, crows, group); why != "" {
				notes = append(notes, why)
			}
		}
	}
	// Check each phase as Phase makes it from the tournament: a game it
	// does not take goes back to no match.
	taken := map[int]bool{}
	for _, c := range append([]string{""}, x.made...) {
		ph, err := t.Phase(c)
		if err != nil {
			return nil, err
		}
		for _, m := range ph.Matches {
			for _, g := range m.Games {
				taken[g.Seq] = true
			}
		}
	}
	x.unlabel(func(g tournament.Game) bool { return !taken[g.Seq] })
	for _, g := range t.FinalGames {
		if g.Match == "" {
			notes = append(notes, fmt.Sprintf("%s: %s - %s %s: in no match that the Swiss standings and the other games make", where(g.Seq),
				t.Players[g.Black-1].Name, t.Players[g.White-1].Name, g.Result))
		}
	}
	return notes, nil
}

// inferredFinal is the open's rules where the games fit several: the
// WOC's (whose level rule, the discs of the match, the WOC's files show).
var inferredFinal = tournament.WOCFinal

// inference is InferFinal's work: the tournament, how games are named, the
// categories made.
type inference struct {
	t     *tournament.Tournament
	where func(seq int) string
	made  []string
}

// fit is how a phase's rules fit its games: the games placed (with their
// category, match and number), the phase they make, the matches whose games
// were taken out of the file's order.
type fit struct {
	rules     tournament.FinalRules
	placed    []tournament.Game
	phase     tournament.FinalPhase
	reordered []string
}

// better reports whether f fits more games than g, or as many and ends its
// phase where g does not.
func (f fit) better(g fit) bool {
	return len(f.placed) > len(g.placed) || len(f.placed) == len(g.placed) && f.phase.Over && !g.phase.Over
}

// best finds the rules that fit the games of a phase (category, "" the
// open) best, among the variants of base: base itself where others fit as
// well.
func (x *inference) best(category string, rows []scoring.Row, games []tournament.Game, base tournament.FinalRules) fit {
	var out fit
	for i, r := range variants(base) {
		if f := x.try(r, category, rows, games); i == 0 || f.better(out) {
			out = f
		}
	}
	return out
}

// variants gives the rules to try, base first, then each setting's values
// in turn: top 4, 2 or 8; a play-off or not; best of 1, 3, 5, 2 or 4 (odd
// first); a 3rd-place match of 1 game, none or 3; a level match to the
// seed, the discs, one more game.
func variants(base tournament.FinalRules) []tournament.FinalRules {
	prefer := func(first int, all ...int) []int {
		return append([]int{first}, slices.DeleteFunc(all, func(v int) bool { return v == first })...)
	}
	levels := []tournament.LevelRule{tournament.LevelSeed, tournament.LevelDiscs, tournament.LevelGame}
	var out []tournament.FinalRules
	for _, q := range prefer(base.Qualifiers, 4, 2, 8) {
		playOff := 0
		if base.PlayOff {
			playOff = 1
		}
		for _, po := range prefer(playOff, 1, 0) {
			for _, k := range prefer(base.BestOf, 1, 3, 5, 2, 4) {
				for _, third := range prefer(base.Third, 1, 0, 3) {
					for _, l := range prefer(slices.Index(levels, base.Level), 0, 1, 2) {
						out = append(out, tournament.FinalRules{Qualifiers: q, BestOf: k, Third: third, PlayOff: po == 1, Level: levels[l], Colour: base.Colour})
					}
				}
			}
		}
	}
	return out
}

// try places the games of a phase under rules r: stage by stage, each match
// of the phase (as play makes it from rows and the games placed so far)
// takes the games between its two players.
func (x *inference) try(r tournament.FinalRules, category string, rows []scoring.Row, games []tournament.Game) fit {
	f := fit{rules: r, phase: tournament.FinalPhase{Category: category, Rules: r}}
	if len(rows) < r.Qualifiers {
		return f
	}
	used := map[int]bool{}
	for {
		f.phase = tournament.FinalPhase{Category: category, Rules: r}
		f.phase.Play(rows, f.placed)
		progress := false
		for _, m := range f.phase.Matches {
			if len(m.Games) > 0 {
				continue
			}
			if m.A == phantom || m.B == phantom { // a game the file lacks: let the other win it
				g := tournament.Game{FinalRef: tournament.FinalRef{Seq: -1 - len(f.placed), Category: category, Match: m.Code, Game: 1}, Black: m.A + m.B - phantom, White: phantom,
					Result: &tournament.Result{Black: 33, White: 31, Kind: tournament.Normal}}
				f.placed = append(f.placed, g)
				progress = true
				continue
			}
			var mine []tournament.Game
			for _, g := range games {
				if !used[g.Seq] && (g.Black == m.A && g.White == m.B || g.Black == m.B && g.White == m.A) {
					mine = append(mine, g)
				}
			}
			order := orderMatch(m, mine, r)
			for k, g := range order {
				g.Category, g.Match, g.Game = category, m.Code, k+1
				f.placed = append(f.placed, g)
				used[g.Seq] = true
			}
			if len(order) > 1 && !slices.IsSortedFunc(order, func(a, b tournament.Game) int { return a.Seq - b.Seq }) {
				var at []string
				for _, g := range order {
					at = append(at, x.where(g.Seq))
				}
				f.reordered = append(f.reordered, fmt.Sprintf("%s: taken in the order %s: the file's order has the match decided before its last game",
					tournament.MatchCode(category, m.Code), strings.Join(at, ", ")))
			}
			progress = progress || len(order) > 0
		}
		if !progress {
			return f
		}
	}
}

// orderMatch orders the games between a match's two players as they were
// played: the file's order, unless in it the match is decided before its
// last game; then the order closest to the file's in which it is not and
// colours alternate best (but for the last game of the match, a deciding
// game whose colours may go by lot). Where no order fits, the games of the
// file's order up to the one that decides the match.
func orderMatch(m tournament.Match, games []tournament.Game, r tournament.FinalRules) []tournament.Game {
	// decidedAt is the number of games after which the match is decided (0:
	// not decided after them all).
	decidedAt := func(order []tournament.Game) int {
		for k := 1; k <= len(order); k++ {
			mm := tournament.Match{A: m.A, B: m.B, BestOf: m.BestOf, Games: order[:k]}
			if tournament.Decide(&mm, r); mm.Decided() {
				return k
			}
		}
		return 0
	}
	// swaps counts the games, but for the last of the match, whose colours
	// do not alternate from the game before.
	swaps := func(order []tournament.Game) int {
		n := 0
		for k := 1; k < min(len(order), m.BestOf-1); k++ {
			if order[k].Black != order[k-1].White {
				n++
			}
		}
		return n
	}
	n := len(games)
	d := decidedAt(games)
	if d == 0 || d == n {
		return games
	}
	var best []tournament.Game
	permute(games, func(order []tournament.Game) {
		if d := decidedAt(order); (d == n || d == 0) && (best == nil || swaps(order) < swaps(best)) {
			best = slices.Clone(order)
		}
	})
	if best == nil {
		return games[:d]
	}
	return best
}

// permute calls visit with every order of games, the given order first and
// then each in lexicographic order of the positions (n <= 6).
func permute(games []tournament.Game, visit func([]tournament.Game)) {
	if len(games) > 6 {
		visit(games)
		return
	}
	idx := make([]int, len(games))
	for i := range idx {
		idx[i] = i
	}
	order := make([]tournament.Game, len(games))
	for {
		for i, j := range idx {
			order[i] = games[j]
		}
		visit(order)
		// The next permutation of idx, or the end.
		i := len(idx) - 2
		for i >= 0 && idx[i] >= idx[i+1] {
			i--
		}
		if i < 0 {
			return
		}
		j := len(idx) - 1
		for idx[j] <= idx[i] {
			j--
		}
		idx[i], idx[j] = idx[j], idx[i]
		slices.Reverse(idx[i+1:])
	}
}

// label gives the tournament's games the matches of fit f.
func (x *inference) label(f fit) {
	for _, g := range f.placed {
		i := slices.IndexFunc(x.t.FinalGames, func(h tournament.Game) bool { return h.Seq == g.Seq })
		x.t.FinalGames[i].Category, x.t.FinalGames[i].Match, x.t.FinalGames[i].Game = g.Category, g.Match, g.Game
	}
	if c := f.phase.Category; c != "" {
		x.made = append(x.made, c)
	}
}

// unlabel takes the games that drop out of their matches.
func (x *inference) unlabel(drop func(tournament.Game) bool) {
	for i, g := range x.t.FinalGames {
		if g.Match != "" && drop(g) {
			x.t.FinalGames[i].Category, x.t.FinalGames[i].Match, x.t.FinalGames[i].Game = "", "", g.Seq
		}
	}
}

// describe says what a phase's rules rest on: the games they fit, the rules
// that fit as well (and what they would change), the matches taken out of
// the file's order, the level matches that the rules decide.
func (x *inference) describe(f fit, rows []scoring.Row, games []tournament.Game) []string {
	name := "the open final phase"
	if c := f.phase.Category; c != "" {
		name = "the final phase of " + c
	}
	notes := []string{fmt.Sprintf("%s: %s, from its %s (%s)", name, f.rules, tournament.Plural(len(f.placed), "game"), x.span(f.placed))}
	var also []string
	levelShown := true
	parts := f.rules.Parts()
	for _, alt := range variants(f.rules) {
		if !oneApart(alt, f.rules) { // before Parts: 270 variants
			continue
		}
		var diff []string // the settings of alt that differ
		for i, kv := range alt.Parts() {
			if kv != parts[i] {
				diff = append(diff, kv)
			}
		}
		if len(diff) != 1 {
			continue
		}
		g := x.try(alt, f.phase.Category, rows, games)
		if f.better(g) || g.better(f) {
			continue
		}
		s := diff[0]
		if alt.Level != f.rules.Level {
			levelShown = false
		}
		switch {
		case !slices.Equal(g.phase.Ranking, f.phase.Ranking) && len(g.phase.Ranking) >= 2:
			s += fmt.Sprintf(" (which ranks %s first, %s second)", x.t.Players[g.phase.Ranking[0]-1].Name, x.t.Players[g.phase.Ranking[1]-1].Name)
		case alt.BestOf == f.rules.BestOf && alt.Third == f.rules.Third:
			continue // the same matches, the same ranking
		}
		also = append(also, s)
	}
	if len(also) > 0 && f.phase.Over { // (before the end, many rules fit a few games)
		notes = append(notes, fmt.Sprintf("%s: the games fit as well: %s", name, strings.Join(also, "; ")))
	}
	notes = append(notes, f.reordered...)
	for _, m := range f.phase.Matches {
		if m.How.Kind != tournament.LevelByDiscs && m.How.Kind != tournament.LevelBySeed {
			continue
		}
		head := fmt.Sprintf("%s (%s): level %s-%s after its games", tournament.MatchCode(m.Category, m.Code), x.span(m.Games), m.APoints, m.BPoints)
		how, winner := strings.TrimPrefix(m.How.String(), "level: "), x.t.Players[m.Winner-1].Name
		if levelShown {
			notes = append(notes, fmt.Sprintf("%s: %s went through by %s, as the games after it show (level=%s)", head, winner, how, f.rules.Level))
		} else {
			notes = append(notes, fmt.Sprintf("%s; the file does not say who won it: %s by %s, the rule inferred (level=%s)", head, winner, how, f.rules.Level))
		}
	}
	return notes
}

// oneApart tells whether two rules differ in one setting (one of Parts).
func oneApart(a, b tournament.FinalRules) bool {
	n := 0
	for _, differ := range []bool{a.Qualifiers != b.Qualifiers, a.BestOf != b.BestOf, a.Third != b.Third, a.PlayOff != b.PlayOff, a.Level != b.Level, a.Colour != b.Colour} {
		if differ {
			n++
		}
	}
	return n == 1
}

// span names the first and the last of games (by Seq).
func (x *inference) span(games []tournament.Game) string {
	lo, hi := games[0].Seq, games[0].Seq
	for _, g := range games {
		lo, hi = min(lo, g.Seq), max(hi, g.Seq)
	}
	if lo == hi {
		return x.where(lo)
	}
	return x.where(lo) + " to " + x.where(hi)
}

// categoryName names the i-th of n groups of players: other, or other1,
// other2..., not a category's name already.
func (x *inference) categoryName(i, n int) string {
	name := "other"
	if n > 1 {
		name = fmt.Sprintf("other%d", i+1)
	}
	for slices.ContainsFunc(x.t.Categories, func(c tournament.Category) bool { return strings.EqualFold(c.Name, name) }) {
		name += "'"
	}
	return name
}

// unplaced returns the games not in placed (by Seq).
func unplaced(games, placed []tournament.Game) []tournament.Game {
	return slices.DeleteFunc(slices.Clone(games), func(g tournament.Game) bool {
		return slices.ContainsFunc(placed, func(p tournament.Game) bool { return p.Seq == g.Seq })
	})
}

// groups splits games into the groups of players they connect, each with
// its games, in the order of their first game.
func groups(games []tournament.Game) [][]tournament.Game {
	group := map[int]int{} // player: group number
	var out [][]tournament.Game
	for _, g := range games {
		a, okA := group[g.Black]
		b, okB := group[g.White]
		switch {
		case !okA && !okB:
			a = len(out)
			out = append(out, nil)
		case !okA:
			a = b
		case okB && a != b: // merge b into a
			if b < a {
				a, b = b, a
			}
			out[a] = append(out[a], out[b]...)
			for p, n := range group {
				if n == b {
					group[p] = a
				}
			}
			out[b] = nil
		}
		group[g.Black], group[g.White] = a, a
		out[a] = append(out[a], g)
	}
	out = slices.DeleteFunc(out, func(gs []tournament.Game) bool { return gs == nil })
	for _, gs := range out {
		slices.SortFunc(gs, func(a, b tournament.Game) int { return a.Seq - b.Seq })
	}
	return out
}

// phantom stands, in missing's rows, for a player who has no game in the
// file.
const phantom = -1

// missing explains the games of a group of 3 players that fit no phase of
// theirs, when they fit a knockout of 4 (tournament.CategoryFinal) with a 4th player
// who has no game in the file: where that player ranks in the Swiss, and
// the games the file lacks ("" if they do not fit so).
func (x *inference) missing(category string, rows []scoring.Row, games []tournament.Game) string {
	if len(rows) != 3 {
		return ""
	}
	var fits []int // the places of the 4th that fit every game
	var lacks []string
	for at := 0; at <= len(rows); at++ {
		with := slices.Insert(slices.Clone(rows), at, scoring.Row{Player: phantom, Points: rows[min(at, len(rows)-1)].Points})
		f := x.try(tournament.CategoryFinal, category, with, games)
		var lack []string
		real := 0
		for _, g := range f.placed {
			if g.Seq > 0 {
				real++
			} else {
				lack = append(lack, fmt.Sprintf("%s (%s v the 4th)", g.Match, x.t.Players[g.Black-1].Name))
			}
		}
		if real == len(games) {
			fits = append(fits, at)
			if lacks == nil {
				lacks = lack
			} else if !slices.Equal(lack, lacks) {
				return ""
			}
		}
	}
	if len(fits) == 0 {
		return ""
	}
	var place []string
	if lo := fits[0]; lo > 0 {
		place = append(place, "after "+x.t.Players[rows[lo-1].Player-1].Name)
	}
	if hi := fits[len(fits)-1]; hi < len(rows) {
		place = append(place, "before "+x.t.Players[rows[hi].Player-1].Name)
	}
	return fmt.Sprintf("category %s: its games fit a knockout of 4 (%s) whose 4th player has no game in the file, ranked in the Swiss %s: the file lacks %s",
		category, tournament.CategoryFinal, strings.Join(place, " and "), strings.Join(lacks, " and "))
}
