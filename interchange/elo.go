package interchange

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// FromELO builds a tournament from an .ELO file, refusing one that
// contradicts itself: FromELOWith with the zero Lenient.
func FromELO(f *elo.File, s tournament.Settings) (*tournament.Tournament, []string, error) {
	return FromELOWith(f, s, elo.Lenient{})
}

// FromELOWith builds a tournament from an .ELO file: players in published order
// (numbered from 1, keeping their WOF ids, and a "+" as an id new to the
// rating list: Player.NewID; a file without standings lines has the ids
// of its games, in the order they first play, named by them), every round
// with its games, and the games added after them. Other programs' files
// list neither byes, forfeits, absences nor withdrawals: a player without a
// game in a round gets the bye there when the published score exceeds the
// points of their games; a player whose games stop early withdrew after
// their last game; other rounds without a game are absences. otd's own
// files say all of that in their "% otd:" lines, which rebuild the
// tournament exactly (pass the settings through ELOSettings to use the rules
// written there).
//
// What the file does not say stays unsaid: a result without discs counts
// its points only (tournament.NoDiscs), a player without a published score
// or disc total is not checked against it, and gets no bye. The games
// the file gives no round (before its first %Round line, or in "%Round RR")
// are placed in rounds after the file's, in its order, each in the first
// where both players are free. A bye counts the discs of the file's
// convention: Settings.ByeDiscs when set (--bye-discs), else what the
// published disc totals show (Papp counts 40), else 32.
//
// A file that contradicts itself (a player paired twice in a round or with
// themselves, listed twice, a game of a player not in the standings,
// published scores or disc totals that its games do not give) is refused
// with an error that names the file's line and wraps elo.ErrInvalid, unless
// l says how to take it.
//
// The games after the Swiss rounds (%%Added results, and the labelled
// blocks "%Round SF1", "%Round F" of converted files) are the final phase:
// InferFinal gives them their matches and the rules, and makes a
// category of each group of other players who played among themselves. A
// tie written '<' or '>' says who went through (Result.Loser). Papp's and
// FlipTheDisc's published scores are the Swiss's alone; the converted
// files' count the games of their labelled blocks, and otd's Swiss
// standings do not. The notes say, in words with the file's lines, what
// could not be read for certain: games in no match, rules the games do not
// show, byes guessed where a round would have two, game lines written as
// comments, the file's round numbering where it is not 1, 2, 3...
func FromELOWith(f *elo.File, s tournament.Settings, l elo.Lenient) (*tournament.Tournament, []string, error) {
	t, notes, _, err := fromELO(f, s, l)
	return t, notes, err
}

// fromELO is FromELOWith, and the contradictions that l set aside (each
// also a note): a sign against the discs, a player paired twice in a
// round or listed twice, a published figure the games do not give, a game
// dropped or a player added (elo.Lenient.Games).
func fromELO(f *elo.File, s tournament.Settings, l elo.Lenient) (*tournament.Tournament, []string, []string, error) {
	if len(f.Rounds) == 0 && len(f.Unrounded) == 0 && len(f.Added) > 0 {
		// Only labelled blocks ("%Final", "%Semi-finals"): they are the
		// event's games, without a Swiss before them.
		g := *f
		g.Unrounded, g.UnroundedFrom, g.Added, g.AddedFrom = f.Added, f.AddedFrom, nil, nil
		f = &g
	}
	if s.Name == "" {
		s.Name = f.Value("Tournament")
	}
	// Some programs other than Papp count the %%Added results in the
	// published scores (hbqhome.com's Chinese opens): that reading is taken
	// when, with the totals checked, it gives every published figure and
	// Papp's does not (whatever l.Totals then makes of the figures).
	countAdded := false
	if len(f.Added) > 0 {
		strict := l
		strict.Totals = ""
		if _, err := build(f, s, strict, false); err != nil {
			_, err2 := build(f, s, strict, true)
			countAdded = err2 == nil
		}
	}
	b, err := build(f, s, l, countAdded)
	if err != nil {
		return nil, nil, nil, err
	}
	return b.t, b.notes, b.setAside, nil
}

// build builds the tournament of f; countAdded: the published scores count
// every added result, not only those of labelled blocks.
func build(f *elo.File, s tournament.Settings, l elo.Lenient, countAdded bool) (*builder, error) {
	b := &builder{f: f, l: l, num: map[int]int{}, countAdded: countAdded}
	b.t = &tournament.Tournament{Settings: s}
	if f.Windows1252 {
		b.notes = append(b.notes, txt.Windows1252Note)
	}
	for _, c := range f.Signs {
		how := "the discs say who won"
		if l.Sign == elo.SignSign {
			how = "the sign says who won, without discs"
		}
		b.aside(fmt.Sprintf("%sthe discs (%d)-(%d) do not match the sign, or add up to more than 64: %s (--lenient sign=%s)", at(c.Line), c.Game.BlackDiscs, c.Game.WhiteDiscs, how, l.Sign))
	}
	b.header()
	if err := b.players(); err != nil {
		return nil, err
	}
	if err := b.championship(); err != nil {
		return nil, err
	}
	if err := b.rounds(); err != nil {
		return nil, err
	}
	return b, b.finish()
}

// aside notes a contradiction of the file that b.l sets aside.
func (b *builder) aside(note string) {
	b.notes = append(b.notes, note)
	b.setAside = append(b.setAside, note)
}

// unrated says why the rating list's reading (elo.Lenient.Games) drops a
// game: against oneself, or of ?????? where several players have no id;
// "" if it does not.
func (b *builder) unrated(g elo.Game) string {
	switch {
	case b.l.Games == "":
	case g.Black == g.White && (g.Black != 0 || len(b.zero) <= 1):
		return fmt.Sprintf("player id %d plays against themselves", g.Black)
	case (g.Black == 0 || g.White == 0) && len(b.zero) > 1:
		return fmt.Sprintf("a game of ??????, but %d players have no id (lines %s): which one played cannot be told", len(b.zero), strings.Trim(fmt.Sprint(b.zero), "[]"))
	}
	return ""
}

// dropped tells whether game g at line is dropped (unrated), and notes it.
func (b *builder) dropped(g elo.Game, line int) bool {
	why := b.unrated(g)
	if why != "" {
		b.aside(fmt.Sprintf("%s%s: the game is dropped (--lenient games=list)", at(line), why))
	}
	return why != ""
}

// header takes the event's days, host country and director from the
// standard header lines (%%Date, %%Country, %%Sender), where the settings
// given have none and the file says them in a form otd keeps: "??", a
// country's name ("France") or a day otd cannot read say nothing.
func (b *builder) header() {
	t, f := b.t, b.f
	start, end, setAside, err := f.Days(b.l)
	if setAside != "" {
		b.aside(setAside)
	}
	if err == nil && t.Start.IsZero() {
		t.Start, _ = tournament.ParseDate(start.Format(time.DateOnly))
		if !end.Equal(start) {
			t.End, _ = tournament.ParseDate(end.Format(time.DateOnly))
		}
	}
	if c, err := tournament.NormalizeCountry(f.Value("Country")); err == nil && t.Country == "" {
		t.Country = c
	}
	if d := f.Value("Sender"); t.Director == "" && d != "??" && txt.CheckName(d) == nil {
		t.Director = d
	}
}

// championship sets what otd's lines of format 2 (elo.OtdFormat) say of
// the championship: the city, the new-player ids, the final phase, the
// categories, the teams' rules, the youth's age limit, and each player's
// birth year, team and categories (the final games' matches and the
// players' numbers are finish's).
func (b *builder) championship() error {
	o, t := b.f.Otd, b.t
	if o == nil {
		return nil
	}
	bad := func(what string, err error) error { return invalid(0, "otd line: %s: %v", what, err) }
	var err error
	if o.City != "" {
		t.City = o.City
	}
	if o.YouthAge != 0 {
		t.YouthAge = o.YouthAge
	}
	if o.NewIDs != "" {
		if t.NewIDs, err = tournament.ParseIDRange(o.NewIDs); err != nil {
			return bad("new-ids", err)
		}
	}
	if o.Final != "" {
		if t.Final, err = tournament.ParseFinalRules(o.Final); err != nil {
			return bad("final", err)
		}
	}
	if o.Teams != "" {
		if err := t.TeamRules.UnmarshalText([]byte(o.Teams)); err != nil {
			return bad("teams", err)
		}
	}
	for _, c := range o.Categories {
		final, err := tournament.ParseFinalRules(c.Final)
		if err != nil {
			return bad("category "+c.Name, err)
		}
		t.Categories = append(t.Categories, tournament.Category{Name: c.Name, Youth: c.Youth, BornFrom: c.BornFrom, BornTo: c.BornTo, Final: final})
	}
	for id, d := range o.Details {
		n, ok := b.num[id]
		if !ok {
			return invalid(0, "otd line: details %d: no player of the standings has the id", id)
		}
		p := &t.Players[n-1]
		if d.Born != "" {
			if p.Born, err = tournament.ParseBorn(d.Born); err != nil {
				return bad(fmt.Sprintf("details %d", id), err)
			}
		}
		p.Team, p.Categories = d.Team, d.Categories
	}
	return nil
}

// builder builds a tournament from an .ELO file.
type builder struct {
	f     *elo.File
	l     elo.Lenient
	t     *tournament.Tournament
	notes []string
	// setAside are the notes of the contradictions l set aside.
	setAside []string
	num      map[int]int // by id: player number
	lines    []int       // by player number - 1: their standings line (0: none)
	zero     []int       // the standings lines of players without an id
	// The rounds as placed: the games, each with its line, and (for otd's
	// files) the file's round each holds.
	placed [][]placedGame
	from   []int
	// By player number - 1, by round - 1: the line of the game there
	// (-1: one of otd's lines), 0 for none.
	played     [][]int
	points     []scoring.HalfPoints
	discs      []int // as the file writes them
	countAdded bool  // the published scores count every added result (build)
	empties    []int // the empty squares of their games that RULES.md gives them (addGame)
	byes       []int // byes and forfeits won, by player: they count the bye's discs
	// published are the standings lines, by player number - 1 (a file
	// without standings: none, NoScore and NoDiscs).
	published []*elo.Player
	lost      []int // forfeits lost
	last      []int
}

type placedGame struct {
	g    elo.Game
	line int
}

// at is "line N: " (nothing for line 0).
func at(line int) string {
	if line <= 0 {
		return ""
	}
	return fmt.Sprintf("line %d: ", line)
}

func invalid(line int, format string, a ...any) error {
	return fmt.Errorf("%s%s: %w", at(line), fmt.Sprintf(format, a...), elo.ErrInvalid)
}

// players makes the players of the standings.
func (b *builder) players() error {
	f, o := b.f, b.f.Otd
	var unread []string
	if size := len(f.Standings); size > 0 {
		b.t.Players, b.lines, b.published = make([]tournament.Player, 0, size), make([]int, 0, size), make([]*elo.Player, 0, size)
	}
	for i := range f.Standings {
		p := &f.Standings[i]
		line := 0
		if i < len(f.StandingsLines) {
			line = f.StandingsLines[i]
		}
		if p.ID == 0 {
			b.zero = append(b.zero, line)
		} else if n := b.num[p.ID]; n != 0 {
			if b.l.Listed == "" {
				return invalid(line, "player id %d is listed twice (first on line %d)", p.ID, b.lines[n-1])
			}
			b.aside(fmt.Sprintf("%splayer id %d is listed twice: the first line (%d) counts, this one is left aside (--lenient listed=first)", at(line), p.ID, b.lines[n-1]))
			continue
		}
		n := len(b.t.Players) + 1
		if p.ID != 0 {
			b.num[p.ID] = n
		}
		name := joinName(p.Last, p.First)
		if name == "" {
			name = idName(p.ID)
		}
		pl := tournament.Player{Number: n, WOFID: p.ID, NewID: p.New && p.ID != 0, Name: name, Rating: p.Rating, Country: p.Country, FirstRound: 1}
		if o != nil {
			if nm, ok := o.Names[p.ID]; ok {
				pl.Name = nm
			}
			st := o.Players[p.ID]
			if st.NoID { // a stand-in id, as otd wrote a player without a WOF id before issue 21
				pl.WOFID, pl.NewID = 0, false
			}
			pl.FirstRound, pl.Left, pl.Absent = max(st.FirstRound, 1), st.Left, st.Absent
		}
		if err := txt.CheckName(pl.Name); err != nil {
			if b.l.Names == "" {
				return invalid(line, "the name %s: %v: a name is a player's identity, correct it in the file (or --lenient names=clean)", elo.QuoteCut(pl.Name), err)
			}
			clean := cmp.Or(txt.CleanName(pl.Name), idName(p.ID))
			b.notes = append(b.notes, fmt.Sprintf("%sthe name %s: %v: taken as %q (--lenient names=clean)", at(line), elo.QuoteCut(pl.Name), err, clean))
			pl.Name = clean
		}
		b.t.Players = append(b.t.Players, pl)
		b.lines = append(b.lines, line)
		b.published = append(b.published, p)
		if p.Unread != "" {
			unread = append(unread, fmt.Sprintf("%s%s: %s", at(line), text(name), p.Unread))
		}
	}
	if len(unread) > 0 {
		more := ""
		if len(unread) > 5 {
			more, unread = fmt.Sprintf(" and %d more", len(unread)-5), unread[:5]
		}
		b.notes = append(b.notes, fmt.Sprintf("figures of the standings that are not numbers, read as not given (not checked): %s%s", strings.Join(unread, "; "), more))
	}
	if len(b.zero) == 1 {
		b.num[0] = slices.Index(b.lines, b.zero[0]) + 1
	}
	return nil
}

// idName is the name of a player the file names by id only.
func idName(id int) string {
	if id == 0 {
		return "?????? (no id)"
	}
	return fmt.Sprintf("WOF %d", id)
}

// lookup gives the player number of id, in a game at line.
func (b *builder) lookup(id, line int) (int, error) {
	if n := b.num[id]; n != 0 {
		return n, nil
	}
	switch {
	case id == 0 && len(b.zero) > 1:
		return 0, invalid(line, "a game of ??????, but %d players have no id (lines %s): which one played cannot be told", len(b.zero), strings.Trim(fmt.Sprint(b.zero), "[]"))
	case len(b.f.Standings) > 0 && b.l.Games == "":
		return 0, invalid(line, "player id %d is not in the standings", id)
	case len(b.f.Standings) > 0:
		b.aside(fmt.Sprintf("%splayer id %d is not in the standings: added from the games (--lenient games=list)", at(line), id))
	}
	n := len(b.t.Players) + 1 // a file without standings: its players are its games'
	b.t.Players = append(b.t.Players, tournament.Player{Number: n, WOFID: id, Name: idName(id), FirstRound: 1})
	b.lines = append(b.lines, 0)
	b.published = append(b.published, &elo.Player{ID: id, NoScore: true, NoDiscs: true})
	b.num[id] = n
	return n, nil
}

// shares tells whether two games have a player in common.
func shares(a, b elo.Game) bool {
	return a.Black == b.Black || a.Black == b.White || a.White == b.Black || a.White == b.White
}

// place puts a game in the first round from round from (0-based) where
// neither of its players has one, a new round after the others if none.
func (b *builder) place(from int, pg placedGame) {
	k := from
	for ; k < len(b.placed) && slices.ContainsFunc(b.placed[k], func(h placedGame) bool { return shares(h.g, pg.g) }); k++ {
	}
	if k == len(b.placed) {
		b.placed, b.from = append(b.placed, nil), append(b.from, -1)
	}
	b.placed[k] = append(b.placed[k], pg)
}

// result is a game's result as otd records it.
func result(g elo.Game) *tournament.Result {
	if g.NoDiscs {
		return &tournament.Result{Kind: tournament.NoDiscs, Loser: tournament.Color(g.Loser)}
	}
	return &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal, Loser: tournament.Color(g.Loser)}
}

// addGame adds the points and discs of game g between players bn and wn,
// and to empties the empty squares RULES.md section 2 gives a side: all of
// them to the winner, a tie's shared up to 32 each.
func addGame(points []scoring.HalfPoints, discs, empties []int, bn, wn int, g elo.Game) {
	switch g.Winner() {
	case elo.Black:
		points[bn-1] += scoring.Point
	case elo.White:
		points[wn-1] += scoring.Point
	default:
		points[bn-1] += scoring.Half
		points[wn-1] += scoring.Half
	}
	discs[bn-1] += g.BlackDiscs
	discs[wn-1] += g.WhiteDiscs
	if e := scoring.Squares - g.BlackDiscs - g.WhiteDiscs; !g.NoDiscs && e > 0 {
		switch {
		case g.BlackDiscs > g.WhiteDiscs:
			empties[bn-1] += e
		case g.WhiteDiscs > g.BlackDiscs:
			empties[wn-1] += e
		default:
			empties[bn-1] += e / 2
			empties[wn-1] += e / 2
		}
	}
}

// rounds places the games in rounds and checks their pairings: every round
// of the file that has games (or, in otd's files, forfeits and byes), then
// the games without a round.
func (b *builder) rounds() error {
	f, o := b.f, b.f.Otd
	var empty []string
	for r, gs := range f.Rounds {
		label := fmt.Sprintf("%%Round %d", r+1)
		if r < len(f.RoundFrom) {
			label = fmt.Sprintf("line %d (%%Round %s)", f.RoundFrom[r].Line, f.RoundFrom[r].Block)
		}
		if len(gs) == 0 && (o == nil || (r >= len(o.Forfeits) || len(o.Forfeits[r]) == 0) && (r >= len(o.Byes) || len(o.Byes[r]) == 0)) {
			empty = append(empty, label)
			continue
		}
		pg := make([]placedGame, 0, len(gs))
		for i, g := range gs {
			line := 0
			if r < len(f.GameLines) && i < len(f.GameLines[r]) {
				line = f.GameLines[r][i]
			}
			if !b.dropped(g, line) {
				pg = append(pg, placedGame{g, line})
			}
		}
		b.placed, b.from = append(b.placed, pg), append(b.from, r)
	}
	if len(empty) > 0 {
		b.notes = append(b.notes, fmt.Sprintf("%s: a round without games, left out", strings.Join(empty, ", ")))
	}
	if labels := b.roundLabels(); labels != "" {
		b.notes = append(b.notes, labels)
	}
	numbered := len(b.placed)
	for i, g := range f.Unrounded {
		line := 0
		if i < len(f.UnroundedFrom) {
			line = f.UnroundedFrom[i].Line
		}
		if !b.dropped(g, line) {
			b.place(numbered, placedGame{g, line})
		}
	}
	if n := len(f.Unrounded); n > 0 {
		b.notes = append(b.notes, fmt.Sprintf("%s the file gives no round (before its first %%Round line, or in a block without a number): placed in rounds %d-%d in the file's order, each in the first round where both players are free",
			tournament.Plural(n, "game"), numbered+1, len(b.placed)))
	}
	// Every player first, for a file without standings.
	for _, gs := range b.placed {
		for _, pg := range gs {
			for _, id := range []int{pg.g.Black, pg.g.White} {
				if _, err := b.lookup(id, pg.line); err != nil {
					return err
				}
			}
		}
	}
	for i, g := range f.Added {
		line := 0
		if i < len(f.AddedFrom) {
			line = f.AddedFrom[i].Line
		}
		if b.unrated(g) != "" {
			continue // dropped (finish)
		}
		for _, id := range []int{g.Black, g.White} {
			if _, err := b.lookup(id, line); err != nil {
				return err
			}
		}
	}
	if o != nil { // otd's lines name players too
		for r := range max(len(o.Forfeits), len(o.Byes)) {
			var ids []int
			if r < len(o.Forfeits) {
				for _, d := range o.Forfeits[r] {
					ids = append(ids, d.Black, d.White)
				}
			}
			if r < len(o.Byes) {
				ids = append(ids, o.Byes[r]...)
			}
			for _, id := range ids {
				if _, err := b.lookup(id, 0); err != nil {
					return fmt.Errorf("round %d: otd line: %w", r+1, err)
				}
			}
		}
	}
	n := len(b.t.Players)
	b.points, b.discs, b.empties, b.byes, b.lost, b.last = make([]scoring.HalfPoints, n), make([]int, n), make([]int, n), make([]int, n), make([]int, n), make([]int, n)
	for r := 0; r < len(b.placed); r++ {
		if err := b.round(r); err != nil {
			return err
		}
	}
	b.t.Rounds = len(b.placed)
	if o != nil {
		b.t.Rounds = max(b.t.Rounds, o.Rounds)
	}
	if b.t.Rounds == 0 {
		return invalid(0, "no game in a round: nothing to import")
	}
	return nil
}

// roundLabels notes the file's round labels where they are not 1, 2, 3...
func (b *builder) roundLabels() string {
	var odd []string
	for k, r := range b.from {
		if r < len(b.f.RoundFrom) {
			if src := b.f.RoundFrom[r]; roundNumber(src.Block) != k+1 {
				odd = append(odd, fmt.Sprintf("line %d (%%Round %s) is round %d", src.Line, src.Block, k+1))
			}
		}
	}
	if len(odd) == 0 {
		return ""
	}
	if len(odd) > 3 {
		odd = append(odd[:3], fmt.Sprintf("and %d more", len(odd)-3))
	}
	return "the file's rounds are taken in its order, whatever their numbers: " + strings.Join(odd, ", ")
}

// roundNumber is the number a round's label starts with (0: none).
func roundNumber(label string) int {
	n := 0
	for _, c := range label {
		if c < '0' || c > '9' || n > 1e6 {
			break
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// round checks and records round r (0-based) of b.placed.
func (b *builder) round(r int) error {
	o := b.f.Otd
	if k := len(b.t.Players) - len(b.played); k > 0 {
		// Room for every round placed, for each player, in one allocation.
		rounds := len(b.placed)
		all := make([]int, k*rounds)
		for i := range k {
			b.played = append(b.played, all[i*rounds:i*rounds:(i+1)*rounds])
		}
	}
	for i := range b.played {
		for len(b.played[i]) <= r {
			b.played[i] = append(b.played[i], 0)
		}
	}
	// mark records player n's game of round r at line (-1: an otd line).
	mark := func(n, line int) {
		b.played[n-1][r], b.last[n-1] = line, r+1
	}
	var round []tournament.Game
	for i := 0; i < len(b.placed[r]); i++ {
		pg := b.placed[r][i]
		bn, _ := b.lookup(pg.g.Black, pg.line)
		wn, _ := b.lookup(pg.g.White, pg.line)
		if bn == wn {
			return invalid(pg.line, "player id %d plays against themselves", pg.g.Black)
		}
		if b.played[bn-1][r] != 0 || b.played[wn-1][r] != 0 {
			id, other := pg.g.Black, b.played[bn-1][r]
			if other == 0 {
				id, other = pg.g.White, b.played[wn-1][r]
			}
			if b.l.Rounds == "" {
				return invalid(pg.line, "round %d: player id %d has another game in the round (%s)", r+1, id, strings.TrimSuffix(at(other), ": "))
			}
			b.place(r+1, pg)
			b.aside(fmt.Sprintf("%sround %d: player id %d has another game in the round (%s): this game is moved to a later round (--lenient rounds=split)", at(pg.line), r+1, id, strings.TrimSuffix(at(other), ": ")))
			continue
		}
		mark(bn, pg.line)
		mark(wn, pg.line)
		addGame(b.points, b.discs, b.empties, bn, wn, pg.g)
		res := result(pg.g)
		if fr := b.from[r]; o != nil && fr >= 0 && fr < len(o.TimeDefaults) {
			for _, d := range o.TimeDefaults[fr] {
				if d.Black == pg.g.Black && d.White == pg.g.White {
					res.Kind, res.Loser = tournament.TimeDefault, tournament.Color(d.Loser)
				}
			}
		}
		round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: bn, White: wn, Result: res})
	}
	fr := b.from[r]
	if o != nil && fr >= 0 && fr < len(o.Forfeits) {
		for _, d := range o.Forfeits[fr] {
			bn, err := b.lookup(d.Black, 0)
			if err != nil {
				return fmt.Errorf("round %d: %w", r+1, err)
			}
			wn, err := b.lookup(d.White, 0)
			if err != nil {
				return fmt.Errorf("round %d: %w", r+1, err)
			}
			if bn == wn || b.played[bn-1][r] != 0 || b.played[wn-1][r] != 0 {
				return invalid(0, "round %d: otd line: forfeit %d %d: a player with another game in the round", r+1, d.Black, d.White)
			}
			mark(bn, -1)
			mark(wn, -1)
			sr := scoring.Result{Kind: scoring.Forfeit, Outcome: scoring.BlackWins}
			winner, loser := bn, wn
			if d.Loser == elo.Black {
				sr.Outcome, winner, loser = scoring.WhiteWins, wn, bn
			}
			sc, err := scoring.ScoreGame(sr, b.t.Rules())
			if err != nil {
				return fmt.Errorf("round %d: forfeit: %w", r+1, err)
			}
			b.points[winner-1] += scoring.Point
			b.byes[winner-1]++
			b.lost[loser-1]++
			round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: bn, White: wn,
				Result: &tournament.Result{Black: sc.BlackDiscs, White: sc.WhiteDiscs, Kind: tournament.Forfeit, Loser: tournament.Color(d.Loser)}})
		}
	}
	if o != nil && fr >= 0 && fr < len(o.Byes) {
		for _, id := range o.Byes[fr] {
			n, err := b.lookup(id, 0)
			if err != nil {
				return fmt.Errorf("round %d: %w", r+1, err)
			}
			if b.played[n-1][r] != 0 {
				return invalid(0, "round %d: player id %d has a game and the bye", r+1, id)
			}
			mark(n, -1)
			b.points[n-1] += b.t.ByePoints
			b.byes[n-1]++
			round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: n})
		}
	}
	b.t.Games = append(b.t.Games, round...)
	return nil
}

// finish adds the final phase, the byes, absences and withdrawals, checks
// the published figures, and infers the final phase's matches.
func (b *builder) finish() error {
	f, o, t := b.f, b.f.Otd, b.t
	n := len(t.Players)
	var final []tournament.Game
	finalPoints, finalDiscs, finalEmpties := make([]scoring.HalfPoints, n), make([]int, n), make([]int, n) // in labelled blocks
	labelled := 0
	for i, g := range f.Added {
		line := 0
		if i < len(f.AddedFrom) {
			line = f.AddedFrom[i].Line
		}
		if b.dropped(g, line) {
			continue
		}
		bn, _ := b.lookup(g.Black, line)
		wn, _ := b.lookup(g.White, line)
		if bn == wn {
			return invalid(line, "player id %d plays against themselves", g.Black)
		}
		k := len(final) + 1
		ref := tournament.FinalRef{Game: k, Seq: k}
		if o != nil { // otd's file: the match played
			if m, ok := o.Matches[i]; ok {
				ref.Category, ref.Match, ref.Game = m.Category, m.Code, m.Game
			}
		}
		final = append(final, tournament.Game{FinalRef: ref, Black: bn, White: wn, Result: result(g)})
		if b.countAdded || i < len(f.AddedFrom) && f.AddedFrom[i].Block != "" {
			labelled++
			addGame(finalPoints, finalDiscs, finalEmpties, bn, wn, g)
		}
	}
	// The published scores: the Swiss's, or (converted files) with the
	// games of the labelled blocks.
	published := make([]scoring.HalfPoints, n)
	// Each count is read from the figures (some files count the final
	// games in the scores and not in the disc totals): counted when every
	// published figure less the final games' is at least the Swiss games'
	// (byes add to these).
	counted, discsCounted := labelled > 0, labelled > 0
	for i, p := range b.published {
		published[i] = p.Score
		counted = counted && (p.NoScore || p.Score-finalPoints[i] >= b.points[i])
		discsCounted = discsCounted && (p.NoDiscs || p.Discs-finalDiscs[i] >= b.discs[i])
	}
	if counted {
		for i := range published {
			published[i] -= finalPoints[i]
		}
		what := "of the file's labelled blocks (%Round SF1, F...), as converted files do"
		if b.countAdded {
			what = "added after the Swiss (%%Added results), as the file's program does and Papp does not"
		}
		discs := ""
		if !discsCounted {
			discs = " (the disc totals do not)"
		}
		b.notes = append(b.notes, fmt.Sprintf("the published scores count the %s %s%s: otd's Swiss standings do not", tournament.Plural(labelled, "final game"), what, discs))
	} else if discsCounted {
		b.notes = append(b.notes, fmt.Sprintf("the published disc totals count the discs of the %s of the file's final blocks (the scores do not): otd's Swiss standings do not", tournament.Plural(labelled, "final game")))
	}
	var empties []int
	for r, gs := range f.Rounds {
		for i, g := range gs {
			if !g.NoDiscs && g.BlackDiscs+g.WhiteDiscs < scoring.Squares && g.BlackDiscs != g.WhiteDiscs && r < len(f.GameLines) && i < len(f.GameLines[r]) {
				empties = append(empties, f.GameLines[r][i])
			}
		}
	}
	for i, g := range f.Unrounded {
		if !g.NoDiscs && g.BlackDiscs+g.WhiteDiscs < scoring.Squares && g.BlackDiscs != g.WhiteDiscs && i < len(f.UnroundedFrom) {
			empties = append(empties, f.UnroundedFrom[i].Line)
		}
	}
	if len(empties) > 0 {
		if len(empties) > 10 {
			empties = empties[:10]
		}
		b.notes = append(b.notes, fmt.Sprintf("%s: games that end with empty squares, which otd gives to the winner (RULES.md section 2): otd's disc totals may exceed the file's", lineList(empties)))
	}
	if len(f.Commented) > 0 {
		var lines []int
		for _, c := range f.Commented {
			lines = append(lines, c.Line)
		}
		what := "game lines written as comments"
		if len(lines) == 1 {
			what = "a game line written as a comment"
		}
		b.notes = append(b.notes, fmt.Sprintf("%s: %s (left out of the rating: unplayed, or not to be rated), not imported", lineList(lines), what))
	}
	if o == nil {
		b.inferByes(published)
	} else if err := checkStatuses(t, o, b.num); err != nil {
		return err
	}
	// Every published score.
	for i, p := range b.published {
		if p.NoScore || published[i] == b.points[i] {
			continue
		}
		msg := fmt.Sprintf("%s: published score %v, but the games and byes give %v", text(t.Players[i].Name), p.Score, b.points[i])
		if b.l.Totals == "" {
			return invalid(b.lines[i], "%s", msg)
		}
		b.aside(at(b.lines[i]) + msg + " (--lenient totals=games)")
	}
	if err := b.checkDiscs(finalDiscs, finalEmpties, discsCounted); err != nil {
		return err
	}
	t.FinalGames = final
	notes := b.notes
	// otd's file of format 2 says each game's match (a game without one was
	// in none) and who is in each category: nothing is inferred.
	if said := o != nil && o.Format >= 2; !said {
		inferred, err := InferFinal(t, func(seq int) string {
			if seq <= len(f.AddedFrom) {
				return fmt.Sprintf("line %d", f.AddedFrom[seq-1].Line)
			}
			return fmt.Sprintf("added result %d", seq)
		})
		if err != nil {
			return err
		}
		notes = append(notes, inferred...)
		if len(t.Categories) > 0 {
			notes = append(notes, "teams: the file does not say who is youth (RULES.md: a youth player does not count for the team): every player counts for their country's; 'otd tournament edit --teams exclude=NAME' leaves a category out")
		}
	}
	if slices.ContainsFunc(t.FinalGames, func(g tournament.Game) bool { return g.Match == "" }) {
		// The event's seeds were its program's standings: the file's order.
		rows, err := t.Standings(t.Rounds)
		if err != nil {
			return err
		}
		for i, r := range rows[:min(8, len(rows))] {
			if r.Player != i+1 {
				notes = append(notes, fmt.Sprintf("otd's Swiss standings (tie-breaks %s, BQ %s) are not the file's published order from place %d, and the event seeded its final phase by its own standings: another --bq may give them", t.TieBreaks, t.BQ, i+1))
				break
			}
		}
	}
	for i, g := range t.FinalGames {
		if i < len(f.AddedFrom) && g.Match != "" && !blockFits(f.AddedFrom[i].Block, g.Match) {
			notes = append(notes, fmt.Sprintf("line %d: in the file's block %%Round %s, but the games make it %s", f.AddedFrom[i].Line, f.AddedFrom[i].Block, g.Code()))
		}
	}
	if o != nil && len(o.Numbers) > 0 {
		if err := renumber(t, o.Numbers); err != nil {
			return err
		}
	}
	b.notes = notes
	return nil
}

// renumber gives the players the numbers they had in otd (numbers, in the
// order of the standings, which numbered them), in the games too.
func renumber(t *tournament.Tournament, numbers []int) error {
	n := len(t.Players)
	to := make([]int, n+1) // by number read: the number in otd; to[0] = 0, a bye's
	for i, m := range numbers {
		if len(numbers) != n || m < 1 || m > n || slices.Contains(to, m) {
			return invalid(0, "otd line: numbers: %v are not the numbers 1 to %d, one for each player", numbers, n)
		}
		to[i+1] = m
	}
	players := make([]tournament.Player, n)
	for _, p := range t.Players {
		p.Number = to[p.Number]
		players[p.Number-1] = p
	}
	t.Players = players
	for _, gs := range [][]tournament.Game{t.Games, t.FinalGames} {
		for i := range gs {
			gs[i].Black, gs[i].White = to[gs[i].Black], to[gs[i].White]
		}
	}
	return nil
}

// checkDiscs checks the published disc totals against the games' discs as
// the file writes them and the byes' (and forfeits'): a bye counts
// Settings.ByeDiscs when set, else what the published totals show when they
// agree on it (Papp's 40), else 32. A player with a result without discs is
// checked on the discs known.
func (b *builder) checkDiscs(finalDiscs, finalEmpties []int, counted bool) error {
	t := b.t
	pub := make([]int, len(b.published))
	for i, p := range b.published {
		pub[i] = p.Discs
		if counted {
			pub[i] -= finalDiscs[i]
		}
	}
	if t.ByeDiscs == 0 {
		bye, agree, players := 0, true, 0
		none := true // every published total is the games' alone: a bye counts no discs
		for i, p := range b.published {
			if p.NoDiscs || b.byes[i] == 0 && b.lost[i] == 0 {
				continue
			}
			d := pub[i] - b.discs[i]
			none = none && (d == 0 || d == b.empties[i])
			// d = bye x byes + (64 - bye) x lost
			k := b.byes[i] - b.lost[i]
			if k == 0 || (d-64*b.lost[i])%k != 0 {
				agree = false
				break
			}
			v := (d - 64*b.lost[i]) / k
			if players > 0 && v != bye {
				agree = false
				break
			}
			bye, players = v, players+1
		}
		switch {
		case none && players > 0:
			t.ByeDiscs = scoring.NoByeDiscs
			b.notes = append(b.notes, "the published disc totals count a bye as its point alone, no discs, and so does this tournament ('otd tournament show' shows it; 'otd import elo --bye-discs N' reads the file otherwise)")
		case agree && players > 0 && bye > 32 && bye <= 64:
			t.ByeDiscs = bye
			b.notes = append(b.notes, fmt.Sprintf("the published disc totals count a bye as %d discs (%d-%d; Papp counts 40-24), and so does this tournament ('otd tournament show' shows it; 'otd import elo --bye-discs N' reads the file otherwise)", bye, bye, 64-bye))
		}
	}
	sc, err := scoring.ScoreGame(scoring.Result{Kind: scoring.Forfeit, Outcome: scoring.BlackWins}, t.Rules())
	if err != nil {
		return err
	}
	// The discs of a bye or forfeit's winner, and of its loser.
	bye, byeLost := sc.BlackDiscs, sc.WhiteDiscs
	// The players whose published total gives them their empty squares.
	withEmpties := 0
	for i, p := range b.published {
		want := b.discs[i] + bye*b.byes[i] + byeLost*b.lost[i]
		empties := b.empties[i]
		if counted {
			empties += finalEmpties[i]
		}
		if !p.NoDiscs && empties > 0 && pub[i] == want+empties {
			withEmpties++
			continue
		}
		if p.NoDiscs || pub[i] == want {
			continue
		}
		msg := fmt.Sprintf("%s: published disc total %d, but the games and byes give %d", text(t.Players[i].Name), p.Discs, want+p.Discs-pub[i])
		if b.byes[i] > 0 {
			msg += fmt.Sprintf(" (a bye counted %d)", bye)
		}
		if b.l.Totals == "" {
			return invalid(b.lines[i], "%s", msg)
		}
		b.aside(at(b.lines[i]) + msg + " (--lenient totals=games)")
	}
	if withEmpties > 0 {
		b.notes = append(b.notes, fmt.Sprintf("the published disc totals of %s give them the empty squares of the games they won, as RULES.md section 2 and otd do", tournament.Plural(withEmpties, "player")))
	}
	return nil
}

// inferByes completes a tournament read from another program's file: a
// player short of their published score (published, by place) gets the
// bye in their first rounds without a game, as many as the score needs; a
// player whose games stop before the last round withdrew after their last
// game; the other rounds without a game are absences. It notes the byes
// that cannot all be true: two in a round, or more than one for a player
// (then the file lacks games).
func (b *builder) inferByes(published []scoring.HalfPoints) {
	t := b.t
	rounds := len(b.placed)
	bye := t.ByePoints
	byes := make([][]int, rounds) // players with the bye, by round
	for i := range t.Players {
		var rs []string
		for r := 0; r < rounds && !b.published[i].NoScore && published[i]-b.points[i] >= bye && bye > 0; r++ {
			if b.played[i][r] == 0 {
				byes[r] = append(byes[r], i+1)
				b.played[i][r] = -1
				b.last[i] = max(b.last[i], r+1)
				b.points[i] += bye
				b.byes[i]++
				rs = append(rs, fmt.Sprint(r+1))
			}
		}
		if len(rs) > 1 {
			b.notes = append(b.notes, fmt.Sprintf("%s: %d byes guessed (rounds %s) from the published score %v: a Swiss gives one, so the file lacks games of theirs",
				t.Players[i].Name, len(rs), strings.Join(rs, ", "), b.published[i].Score))
		}
		if b.last[i] < rounds {
			t.Players[i].Left = b.last[i] + 1
		}
		for r := 0; r < b.last[i]; r++ {
			if b.played[i][r] == 0 {
				t.Players[i].Absent = append(t.Players[i].Absent, r+1)
			}
		}
	}
	for r, ns := range byes {
		if len(ns) > 1 {
			var who []string
			for _, n := range ns {
				who = append(who, t.Players[n-1].Name)
			}
			b.notes = append(b.notes, fmt.Sprintf("round %d: byes guessed for %s from their published scores: a round has one bye, so the file lacks games of theirs", r+1, strings.Join(who, "; ")))
		}
	}
	// Byes go after the round's games; keep the games in round order.
	var all []tournament.Game
	for r := 1; r <= rounds; r++ {
		games := t.Round(r)
		for _, n := range byes[r-1] {
			games = append(games, tournament.Game{Round: r, Table: len(games) + 1, Black: n})
		}
		all = append(all, games...)
	}
	t.Games = all
}

// ELOSettings returns s with the tournament rules written in the file by
// otd (unchanged for other programs' files).
func ELOSettings(f *elo.File, s tournament.Settings) tournament.Settings {
	if o := f.Otd; o != nil {
		s.Rounds = max(o.Rounds, len(f.Rounds))
		s.BQ, s.TimeDefault, s.ByePoints, s.TieBreaks = o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks
	}
	return s
}

// blockFits tells whether a game in a labelled block of a converted file
// ("" for none) may be of the match inferred: a QF block holds
// quarter-finals or (WOC 1989) a play-off.
func blockFits(block, match string) bool {
	switch b := strings.ToUpper(block); {
	case b == "":
		return true
	case b == "3-4" || b == "3P":
		return match == "3P"
	case strings.HasPrefix(b, "QF"):
		return strings.HasPrefix(match, "QF") || match == "PO"
	case strings.HasPrefix(b, "SF"):
		return strings.HasPrefix(match, "SF")
	}
	return match == strings.ToUpper(block)
}

// lineList writes lines as "lines 106-118" (consecutive) or "lines 12, 40".
func lineList(lines []int) string {
	if len(lines) == 1 {
		return fmt.Sprintf("line %d", lines[0])
	}
	if lines[len(lines)-1]-lines[0] == len(lines)-1 {
		return fmt.Sprintf("lines %d-%d", lines[0], lines[len(lines)-1])
	}
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strconv.Itoa(l)
	}
	return "lines " + strings.Join(s, ", ")
}

// checkStatuses checks the entries, absences and withdrawals of otd's lines
// against the rounds and the games.
func checkStatuses(t *tournament.Tournament, o *elo.Otd, num map[int]int) error {
	for id := range o.Players {
		if num[id] == 0 {
			return fmt.Errorf("otd line: player id %d is not in the standings: %w", id, elo.ErrInvalid)
		}
	}
	for id := range o.Names {
		if num[id] == 0 {
			return fmt.Errorf("otd line: name: player id %d is not in the standings: %w", id, elo.ErrInvalid)
		}
	}
	for _, p := range t.Players {
		bad := p.FirstRound > t.Rounds+1 || p.Left < 0 || p.Left > t.Rounds+1
		for i, a := range p.Absent {
			bad = bad || a < 1 || a > t.Rounds || i > 0 && a <= p.Absent[i-1]
		}
		if bad {
			return fmt.Errorf("otd line: player %s: entry, withdrawal or absences outside rounds 1 to %d: %w", text(p.Name), t.Rounds, elo.ErrInvalid)
		}
	}
	for _, g := range t.Games {
		for _, n := range []int{g.Black, g.White} {
			if n != 0 && !t.Players[n-1].Active(g.Round) {
				return fmt.Errorf("round %d: %s has a game but is not in the round (late entry, absence or withdrawal): %w", g.Round, text(t.Players[n-1].Name), elo.ErrInvalid)
			}
		}
	}
	return nil
}

// joinName is the name of a standings line's SURNAME and First: "SURNAME, First".
func joinName(last, first string) string {
	if first == "" {
		return last
	}
	return last + ", " + first
}

// text is a name from a file for a message: as it is if it is short text,
// else quoted and cut.
func text(s string) string {
	if elo.CheckText(s) == nil && utf8.RuneCountInString(s) <= 80 {
		return s
	}
	return elo.QuoteCut(s)
}
