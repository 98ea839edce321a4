// Package htmlpage holds the templates of the HTML pages otd writes and
// serves: the results page and the wall sheets, which 'otd export html'
// writes (package export) and 'otd serve' serves with pages of its own built
// on them (package web). The page's data is app's (app.Page): the two
// adapters share the templates here, not each other.
package htmlpage

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"golang.org/x/text/language"
	"rsc.io/qr"

	"github.com/otd-project/otd/internal/txt"
)

//go:embed html.tmpl
var text string

// Templates returns a new set of the templates of the results page ("page")
// the wall sheets ("wall", "final-wall") and the result slips ("slips", an
// app.Page with Slips), for other pages to build on:
// "style" (the CSS), the sections "standings", "crosstable", "final",
// "final-ranking", "categories" and "teams" (of an app.Page), "round" (an
// app.PageRound), "by-name" (a []app.PageSeat) and "final-games" (a
// []app.PageFinalGame). html/template escapes every name, so that no name
// can add markup.
func Templates() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{"qr": QR}).Funcs(Funcs(language.English)).Parse(text))
}

// QR draws text's QR code as an inline SVG picture (black modules on
// white, the quiet zone of 4 modules the standard asks for), for a page to
// print: one path of unit squares, drawn crisp at any size.
func QR(text string) (template.HTML, error) {
	code, err := qr.Encode(text, qr.M)
	if err != nil {
		return "", fmt.Errorf("the QR code of %s: %w", text, err)
	}
	const quiet = 4
	var b strings.Builder
	n := code.Size + 2*quiet
	fmt.Fprintf(&b, `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img"><title>QR code</title><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n, n, n)
	for y := range code.Size {
		for x := range code.Size {
			if code.Black(x, y) {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return template.HTML(b.String()), nil // numbers only: no text of the caller's
}

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
