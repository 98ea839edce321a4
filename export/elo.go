package export

// The WOF rating file (.ELO), package elo's File, to and from a tournament.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/tournament"
)

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
// the order paired (Game.Seq), black first, a tie that a recorded
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
// an otd line ("% otd: name 12 \"SMITH, John, Jr.\""). The championship
// (the city, the final phase, the categories, the teams' rules, the youth's
// age, the players' birth years, teams and categories, each final game's
// match) is written in otd lines of format 2 (elo.OtdFormat); the dates,
// host country and director are the header's.
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
	championship(t, o)
	renumbered := false
	for i, row := range rows {
		p := t.Players[row.Player-1]
		o.Numbers = append(o.Numbers, p.Number)
		renumbered = renumbered || p.Number != i+1
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
		if !p.Born.IsZero() || p.Team != "" || len(p.Categories) > 0 {
			o.SetDetails(ids[p.Number], elo.Details{Born: p.Born.String(), Team: p.Team, Categories: p.Categories})
		}
	}
	if !renumbered {
		o.Numbers = nil // the standings' order: nothing to say
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
		if g.Match != "" {
			o.SetMatch(len(f.Added), elo.Match{Category: g.Category, Code: g.Match, Game: g.Game})
		}
		f.Added = append(f.Added, a)
	}
	return f, nil
}

// championship writes in o what the standard header cannot say of the
// championship (RULES.md section 7): the city, the new-player ids, the
// final phase, the categories, the teams' rules and the youth's age limit.
func championship(t *tournament.Tournament, o *elo.Otd) {
	o.City, o.YouthAge, o.NewIDs = t.City, t.YouthAge, t.NewIDs.String()
	if !t.Final.IsZero() {
		o.Final = t.Final.String()
	}
	if b, _ := t.TeamRules.MarshalText(); len(b) > 0 {
		o.Teams = string(b)
	}
	for _, c := range t.Categories {
		e := elo.Category{Name: c.Name, Youth: c.Youth, BornFrom: c.BornFrom, BornTo: c.BornTo}
		if !c.Final.IsZero() {
			e.Final = c.Final.String()
		}
		o.Categories = append(o.Categories, e)
	}
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
