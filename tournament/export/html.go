package export

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

//go:embed html.tmpl
var htmlText string

// htmlTemplates are the results page ("page") and the wall sheet ("wall"):
// html/template escapes every name, so that no name can add markup.
var htmlTemplates = template.Must(template.New("").Parse(htmlText))

// htmlPage is what the templates show.
type htmlPage struct {
	Name   string
	About  []string // dates, place, director, settings
	Title  string   // "Standings after round 3 of 7"
	Rounds []int    // the crosstable's round numbers
	Rows   []htmlRow
	Games  []htmlRound
	Wall   *htmlWall
}

// htmlRow is a player's line of the standings and of the crosstable.
type htmlRow struct {
	Rank, Number  int
	Name, Country string
	Points, BQ    string
	Discs, Games  int
	Withdrawn     bool
	Cells         []string // the crosstable's rounds, as CellText writes them
}

// htmlRound is a round's games; Black and White are "12 Ann Archer".
type htmlRound struct {
	Number int
	Games  []htmlGame
}

type htmlGame struct {
	Table                int
	Black, White         string // White is "" for the bye
	BlackName, WhiteName string
	Result               string
}

// htmlWall is the wall sheet of a round: the players by name, then the tables.
type htmlWall struct {
	Round  int
	ByName []htmlSeat
	Tables []htmlGame
}

// htmlSeat is a player's place in a round: table (0 for the bye), colour, opponent.
type htmlSeat struct {
	Name, Colour, Opponent string
	Table                  int
}

// WriteHTML writes the results page of t: one self-contained HTML page
// (inline CSS, no script, nothing fetched) with the standings after the last
// finished round (as 'otd standings' gives them), the crosstable and every
// paired round's games, readable on a phone and printable on A4.
func WriteHTML(w io.Writer, t *tournament.Tournament) error {
	v, err := t.View(t.Finished())
	if err != nil {
		return err
	}
	page := htmlPage{Name: t.Name, About: about(t), Title: fmt.Sprintf("Standings after round %d of %d", v.Round, t.Rounds)}
	if len(v.Rows) > 0 {
		for k := range v.Rows[0].Rounds {
			page.Rounds = append(page.Rounds, k+1)
		}
	}
	page.Rows = make([]htmlRow, len(v.Rows))
	for i, row := range v.Rows {
		p := t.Players[row.Player-1]
		cells := make([]string, len(row.Rounds))
		for k, c := range row.Rounds {
			cells[k] = CellText(c)
		}
		page.Rows[i] = htmlRow{Rank: row.Rank, Number: p.Number, Name: p.Name, Country: p.Country,
			Points: row.Points.String(), BQ: row.BQ.String(), Discs: row.Discs, Games: row.Games, Withdrawn: row.Withdrawn, Cells: cells}
	}
	for r := 1; r <= t.Paired(); r++ {
		page.Games = append(page.Games, htmlRound{Number: r, Games: htmlGames(t, t.Round(r))})
	}
	return htmlTemplates.ExecuteTemplate(w, "page", page)
}

// WriteWallSheet writes the wall sheet of round r: the round's pairings as
// directors post them, in large type on A4, first every player by name
// (table, colour, opponent), then the same by table.
func WriteWallSheet(w io.Writer, t *tournament.Tournament, r int) error {
	if err := t.CheckPaired(r); err != nil {
		return err
	}
	games := t.Round(r)
	wall := &htmlWall{Round: r, Tables: htmlGames(t, games)}
	for _, g := range wall.Tables {
		if g.WhiteName == "" {
			wall.ByName = append(wall.ByName, htmlSeat{Name: g.BlackName, Opponent: "bye"})
			continue
		}
		wall.ByName = append(wall.ByName, htmlSeat{Name: g.BlackName, Table: g.Table, Colour: "black", Opponent: g.White},
			htmlSeat{Name: g.WhiteName, Table: g.Table, Colour: "white", Opponent: g.Black})
	}
	slices.SortStableFunc(wall.ByName, func(a, b htmlSeat) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Name, b.Name))
	})
	return htmlTemplates.ExecuteTemplate(w, "wall", htmlPage{Name: t.Name, About: about(t), Wall: wall})
}

// htmlGames gives the games of a round with the players' numbers and names.
func htmlGames(t *tournament.Tournament, games []tournament.Game) []htmlGame {
	out := make([]htmlGame, len(games))
	for i, g := range games {
		b := t.Players[g.Black-1]
		h := htmlGame{Table: g.Table, BlackName: b.Name, Black: strconv.Itoa(b.Number) + " " + b.Name}
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
func about(t *tournament.Tournament) []string {
	var out []string
	switch {
	case !t.Start.IsZero() && !t.End.IsZero() && t.End != t.Start:
		out = append(out, t.Start.String()+" to "+t.End.String())
	case !t.Start.IsZero():
		out = append(out, t.Start.String())
	}
	if place := strings.Trim(t.City+", "+t.Country, ", "); place != "" {
		out = append(out, place)
	}
	if t.Director != "" {
		out = append(out, "Director: "+t.Director)
	}
	return append(out, fmt.Sprintf("%d rounds, %s; %s", t.Rounds, t.System, t.Rules()))
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
	}
	return fmt.Sprintf("%s%d%s%d", mark, c.Opponent, c.Colour.String()[:1], c.Discs)
}
