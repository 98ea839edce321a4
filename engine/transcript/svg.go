package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/txt"
)

// Picture is a board of a game record as a picture shows it: the discs, the
// number of each move played so far on its square (as on a transcript
// sheet), the squares marked (the legal moves of the side to move) and a
// square crossed out (an illegal move).
type Picture struct {
	Board   Board
	Numbers Sheet          // the number of the move played on each square, 0 for none
	Marks   []engine.Point // the squares marked
	Cross   engine.Point   // engine.PassPoint for none
	Caption string         // written under the board; plain text, escaped (txt.Printable)
}

// Picture returns the board the report is about: after move number at if at
// >= 0 (false if the record has no legal move at), else the board before
// the first illegal move with that move crossed out, else the final
// position. The legal moves of the side to move are marked.
func (r *Report) Picture(at int) (Picture, bool) {
	pic := Picture{Cross: engine.PassPoint, Numbers: NewSheet(r.Start.Rules())}
	last := r.Start.Empties() // the last move number written on the board
	switch il := r.Illegal; {
	case at >= 0:
		p, ok := r.PositionAfter(at)
		if !ok {
			return pic, false
		}
		pic.Board, last = p, at
		pic.Caption = fmt.Sprintf("After move %d, %s to move.", at, p.ToMove())
	case il != nil:
		pic.Board = il.Before
		if !errors.Is(il.Reason, ErrSheetNumbering) {
			pic.Cross = il.Move
		}
		pic.Caption = fmt.Sprintf("Before the illegal %s; %s to move.", il, il.Before.ToMove())
	case r.Over:
		pic.Board = r.Final
		pic.Caption = "Final position: " + r.Score.String() + "."
	default:
		pic.Board = r.Final
		pic.Caption = fmt.Sprintf("Unfinished: %s to move; discs %s.", r.Final.ToMove(), r.Score)
	}
	for _, m := range r.Moves {
		if m.Move != engine.PassPoint && m.Number <= last {
			pic.Numbers.Set(m.Move, m.Number)
		}
	}
	pic.Marks = slices.DeleteFunc(pic.Board.Moves(), func(p engine.Point) bool { return p == engine.PassPoint })
	return pic, true
}

// The picture's geometry, in pixels: a square, the margin that holds the
// coordinates, a line of the caption.
const (
	svgSquare  = 48
	svgMargin  = 24
	svgLine    = 18
	svgColumns = 60 // characters of a caption line, at most (but for a longer word)
)

// WriteSVG draws the picture as a standalone SVG image: a green n x n board
// with coordinates (a-h and 1-8 on 8x8, above and below, on both sides), the
// squares its shape cuts in white, black and white discs with their move
// numbers, the marked squares as small dots of the side to move's colour, the
// crossed-out square as a red cross, and the caption under the board. Every
// element has a class (disc black, disc white, cut, mark, cross, caption) for
// the reader and for tests.
func (p Picture) WriteSVG(w io.Writer) error {
	caption := txt.Printable(p.Caption) // names from a file or a database: XML has no control characters
	lines := wrap(caption, svgColumns)
	rules := p.Board.Rules()
	n := rules.Size
	board := n * svgSquare
	width, height := board+2*svgMargin, board+2*svgMargin+svgLine*len(lines)
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Arial, sans-serif">`+"\n",
		width, height, width, height)
	fmt.Fprintf(b, "<title>%s</title>\n", html.EscapeString(caption))
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", width, height)
	fmt.Fprintf(b, `<rect class="board" x="%d" y="%d" width="%d" height="%d" fill="#2e7d32" stroke="#000" stroke-width="2"/>`+"\n",
		svgMargin, svgMargin, board, board)
	var grid strings.Builder
	for i := 1; i < n; i++ {
		at := svgMargin + i*svgSquare
		fmt.Fprintf(&grid, "M%d %dV%dM%d %dH%d", at, svgMargin, svgMargin+board, svgMargin, at, svgMargin+board)
	}
	fmt.Fprintf(b, `<path d="%s" stroke="#000" stroke-width="1"/>`+"\n", grid.String())
	fmt.Fprintln(b, `<g class="coordinates" font-size="14" text-anchor="middle" fill="#333">`)
	for i := range n {
		mid := svgMargin + i*svgSquare + svgSquare/2
		for _, y := range []int{svgMargin - 7, 2*svgMargin + board - 8} {
			fmt.Fprintf(b, `<text x="%d" y="%d">%c</text>`, mid, y, 'a'+i)
		}
		for _, x := range []int{svgMargin / 2, svgMargin*3/2 + board} {
			fmt.Fprintf(b, `<text x="%d" y="%d">%d</text>`, x, mid+5, i+1)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b, "</g>")
	mover := "#000"
	if p.Board.ToMove() == engine.White {
		mover = "#fff"
	}
	marked := map[engine.Point]bool{}
	for _, m := range p.Marks {
		marked[m] = true
	}
	for i := range n * n {
		s := engine.Point{Col: int8(i % n), Row: int8(i / n)}
		x, y := svgMargin+int(s.Col)*svgSquare, svgMargin+int(s.Row)*svgSquare
		cx, cy := x+svgSquare/2, y+svgSquare/2
		if !rules.Playable(int(s.Col), int(s.Row)) {
			fmt.Fprintf(b, `<rect class="cut" x="%d" y="%d" width="%d" height="%d" fill="#fff"/>`+"\n", x, y, svgSquare, svgSquare)
			continue
		}
		if c, ok := p.Board.At(s); ok {
			fill, ink := "#000", "#fff"
			if c == engine.White {
				fill, ink = "#fff", "#000"
			}
			fmt.Fprintf(b, `<circle class="disc %s" cx="%d" cy="%d" r="%d" fill="%s" stroke="#000"/>`, c, cx, cy, svgSquare/2-4, fill)
			if k := p.Numbers.At(s); k > 0 {
				fmt.Fprintf(b, `<text class="number" x="%d" y="%d" font-size="%d" font-weight="bold" text-anchor="middle" fill="%s">%d</text>`, cx, cy+6, 18-2*(k/100), ink, k)
			}
			fmt.Fprintln(b)
		} else if marked[s] {
			fmt.Fprintf(b, `<circle class="mark" cx="%d" cy="%d" r="7" fill="%s" stroke="#000" fill-opacity="0.7"/>`+"\n", cx, cy, mover)
		}
		if s == p.Cross {
			d := svgSquare/2 - 8
			fmt.Fprintf(b, `<path class="cross" d="M%d %dL%d %dM%d %dL%d %d" stroke="#d00" stroke-width="5" stroke-linecap="round"/>`+"\n",
				cx-d, cy-d, cx+d, cy+d, cx-d, cy+d, cx+d, cy-d)
		}
	}
	for i, l := range lines {
		fmt.Fprintf(b, `<text class="caption" x="%d" y="%d" font-size="14">%s</text>`+"\n",
			svgMargin, 2*svgMargin+board+svgLine*i+12, html.EscapeString(l))
	}
	fmt.Fprintln(b, "</svg>")
	return b.Flush()
}

// wrap cuts text into lines of at most n characters at spaces (a longer
// word stands on its own line).
func wrap(text string, n int) []string {
	var lines []string
	var line string
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= n:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
