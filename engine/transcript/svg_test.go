package transcript_test

import (
	"bytes"
	"encoding/xml"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
)

// drawn is an SVG board read back: what stands on each square, by its
// centre, and the caption.
type drawn struct {
	discs   map[string]string // square -> "black" or "white"
	numbers map[string]int    // square -> move number
	marks   []string          // squares marked, in document order
	cross   []string          // squares crossed out
	caption string
	cuts    int // squares drawn cut
}

// readSVG parses the picture with encoding/xml (strict: it is XML) and
// maps each disc, number, mark and cross back to its square from its
// coordinates: squares of 48 pixels from (24, 24).
func readSVG(t *testing.T, svg []byte) drawn {
	t.Helper()
	var doc struct {
		XMLName xml.Name `xml:"svg"`
		Title   string   `xml:"title"`
		Circles []struct {
			Class string `xml:"class,attr"`
			CX    int    `xml:"cx,attr"`
			CY    int    `xml:"cy,attr"`
		} `xml:"circle"`
		Texts []struct {
			Class string `xml:"class,attr"`
			X     int    `xml:"x,attr"`
			Y     int    `xml:"y,attr"`
			Text  string `xml:",chardata"`
		} `xml:"text"`
		Rects []struct {
			Class string `xml:"class,attr"`
		} `xml:"rect"`
		Paths []struct {
			Class string `xml:"class,attr"`
			D     string `xml:"d,attr"`
		} `xml:"path"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("the SVG does not parse: %v\n%s", err, svg)
	}
	square := func(x, y int) string {
		return engine.Point{Col: int8((x - 24) / 48), Row: int8((y - 24) / 48)}.String()
	}
	d := drawn{discs: map[string]string{}, numbers: map[string]int{}}
	for _, c := range doc.Circles {
		switch c.Class {
		case "disc black", "disc white":
			d.discs[square(c.CX, c.CY)] = strings.TrimPrefix(c.Class, "disc ")
		case "mark":
			d.marks = append(d.marks, square(c.CX, c.CY))
		}
	}
	var caption []string
	for _, tx := range doc.Texts {
		switch tx.Class {
		case "number":
			n, err := strconv.Atoi(tx.Text)
			if err != nil {
				t.Fatalf("a move number %q", tx.Text)
			}
			d.numbers[square(tx.X, tx.Y)] = n
		case "caption":
			caption = append(caption, tx.Text)
		}
	}
	for _, p := range doc.Paths {
		if p.Class == "cross" { // "M x1 y1 L x2 y2 ...": the centre is halfway
			f := strings.FieldsFunc(p.D, func(r rune) bool { return r == 'M' || r == 'L' || r == ' ' })
			x1, _ := strconv.Atoi(f[0])
			y1, _ := strconv.Atoi(f[1])
			x2, _ := strconv.Atoi(f[2])
			y2, _ := strconv.Atoi(f[3])
			d.cross = append(d.cross, square((x1+x2)/2, (y1+y2)/2))
		}
	}
	for _, r := range doc.Rects {
		if r.Class == "cut" {
			d.cuts++
		}
	}
	d.caption = strings.Join(caption, " ")
	if doc.Title != d.caption {
		t.Errorf("title %q, caption %q", doc.Title, d.caption)
	}
	return d
}

// TestPictureSVG draws boards of small games worked out by hand.
func TestPictureSVG(t *testing.T) {
	for _, tc := range []struct {
		name    string
		moves   string
		at      int
		black   []string // squares of black discs
		white   []string
		numbers map[string]int
		marks   []string // legal moves, square order
		cross   []string
		caption string
	}{
		{name: "after f5 d6 c3", moves: "f5d6c3", at: -1,
			black: []string{"c3", "d4", "e4", "e5", "f5"}, white: []string{"d5", "d6"},
			numbers: map[string]int{"f5": 1, "d6": 2, "c3": 3}, marks: []string{"d3", "f3", "f4", "g5"},
			caption: "Unfinished: white to move; discs 5-2."},
		{name: "after move 1 of f5 d6 c3", moves: "f5d6c3", at: 1,
			black: []string{"d5", "e4", "e5", "f5"}, white: []string{"d4"},
			numbers: map[string]int{"f5": 1}, marks: []string{"d6", "f4", "f6"},
			caption: "After move 1, white to move."},
		{name: "f5 then f5 again: illegal", moves: "f5f5", at: -1,
			black: []string{"d5", "e4", "e5", "f5"}, white: []string{"d4"},
			numbers: map[string]int{"f5": 1}, marks: []string{"d6", "f4", "f6"}, cross: []string{"f5"},
			caption: "Before the illegal move 2, f5 by white"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := transcript.ParseMoves(tc.moves)
			if err != nil {
				t.Fatal(err)
			}
			r := transcript.Replay(g)
			pic, ok := r.Picture(tc.at)
			if !ok {
				t.Fatal("no picture")
			}
			var b bytes.Buffer
			if err := pic.WriteSVG(&b); err != nil {
				t.Fatal(err)
			}
			d := readSVG(t, b.Bytes())
			for _, sq := range tc.black {
				if d.discs[sq] != "black" {
					t.Errorf("%s: %q; want black", sq, d.discs[sq])
				}
			}
			for _, sq := range tc.white {
				if d.discs[sq] != "white" {
					t.Errorf("%s: %q; want white", sq, d.discs[sq])
				}
			}
			if n := len(tc.black) + len(tc.white); len(d.discs) != n {
				t.Errorf("%d discs; want %d: %v", len(d.discs), n, d.discs)
			}
			if len(d.numbers) != len(tc.numbers) {
				t.Errorf("numbers %v; want %v", d.numbers, tc.numbers)
			}
			for sq, n := range tc.numbers {
				if d.numbers[sq] != n {
					t.Errorf("number on %s: %d; want %d", sq, d.numbers[sq], n)
				}
			}
			slices.Sort(d.marks)
			slices.Sort(tc.marks)
			if !slices.Equal(d.marks, tc.marks) {
				t.Errorf("marks %q; want %q", d.marks, tc.marks)
			}
			if !slices.Equal(d.cross, tc.cross) {
				t.Errorf("crossed out %q; want %q", d.cross, tc.cross)
			}
			if !strings.HasPrefix(d.caption, tc.caption) {
				t.Errorf("caption %q; want %q...", d.caption, tc.caption)
			}
		})
	}
}

// TestPictureNoMove: a record without move N has no board after it.
func TestPictureNoMove(t *testing.T) {
	g, err := transcript.ParseMoves("f5d6")
	if err != nil {
		t.Fatal(err)
	}
	r := transcript.Replay(g)
	if _, ok := r.Picture(3); ok {
		t.Error("a picture after move 3 of a 2-move game")
	}
}

// TestPictureCaptionIsText: the caption (names typed by people) is text in
// the SVG, never markup, and long captions wrap.
func TestPictureCaptionIsText(t *testing.T) {
	caption := "Round 1, table 2: <script>alert(1)</script> & \"Bob\" (black) against a player whose name is very long indeed (white): 40-24"
	var b bytes.Buffer
	if err := (transcript.Picture{Board: transcript.BoardOf(engine.Start()), Cross: engine.PassPoint, Caption: caption}).WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("<script")) {
		t.Error("the caption is markup")
	}
	d := readSVG(t, b.Bytes())
	if d.caption != caption {
		t.Errorf("caption %q; want %q", d.caption, caption)
	}
	if n := bytes.Count(b.Bytes(), []byte(`class="caption"`)); n < 2 {
		t.Errorf("a caption of %d characters on %d line(s)", len(caption), n)
	}
}
