package tournament

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/otd-project/otd/engine"
	"slices"
	"strings"
	"time"
)

// ChangeVersion is the version of the JSON form of Change that this otd
// writes. Version 0 is the form of otd's first schema (untagged Go structs),
// which DecodeChange still reads; version 1 has no actor, and its notes are
// in the subject, after "; "; version 2 carries the actor and the notes.
const ChangeVersion = 2

// Action names a kind of change; it is what the audit trail shows.
type Action string

// The actions of a director.
const (
	ActTournamentNew  Action = "tournament new"
	ActImport         Action = "import"
	ActSettings       Action = "settings"
	ActPlayerAdd      Action = "player add"
	ActPlayerEdit     Action = "player edit"
	ActPlayerWithdraw Action = "player withdraw"
	ActPlayerAbsent   Action = "player absent"
	ActPlayerRemove   Action = "player remove"
	ActRoundPair      Action = "round pair"
	ActRoundUnpair    Action = "round unpair"
	ActPairForbid     Action = "pair forbid"
	ActPairAllow      Action = "pair allow"
	ActFinalNext      Action = "final next"
	ActResult         Action = "result"
	ActResultCorrect  Action = "result correct"
	ActUndo           Action = "undo"
	// ActDirectorPassword: the director's password for the venue's
	// console set (its hash is kept apart, never in the trail); not undone.
	ActDirectorPassword Action = "director password"
)

// Undoable reports whether a change of this kind can be undone: every
// change but the creation of the tournament (new or imported), an undo and
// the director's password set.
func (a Action) Undoable() bool {
	return a != ActTournamentNew && a != ActImport && a != ActUndo && a != ActDirectorPassword
}

// Change is what one operation changed: the entities it touched as they were
// before and as they are after, each side holding only those entities. It is
// the payload of the audit row and all that undo needs. An entity is a player
// (by number), a game (by round and table), a game's result, a final game (by
// its place) or the settings; one on one side only was added or removed.
type Change struct {
	Version int    `json:"version"`
	Action  Action `json:"action"`
	Subject string `json:"subject"` // what changed, in words: "player 3 (Ann Archer)"
	Before  State  `json:"before"`
	After   State  `json:"after"`
	Undoes  int64  `json:"undoes,omitempty"` // for an undo: the audit entry it reverted
	// Notes are what the director should know of the change: the last
	// resorts a pairing took, the rounds paired on a result corrected.
	Notes []string `json:"notes,omitempty"`
	// Actor is who made the change: the Director that saves it says.
	Actor Actor `json:"actor,omitzero"`
}

// Summary gives the change's subject and its notes in words, as the audit
// trail shows them: "round 4; player 3 gets the bye again".
func (c Change) Summary() string {
	return strings.Join(append([]string{c.Subject}, c.Notes...), "; ")
}

// State is a set of entities of one tournament.
type State struct {
	Settings *Settings    `json:"settings,omitempty"`
	Players  []Player     `json:"players,omitempty"`
	Games    []Game       `json:"games,omitempty"`   // whole games of rounds: pairings
	Results  []GameResult `json:"results,omitempty"` // results of rounds' games that stay
	// Whole games of the final phases, by Seq: pairings and results.
	FinalGames []Game `json:"final_games,omitempty"`
	// Forbidden pairs (by A and B) and the rules of paired rounds (by round).
	Forbidden  []ForbiddenPair `json:"forbidden,omitempty"`
	RoundRules []RoundRules    `json:"round_rules,omitempty"`
}

// GameResult is the result of the game at a table of a round (nil: none).
type GameResult struct {
	Round  int     `json:"round"`
	Table  int     `json:"table"`
	Result *Result `json:"result"`
}

// IsZero reports whether the state holds no entity.
func (s State) IsZero() bool {
	return s.Settings == nil && len(s.Players) == 0 && len(s.Games) == 0 && len(s.Results) == 0 && len(s.FinalGames) == 0 &&
		len(s.Forbidden) == 0 && len(s.RoundRules) == 0
}

func (t *Tournament) change(a Action, subject string, before, after State) Change {
	return Change{Version: ChangeVersion, Action: a, Subject: subject, Before: before, After: after}
}

// Entry is a change as the audit trail keeps it.
type Entry struct {
	ID       int64 // in the order of the changes
	At       time.Time
	UndoneBy int64 // the id of the entry that undid this one, or 0
	Change
}

// Undo reverts change c, the entry id of the audit trail: each entity of
// c.After must be as c left it (else ErrChanged: a later change touched it),
// and the tournament after the undo must keep its invariants (a result is
// not taken away from a round that the next round is paired on).
func (t *Tournament) Undo(id int64, c Change) (Change, error) {
	if !c.Action.Undoable() {
		return Change{}, fmt.Errorf("entry %d (%s %s): %w: it cannot be undone", id, c.Action, c.Subject, ErrNothingToUndo)
	}
	err := t.holds(c.After)
	if err == nil {
		err = t.lacks(c.Before, c.After)
	}
	if err != nil {
		return Change{}, fmt.Errorf("cannot undo entry %d (%s: %s): %w", id, c.Action, c.Subject, err)
	}
	saved := t.clone()
	t.put(c.After, c.Before)
	if err := t.Validate(); err != nil {
		*t = saved
		return Change{}, fmt.Errorf("cannot undo entry %d (%s: %s): %w", id, c.Action, c.Subject, &UndoBreaksError{err})
	}
	u := t.change(ActUndo, fmt.Sprintf("%s: %s", c.Action, c.Subject), c.After, c.Before)
	u.Notes = c.Notes // the undone change's, as its log said them
	u.Undoes = id
	return u, nil
}

// Clone returns a copy of the tournament that the operations on t leave
// as it is: the tournament before a change, for Unfounded.
func (t *Tournament) Clone() *Tournament {
	c := t.clone()
	c.Categories = slices.Clone(t.Categories)
	for i := range c.Players {
		c.Players[i].Categories = slices.Clone(c.Players[i].Categories)
		c.Players[i].Absent = slices.Clone(c.Players[i].Absent)
	}
	return &c
}

// clone copies the tournament deeply enough for put to be rolled back.
func (t *Tournament) clone() Tournament {
	c := *t
	c.Players = slices.Clone(t.Players)
	c.Games = slices.Clone(t.Games)
	c.FinalGames = slices.Clone(t.FinalGames)
	c.Forbidden = slices.Clone(t.Forbidden)
	c.RoundRules = slices.Clone(t.RoundRules)
	return c
}

// holds checks that the tournament has the entities of s as s has them.
func (t *Tournament) holds(s State) error {
	if s.Settings != nil && !sameSettings(*s.Settings, t.Settings) {
		return fmt.Errorf("the settings: %w", ErrChanged)
	}
	for _, p := range s.Players {
		if p.Number < 1 || p.Number > len(t.Players) || !samePlayer(t.Players[p.Number-1], p) {
			return fmt.Errorf("player %d (%s): %w", p.Number, p.Name, ErrChanged)
		}
	}
	for _, g := range s.games() {
		if h := t.game(g.key()); h == nil || !sameGame(*h, g) {
			if g.IsFinal() {
				return fmt.Errorf("%s: %w", g, ErrChanged)
			}
			return fmt.Errorf("round %d table %d: %w", g.Round, g.Table, ErrChanged)
		}
	}
	for _, r := range s.Results {
		if i := t.gameIndex(r.Round, r.Table); i < 0 || !sameResult(t.Games[i].Result, r.Result) {
			return fmt.Errorf("the result of round %d table %d: %w", r.Round, r.Table, ErrChanged)
		}
	}
	for _, f := range s.Forbidden {
		if g, ok := t.forbidden(f.A, f.B); !ok || g != f {
			return fmt.Errorf("the forbidden pair %d-%d: %w", f.A, f.B, ErrChanged)
		}
	}
	for _, r := range s.RoundRules {
		if !sameRules(t.rulesOf(r.Round), r) {
			return fmt.Errorf("the rules of round %d: %w", r.Round, ErrChanged)
		}
	}
	return nil
}

func sameRules(a, b RoundRules) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// lacks checks that the entities of back that from does not have, which
// undo would add back, are not there again: added since by a later change.
func (t *Tournament) lacks(back, from State) error {
	for _, p := range back.Players {
		if !slices.ContainsFunc(from.Players, func(q Player) bool { return q.Number == p.Number }) && p.Number <= len(t.Players) {
			return fmt.Errorf("player %d (%s): %w: the number is taken again", p.Number, t.Players[p.Number-1].Name, ErrChanged)
		}
	}
	for _, g := range back.games() {
		if !slices.ContainsFunc(from.games(), g.same) && t.game(g.key()) != nil {
			if g.IsFinal() {
				return fmt.Errorf("%s: %w: it is paired again", g, ErrChanged)
			}
			return fmt.Errorf("round %d table %d: %w: it is paired again", g.Round, g.Table, ErrChanged)
		}
	}
	for _, f := range back.Forbidden {
		if _, ok := t.forbidden(f.A, f.B); ok && !slices.ContainsFunc(from.Forbidden, func(g ForbiddenPair) bool { return g.A == f.A && g.B == f.B }) {
			return fmt.Errorf("the forbidden pair %d-%d: %w: it is forbidden again", f.A, f.B, ErrChanged)
		}
	}
	return nil
}

// put replaces the entities of from with those of to: an entity of from that
// to lacks is removed, one of to is added or replaced.
func (t *Tournament) put(from, to State) {
	if to.Settings != nil {
		t.Settings = *to.Settings
	}
	for _, p := range from.Players {
		if !slices.ContainsFunc(to.Players, func(q Player) bool { return q.Number == p.Number }) {
			t.Players = slices.DeleteFunc(t.Players, func(q Player) bool { return q.Number == p.Number })
		}
	}
	for _, p := range to.Players {
		if p.Number <= len(t.Players) {
			t.Players[p.Number-1] = p
		} else {
			t.Players = append(t.Players, p)
		}
	}
	slices.SortFunc(t.Players, func(a, b Player) int { return a.Number - b.Number })
	t.Games, t.FinalGames = PutGames(t.Games, t.FinalGames, from, to)
	for _, r := range to.Results {
		if i := t.gameIndex(r.Round, r.Table); i >= 0 {
			t.Games[i].Result = r.Result
		}
	}
	for _, f := range from.Forbidden {
		t.Forbidden = slices.DeleteFunc(t.Forbidden, func(g ForbiddenPair) bool { return g.A == f.A && g.B == f.B })
	}
	for _, f := range to.Forbidden {
		t.Forbidden = slices.DeleteFunc(t.Forbidden, func(g ForbiddenPair) bool { return g.A == f.A && g.B == f.B })
		t.Forbidden = append(t.Forbidden, f)
	}
	sortForbidden(t.Forbidden)
	for _, r := range from.RoundRules {
		t.RoundRules = slices.DeleteFunc(t.RoundRules, func(x RoundRules) bool { return x.Round == r.Round })
	}
	for _, r := range to.RoundRules {
		t.RoundRules = slices.DeleteFunc(t.RoundRules, func(x RoundRules) bool { return x.Round == r.Round })
		t.RoundRules = append(t.RoundRules, r)
	}
	slices.SortFunc(t.RoundRules, func(a, b RoundRules) int { return a.Round - b.Round })
}

// games gives the games of s, the rounds' then the final phases'.
func (s State) games() []Game { return slices.Concat(s.Games, s.FinalGames) }

// same reports whether h is the game g is (the same key), whatever its
// players and result.
func (g Game) same(h Game) bool { return g.key() == h.key() }

// PutGames writes the games of change side to over those of side from in a
// tournament's games (the rounds', the final phases'), as Undo and a store
// do: a game of from that to lacks is removed, one of to added or
// replaced; each list stays in key order.
func PutGames(rounds, finals []Game, from, to State) ([]Game, []Game) {
	lists := [2][]Game{rounds, finals}
	list := func(g Game) *[]Game { return &lists[b2i(g.IsFinal())] }
	for _, g := range from.games() {
		if !slices.ContainsFunc(to.games(), g.same) {
			*list(g) = slices.DeleteFunc(*list(g), g.same)
		}
	}
	for _, g := range to.games() {
		l := list(g)
		if i := slices.IndexFunc(*l, g.same); i >= 0 {
			(*l)[i] = g
		} else {
			*l = append(*l, g)
		}
	}
	for _, l := range lists {
		slices.SortFunc(l, func(a, b Game) int { return cmp.Or(a.key()[0]-b.key()[0], a.key()[1]-b.key()[1]) })
	}
	return lists[0], lists[1]
}

// game returns the game of key k, nil if there is none.
func (t *Tournament) game(k [2]int) *Game {
	if k[0] == 0 {
		if i := slices.IndexFunc(t.FinalGames, func(g Game) bool { return g.Seq == k[1] }); i >= 0 {
			return &t.FinalGames[i]
		}
		return nil
	}
	if i := t.gameIndex(k[0], k[1]); i >= 0 {
		return &t.Games[i]
	}
	return nil
}

func (t *Tournament) gameIndex(r, table int) int {
	i, ok := slices.BinarySearchFunc(t.Games, [2]int{r, table}, func(g Game, k [2]int) int {
		if g.Round != k[0] {
			return g.Round - k[0]
		}
		return g.Table - k[1]
	})
	if !ok {
		return -1
	}
	return i
}

func samePlayer(a, b Player) bool {
	return a.Number == b.Number && a.Name == b.Name && a.WOFID == b.WOFID && a.NewID == b.NewID && a.Rating == b.Rating && a.Country == b.Country &&
		a.FirstRound == b.FirstRound && a.Left == b.Left && slices.Equal(a.Absent, b.Absent) && a.Engine == b.Engine &&
		a.Team == b.Team && a.Born == b.Born && slices.Equal(a.Categories, b.Categories)
}

func sameResult(a, b *Result) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func sameGame(a, b Game) bool {
	return a.Round == b.Round && a.Table == b.Table && a.FinalRef == b.FinalRef && a.Black == b.Black && a.White == b.White &&
		sameResult(a.Result, b.Result)
}

// sameSettings compares two settings as the audit trail stores them, so
// that a setting added later is compared without being listed here.
func sameSettings(a, b Settings) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// Describe gives the two sides of the change in words, for the audit trail:
// only what differs, "-" for nothing.
func (c Change) Describe() (before, after string) {
	b, a := c.Before.describe(c.After), c.After.describe(c.Before)
	return b, a
}

// describe gives s in words; other is the state on the other side of the
// change, so that a settings change shows only the options that differ.
func (s State) describe(other State) string {
	var out []string
	if s.Settings != nil {
		out = append(out, s.Settings.describe(other.Settings))
	}
	for _, p := range s.Players {
		out = append(out, p.String())
	}
	if len(s.Games) > 2 {
		rounds := map[int]int{}
		for _, g := range s.Games {
			rounds[g.Round]++
		}
		keys := make([]int, 0, len(rounds))
		for r := range rounds {
			keys = append(keys, r)
		}
		slices.Sort(keys)
		for _, r := range keys {
			out = append(out, fmt.Sprintf("round %d: %d tables", r, rounds[r]))
		}
	} else {
		for _, g := range s.Games {
			out = append(out, g.String())
		}
	}
	for _, r := range s.Results {
		out = append(out, resultText(r.Result))
	}
	// A final game on both sides had its result entered or corrected: the
	// subject names the game, as a round's result.
	var paired []Game
	for _, g := range s.FinalGames {
		if slices.ContainsFunc(other.FinalGames, g.same) {
			out = append(out, resultText(g.Result))
		} else {
			paired = append(paired, g)
		}
	}
	if len(paired) > 2 {
		out = append(out, fmt.Sprintf("%d final games", len(paired)))
	} else {
		for _, g := range paired {
			out = append(out, g.String())
		}
	}
	for _, f := range s.Forbidden {
		out = append(out, f.String())
	}
	for _, r := range s.RoundRules {
		out = append(out, r.String())
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, "; ")
}

// resultText gives a result as the audit trail shows it: "no result" for none.
func resultText(r *Result) string {
	if r == nil {
		return "no result"
	}
	return r.String()
}

func (p Player) String() string {
	s := fmt.Sprintf("%d %s", p.Number, p.Name)
	if p.Rating != 0 {
		s += fmt.Sprintf(", %d", p.Rating)
	}
	if p.Country != "" {
		s += ", " + p.Country
	}
	if p.FirstRound > 1 {
		s += fmt.Sprintf(", from round %d", p.FirstRound)
	}
	if p.Left != 0 {
		s += fmt.Sprintf(", withdrawn before round %d", p.Left)
	}
	for _, r := range p.Absent {
		s += fmt.Sprintf(", absent round %d", r)
	}
	if p.Engine != "" {
		s += ", engine " + p.Engine
	}
	switch p.Team {
	case "":
	case NoTeam:
		s += ", no team"
	default:
		s += ", team " + p.Team
	}
	if !p.Born.IsZero() {
		s += ", born " + p.Born.String()
	}
	for _, c := range p.Categories {
		s += ", " + c
	}
	return s
}

func (g Game) String() string {
	if g.IsFinal() {
		s := fmt.Sprintf("%s game %d: %d-%d", g.Code(), g.Game, g.Black, g.White)
		if g.Match == "" {
			s = fmt.Sprintf("final game %d: %d-%d", g.Seq, g.Black, g.White)
		}
		if g.Result != nil {
			s += " " + g.Result.String()
		}
		return s
	}
	if g.IsBye() {
		return fmt.Sprintf("round %d table %d: %d bye", g.Round, g.Table, g.Black)
	}
	s := fmt.Sprintf("round %d table %d: %d-%d", g.Round, g.Table, g.Black, g.White)
	if g.Result != nil {
		s += " " + g.Result.String()
	}
	return s
}

// settingWords are the settings as the audit trail says them, each once and
// in the order 'otd log' lists them: its name (its flag's) and its value,
// written with fmt.Sprint ("" for not set). A setting added to Settings is
// one line here for its changes to show in the log.
var settingWords = []struct {
	name  string
	value func(Settings) any
}{
	{"name", func(s Settings) any { return s.Name }}, {"rounds", func(s Settings) any { return s.Rounds }},
	{"system", func(s Settings) any { return s.System }}, {"bq", func(s Settings) any { return s.BQ }},
	{"time-default", func(s Settings) any { return s.TimeDefault }}, {"bye-points", func(s Settings) any { return s.ByePoints }},
	{"tiebreaks", func(s Settings) any { return s.TieBreaks }}, {"first-round", func(s Settings) any { return s.FirstRound }},
	{"seed", func(s Settings) any { return s.Seed }}, {"pairing", func(s Settings) any { return s.Pairing }},
	{"start", func(s Settings) any { return s.Start }}, {"end", func(s Settings) any { return s.End }},
	{"city", func(s Settings) any { return s.City }}, {"country", func(s Settings) any { return s.Country }},
	{"director", func(s Settings) any { return s.Director }}, {"new-ids", func(s Settings) any { return s.NewIDs }},
	{"final", func(s Settings) any { return finalText(s.Final) }}, {"categories", func(s Settings) any { return categoriesText(s.Categories) }},
	{"teams", func(s Settings) any { return teamsText(s.TeamRules) }},
	{"rules", func(s Settings) any {
		if r := s.GameRules(); r != engine.Othello() {
			return r
		}
		return "" // Othello on 8x8, the default
	}},
	{"time", func(s Settings) any {
		if s.Time == (engine.TimeControl{}) {
			return "" // not set: DefaultTime
		}
		return s.Time
	}},
	{"youth-age", func(s Settings) any {
		if s.YouthAge == 0 {
			return "" // not set: DefaultYouthAge
		}
		return s.YouthAge
	}},
	{"venue-approval", func(s Settings) any { return string(s.VenueApproval) }}, // "": auto, the default
}

// describe gives the options of s, only those that differ from other if other is given.
func (s Settings) describe(other *Settings) string {
	var out []string
	for _, f := range settingWords {
		v := fmt.Sprint(f.value(s))
		if other == nil && v == "" {
			continue
		}
		if other == nil || v != fmt.Sprint(f.value(*other)) {
			if v == "" {
				v = "-"
			}
			out = append(out, f.name+" "+v)
		}
	}
	if len(out) == 0 {
		return "settings unchanged"
	}
	return strings.Join(out, ", ")
}
