package export

import (
	"io"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/htmlpage"
	"github.com/otd-project/otd/tournament"
)

// WriteHTML writes the results page of t: one self-contained HTML page
// (inline CSS, no script, nothing fetched) with the standings after the last
// finished round (as 'otd standings' gives them), the crosstable and every
// paired round's games, readable on a phone and printable on A4; a
// championship's has its final phase and final ranking first, and each
// category's ranking and the teams after the standings.
func WriteHTML(w io.Writer, t *tournament.Tournament) error {
	page, err := app.ResultsPage(t)
	if err != nil {
		return err
	}
	return executeHTML(w, "page", page)
}

// executeHTML writes template name of the results page's set with data
// (htmlpage.Execute).
func executeHTML(w io.Writer, name string, data any) error {
	return htmlpage.Execute(w, htmlTemplates, name, data)
}

// htmlTemplates are the results page ("page") and the wall sheets ("wall",
// "final-wall").
var htmlTemplates = htmlpage.Templates()

// WriteWallSheet writes the wall sheet of round r: the round's pairings as
// directors post them, in large type on A4, first every player by name
// (table, colour, opponent), then the same by table.
func WriteWallSheet(w io.Writer, t *tournament.Tournament, r int) error {
	page, err := app.WallPage(t, r)
	if err != nil {
		return err
	}
	return executeHTML(w, "wall", page)
}

// WriteSlips writes the result slips of a round (page: app.SlipsPage's):
// an A4 page to print, a slip for every game to be played, each with the QR
// code of the game's page on 'otd serve'.
func WriteSlips(w io.Writer, page app.Page) error { return executeHTML(w, "slips", page) }
