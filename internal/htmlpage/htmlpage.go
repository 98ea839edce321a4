// Package htmlpage holds the templates of the HTML pages otd writes and
// serves: the results page and the wall sheets, which 'otd export html'
// writes (package export) and 'otd serve' serves with pages of its own built
// on them (package web). The page's data is app's (app.Page): the two
// adapters share the templates here, not each other.
package htmlpage

import (
	_ "embed"
	"html/template"
	"io"
	"strings"

	"github.com/otd-project/otd/internal/txt"
)

//go:embed html.tmpl
var text string

// Templates returns a new set of the templates of the results page ("page")
// and the wall sheets ("wall", "final-wall"), for other pages to build on:
// "style" (the CSS), the sections "standings", "crosstable", "final",
// "final-ranking", "categories" and "teams" (of an app.Page), "round" (an
// app.PageRound), "by-name" (a []app.PageSeat) and "final-games" (a
// []app.PageFinalGame). html/template escapes every name, so that no name
// can add markup.
func Templates() *template.Template { return template.Must(template.New("").Parse(text)) }

// Execute writes the template name of set (Templates, or a set built on it)
// with data, its text PrintableDocument: html/template escapes the markup,
// and a control character or a byte that is not UTF-8, whatever the
// database holds, is escaped too, so that the page is UTF-8 text that no
// character reorders (a bidirectional override). Every page otd writes or
// serves goes through it.
func Execute(w io.Writer, set *template.Template, name string, data any) error {
	var b strings.Builder
	if err := set.ExecuteTemplate(&b, name, data); err != nil {
		return err
	}
	_, err := io.WriteString(w, txt.PrintableDocument(b.String()))
	return err
}
