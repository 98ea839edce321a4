package export

import (
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/txt"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

//go:embed html.tmpl
var htmlText string

// htmlTemplates are the results page ("page") and the wall sheet ("wall"):
// html/template escapes every name, so that no name can add markup.
var htmlTemplates = HTMLTemplates()

// HTMLTemplates returns a new set of the templates of the results page and
// the wall sheet, for other pages to build on: "style" (the CSS), the
// sections "standings", "crosstable", "final", "final-ranking",
// "categories" and "teams" (of an HTMLPage), "round" (an HTMLRound),
// "by-name" (a []HTMLSeat) and "final-games" (a []HTMLFinalGame).
func HTMLTemplates() *template.Template { return template.Must(template.New("").Parse(htmlText)) }

// HTMLPage is what the templates show.
type HTMLPage struct {
	Name        string
	About       []string // dates, place, director, settings
	Title       string   // "Standings after round 3 of 7"
	Rounds      []int    // the crosstable's round numbers
	Rows        []HTMLRow
	Games       []HTMLRound
	Wall        *HTMLWall
	PlayerPages bool // each name in the standings links to /player/N (otd serve)
	// A championship's parts (none for an event that is only a Swiss): the
	// final phases, the final ranking, each category's ranking, the teams
	// and how they count; FinalWall is a final round's wall sheet.
	Final        []HTMLPhase
	FinalRanking *HTMLRanking
	Categories   []HTMLRanking
	Teams        []HTMLTeam
	TeamRule     string
	FinalWall    *HTMLFinalWall
}

// HTMLRow is a player's line of the standings and of the crosstable.
type HTMLRow struct {
	Rank, Number  int
	Name, Country string
	Points, BQ    string
	Discs, Games  int
	Withdrawn     bool
	Cells         []string // the crosstable's rounds, as CellText writes them
}

// HTMLRound is a round's games; Black and White are "12 Ann Archer".
type HTMLRound struct {
	Number int
	Games  []HTMLGame
}

// HTMLGame is a game of a round.
type HTMLGame struct {
	Table                int
	Black, White         string // White is "" for the bye
	BlackName, WhiteName string
	Result               string
}

// HTMLWall is the wall sheet of a round: the players by name, then the tables.
type HTMLWall struct {
	Round  int
	ByName []HTMLSeat
	Tables []HTMLGame
}

// HTMLSeat is a player's place in a round: table (0 for the bye), colour,
// opponent ("12 Ann Archer", or "bye") and the game's result.
type HTMLSeat struct {
	Round, Number, Table           int
	Name, Colour, Opponent, Result string
}

// WriteHTML writes the results page of t: one self-contained HTML page
// (inline CSS, no script, nothing fetched) with the standings after the last
// finished round (as 'otd standings' gives them), the crosstable and every
// paired round's games, readable on a phone and printable on A4; a
// championship's has its final phase and final ranking first, and each
// category's ranking and the teams after the standings.
func WriteHTML(w io.Writer, t *tournament.Tournament) error {
	page, err := ResultsPage(t)
	if err != nil {
		return err
	}
	return executeHTML(w, "page", page)
}

// executeHTML writes the template name of export's own with data (ExecuteHTML).
func executeHTML(w io.Writer, name string, data any) error {
	return ExecuteHTML(w, htmlTemplates, name, data)
}

// ExecuteHTML writes the template name of set (HTMLTemplates, or a set built
// on it) with data, its text PrintableDocument: html/template escapes the
// markup, and a control character or a byte that is not UTF-8, whatever the
// database holds, is escaped too, so that the page is UTF-8 text that no
// character reorders (a bidirectional override). Every page otd writes or
// serves (package web) goes through it.
func ExecuteHTML(w io.Writer, set *template.Template, name string, data any) error {
	var b strings.Builder
	if err := set.ExecuteTemplate(&b, name, data); err != nil {
		return err
	}
	_, err := io.WriteString(w, txt.PrintableDocument(b.String()))
	return err
}

// ResultsPage gives what the results page shows of t (see WriteHTML).
func ResultsPage(t *tournament.Tournament) (HTMLPage, error) {
	v, err := t.View(t.Finished())
	if err != nil {
		return HTMLPage{}, err
	}
	page := HTMLPage{Name: t.Name, About: about(t), Title: fmt.Sprintf("Standings after round %d of %d", v.Round, t.Rounds)}
	if len(v.Rows) > 0 {
		for k := range v.Rows[0].Rounds {
			page.Rounds = append(page.Rounds, k+1)
		}
	}
	page.Rows = make([]HTMLRow, len(v.Rows))
	for i, row := range v.Rows {
		p := t.Players[row.Player-1]
		cells := make([]string, len(row.Rounds))
		for k, c := range row.Rounds {
			cells[k] = CellText(c)
		}
		page.Rows[i] = HTMLRow{Rank: row.Rank, Number: p.Number, Name: p.Name, Country: p.Country,
			Points: row.Points.String(), BQ: row.BQ.String(), Discs: row.Discs, Games: row.Games, Withdrawn: row.Withdrawn, Cells: cells}
	}
	for r := 1; r <= t.Paired(); r++ {
		page.Games = append(page.Games, RoundGames(t, r))
	}
	return page, championshipPage(t, &page)
}

// WriteWallSheet writes the wall sheet of round r: the round's pairings as
// directors post them, in large type on A4, first every player by name
// (table, colour, opponent), then the same by table.
func WriteWallSheet(w io.Writer, t *tournament.Tournament, r int) error {
	if err := t.CheckPaired(r); err != nil {
		return err
	}
	wall := &HTMLWall{Round: r, ByName: Seats(t, r), Tables: RoundGames(t, r).Games}
	return executeHTML(w, "wall", HTMLPage{Name: t.Name, About: about(t), Wall: wall})
}

// RoundGames gives the games of round r.
func RoundGames(t *tournament.Tournament, r int) HTMLRound {
	return HTMLRound{Number: r, Games: roundGames(t, t.Round(r))}
}

// Seats gives every player's place in round r, by name in the order of the
// Unicode collation (Çelik with the Cs, Ødegaard with the Os), the players
// absent from the round among them ("absent").
func Seats(t *tournament.Tournament, r int) []HTMLSeat {
	games := t.Round(r)
	var seats []HTMLSeat
	for i, h := range roundGames(t, games) {
		g, b := games[i], t.Players[games[i].Black-1].Number
		if g.IsBye() {
			seats = append(seats, HTMLSeat{Round: r, Number: b, Name: h.BlackName, Opponent: "bye", Result: h.Result})
			continue
		}
		seats = append(seats, HTMLSeat{Round: r, Number: b, Table: g.Table, Name: h.BlackName, Colour: "black", Opponent: h.White, Result: h.Result},
			HTMLSeat{Round: r, Number: t.Players[g.White-1].Number, Table: g.Table, Name: h.WhiteName, Colour: "white", Opponent: h.Black, Result: h.Result})
	}
	for _, p := range t.Players {
		if slices.Contains(p.Absent, r) && !p.WithdrawnBy(r) {
			seats = append(seats, HTMLSeat{Round: r, Number: p.Number, Name: p.Name, Opponent: "absent"})
		}
	}
	SortByName(seats, func(s HTMLSeat) string { return s.Name })
	return seats
}

// SortByName sorts s by the names name gives, in the order of the Unicode
// collation (CLDR's root order: accents after the plain letter, case
// ignored first), the same names by their bytes.
func SortByName[E any](s []E, name func(E) string) {
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
func roundGames(t *tournament.Tournament, games []tournament.Game) []HTMLGame {
	out := make([]HTMLGame, len(games))
	for i, g := range games {
		b := t.Players[g.Black-1]
		h := HTMLGame{Table: g.Table, BlackName: b.Name, Black: strconv.Itoa(b.Number) + " " + b.Name}
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
	if r := t.GameRules(); !r.Standard() {
		game := fmt.Sprintf("Played under %s: %dx%d, %d squares", r, r.Size, r.Size, r.Squares())
		if r.Winner == engine.FewestDiscs {
			game += "; Anti-Othello, the fewest discs win: the results are the discs on the board, the discs and BQ count each side's opponent's discs"
		}
		out = append(out, game)
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
	case scoring.NoDiscs: // a result without discs: none shown
		return fmt.Sprintf("%s%d%s", mark, c.Opponent, c.Colour.String()[:1])
	}
	return fmt.Sprintf("%s%d%s%d", mark, c.Opponent, c.Colour.String()[:1], c.Discs)
}
