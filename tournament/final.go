package tournament

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
)

// FinalRules are how a final phase is played after the Swiss (RULES.md
// section 7): the top Qualifiers of the standings (0: no final phase), a
// tie on points across the last place settled by a play-off game between
// the two best of the tied players (PlayOff) or by the tie-breaks alone;
// matches of BestOf games (a win 1, a draw 1/2, stopped once decided),
// colours alternating from a first game's colour given by Colour; a match
// level after its games decided by Level; a 3rd-place match of Third games
// (0: none). Written "woc", "none", or "top=4,bestof=3,third=1,playoff=1,
// level=seed,colour=lot".
type FinalRules struct {
	Qualifiers int        // 0, 2, 4 or 8
	BestOf     int        // games of a match, 1 or more (odd as a rule: France plays a 2-game final)
	Third      int        // games of the 3rd-place match; 0: none
	PlayOff    bool       // a play-off game for the last place; false: the tie-breaks decide
	Level      LevelRule  // a match level after its games
	Colour     ColourRule // game 1's colour, and a deciding game's
}

// LevelRule decides a match level after its games.
type LevelRule string

// The ways a level match is decided.
const (
	LevelSeed  LevelRule = "seed"  // the higher Swiss seed
	LevelDiscs LevelRule = "discs" // the discs of the match, then the seed (the WOC's: see WOCFinal)
	LevelGame  LevelRule = "game"  // one more game, and again while drawn
)

// ColourRule gives the colours of a match's first game (and of a deciding
// game); the others alternate.
type ColourRule string

// The ways game 1's colour is chosen; the director may always choose it
// (FinalOptions.Black).
const (
	ColourLot  ColourRule = "lot"  // a lot, drawn from the tournament's seed and the match
	ColourSeed ColourRule = "seed" // the higher seed has black
)

// WOCFinal is the World Othello Championship's final phase: the top 4, a
// play-off for the last place, best-of-3 semi-finals and final, a one-game
// 3rd-place match. A match level after its games goes to the discs of the
// match, as the WOC's did where a file or the WOF's results show it: WOC
// 1988's SF1 (1.5-1.5, BRIGHTWELL through to the final on the discs,
// 118-74, file 1988 lines of %Round SF1) and WOC 2019's final (1.5-1.5;
// the WOF published TAKAHASHI Akihiro, 109 discs to 83, as the 2019
// champion, not the higher seed). RULES.md section 7 leaves it a setting.
var WOCFinal = FinalRules{Qualifiers: 4, BestOf: 3, Third: 1, PlayOff: true, Level: LevelDiscs, Colour: ColourLot}

// CategoryFinal is a category's final phase by default: the WOC's
// single-game semi-finals, final and 3rd-place game among the top 4.
var CategoryFinal = FinalRules{Qualifiers: 4, BestOf: 1, Third: 1, Level: LevelSeed, Colour: ColourLot}

// IsZero reports whether there is no final phase.
func (f FinalRules) IsZero() bool { return f.Qualifiers == 0 }

// String writes the rules as ParseFinalRules reads them.
func (f FinalRules) String() string {
	if f.IsZero() {
		return "none"
	}
	if f == WOCFinal {
		return "woc"
	}
	return strings.Join(f.Parts(), ",")
}

// Parts gives the rules as ParseFinalRules reads each: "top=4", ...
func (f FinalRules) Parts() []string {
	return []string{"top=" + strconv.Itoa(f.Qualifiers), "bestof=" + strconv.Itoa(f.BestOf), "third=" + strconv.Itoa(f.Third),
		"playoff=" + strconv.Itoa(b2i(f.PlayOff)), "level=" + string(f.Level), "colour=" + string(f.Colour)}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MarshalText writes the rules (String).
func (f FinalRules) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads rules written by String ("" is none).
func (f *FinalRules) UnmarshalText(b []byte) error {
	r, err := ParseFinalRules(string(b))
	if err != nil {
		return err
	}
	*f = r
	return nil
}

// ParseFinalRules reads a final phase's rules: "none", "woc", or the WOC's
// with the options given changed: "top=2,bestof=2,third=0" (top 2, 4 or 8;
// bestof and third games; playoff 0 or 1; level seed, discs or game; colour
// lot or seed).
func ParseFinalRules(s string) (FinalRules, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "", "none":
		return FinalRules{}, nil
	case "woc":
		return WOCFinal, nil
	}
	f := WOCFinal
	fields := strings.Split(s, ",")
	if fields[0] == "woc" {
		fields = fields[1:]
	}
	for _, kv := range fields {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		n, err := strconv.Atoi(v)
		num := func(lo, hi int) error {
			if err != nil || n < lo || n > hi {
				return invalidf("--final %q: %s=%s: a whole number %d to %d", s, k, v, lo, hi)
			}
			return nil
		}
		switch {
		case !ok:
			return FinalRules{}, invalidf("--final %q: %q: write name=value (top, bestof, third, playoff, level, colour), or woc or none", s, kv)
		case k == "top":
			if err != nil || n != 2 && n != 4 && n != 8 {
				return FinalRules{}, invalidf("--final %q: top=%s: the top 2, 4 or 8 qualify", s, v)
			}
			f.Qualifiers = n
		case k == "bestof":
			if err := num(1, 9); err != nil {
				return FinalRules{}, err
			}
			f.BestOf = n
		case k == "third":
			if err := num(0, 9); err != nil {
				return FinalRules{}, err
			}
			f.Third = n
		case k == "playoff":
			if err := num(0, 1); err != nil {
				return FinalRules{}, err
			}
			f.PlayOff = n == 1
		case k == "level" && (v == string(LevelSeed) || v == string(LevelDiscs) || v == string(LevelGame)):
			f.Level = LevelRule(v)
		case k == "colour" || k == "color":
			if v != string(ColourLot) && v != string(ColourSeed) {
				return FinalRules{}, invalidf("--final %q: colour=%s: lot or seed", s, v)
			}
			f.Colour = ColourRule(v)
		case k == "level":
			return FinalRules{}, invalidf("--final %q: level=%s: seed (the higher Swiss seed), discs (of the match) or game (one more)", s, v)
		default:
			return FinalRules{}, invalidf("--final %q: no option %q (top, bestof, third, playoff, level, colour)", s, k)
		}
	}
	return f, nil
}

// Code is the game's match as 'otd result' names it: "SF1", or
// "women:SF1" for a category's.
func (f FinalRef) Code() string { return MatchCode(f.Category, f.Match) }

// MatchCode names a match of category ("" the open) as 'otd result' does:
// "SF1", "women:SF1".
func MatchCode(category, match string) string {
	if category == "" {
		return match
	}
	return category + ":" + match
}

// Match is a match of a final phase as its games so far make it.
type Match struct {
	Category string
	Code     string // PO, QF1..QF4, SF1, SF2, F, 3P
	A, B     int    // the players, A the higher seed
	Games    []Game
	APoints  scoring.HalfPoints // A's points: a win 2 half-points, a draw 1
	BPoints  scoring.HalfPoints
	BestOf   int
	Winner   int      // 0 until decided
	Loser    int      // 0 until decided
	How      Decision // how it was decided, when not on points (zero if on points)
}

// Decision is how a final match was decided when not on points: its kind
// and, for the discs, the match's discs (the winner's first). The command
// line words it in English (String); the pages translate it.
type Decision struct {
	Kind                    DecisionKind
	WinnerDiscs, LoserDiscs int // LevelByDiscs
}

// DecisionKind is a kind of Decision.
type DecisionKind string

// The kinds of Decision.
const (
	OnPoints        DecisionKind = ""              // on points (the zero Decision)
	ByDecidingGame  DecisionKind = "deciding game" // a game after best-of, not drawn
	LevelAsRecorded DecisionKind = "as recorded"   // level: the last game's result names the loser
	LevelByDiscs    DecisionKind = "discs"         // level: the discs of the match (level=discs)
	LevelBySeed     DecisionKind = "seed"          // level: the higher Swiss seed (level=seed)
)

// String gives the decision as the command line says it: "level: the
// higher Swiss seed", "level: the discs of the match, 98-94"; "" on points.
func (d Decision) String() string {
	switch d.Kind {
	case ByDecidingGame:
		return "a deciding game"
	case LevelAsRecorded:
		return "level: went through as recorded"
	case LevelByDiscs:
		return fmt.Sprintf("level: the discs of the match, %d-%d", d.WinnerDiscs, d.LoserDiscs)
	case LevelBySeed:
		return "level: the higher Swiss seed"
	}
	return ""
}

// PhaseNote says why a category's final phase is not played (FinalPhase's
// Skipped) or waits for the open's (Waiting): its kind and its data. The
// command line words it in English (String); the pages translate it.
type PhaseNote struct {
	Kind            PhaseNoteKind
	Players, Needed int    // TooFewPlayers: the players, the qualifiers the phase needs
	Player          int    // InOpenSemiFinals, InOpenMatch: the category's member
	Name            string // the member's name
	Match           string // InOpenMatch: the open's match code (PO, QF1...)
}

// PhaseNoteKind is a kind of PhaseNote.
type PhaseNoteKind string

// The kinds of PhaseNote.
const (
	TooFewPlayers    PhaseNoteKind = "too few players"     // skipped: fewer players than qualifiers
	InOpenSemiFinals PhaseNoteKind = "in open semi-finals" // skipped: a member reached the open semi-finals
	InOpenMatch      PhaseNoteKind = "in open match"       // waiting: a member plays an open match that may take them there
)

// IsZero reports whether there is no note.
func (n PhaseNote) IsZero() bool { return n.Kind == "" }

// String gives the note as the command line says it: "3 players: fewer
// than the 4 players it needs", "player 6 (Ann), of the category, reached
// the open semi-finals"; "" for none.
func (n PhaseNote) String() string {
	switch n.Kind {
	case TooFewPlayers:
		return fmt.Sprintf("%s: fewer than the %d players it needs", Plural(n.Players, "player"), n.Needed)
	case InOpenSemiFinals:
		return fmt.Sprintf("player %d (%s), of the category, reached the open semi-finals", n.Player, n.Name)
	case InOpenMatch:
		return fmt.Sprintf("player %d (%s), of the category, plays the open %s, which may take them to the semi-finals", n.Player, n.Name, n.Match)
	}
	return ""
}

// Decided reports whether the match has a winner.
func (m Match) Decided() bool { return m.Winner != 0 }

// FinalPhase is a final phase (the open's, or a category's) as its rules,
// the Swiss standings and the games played make it.
type FinalPhase struct {
	Category string
	Rules    FinalRules
	Seeds    []int     // the qualifiers in seed order (known once a play-off is decided)
	Tied     []int     // the players tied on points across the last place, by tie-break
	Matches  []Match   // in order: PO, QF, SF, F, 3P
	Skipped  PhaseNote // why a category's phase is not played (zero if it is)
	Waiting  PhaseNote // why a category's phase waits for the open's (a member in its play-off or a quarter-final)
	Ranking  []int     // the final ranking, when the phase is over: then the rest in Swiss order
	Over     bool
}

// stages are the matches of a phase with q qualifiers after the play-off:
// each with the seeds it pairs, or the matches whose winners (w) or losers
// (l) it pairs.
func stages(q int) [][]string {
	switch q {
	case 2:
		return [][]string{{"F"}}
	case 4:
		return [][]string{{"SF1", "SF2"}, {"F", "3P"}}
	case 8:
		return [][]string{{"QF1", "QF2", "QF3", "QF4"}, {"SF1", "SF2"}, {"F", "3P"}}
	}
	return nil
}

// feeders gives, for a match after the first stage, the two matches whose
// winners (or, for 3P, losers) it pairs.
var feeders = map[int]map[string][2]string{
	4: {"F": {"SF1", "SF2"}, "3P": {"SF1", "SF2"}},
	8: {"SF1": {"QF1", "QF2"}, "SF2": {"QF3", "QF4"}, "F": {"SF1", "SF2"}, "3P": {"SF1", "SF2"}},
}

// seedPairs gives the seeds (1-based) a first-stage match pairs: 1 v 4 and
// 2 v 3 of 4; 1 v 8, 4 v 5, 2 v 7, 3 v 6 of 8; 1 v 2 of 2.
var seedPairs = map[int]map[string][2]int{
	2: {"F": {1, 2}},
	4: {"SF1": {1, 4}, "SF2": {2, 3}},
	8: {"QF1": {1, 8}, "QF2": {4, 5}, "QF3": {2, 7}, "QF4": {3, 6}},
}

// Category is a group of players with a ranking (and titles) of its own:
// women, youth, seniors, anything a director defines (RULES.md section 7).
// A player belongs to it when listed in their Categories, or, for a
// category with birth years, when born in them.
type Category struct {
	Name     string `json:"name"`
	BornFrom int    `json:"born_from,omitempty"` // born in this year or later (youth); 0: no limit
	BornTo   int    `json:"born_to,omitempty"`   // born in this year or earlier (seniors); 0: no limit
	// Youth: the members are the youth, born in the event's year less the
	// youth age or later (Settings.YouthBornFrom); BornFrom follows them
	// (Settings.Resolve).
	Youth bool       `json:"youth,omitempty"`
	Final FinalRules `json:"final,omitzero"` // its own final phase; none by default
}

// Member reports whether player p belongs to category c.
func (c Category) Member(p Player) bool {
	if slices.Contains(p.Categories, c.Name) {
		return true
	}
	y := p.Born.Year
	if c.BornFrom == 0 && c.BornTo == 0 || y == 0 {
		return false
	}
	return (c.BornFrom == 0 || y >= c.BornFrom) && (c.BornTo == 0 || y <= c.BornTo)
}

// category returns the category named name.
func (t *Tournament) category(name string) (Category, bool) {
	i := slices.IndexFunc(t.Categories, func(c Category) bool { return strings.EqualFold(c.Name, name) })
	if i < 0 {
		return Category{}, false
	}
	return t.Resolve(t.Categories[i]), true
}

// Members returns the players of category name, in Swiss standings order
// ("" is every player).
func (t *Tournament) Members(name string) []int {
	c, _ := t.category(name)
	var out []int
	for _, p := range t.Players {
		if name == "" || c.Member(p) {
			out = append(out, p.Number)
		}
	}
	return out
}

// finalRulesOf returns the final phase rules of category ("" the open).
func (t *Tournament) finalRulesOf(category string) FinalRules {
	if category == "" {
		return t.Final
	}
	c, _ := t.category(category)
	return c.Final
}

// SwissOrder returns the players of category ("" every player) who did
// not withdraw, in the order of the Swiss standings after the last round.
// A player withdrawn once the Swiss is over (from the round after the
// last) is out too: out of the final phases.
func (t *Tournament) SwissOrder(category string) ([]scoring.Row, error) {
	rows, err := t.Standings(t.Rounds)
	if err != nil {
		return nil, err
	}
	c, _ := t.category(category)
	var out []scoring.Row
	for _, r := range rows {
		if p := t.Players[r.Player-1]; p.Left == 0 && (category == "" || c.Member(p)) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Phase works out the final phase of category ("" the open) from its rules,
// the Swiss standings and the final games so far.
func (t *Tournament) Phase(category string) (FinalPhase, error) {
	ph := FinalPhase{Category: category, Rules: t.finalRulesOf(category)}
	if ph.Rules.IsZero() || t.Finished() < t.Rounds {
		return ph, nil
	}
	rows, err := t.SwissOrder(category)
	if err != nil {
		return ph, err
	}
	q := ph.Rules.Qualifiers
	if len(rows) < q {
		ph.Skipped = PhaseNote{Kind: TooFewPlayers, Players: len(rows), Needed: q}
		return ph, nil
	}
	if category != "" {
		if ph.Skipped, ph.Waiting, err = t.skipCategory(category); err != nil || !ph.Skipped.IsZero() || !ph.Waiting.IsZero() {
			return ph, err
		}
	}
	ph.Play(rows, t.finalGames(category))
	return ph, nil
}

// Play works out the phase's matches, seeds and ranking from the Swiss
// order of its players (rows, without those who withdrew) and its games.
func (ph *FinalPhase) Play(rows []scoring.Row, games []Game) {
	match := func(code string, a, b, bestOf int) Match {
		m := Match{Category: ph.Category, Code: code, A: a, B: b, BestOf: bestOf}
		for _, g := range games {
			if g.Match == code {
				m.Games = append(m.Games, g)
			}
		}
		// By number: a file's games may not be in the order played.
		slices.SortStableFunc(m.Games, func(x, y Game) int { return x.Game - y.Game })
		Decide(&m, ph.Rules)
		return m
	}
	q := ph.Rules.Qualifiers
	// Qualification: a tie on points across the last place.
	seeds := make([]int, 0, q)
	last := rows[q-1].Points
	k := slices.IndexFunc(rows, func(r scoring.Row) bool { return r.Points == last })
	m := k
	for m+1 < len(rows) && rows[m+1].Points == last {
		m++
	}
	for _, r := range rows[:q-1] {
		seeds = append(seeds, r.Player)
	}
	switch {
	case m > q-1 && ph.Rules.PlayOff:
		for _, r := range rows[k : m+1] {
			ph.Tied = append(ph.Tied, r.Player)
		}
		po := match("PO", rows[q-1].Player, rows[q].Player, 1)
		ph.Matches = append(ph.Matches, po)
		if !po.Decided() {
			ph.Seeds = seeds
			return
		}
		seeds = append(seeds, po.Winner)
	default:
		seeds = append(seeds, rows[q-1].Player)
	}
	ph.Seeds = seeds
	// The knockout, stage by stage.
	decided := map[string]Match{}
	for s, stage := range stages(q) {
		for _, code := range stage {
			bestOf := ph.Rules.BestOf
			if code == "3P" {
				if ph.Rules.Third == 0 {
					continue
				}
				bestOf = ph.Rules.Third
			}
			var a, b int
			if s == 0 {
				p := seedPairs[q][code]
				a, b = seeds[p[0]-1], seeds[p[1]-1]
			} else {
				f := feeders[q][code]
				x, y := decided[f[0]], decided[f[1]]
				if !x.Decided() || !y.Decided() {
					continue
				}
				if code == "3P" {
					a, b = x.Loser, y.Loser
				} else {
					a, b = x.Winner, y.Winner
				}
				if slices.Index(seeds, b) < slices.Index(seeds, a) {
					a, b = b, a // A the higher seed
				}
			}
			mt := match(code, a, b, bestOf)
			ph.Matches = append(ph.Matches, mt)
			decided[code] = mt
		}
	}
	f, third := decided["F"], decided["3P"]
	if f.Decided() && (ph.Rules.Third == 0 || third.Decided()) {
		ph.Over = true
		ph.Ranking = []int{f.Winner, f.Loser}
		if third.Decided() {
			ph.Ranking = append(ph.Ranking, third.Winner, third.Loser)
		}
		for _, r := range rows { // the rest in Swiss order
			if !slices.Contains(ph.Ranking, r.Player) {
				ph.Ranking = append(ph.Ranking, r.Player)
			}
		}
	}
}

// skipCategory says why category's final phase is not played: one of its
// members reached the open semi-finals (skip); or why it waits: a member
// may still reach them, the open's play-off (or quarter-finals) undecided.
func (t *Tournament) skipCategory(category string) (skip, wait PhaseNote, err error) {
	open, err := t.Phase("")
	if err != nil || open.Rules.IsZero() || !open.Skipped.IsZero() || len(open.Seeds) == 0 && len(open.Matches) == 0 {
		return skip, wait, err
	}
	c, _ := t.category(category)
	var certain []int // the open semi-finalists known

	for _, m := range open.Matches {
		switch {
		case m.Code == "SF1" || m.Code == "SF2" || open.Rules.Qualifiers == 2 && m.Code == "F":
			certain = append(certain, m.A, m.B)
		case strings.HasPrefix(m.Code, "QF") && m.Decided():
			certain = append(certain, m.Winner)
		case (m.Code == "PO" || strings.HasPrefix(m.Code, "QF")) && !m.Decided():
			for _, n := range []int{m.A, m.B} {
				if p := t.Players[n-1]; c.Member(p) && wait.IsZero() {
					wait = PhaseNote{Kind: InOpenMatch, Player: n, Name: p.Name, Match: m.Code}
				}
			}
		}
	}
	if open.Rules.Qualifiers <= 4 {
		certain = append(certain, open.Seeds...) // every qualifier plays the semi-finals (or the final of 2)
	}
	for _, n := range certain {
		if p := t.Players[n-1]; c.Member(p) {
			return PhaseNote{Kind: InOpenSemiFinals, Player: n, Name: p.Name}, PhaseNote{}, nil
		}
	}
	return skip, wait, nil
}

// finalGames returns the final games of category, by match and game.
func (t *Tournament) finalGames(category string) []Game {
	var out []Game
	for _, g := range t.FinalGames {
		if g.Category == category {
			out = append(out, g)
		}
	}
	return out
}

// Decide works out a match's points and, once it is decided, its winner.
// A match level after its games goes to whoever went through the last
// game, when that game is a draw that says so (Result.Loser, as a file
// records it), else by the rules' Level.
func Decide(m *Match, rules FinalRules) {
	var aDiscs, bDiscs int
	played := 0
	for _, g := range m.Games {
		if g.Result == nil {
			return // a game to play: not decided yet
		}
		bp, wp := finalPoints(*g.Result)
		bd, wd := g.Result.Black, g.Result.White
		if g.Black != m.A {
			bp, wp, bd, wd = wp, bp, wd, bd
		}
		m.APoints += bp
		m.BPoints += wp
		aDiscs += bd
		bDiscs += wd
		played++
		if played > m.BestOf && bp != wp { // a deciding game, not drawn
			m.setWinner(bp > wp, Decision{Kind: ByDecidingGame})
			return
		}
	}
	left := scoring.HalfPoints(2 * max(m.BestOf-played, 0))
	var last *Result
	if played > 0 {
		last = m.Games[played-1].Result
	}
	switch {
	case m.APoints > m.BPoints+left:
		m.setWinner(true, Decision{})
	case m.BPoints > m.APoints+left:
		m.setWinner(false, Decision{})
	case played < m.BestOf:
	case last != nil && last.Kind == Normal && last.Loser != "":
		loser := m.Games[played-1].Black
		if last.Loser == White {
			loser = m.Games[played-1].White
		}
		m.setWinner(loser != m.A, Decision{Kind: LevelAsRecorded})
	case rules.Level == LevelDiscs && aDiscs != bDiscs:
		m.setWinner(aDiscs > bDiscs, Decision{Kind: LevelByDiscs, WinnerDiscs: max(aDiscs, bDiscs), LoserDiscs: min(aDiscs, bDiscs)})
	case rules.Level == LevelGame:
		// one more game, and again while drawn
	default:
		m.setWinner(true, Decision{Kind: LevelBySeed})
	}
}

func (m *Match) setWinner(a bool, how Decision) {
	m.Winner, m.Loser, m.How = m.A, m.B, how
	if !a {
		m.Winner, m.Loser = m.B, m.A
	}
}

// finalPoints are the half-points of a final game: a win 2, a draw 1.
func finalPoints(r Result) (black, white scoring.HalfPoints) {
	switch {
	case r.Kind == NoDiscs && r.Loser == "":
		return 1, 1
	case r.Kind != Normal && r.Loser == Black:
		return 0, 2
	case r.Kind != Normal:
		return 2, 0
	case r.Black > r.White:
		return 2, 0
	case r.White > r.Black:
		return 0, 2
	}
	return 1, 1
}

// FinalOptions are a director's instructions for the next final games: who
// has black in a match's next game, where the rules would draw lots (game 1
// and a deciding game), by match code ("SF1", "women:F").
type FinalOptions struct {
	Black map[string]int
}

// FinalNext pairs the next game of every undecided match of every final
// phase (the open's and the categories'): the play-off first, then the
// first stage, then, as matches are decided, the next stage. Colours
// alternate within a match; game 1 and a deciding game follow the rules'
// Colour unless the director gives black (o.Black). The Swiss must be over.
func (t *Tournament) FinalNext(o FinalOptions) (Change, error) {
	if t.Final.IsZero() && !slices.ContainsFunc(t.Categories, func(c Category) bool { return !c.Final.IsZero() }) {
		return Change{}, Invalid(ErrNoFinal)
	}
	if t.Finished() < t.Rounds {
		return Change{}, fmt.Errorf("%w: the Swiss has %d rounds and %d are finished; the final phase comes after the last", ErrNotFinished, t.Rounds, t.Finished())
	}
	phases := t.phaseNames()
	var added []Game
	seq := 0 // the last paired's: a game dropped (Rederive) leaves a gap
	if n := len(t.FinalGames); n > 0 {
		seq = t.FinalGames[n-1].Seq
	}
	used := map[string]bool{}
	for _, cat := range phases {
		ph, err := t.Phase(cat)
		if err != nil {
			return Change{}, err
		}
		if ph.Rules.IsZero() || !ph.Skipped.IsZero() || !ph.Waiting.IsZero() {
			continue
		}
		for _, m := range ph.Matches {
			if m.Decided() || slices.ContainsFunc(m.Games, func(g Game) bool { return g.Result == nil }) {
				continue
			}
			code := MatchCode(cat, m.Code)
			used[code] = true
			n := len(m.Games) + 1
			black, white := m.A, m.B
			switch b, ok := o.Black[code]; {
			case ok && b != m.A && b != m.B:
				return Change{}, invalidf("--black %s=%d: player %d is not in %s (%d %s v %d %s)", code, b, b, code, m.A, t.Players[m.A-1].Name, m.B, t.Players[m.B-1].Name)
			case ok:
				if b == m.B {
					black, white = m.B, m.A
				}
			case n == 1 || n > m.BestOf:
				if t.colourLot(code, n, ph.Rules) {
					black, white = m.B, m.A
				}
			default:
				prev := m.Games[n-2]
				black, white = prev.White, prev.Black
			}
			seq++
			g := Game{FinalRef: FinalRef{Category: cat, Match: m.Code, Game: n, Seq: seq}, Black: black, White: white}
			added = append(added, g)
		}
	}
	for code := range o.Black {
		if !used[code] {
			return Change{}, invalidf("--black %s: no game of %s is paired now", code, code)
		}
	}
	if len(added) == 0 {
		return Change{}, t.finalIdle()
	}
	t.FinalGames = append(t.FinalGames, added...)
	var parts []string
	for _, g := range added {
		parts = append(parts, fmt.Sprintf("%s game %d", g.Code(), g.Game))
	}
	return t.change(ActFinalNext, "final phase: "+strings.Join(parts, ", "), State{}, State{FinalGames: added}), nil
}

// colourLot draws game n's colours of match code: true gives black to B.
func (t *Tournament) colourLot(code string, n int, rules FinalRules) bool {
	if rules.Colour == ColourSeed {
		return false
	}
	var h uint64 = 14695981039346656037 // FNV-1a of the match's code and game
	for _, c := range []byte(fmt.Sprintf("%s/%d", code, n)) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(t.Seed, h)).IntN(2) == 1
}

// finalIdle says why FinalNext has nothing to pair.
func (t *Tournament) finalIdle() error {
	var waiting []Game
	for _, g := range t.FinalGames {
		if g.Result == nil {
			waiting = append(waiting, g)
		}
	}
	if len(waiting) > 0 {
		return &FinalWaitingError{Games: waiting}
	}
	return ErrFinalOver
}

// Game returns the game of match code ("SF1", "women:F") numbered n.
func (t *Tournament) FinalGame(code string, n int) (*Game, error) {
	for i := range t.FinalGames {
		if g := &t.FinalGames[i]; g.Code() == code && g.Game == n {
			return g, nil
		}
	}
	var codes []string
	for _, g := range t.FinalGames {
		if c := g.Code(); c != "" && !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	if len(codes) == 0 {
		return nil, fmt.Errorf("%s game %d: %w: %w", code, n, ErrNoGame, ErrNoFinalGames)
	}
	return nil, fmt.Errorf("%s game %d: %w (the matches paired: %s)", code, n, ErrNoGame, strings.Join(codes, ", "))
}

type prefixed struct {
	err  error
	text string
}

func (p *prefixed) Error() string { return p.text }
func (p *prefixed) Unwrap() error { return p.err }

// FinalRanking is the final ranking of the open event: 1-2 from the
// final, 3-4 from the 3rd-place match, then the Swiss standings' order (of
// the players who did not withdraw, then those who did); the Swiss order
// alone (after the rounds paired so far) when there is no final phase, or
// it is not over.
func (t *Tournament) FinalRanking() ([]int, bool, error) {
	ph, err := t.Phase("")
	if err != nil {
		return nil, false, err
	}
	rows, err := t.Standings(t.Paired())
	if err != nil {
		return nil, false, err
	}
	order := slices.Clone(ph.Ranking)
	for _, r := range rows {
		if !slices.Contains(order, r.Player) {
			order = append(order, r.Player)
		}
	}
	return order, ph.Over, nil
}

// Team is a team's score: the sum of its best TeamRules.Best members'
// Swiss points.
type Team struct {
	Name    string
	Rank    int                // equal scores share a rank
	Points  scoring.HalfPoints // the best members' points
	Counted []int              // the members counted, best first
	Members []int              // the members who may count (none of TeamRules.Exclude), in Swiss order
}

// TeamRules are how teams are ranked: the best Best members' Swiss scores
// (3 at the WOC), the members of the categories Exclude left out (a youth
// player does not count, WOC 2017 rules).
type TeamRules struct {
	Best    int      `json:"best"`
	Exclude []string `json:"exclude,omitempty"`
}

// TeamOf returns player p's team: p.Team, their country by default, ""
// for none.
func TeamOf(p Player) string {
	switch p.Team {
	case "":
		return p.Country
	case NoTeam:
		return ""
	}
	return p.Team
}

// NoTeam is the team of a player in no team (Player.Team).
const NoTeam = "-"

// Teams ranks the teams by the sum of their best TeamRules.Best members'
// Swiss points (after the rounds paired so far); equal scores share a
// place.
func (t *Tournament) Teams() ([]Team, error) {
	rows, err := t.Standings(t.Paired())
	if err != nil {
		return nil, err
	}
	best := cmp.Or(t.TeamRules.Best, 3)
	byName := map[string]*Team{}
	var teams []*Team
	for _, r := range rows {
		p := t.Players[r.Player-1]
		name := TeamOf(p)
		if name == "" || slices.ContainsFunc(t.TeamRules.Exclude, func(c string) bool {
			cat, ok := t.category(c)
			return ok && cat.Member(p)
		}) {
			continue
		}
		tm := byName[name]
		if tm == nil {
			tm = &Team{Name: name}
			byName[name] = tm
			teams = append(teams, tm)
		}
		tm.Members = append(tm.Members, r.Player)
		if len(tm.Counted) < best {
			tm.Counted = append(tm.Counted, r.Player)
			tm.Points += r.Points
		}
	}
	slices.SortStableFunc(teams, func(a, b *Team) int { return cmp.Compare(b.Points, a.Points) })
	out := make([]Team, len(teams))
	for i, tm := range teams {
		tm.Rank = i + 1
		if i > 0 && tm.Points == teams[i-1].Points {
			tm.Rank = out[i-1].Rank
		}
		out[i] = *tm
	}
	return out, nil
}
