package export

// The WOF rating file (.ELO), package elo's File, to and from a tournament.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// ELOSettings returns s with the tournament rules written in the file by
// otd (unchanged for other programs' files).
func ELOSettings(f *elo.File, s tournament.Settings) tournament.Settings {
	if o := f.Otd; o != nil {
		s.Rounds = max(o.Rounds, len(f.Rounds))
		s.BQ, s.TimeDefault, s.ByePoints, s.TieBreaks = o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks
	}
	return s
}

// FromELO builds a tournament from an .ELO file: players in published order
// (numbered from 1, keeping their WOF ids, and a "+" as an id new to the
// rating list: Player.NewID), every Swiss round with its games,
// and the games added after them. Other programs' files list neither byes,
// forfeits, absences nor withdrawals: a player without a game in a round gets
// the bye there when the published score exceeds the points of their games; a
// player whose games stop early withdrew after their last game; other rounds
// without a game are absences. otd's own files say all of that in their
// "% otd:" lines, which rebuild the tournament exactly (pass the settings
// through ELOSettings to use the rules written there). A file that
// contradicts itself is refused with an error wrapping elo.ErrInvalid.
//
// The games after the Swiss rounds (%%Added results, and the labelled
// blocks "%Round SF1", "%Round F" of converted files) are the final phase:
// tournament.InferFinal gives them their matches and the rules, and makes a
// category of each group of other players who played among themselves. A
// tie written '<' or '>' says who went through (Result.Loser). Papp's and
// FlipTheDisc's published scores are the Swiss's alone; the converted
// files' count the games of their labelled blocks, and otd's Swiss
// standings do not. The notes say, in words with the file's lines, what
// could not be read for certain: games in no match, rules the games do not
// show, byes guessed where a round would have two, game lines written as
// comments.
func FromELO(f *elo.File, s tournament.Settings) (*tournament.Tournament, []string, error) {
	o := f.Otd
	s.Rounds = len(f.Rounds)
	if o != nil {
		s.Rounds = max(s.Rounds, o.Rounds)
	}
	if s.Name == "" {
		s.Name = f.Value("Tournament")
	}
	t := &tournament.Tournament{Settings: s}
	num := map[int]int{}
	for i, p := range f.Standings {
		if num[p.ID] != 0 {
			return nil, nil, fmt.Errorf("player id %d is listed twice: %w", p.ID, elo.ErrInvalid)
		}
		num[p.ID] = i + 1
		name := joinName(p.Last, p.First)
		pl := tournament.Player{Number: i + 1, WOFID: p.ID, NewID: p.New && p.ID != 0, Name: name, Rating: p.Rating, Country: p.Country, FirstRound: 1}
		if o != nil {
			if n, ok := o.Names[p.ID]; ok {
				pl.Name = n
			}
			st := o.Players[p.ID]
			if st.NoID { // a stand-in id, as otd wrote a player without a WOF id before issue 21
				pl.WOFID, pl.NewID = 0, false
			}
			pl.FirstRound, pl.Left, pl.Absent = max(st.FirstRound, 1), st.Left, st.Absent
		}
		t.Players = append(t.Players, pl)
	}
	lookup := func(id int, where string) (int, error) {
		if n := num[id]; n != 0 {
			return n, nil
		}
		return 0, fmt.Errorf("%s: player id %d is not in the standings: %w", where, id, elo.ErrInvalid)
	}
	played := make([][]bool, len(t.Players)) // played[n-1][r-1]
	points := make([]scoring.HalfPoints, len(t.Players))
	last := make([]int, len(t.Players))
	for i := range played {
		played[i] = make([]bool, len(f.Rounds))
	}
	// pair places a game of round r (1-based) between the file's ids b and w.
	pair := func(r, b, w int) (int, int, error) {
		where := fmt.Sprintf("round %d", r)
		bn, err := lookup(b, where)
		if err != nil {
			return 0, 0, err
		}
		wn, err := lookup(w, where)
		if err != nil {
			return 0, 0, err
		}
		if bn == wn {
			return 0, 0, fmt.Errorf("%s: player %d plays against themselves: %w", where, b, elo.ErrInvalid)
		}
		if played[bn-1][r-1] || played[wn-1][r-1] {
			return 0, 0, fmt.Errorf("%s: a player has two games: %w", where, elo.ErrInvalid)
		}
		played[bn-1][r-1], played[wn-1][r-1] = true, true
		last[bn-1], last[wn-1] = r, r
		return bn, wn, nil
	}
	var all []tournament.Game
	for r, games := range f.Rounds {
		var round []tournament.Game
		for _, g := range games {
			b, w, err := pair(r+1, g.Black, g.White)
			if err != nil {
				return nil, nil, err
			}
			addPoints(points, b, w, g)
			res := &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal}
			if o != nil && r < len(o.TimeDefaults) {
				for _, d := range o.TimeDefaults[r] {
					if d.Black == g.Black && d.White == g.White {
						res.Kind, res.Loser = tournament.TimeDefault, tournament.Color(d.Loser)
					}
				}
			}
			round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: b, White: w, Result: res})
		}
		if o != nil && r < len(o.Forfeits) {
			for _, d := range o.Forfeits[r] {
				b, w, err := pair(r+1, d.Black, d.White)
				if err != nil {
					return nil, nil, err
				}
				sr := scoring.Result{Kind: scoring.Forfeit, Outcome: scoring.BlackWins}
				winner := b
				if d.Loser == elo.Black {
					sr.Outcome, winner = scoring.WhiteWins, w
				}
				sc, err := scoring.ScoreGame(sr, s.Rules())
				if err != nil {
					return nil, nil, fmt.Errorf("round %d: forfeit: %w", r+1, err)
				}
				points[winner-1] += scoring.Point
				round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: b, White: w,
					Result: &tournament.Result{Black: sc.BlackDiscs, White: sc.WhiteDiscs, Kind: tournament.Forfeit, Loser: tournament.Color(d.Loser)}})
			}
		}
		if o != nil && r < len(o.Byes) {
			for _, id := range o.Byes[r] {
				n, err := lookup(id, fmt.Sprintf("round %d", r+1))
				if err != nil {
					return nil, nil, err
				}
				if played[n-1][r] {
					return nil, nil, fmt.Errorf("round %d: player id %d has a game and the bye: %w", r+1, id, elo.ErrInvalid)
				}
				played[n-1][r], last[n-1] = true, r+1
				points[n-1] += s.ByePoints
				round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: n})
			}
		}
		all = append(all, round...)
	}
	t.Games = all
	// The games after the Swiss.
	var final []tournament.FinalGame
	finalPoints := make([]scoring.HalfPoints, len(t.Players)) // in labelled blocks
	labelled := 0
	for i, g := range f.Added {
		where := "added results"
		if i < len(f.AddedFrom) {
			where = fmt.Sprintf("line %d", f.AddedFrom[i].Line)
		}
		b, err := lookup(g.Black, where)
		if err != nil {
			return nil, nil, err
		}
		w, err := lookup(g.White, where)
		if err != nil {
			return nil, nil, err
		}
		if b == w {
			return nil, nil, fmt.Errorf("%s: player %d plays against themselves: %w", where, g.Black, elo.ErrInvalid)
		}
		n := len(final) + 1
		final = append(final, tournament.FinalGame{Game: n, Seq: n, Black: b, White: w,
			Result: &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal, Loser: tournament.Color(g.Loser)}})
		if i < len(f.AddedFrom) && f.AddedFrom[i].Block != "" {
			labelled++
			addPoints(finalPoints, b, w, g)
		}
	}
	// The published scores: the Swiss's, or (converted files) with the
	// games of the labelled blocks.
	published := make([]scoring.HalfPoints, len(f.Standings))
	counted := labelled > 0
	for i, p := range f.Standings {
		published[i] = p.Score
		counted = counted && p.Score-finalPoints[i] >= points[i]
	}
	var notes []string
	if counted {
		for i := range published {
			published[i] -= finalPoints[i]
		}
		notes = append(notes, fmt.Sprintf("the published scores count the %s of the file's labelled blocks (%%Round SF1, F...), as converted files do: otd's Swiss standings do not", tournament.Plural(labelled, "final game")))
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
		notes = append(notes, fmt.Sprintf("%s: %s (left out of the rating: unplayed, or not to be rated), not imported", lineList(lines), what))
	}
	if o == nil {
		notes = append(notes, inferByes(f, t, played, points, last, published)...)
	} else if err := checkStatuses(t, o, num); err != nil {
		return nil, nil, err
	}
	for i, p := range f.Standings {
		if published[i] != points[i] {
			return nil, nil, fmt.Errorf("%s %s: published score %v, but the games and byes give %v: %w", text(p.Last), text(p.First), p.Score, points[i], elo.ErrInvalid)
		}
	}
	t.FinalGames = final
	inferred, err := t.InferFinal(func(seq int) string {
		if seq <= len(f.AddedFrom) {
			return fmt.Sprintf("line %d", f.AddedFrom[seq-1].Line)
		}
		return fmt.Sprintf("added result %d", seq)
	})
	if err != nil {
		return nil, nil, err
	}
	notes = append(notes, inferred...)
	if len(t.Categories) > 0 {
		notes = append(notes, "teams: the file does not say who is youth (RULES.md: a youth player does not count for the team): every player counts for their country's; 'otd tournament edit --teams exclude=NAME' leaves a category out")
	}
	if slices.ContainsFunc(t.FinalGames, func(g tournament.FinalGame) bool { return g.Match == "" }) {
		// The event's seeds were its program's standings: the file's order.
		rows, err := t.Standings(t.Rounds)
		if err != nil {
			return nil, nil, err
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
	return t, notes, nil
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

// addPoints adds the points of game g between players b and w (numbers).
func addPoints(points []scoring.HalfPoints, b, w int, g elo.Game) {
	switch {
	case g.BlackDiscs > g.WhiteDiscs:
		points[b-1] += scoring.Point
	case g.WhiteDiscs > g.BlackDiscs:
		points[w-1] += scoring.Point
	default:
		points[b-1] += scoring.Half
		points[w-1] += scoring.Half
	}
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

// inferByes completes a tournament read from another program's file: a
// player short of their published score (published, by place) gets the
// bye in their first rounds without a game, as many as the score needs; a
// player whose games stop before the last round withdrew after their last
// game; the other rounds without a game are absences. It returns notes on
// the byes that cannot all be true: two in a round, or more than one for a
// player (then the file lacks games).
func inferByes(f *elo.File, t *tournament.Tournament, played [][]bool, points []scoring.HalfPoints, last []int, published []scoring.HalfPoints) []string {
	bye := t.ByePoints
	byes := make([][]int, len(f.Rounds)) // players with the bye, by round
	var notes []string
	for i := range f.Standings {
		var rounds []string
		for r := 0; r < len(f.Rounds) && published[i]-points[i] >= bye && bye > 0; r++ {
			if !played[i][r] {
				byes[r] = append(byes[r], i+1)
				played[i][r] = true
				last[i] = max(last[i], r+1)
				points[i] += bye
				rounds = append(rounds, strconv.Itoa(r+1))
			}
		}
		if len(rounds) > 1 {
			notes = append(notes, fmt.Sprintf("%s: %d byes guessed (rounds %s) from the published score %v: a Swiss gives one, so the file lacks games of theirs",
				t.Players[i].Name, len(rounds), strings.Join(rounds, ", "), f.Standings[i].Score))
		}
		if last[i] < len(f.Rounds) {
			t.Players[i].Left = last[i] + 1
		}
		for r := 0; r < last[i]; r++ {
			if !played[i][r] {
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
			notes = append(notes, fmt.Sprintf("round %d: byes guessed for %s from their published scores: a round has one bye, so the file lacks games of theirs", r+1, strings.Join(who, "; ")))
		}
	}
	// Byes go after the round's games; keep the games in round order.
	var all []tournament.Game
	for r := 1; r <= len(f.Rounds); r++ {
		games := t.Round(r)
		for _, n := range byes[r-1] {
			games = append(games, tournament.Game{Round: r, Table: len(games) + 1, Black: n})
		}
		all = append(all, games...)
	}
	t.Games = all
	return notes
}

// ELOMeta returns the header values that the tournament itself knows: its
// name, dates, country, and its director as the sender ('otd export elo'
// flags still win when given).
func ELOMeta(t *tournament.Tournament) elo.Meta {
	return elo.Meta{Tournament: t.Name, Country: t.Country, Sender: t.Director, Start: t.Start.Time(), End: t.End.Time()}
}

// ErrDuplicateID is returned when two players have the same WOF id.
var ErrDuplicateID = errors.New("two players have the same WOF id")

// ErrNoWOFID is wrapped by the error of players without a WOF id when the
// tournament has no new-player ids to give them (Settings.NewIDs), or too
// few.
var ErrNoWOFID = errors.New("no WOF id")

// ToELO makes the .ELO file of a tournament: the header, the Swiss
// standings after the last finished round in rank order (final-phase games
// count in neither points nor discs, as Papp and FlipTheDisc publish them),
// each of those rounds' games played on the board (normal games and time
// defaults), and the final phases' games played after %%Added results, in
// the order paired (FinalGame.Seq), black first, a tie that a recorded
// decision settled written '<' or '>' for who went through, as Papp does. A
// forfeit and a bye are not games for the rating list: they are left out of
// the game lines (Papp writes only games with discs) and, in the Swiss,
// written with the entries, absences and withdrawals in "% otd:" comment
// lines for otd's own import (a final-phase forfeit is not written). Players are written
// "FAMILY, Given" (SplitName) with their WOF id and three-letter country. A
// player without a WOF id gets one from the tournament's new-player ids
// (Settings.NewIDs, Papp's zone-insertion: the first ids of the range that
// no player of the tournament has, in the order of registration) and is
// marked new ("+"), as is a player whose id is new (Player.NewID); without
// the range, or with too few free ids in it, the file is refused with an
// error wrapping ErrNoWOFID: a tournament number in the id column would be
// another player's id (2 is TASTET Marc's). A name with more commas
// ("SMITH, John, Jr.") is written SMITH, John Jr., and as it is, quoted, in
// an otd line ("% otd: name 12 \"SMITH, John, Jr.\"").
func ToELO(t *tournament.Tournament, meta elo.Meta) (*elo.File, error) {
	done := t.Finished()
	rows, err := t.Standings(done)
	if err != nil {
		return nil, err
	}
	ids, err := eloIDs(t)
	if err != nil {
		return nil, err
	}
	f := &elo.File{Header: meta.Headers(), Otd: elo.NewOtd()}
	o := f.Otd
	o.Rounds, o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks = t.Rounds, t.BQ, t.TimeDefault, t.ByePoints, t.TieBreaks
	for _, row := range rows {
		p := t.Players[row.Player-1]
		last, first := SplitName(p.Name)
		f.Standings = append(f.Standings, elo.Player{ID: ids[p.Number], New: p.WOFID == 0 || p.NewID, Last: last, First: first,
			Country: eloCountry(p.Country), Score: row.Points, Discs: row.Discs, Rating: p.Rating})
		if strings.Count(p.Name, ",") > 1 { // "SMITH, John, Jr.": the standings line cannot hold it
			o.Names[ids[p.Number]] = p.Name
		}
		st := elo.Status{Left: p.Left, Absent: p.Absent}
		if p.FirstRound > 1 {
			st.FirstRound = p.FirstRound
		}
		if st.FirstRound != 0 || st.Left != 0 || len(st.Absent) > 0 {
			o.Players[ids[p.Number]] = st
		}
	}
	game := func(g tournament.Game) elo.Game {
		return elo.Game{Black: ids[g.Black], BlackDiscs: g.Result.Black, White: ids[g.White], WhiteDiscs: g.Result.White}
	}
	loss := func(g tournament.Game) elo.Forfeit { // the players and the colour that lost
		return elo.Forfeit{Black: ids[g.Black], White: ids[g.White], Loser: elo.Color(g.Result.Loser)}
	}
	for r := 1; r <= done; r++ {
		var games []elo.Game
		var forfeits, timeDefaults []elo.Forfeit
		var byes []int
		for _, g := range t.Round(r) {
			switch {
			case g.IsBye():
				byes = append(byes, ids[g.Black])
			case g.Result == nil: // not in a finished round
			case g.Result.Kind == tournament.Forfeit:
				forfeits = append(forfeits, loss(g))
			default:
				games = append(games, game(g))
				if g.Result.Kind == tournament.TimeDefault {
					timeDefaults = append(timeDefaults, loss(g))
				}
			}
		}
		f.Rounds = append(f.Rounds, games)
		o.Forfeits, o.TimeDefaults, o.Byes = append(o.Forfeits, forfeits), append(o.TimeDefaults, timeDefaults), append(o.Byes, byes)
	}
	for _, g := range t.FinalGames { // in the order paired
		if g.Result == nil || g.Result.Kind == tournament.Forfeit {
			continue
		}
		a := game(tournament.Game{Black: g.Black, White: g.White, Result: g.Result})
		if g.Result.Kind == tournament.Normal && g.Result.Black == g.Result.White {
			a.Loser = elo.Color(g.Result.Loser) // '<' or '>': who went through
		}
		f.Added = append(f.Added, a)
	}
	return f, nil
}

// eloIDs returns each player's id in the rating file, by player number:
// the WOF id, or for a player without one the next id of the tournament's
// new-player range that no player has.
func eloIDs(t *tournament.Tournament) ([]int, error) {
	ids := make([]int, len(t.Players)+1)
	used := map[int]int{} // id: player number
	var missing []string
	for _, p := range t.Players {
		if p.WOFID == 0 {
			missing = append(missing, fmt.Sprintf("%d (%s)", p.Number, p.Name))
			continue
		}
		if n := used[p.WOFID]; n != 0 {
			return nil, fmt.Errorf("players %d and %d: WOF id %d: %w; correct one with 'otd player edit N --wof-id'", n, p.Number, p.WOFID, ErrDuplicateID)
		}
		used[p.WOFID], ids[p.Number] = p.Number, p.WOFID
	}
	if len(missing) == 0 {
		return ids, nil
	}
	who := fmt.Sprintf("player %s has", missing[0])
	if len(missing) > 1 {
		who = "players " + strings.Join(missing, ", ")
		if len(missing) > 4 {
			who = fmt.Sprintf("players %s and %d more", strings.Join(missing[:3], ", "), len(missing)-3)
		}
		who += " have"
	}
	r := t.NewIDs
	if r.IsZero() {
		return nil, fmt.Errorf("%s %w, and the rating file needs one for each: set the ids for new players your federation has from the WOF ('otd tournament edit --new-ids 50321-59999', from the first not yet given), or give each the rating list's ('otd player edit N --wof-id ID')", who, ErrNoWOFID)
	}
	next := r.From
	for _, p := range t.Players {
		if p.WOFID != 0 {
			continue
		}
		for used[next] != 0 {
			next++
		}
		if !r.Contains(next) {
			return nil, fmt.Errorf("%s %w, and the new-player ids %s have too few left that no player has: give a wider range ('otd tournament edit --new-ids FROM-TO')", who, ErrNoWOFID, r)
		}
		ids[p.Number], used[next] = next, p.Number
	}
	return ids, nil
}

// eloCountry gives a stored country code as the rating list writes it: the
// three-letter code (codes stored before otd normalised them may have two).
func eloCountry(c string) string {
	if n, err := tournament.NormalizeCountry(c); err == nil {
		return n
	}
	return strings.ToUpper(c)
}

// SplitName splits a player's name, written "FAMILY, Given" by convention,
// into the rating list's family name, in capitals as the WOF's list and the
// files of Papp and FlipTheDisc write it, and given name: "Leader, Imre"
// gives LEADER and Imre. A name without a comma is a family name alone, kept
// whole and in its order: "Nakamura Tō" gives NAKAMURA TŌ and no given name
// (a standings line "NAKAMURA TŌ, , JPN", as real files write a player
// without one). Commas cannot be in a field of the file: those after the
// first become spaces.
func SplitName(name string) (family, given string) {
	family, given, _ = strings.Cut(name, ",")
	clean := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ") }
	return strings.ToUpper(clean(family)), clean(given)
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
