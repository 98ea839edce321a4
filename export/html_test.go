package export_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/tournament"
)

// parsedPage is an HTML page read back: the text of every table's cells, by
// the table's class, and every attribute that could fetch or run something.
type parsedPage struct {
	tables   map[string][][]string // class -> rows (header row first) -> cells
	elements map[string]int        // element name -> count
	links    []string              // href and src values
}

// parseHTML reads a page that otd wrote (well-formed: every element closed)
// with encoding/xml in its HTML mode.
func parseHTML(t *testing.T, page []byte) parsedPage {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	p := parsedPage{tables: map[string][][]string{}, elements: map[string]int{}}
	var class string // of the table being read
	var cell *strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return p
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			p.elements[tok.Name.Local]++
			for _, a := range tok.Attr {
				switch {
				case tok.Name.Local == "table" && a.Name.Local == "class":
					class = a.Value
				case a.Name.Local == "href" || a.Name.Local == "src" || strings.HasPrefix(a.Name.Local, "on"):
					p.links = append(p.links, a.Name.Local+"="+a.Value)
				}
			}
			switch tok.Name.Local {
			case "tr":
				p.tables[class] = append(p.tables[class], nil)
			case "td", "th":
				cell = &strings.Builder{}
			}
		case xml.CharData:
			if cell != nil {
				cell.Write(tok)
			}
		case xml.EndElement:
			if (tok.Name.Local == "td" || tok.Name.Local == "th") && cell != nil {
				rows := p.tables[class]
				rows[len(rows)-1] = append(rows[len(rows)-1], cell.String())
				cell = nil
			}
		}
	}
}

const scriptName = "<script>alert(1)</script>"

// hostileEvent is smallEvent with names a page must show as text.
func hostileEvent() *tournament.Tournament {
	tm := smallEvent()
	tm.Name = `Club "Open" & <b>Cup</b>`
	tm.Players[1].Name = scriptName
	tm.Players[2].Name = `Bob <img src=x onerror=alert(2)> Brook`
	return tm
}

// TestWriteHTML reads the page back and finds the standings of
// tournament.View, the crosstable worked out by hand from smallEvent's
// games, and every game; every name is text, and the page has no script,
// no link out and an A4 print stylesheet.
func TestWriteHTML(t *testing.T) {
	tm := hostileEvent()
	var b bytes.Buffer
	if err := export.WriteHTML(&b, tm); err != nil {
		t.Fatal(err)
	}
	page := b.Bytes()
	p := parseHTML(t, page)
	for _, el := range []string{"script", "img", "iframe", "object", "link"} {
		if p.elements[el] > 0 {
			t.Errorf("the page has %d <%s> elements", p.elements[el], el)
		}
	}
	for _, l := range p.links {
		if !strings.HasPrefix(l, "href=#") {
			t.Errorf("the page links out or runs something: %s", l)
		}
	}
	for _, want := range []string{"@page { size: A4", "@media print", "break-before: page", `name="viewport"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}

	v, err := tm.View(tm.Finished())
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"Rank", "No", "Name", "Country", "Points", "BQ", "Discs", "Games"}}
	for _, r := range v.Rows {
		pl := tm.Players[r.Player-1]
		want = append(want, []string{strconv.Itoa(r.Rank), strconv.Itoa(pl.Number), pl.Name, pl.Country, r.Points.String(), r.BQ.String(),
			strconv.Itoa(r.Discs), strconv.Itoa(r.Games)})
	}
	checkTable(t, p, "standings", want)

	// By hand from smallEvent: round 1 1-2 40-24, 3-4 forfeit (4 absent),
	// 5 the bye; round 2 2-3 19-45 black's flag fell, 4-1 30-34, 5 absent.
	cross := map[string][]string{
		"1": {"+2b40", "+4w34"}, "2": {"-1w24", "-3b19t"}, "3": {"+4ff", "+2w45t"},
		"4": {"-3ff", "-1b30"}, "5": {"bye", "-"},
	}
	rows := p.tables["cross"]
	if len(rows) != 6 || !slices.Equal(rows[0], []string{"Rank", "No", "Name", "Pts", "R1", "R2"}) {
		t.Fatalf("crosstable: %q", rows)
	}
	for i, row := range rows[1:] {
		if row[1] != want[i+1][1] || row[2] != want[i+1][2] || !slices.Equal(row[4:], cross[row[1]]) {
			t.Errorf("crosstable row %d: %q; want player %s %q with %q", i+1, row, want[i+1][1], want[i+1][2], cross[row[1]])
		}
	}
	checkTable(t, p, "round", [][]string{
		{"Table", "Black", "White", "Result"},
		{"1", "1 LEADER, Imre", "2 " + scriptName, "40-24"},
		{"2", "3 " + tm.Players[2].Name, "4 Cy Cole", "forfeit: white did not play, black wins"},
		{"3", "5 Di Dane", "", "bye"},
		{"Table", "Black", "White", "Result"},
		{"1", "2 " + scriptName, "3 " + tm.Players[2].Name, "19-45 (black lost on time)"},
		{"2", "4 Cy Cole", "1 LEADER, Imre", "30-34"},
	})
	if !bytes.Contains(page, []byte("<title>Club &#34;Open&#34; &amp; &lt;b&gt;Cup&lt;/b&gt;</title>")) {
		t.Errorf("the title is not the tournament's name as text:\n%s", page[:min(len(page), 400)])
	}
}

// TestWriteWallSheet: round 1 of smallEvent by name (sorted without regard
// to case; "<" before letters) and by table.
func TestWriteWallSheet(t *testing.T) {
	tm := hostileEvent()
	tm.Players[3].Name = "ann Able" // lower case sorts with the capitals
	var b bytes.Buffer
	if err := export.WriteWallSheet(&b, tm, 1); err != nil {
		t.Fatal(err)
	}
	p := parseHTML(t, b.Bytes())
	if p.elements["script"] > 0 || len(p.links) > 0 {
		t.Errorf("the wall sheet has a script or a link: %v %q", p.elements, p.links)
	}
	bob := tm.Players[2].Name
	checkTable(t, p, "by-name", [][]string{
		{"Name", "Table", "Colour", "Opponent"},
		{scriptName, "1", "white", "1 LEADER, Imre"},
		{"ann Able", "2", "white", "3 " + bob},
		{bob, "2", "black", "4 ann Able"},
		{"Di Dane", "", "", "bye"},
		{"LEADER, Imre", "1", "black", "2 " + scriptName},
	})
	checkTable(t, p, "by-table", [][]string{
		{"Table", "Black", "White"},
		{"1", "1 LEADER, Imre", "2 " + scriptName},
		{"2", "3 " + bob, "4 ann Able"},
		{"3", "5 Di Dane", "bye"},
	})
	if err := export.WriteWallSheet(&b, tm, 3); err == nil {
		t.Error("a round not paired: no error")
	}
}

func checkTable(t *testing.T, p parsedPage, class string, want [][]string) {
	t.Helper()
	got := p.tables[class]
	if len(got) != len(want) {
		t.Errorf("table %s: %d rows; want %d:\n%q", class, len(got), len(want), got)
		return
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("table %s row %d: %q; want %q", class, i, got[i], want[i])
		}
	}
}

// TestWallSheetCollation: a 100-player event's wall sheet lists the players
// by name in the order of the Unicode collation, each letter with an accent
// or a stroke beside its plain letter (Çelik among the Cs, Ødegaard among
// the Os, Łukasiewicz among the Ls, Żak among the Zs), not after "van der
// Berg" as the bytes would have them; a player absent from the round is on
// it, marked absent.
func TestWallSheetCollation(t *testing.T) {
	// The order of these names by the rule: the letters first, an accent
	// only between names otherwise equal (Mueller < Müller: e < l).
	ordered := []string{"Castro, Ana", "Çelik, Ayşe", "Dupont, Marie", "Lopez, Luis", "Łukasiewicz, Jan", "Mueller, Hans",
		"Müller, Jörg", "Nakamura Tō", "Ødegaard, Ola", "Olsen, Kari", "Ortiz, Eva"}
	after := []string{"van der Berg, Kees", "Young, Amy", "Zabel, Uwe", "Żak, Piotr", "Zimmermann, Lea"}
	names := slices.Concat(after, ordered)
	for i := len(names); i < 100; i++ {
		names = append(names, fmt.Sprintf("Player %03d", i))
	}
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Open", 3)}
	for i, n := range names {
		tm.Players = append(tm.Players, tournament.Player{Number: i + 1, Name: n, FirstRound: 1})
	}
	tm.Players[99].Absent = []int{1} // "Player 099"
	for i := 0; i < 98; i += 2 {
		tm.Games = append(tm.Games, tournament.Game{Round: 1, Table: i/2 + 1, Black: i + 1, White: i + 2})
	}
	tm.Games = append(tm.Games, tournament.Game{Round: 1, Table: 50, Black: 99})
	var got []string
	for _, s := range app.Seats(tm, 1) {
		got = append(got, s.Name)
	}
	var want []string
	want = append(want, ordered...)
	for i := len(ordered) + len(after); i < 100; i++ {
		want = append(want, fmt.Sprintf("Player %03d", i))
	}
	want = append(want, after...)
	if !slices.Equal(got, want) {
		t.Errorf("the wall sheet's order:\n%q\nwant\n%q", got, want)
	}
	var b bytes.Buffer
	if err := export.WriteWallSheet(&b, tm, 1); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<tr><td>Player 099</td><td class=\"n\"></td><td></td><td>absent</td></tr>") {
		t.Errorf("the wall sheet does not list the absent player:\n%s", b.String())
	}
}
