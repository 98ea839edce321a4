//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rank is a line of `otd standings --final --json` and `otd category show
// --json`.
type rank struct {
	Rank, Number int
	Name         string
	SwissRank    int `json:"swiss_rank"`
	Points       json.Number
	Discs        int
	Final        bool `json:"final_phase"`
}

// team is a line of `otd teams --json`.
type team struct {
	Rank   int
	Name   string
	Points json.Number
}

// checkChampionship runs a championship of eight built-in engines (a
// script's name among them) through otd: 2 rounds, a final phase of the top
// 4 (best of 3, a 3rd-place game; the tie-breaks settle a tie across 4th
// place), a women's category with its own final phase, teams by country.
// LibreOffice opens the workbook: its Final phase, Final ranking, women and
// Teams sheets hold what otd's --json gives. Chromium renders the results
// page (the final ranking and the teams as otd gives them; on a phone, a
// desk and A4) and the wall sheet of the final phase's first round, and
// the pages of 'otd serve': the final phase, the categories, the teams and
// the viewer of a final game otd played.
func checkChampionship(t *testing.T, e *env) {
	c := *e
	c.t, c.db = t, filepath.Join(e.dir, "championship.db")
	c.run("tournament", "new", "E2E <Championship>", "--rounds", "2", "--final", "top=4,bestof=3,third=1,playoff=0", "--teams", "best=2")
	for i, n := range []string{"Greedy", names[1], "Müller, Jürgen", "Random 3", "Random 4", "Random 5", "Random 6", "Random 7"} {
		engine := "builtin:greedy"
		if i > 0 {
			engine = fmt.Sprintf("builtin:random:%d", i)
		}
		c.run("player", "add", n, "--engine", engine, "--country", []string{"FRA", "JPN", "DEU", "NOR"}[i%4])
	}
	c.run("category", "add", "women", "--final", "single")
	for _, p := range []string{"2", "4", "6", "8"} {
		c.run("player", "edit", p, "--category", "women")
	}
	c.run("tournament", "run", "--time", "10s")

	var final []rank
	decode(t, c.run("standings", "--final", "--json"), &final)
	var women []rank
	decode(t, c.run("category", "show", "women", "--json"), &women)
	var teams []team
	decode(t, c.run("teams", "--json"), &teams)
	var phases []struct {
		Matches []struct {
			Games []struct{ Seq, Round int }
		}
	}
	decode(t, c.run("final", "show", "--json"), &phases)
	games, round1 := 0, 0
	for _, ph := range phases {
		for _, m := range ph.Matches {
			for _, g := range m.Games {
				games++
				if g.Round == 1 {
					round1++
				}
			}
		}
	}
	if len(final) != 8 || !final[0].Final || len(teams) != 4 || games < 5 {
		t.Fatalf("the championship: final ranking %+v, teams %+v, %d final games", final, teams, games)
	}

	t.Run("xlsx", func(t *testing.T) {
		dir := convertXLSX(t, &c, "championship")
		sheet := func(name string) [][]string { return readCSV(t, filepath.Join(dir, "championship-"+name+".csv")) }
		rankings := map[string][]rank{"Final ranking": final, "women": women}
		for name, want := range rankings {
			got := sheet(name)
			if len(got) != len(want)+1 {
				t.Fatalf("the %s sheet has %d rows; want %d", name, len(got)-1, len(want))
			}
			for i, w := range want {
				row := got[i+1]
				if row[0] != strconv.Itoa(w.Rank) || row[1] != strconv.Itoa(w.Number) || row[2] != w.Name || row[4] != strconv.Itoa(w.SwissRank) ||
					!sameValue(row[5], w.Points.String()) || row[6] != strconv.Itoa(w.Discs) || !strings.EqualFold(row[7], strconv.FormatBool(w.Final)) {
					t.Errorf("%s row %d: %q; otd gives %+v", name, i+1, row, w)
				}
			}
		}
		got := sheet("Teams")
		for i, w := range teams {
			if row := got[i+1]; row[0] != strconv.Itoa(w.Rank) || row[1] != w.Name || !sameValue(row[2], w.Points.String()) {
				t.Errorf("Teams row %d: %q; otd teams gives %+v", i+1, row, w)
			}
		}
		if got := sheet("Final phase"); len(got) != games+1 || got[0][2] != "Match" {
			t.Errorf("the Final phase sheet: %d rows, header %q; otd final show gives %d games", len(got)-1, got[0], games)
		}
	})

	t.Run("html", func(t *testing.T) {
		page := filepath.Join(e.out, "championship.html")
		c.run("export", "html", "--force", page)
		dom := string(chromium(t, e, page, "--dump-dom"))
		if strings.Contains(dom, "<script") {
			t.Error("the page's DOM has a script element")
		}
		rows := tableRows(t, dom, "final-ranking")
		for i, w := range final {
			want := []string{strconv.Itoa(w.Rank), strconv.Itoa(w.Number), w.Name}
			if i+1 >= len(rows) || strings.Join(rows[i+1][:3], "|") != strings.Join(want, "|") {
				t.Errorf("final ranking row %d: the page shows %q; otd gives %q", i+1, rows[min(i+1, len(rows)-1)], want)
			}
		}
		rows = tableRows(t, dom, "teams")
		for i, w := range teams {
			if i+1 >= len(rows) || rows[i+1][0] != strconv.Itoa(w.Rank) || rows[i+1][1] != w.Name {
				t.Errorf("teams row %d: the page shows %q; otd teams gives %+v", i+1, rows[min(i+1, len(rows)-1)], w)
			}
		}
		if rows := tableRows(t, dom, "matches"); len(rows) < 5 {
			t.Errorf("the page's matches: %q", rows)
		}
		for _, size := range [][2]int{{390, 844}, {1280, 900}} {
			img := screenshot(t, e, page, filepath.Join(e.out, fmt.Sprintf("championship-%dx%d.png", size[0], size[1])), size[0], size[1])
			if b := img.Bounds(); b.Dx() != size[0] || !inked(img) {
				t.Errorf("the %dx%d screenshot is %v, inked %v", size[0], size[1], b, inked(img))
			}
		}
		var want []standing
		for _, r := range final {
			want = append(want, standing{Name: r.Name})
		}
		checkPDF(t, e, page, filepath.Join(e.out, "championship.pdf"), want)
	})

	t.Run("wall", func(t *testing.T) {
		wall := filepath.Join(e.out, "final-wall.html")
		c.run("final", "show", "--print", "--round", "1", "--output", wall, "--force")
		dom := string(chromium(t, e, wall, "--dump-dom"))
		if rows := tableRows(t, dom, "final-wall"); len(rows) != round1+1 {
			t.Errorf("the wall sheet of final round 1 lists %d games; otd final show --json %d: %q", len(rows)-1, round1, rows)
		}
		if img := screenshot(t, e, wall, filepath.Join(e.out, "final-wall.png"), 794, 1123); !inked(img) {
			t.Error("the final wall sheet's screenshot is blank")
		}
		checkPDF(t, e, wall, filepath.Join(e.out, "final-wall.pdf"), nil)
	})

	t.Run("serve", func(t *testing.T) {
		url := serve(t, &c)
		// Chromium writes a text's <, > and & as entities.
		text := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace
		checkPages(t, e, newBrowser(t), url, []page{
			{"home-final", "", []string{"Final phase, round", `<a href="/final">Final phase</a>`}},
			{"final", "final", []string{"Semi-final 1", "Final ranking", `href="/final/game/1"`, text(final[0].Name)}},
			{"categories", "categories", []string{"<h3>women</h3>", text(women[0].Name)}},
			{"teams", "teams", []string{"<h2>Teams</h2>", teams[0].Name}},
			{"final-game", "final/game/1?move=10", []string{"game 1</h2>", "Move 10 of", "<svg", `class="disc black"`, `<a href="/final">Final phase</a>`}},
		})
	})
}

// decode reads otd's JSON output into v.
func decode(t *testing.T, out []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
