package app

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// The reports' data: what the results page, the wall sheets and the pages
// of 'otd serve' show of a tournament, built here once for package export
// (which writes them) and package web (which serves them); their templates
// are internal/htmlpage's.

// Page is what the templates show.
type Page struct {
	Name        string
	About       PageAbout
	After       int   // the standings are after this round (of About.Rounds)
	Rounds      []int // the crosstable's round numbers
	Rows        []PageRow
	Games       []PageRound
	Wall        *PageWall
	PlayerPages bool // each name in the standings links to /player/N (otd serve)
	// A championship's parts (none for an event that is only a Swiss): the
	// final phases, the final ranking, each category's ranking, the teams
	// and how they count; FinalWall is a final round's wall sheet.
	Final        []PagePhase
	FinalRanking *PageRanking
	Categories   []PageRanking
	Teams        []PageTeam
	TeamRule     PageTeamRule
	FinalWall    *PageFinalWall
	Slips        *PageSlips // a round's result slips
}

// PageAbout is what a page says of the event, as data for the templates to
// say in the reader's words: its dates (End "" for one day), place,
// director, the game when it is not standard Othello, and how it is played.
type PageAbout struct {
	Start, End      string
	Place, Director string
	Variant         *PageVariant
	Rounds          int
	System          string   // tournament.System: swiss, roundrobin
	TieBreaks       []string // the standings' order, scoring.TieBreak's names: points, bq, discs, h2h, wins, diff
}

// PageVariant is the game of an event that is not standard Othello: its
// rules' name (engine.Rules.String), board and goal.
type PageVariant struct {
	Name          string
	Size, Squares int
	Anti          bool // the fewest discs win
}

// PageRow is a player's line of the standings and of the crosstable.
type PageRow struct {
	Rank, Number  int
	Name, Country string
	Points, BQ    string
	Discs, Games  int
	Withdrawn     bool
	Cells         []string // the crosstable's rounds, as CellText writes them
}

// PageRound is a round's games; Black and White are "12 Ann Archer".
type PageRound struct {
	Number int
	Games  []PageGame
}

// PageGame is a game of a round.
type PageGame struct {
	Table                int
	Black, White         string // White is "" for the bye
	BlackName, WhiteName string
	Result               string
}

// PageWall is the wall sheet of a round: the players by name, then the tables.
type PageWall struct {
	Round  int
	ByName []PageSeat
	Tables []PageGame
}

// PageSeat is a player's place in a round: table (0 for the bye), colour,
// opponent ("12 Ann Archer", or "bye") and the game's result.
type PageSeat struct {
	Round, Number, Table           int
	Name, Colour, Opponent, Result string // Colour black or white; Opponent bye or absent when Table is 0
}

// ResultsPage gives what the results page shows of t (see export.WriteHTML).
func ResultsPage(t *tournament.Tournament) (Page, error) {
	v, err := t.View(t.Finished())
	if err != nil {
		return Page{}, err
	}
	page := Page{Name: t.Name, About: about(t), After: v.Round}
	if len(v.Rows) > 0 {
		for k := range v.Rows[0].Rounds {
			page.Rounds = append(page.Rounds, k+1)
		}
	}
	page.Rows = make([]PageRow, len(v.Rows))
	for i, row := range v.Rows {
		p := t.Players[row.Player-1]
		cells := make([]string, len(row.Rounds))
		for k, c := range row.Rounds {
			cells[k] = CellText(c)
		}
		page.Rows[i] = PageRow{Rank: row.Rank, Number: p.Number, Name: p.Name, Country: p.Country,
			Points: row.Points.String(), BQ: row.BQ.String(), Discs: row.Discs, Games: row.Games, Withdrawn: row.Withdrawn, Cells: cells}
	}
	for r := 1; r <= t.Paired(); r++ {
		page.Games = append(page.Games, RoundGames(t, r))
	}
	return page, championshipPage(t, &page)
}

// RoundGames gives the games of round r.
func RoundGames(t *tournament.Tournament, r int) PageRound {
	return PageRound{Number: r, Games: roundGames(t, t.Round(r))}
}

// Seats gives every player's place in round r, by name in the order of the
// Unicode collation (Çelik with the Cs, Ødegaard with the Os), the players
// absent from the round among them ("absent").
func Seats(t *tournament.Tournament, r int) []PageSeat {
	games := t.Round(r)
	var seats []PageSeat
	for i, h := range roundGames(t, games) {
		g, b := games[i], t.Players[games[i].Black-1].Number
		if g.IsBye() {
			seats = append(seats, PageSeat{Round: r, Number: b, Name: h.BlackName, Opponent: "bye", Result: h.Result})
			continue
		}
		seats = append(seats, PageSeat{Round: r, Number: b, Table: g.Table, Name: h.BlackName, Colour: "black", Opponent: h.White, Result: h.Result},
			PageSeat{Round: r, Number: t.Players[g.White-1].Number, Table: g.Table, Name: h.WhiteName, Colour: "white", Opponent: h.Black, Result: h.Result})
	}
	for _, p := range t.Players {
		if slices.Contains(p.Absent, r) && !p.WithdrawnBy(r) {
			seats = append(seats, PageSeat{Round: r, Number: p.Number, Name: p.Name, Opponent: "absent"})
		}
	}
	sortByName(seats, func(s PageSeat) string { return s.Name })
	return seats
}

// sortByName sorts s by the names name gives, in the order of the Unicode
// collation (CLDR's root order: accents after the plain letter, case
// ignored first), the same names by their bytes.
func sortByName[E any](s []E, name func(E) string) {
	c := collate.New(language.Und) // not safe for concurrent use: one a call
	var buf collate.Buffer
	keys := make(map[string][]byte, len(s))
	for _, e := range s {
		n := name(e)
		if _, ok := keys[n]; !ok {
			keys[n] = slices.Clone(c.KeyFromString(&buf, n))
			buf.Reset()
		}
	}
	slices.SortStableFunc(s, func(a, b E) int {
		na, nb := name(a), name(b)
		return cmp.Or(bytes.Compare(keys[na], keys[nb]), cmp.Compare(na, nb))
	})
}

// roundGames gives the games of a round with the players' numbers and names.
func roundGames(t *tournament.Tournament, games []tournament.Game) []PageGame {
	out := make([]PageGame, len(games))
	for i, g := range games {
		b := t.Players[g.Black-1]
		h := PageGame{Table: g.Table, BlackName: b.Name, Black: strconv.Itoa(b.Number) + " " + b.Name}
		switch {
		case g.IsBye():
			h.Result = "bye"
		default:
			wp := t.Players[g.White-1]
			h.WhiteName, h.White = wp.Name, strconv.Itoa(wp.Number)+" "+wp.Name
			if g.Result != nil {
				h.Result = g.Result.String()
			}
		}
		out[i] = h
	}
	return out
}

// about gives what the page says of the event: dates, place, director, rules.
func about(t *tournament.Tournament) PageAbout {
	a := PageAbout{Director: t.Director, Rounds: t.Rounds, System: string(t.System)}
	if !t.Start.IsZero() {
		a.Start = t.Start.String()
		if !t.End.IsZero() && t.End != t.Start {
			a.End = t.End.String()
		}
	}
	a.Place = strings.Trim(t.City+", "+t.Country, ", ")
	if r := t.GameRules(); !r.Standard() {
		a.Variant = &PageVariant{Name: r.String(), Size: r.Size, Squares: r.Squares(), Anti: r.Winner == engine.FewestDiscs}
	}
	order := t.Rules().TieBreaks
	if len(order) == 0 {
		order = scoring.DefaultTieBreaks()
	}
	for _, k := range order {
		a.TieBreaks = append(a.TieBreaks, k.String())
	}
	return a
}

// CellText writes a round of a player's crosstable line as 'otd crosstable'
// does: "+12w40" a win with 40 discs as white against player 12 ("=" a
// draw, "-" a loss), a time default ending in "t", a forfeit "+12ff" or
// "-12ff" (not played: no colour, no discs), "bye", and "-" for a round
// without a game.
func CellText(c scoring.Cell) string {
	switch c.Kind {
	case scoring.Missed:
		return "-"
	case scoring.Bye:
		return "bye"
	}
	mark := "-"
	switch c.Points {
	case scoring.Point:
		mark = "+"
	case scoring.Half:
		mark = "="
	}
	switch c.Kind {
	case scoring.Forfeit: // not played: no colour, and the discs are the bye's convention
		return fmt.Sprintf("%s%dff", mark, c.Opponent)
	case scoring.TimeDefault:
		return fmt.Sprintf("%s%d%s%dt", mark, c.Opponent, c.Colour.String()[:1], c.Discs)
	case scoring.NoDiscs: // a result without discs: none shown
		return fmt.Sprintf("%s%d%s", mark, c.Opponent, c.Colour.String()[:1])
	}
	return fmt.Sprintf("%s%d%s%d", mark, c.Opponent, c.Colour.String()[:1], c.Discs)
}

// WallPage gives what the wall sheet of round r shows: the round's
// pairings, first every player by name (table, colour, opponent), then the
// same by table.
func WallPage(t *tournament.Tournament, r int) (Page, error) {
	if err := t.CheckPaired(r); err != nil {
		return Page{}, err
	}
	wall := &PageWall{Round: r, ByName: Seats(t, r), Tables: RoundGames(t, r).Games}
	return Page{Name: t.Name, About: about(t), Wall: wall}, nil
}

// GamePath is the path of game g's page on otd serve (its viewer): the
// links of the pages and the slips' QR codes.
func GamePath(g tournament.Game) string {
	if g.IsFinal() {
		return "/final/game/" + strconv.Itoa(g.Seq)
	}
	return "/round/" + strconv.Itoa(g.Round) + "/table/" + strconv.Itoa(g.Table)
}
