package export_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/xuri/excelize/v2"
)

const hal = "<b>Hal</b>" // a name the pages must show as text

// championship is an 8-player, 1-round championship with a WOC final
// phase, three categories and teams, worked out by hand from RULES.md
// section 7 (tie-breaks points then discs, so the Swiss order is plain).
//
// Round 1: Ann-Di 40-24, Eve-Bob 14-50, Cy-Gus 36-28, Fay-Hal 30-34. The
// Swiss standings: 1. Bob (1 point, 50 discs), 2. Ann (1, 40), 3. Cy (1,
// 36), 4. Hal (1, 34), 5. Fay (0, 30), 6. Gus (0, 28), 7. Di (0, 24), 8.
// Eve (0, 14).
//
// The open (woc): no tie across 4th place (Hal 1 point, Fay 0): seeds Bob,
// Ann, Cy, Hal. SF1 Bob v Hal: Bob 34-30, 40-24: 2-0, decided in 2. SF2 Ann
// v Cy: a draw, Ann 44-20, Cy 34-30: 1.5-1.5, level: the higher seed, Ann.
// F Bob v Ann: Bob, Ann, Ann: Ann 2-1. 3P Cy v Hal (Cy the higher seed):
// Hal 35-29. Final ranking: Ann, Bob, Hal, Cy, then the Swiss order: Fay,
// Gus, Di, Eve.
//
// Women (Ann, Di, Eve, Fay; single games among the top 4): not played, Ann
// is in the open semi-finals: by the Swiss order Ann, Fay, Di, Eve. Youth
// (born 2010 or later: Gus; no final phase): Gus. Seniors (Fay, Di, Eve by
// name; top 2, one game, no 3rd place, a play-off): all three on 0 points,
// tied across 2nd place: Fay is in, a play-off Di v Eve (2nd and 3rd by
// discs): Di 40-24; F Fay v Di: Di 33-31. Ranking Di, Fay, then Eve.
//
// Teams, the best 2, youth not counted: FRA Bob 1 + Ann 1 = 2; JPN Cy 1 +
// Di 0 = 1 (Gus a youth); NOR Hal 1 = 1; DEU Fay 0 (Eve in no team) = 0:
// 1. FRA, 2. JPN and NOR (a shared place), 4. DEU.
//
// The final games in the order paired, by round of the final phase (what
// one 'final next' pairs): 1: SF1 1, SF2 1, seniors PO; 2: SF1 2, SF2 2,
// seniors F; 3: SF2 3; 4: F 1, 3P; 5: F 2; 6: F 3.
func championship() *tournament.Tournament {
	s := tournament.DefaultSettings("Championship", 1)
	s.TieBreaks = scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs}
	s.Final = tournament.WOCFinal
	s.Final.Level = tournament.LevelSeed // the level rule these rows show
	seniors, err := tournament.ParseFinalRules("top=2,bestof=1,third=0,level=seed")
	if err != nil {
		panic(err)
	}
	s.Categories = []tournament.Category{{Name: "women", Final: tournament.CategoryFinal}, {Name: "youth", BornFrom: 2010}, {Name: "seniors", Final: seniors}}
	s.TeamRules = tournament.TeamRules{Best: 2, Exclude: []string{"youth"}}
	t := &tournament.Tournament{Settings: s}
	for i, p := range []tournament.Player{
		{Name: "Ann", Country: "FRA", Categories: []string{"women"}},
		{Name: "Bob", Country: "FRA"},
		{Name: "Cy", Country: "JPN"},
		{Name: "Di", Country: "JPN", Categories: []string{"women", "seniors"}},
		{Name: "Eve", Country: "DEU", Team: tournament.NoTeam, Categories: []string{"women", "seniors"}},
		{Name: "Fay", Country: "DEU", Categories: []string{"women", "seniors"}},
		{Name: "Gus", Country: "JPN", Born: tournament.BornIn(2012)},
		{Name: hal, Country: "NOR"},
	} {
		p.Number, p.FirstRound = i+1, 1
		t.Players = append(t.Players, p)
	}
	res := func(b, w int) *tournament.Result {
		return &tournament.Result{Black: b, White: w, Kind: tournament.Normal}
	}
	t.Games = []tournament.Game{
		{Round: 1, Table: 1, Black: 1, White: 4, Result: res(40, 24)},
		{Round: 1, Table: 2, Black: 5, White: 2, Result: res(14, 50)},
		{Round: 1, Table: 3, Black: 3, White: 7, Result: res(36, 28)},
		{Round: 1, Table: 4, Black: 6, White: 8, Result: res(30, 34)},
	}
	for i, g := range []tournament.Game{
		{FinalRef: tournament.FinalRef{Match: "SF1", Game: 1}, Black: 8, White: 2, Result: res(30, 34)},
		{FinalRef: tournament.FinalRef{Match: "SF2", Game: 1}, Black: 1, White: 3, Result: res(32, 32)},
		{FinalRef: tournament.FinalRef{Category: "seniors", Match: "PO", Game: 1}, Black: 4, White: 5, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "SF1", Game: 2}, Black: 2, White: 8, Result: res(40, 24)},
		{FinalRef: tournament.FinalRef{Match: "SF2", Game: 2}, Black: 3, White: 1, Result: res(20, 44)},
		{FinalRef: tournament.FinalRef{Category: "seniors", Match: "F", Game: 1}, Black: 4, White: 6, Result: res(33, 31)},
		{FinalRef: tournament.FinalRef{Match: "SF2", Game: 3}, Black: 1, White: 3, Result: res(30, 34)},
		{FinalRef: tournament.FinalRef{Match: "F", Game: 1}, Black: 2, White: 1, Result: res(36, 28)},
		{FinalRef: tournament.FinalRef{Match: "3P", Game: 1}, Black: 8, White: 3, Result: res(35, 29)},
		{FinalRef: tournament.FinalRef{Match: "F", Game: 2}, Black: 1, White: 2, Result: res(34, 30)},
		{FinalRef: tournament.FinalRef{Match: "F", Game: 3}, Black: 2, White: 1, Result: res(31, 33)},
	} {
		g.Seq = i + 1
		t.FinalGames = append(t.FinalGames, g)
	}
	return t
}

// sheetText reads a sheet back as text, a cell as its type says: a number
// as %g, a boolean TRUE or FALSE, text as it is, empty "".
func sheetText(t *testing.T, f *excelize.File, sheet string) [][]string {
	t.Helper()
	rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatalf("sheet %s: %v", sheet, err)
	}
	for r, row := range rows {
		for c, v := range row {
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			switch typ, _ := f.GetCellType(sheet, ref); {
			case v == "":
			case typ == excelize.CellTypeBool:
				row[c] = map[string]string{"1": "TRUE", "0": "FALSE"}[v]
			case typ == excelize.CellTypeUnset || typ == excelize.CellTypeNumber:
				var n float64
				fmt.Sscan(v, &n)
				row[c] = fmt.Sprintf("%g", n)
			}
		}
	}
	return rows
}

// checkRows compares rows (of a sheet or a table) with want, a row a line
// of cells joined by "|"; trailing empty cells do not count.
func checkRows(t *testing.T, what string, got [][]string, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows; want %d:\n%q", what, len(got), len(want), got)
	}
	for i := range min(len(got), len(want)) {
		if g := strings.TrimRight(strings.Join(got[i], "|"), "|"); g != want[i] {
			t.Errorf("%s row %d:\n%s\nwant\n%s", what, i, g, want[i])
		}
	}
}

// TestChampionshipXLSX: the workbook of championship has, after Rounds, the
// sheets Final phase, Final ranking, one a category and Teams, with the
// values worked out in championship's comment; the Tournament sheet lists
// the championship's settings; the Standings sheet stays the Swiss one.
func TestChampionshipXLSX(t *testing.T) {
	f, _ := writeXLSX(t, championship())
	want := []string{"Tournament", "Standings", "Crosstable", "Rounds", "Final phase", "Final ranking", "women", "youth", "seniors", "Teams", "Players"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Fatalf("sheets %q; want %q", got, want)
	}
	hdr := "Round|Category|Match|Game|Black|Black name|White|White name|Black discs|White discs|Result|Loser|End|Note|Moves|Match winner|Winner name|Winner points|Loser points|Decided by"
	checkRows(t, "Final phase", sheetText(t, f, "Final phase"), []string{hdr,
		"1||SF1|1|8|" + hal + "|2|Bob|30|34|normal",
		"1||SF2|1|1|Ann|3|Cy|32|32|normal",
		"1|seniors|PO|1|4|Di|5|Eve|40|24|normal|||||4|Di|1|0",
		"2||SF1|2|2|Bob|8|" + hal + "|40|24|normal|||||2|Bob|2|0",
		"2||SF2|2|3|Cy|1|Ann|20|44|normal",
		"2|seniors|F|1|4|Di|6|Fay|33|31|normal|||||4|Di|1|0",
		"3||SF2|3|1|Ann|3|Cy|30|34|normal|||||1|Ann|1.5|1.5|level: the higher Swiss seed",
		"4||F|1|2|Bob|1|Ann|36|28|normal",
		"4||3P|1|8|" + hal + "|3|Cy|35|29|normal|||||8|" + hal + "|1|0",
		"5||F|2|1|Ann|2|Bob|34|30|normal",
		"6||F|3|2|Bob|1|Ann|31|33|normal|||||1|Ann|2|1",
	})
	rank := "Rank|No|Name|Country|Swiss rank|Points|Discs|Final phase"
	checkRows(t, "Final ranking", sheetText(t, f, "Final ranking"), []string{rank,
		"1|1|Ann|FRA|2|1|40|TRUE", "2|2|Bob|FRA|1|1|50|TRUE", "3|8|" + hal + "|NOR|4|1|34|TRUE", "4|3|Cy|JPN|3|1|36|TRUE",
		"5|6|Fay|DEU|5|0|30|FALSE", "6|7|Gus|JPN|6|0|28|FALSE", "7|4|Di|JPN|7|0|24|FALSE", "8|5|Eve|DEU|8|0|14|FALSE"})
	checkRows(t, "women", sheetText(t, f, "women"), []string{rank,
		"1|1|Ann|FRA|2|1|40|FALSE", "2|6|Fay|DEU|5|0|30|FALSE", "3|4|Di|JPN|7|0|24|FALSE", "4|5|Eve|DEU|8|0|14|FALSE"})
	checkRows(t, "youth", sheetText(t, f, "youth"), []string{rank, "1|7|Gus|JPN|6|0|28|FALSE"})
	checkRows(t, "seniors", sheetText(t, f, "seniors"), []string{rank,
		"1|4|Di|JPN|7|0|24|TRUE", "2|6|Fay|DEU|5|0|30|TRUE", "3|5|Eve|DEU|8|0|14|FALSE"})
	checkRows(t, "Teams", sheetText(t, f, "Teams"), []string{"Rank|Team|Points|Counted|Members",
		"1|FRA|2|2 Bob (1); 1 Ann (1)|2", "2|JPN|1|3 Cy (1); 4 Di (0)|2", "2|NOR|1|8 " + hal + " (1)|1", "4|DEU|0|6 Fay (0)|1"})
	about := sheetText(t, f, "Tournament")
	checkRows(t, "Tournament (the championship's rows)", about[len(about)-5:], []string{
		"Final phase|top=4,bestof=3,third=1,playoff=1,level=seed,colour=lot",
		"Category women|4 members; final phase top=4,bestof=1,third=1,playoff=0,level=seed,colour=lot; not played: player 1 (Ann), of the category, reached the open semi-finals",
		"Category youth|1 member; born in 2010 or later",
		"Category seniors|3 members; final phase top=2,bestof=1,third=0,playoff=1,level=seed,colour=lot",
		"Teams|the best 2 Swiss scores of each, not counting youth",
	})
	// The Swiss standings as they were: final games count for nothing.
	checkRows(t, "Standings", sheetText(t, f, "Standings")[1:3], []string{"1|2|Bob|FRA||1|50|50|1|FALSE", "2|1|Ann|FRA||1|40|40|1|FALSE"})
	for _, c := range []struct{ sheet, cell, format string }{{"Final phase", "R4", "0.0"}, {"Final ranking", "F2", "0.0"}, {"Teams", "C2", "0.0"}} {
		if got := numFmt(t, f, c.sheet, c.cell); got != c.format {
			t.Errorf("%s!%s (points): format %q; want %q", c.sheet, c.cell, got, c.format)
		}
	}
}

// TestChampionshipCSV: export csv writes the same sheets, a file each, named
// after them; two categories whose names would make the same sheet or file
// (or take another sheet's) get names of their own.
func TestChampionshipCSV(t *testing.T) {
	tm := championship()
	tm.Categories = append(tm.Categories, tournament.Category{Name: "Teams"}, tournament.Category{Name: "se/niors"}, tournament.Category{Name: "se?niors"},
		tournament.Category{Name: "Final-phase"}, tournament.Category{Name: "a very long name for a category, longer than 31"})
	sheets, err := export.Sheets(tm)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sheets {
		names = append(names, s.CSVName())
	}
	want := []string{"tournament.csv", "standings.csv", "crosstable.csv", "rounds.csv", "final-phase.csv", "final-ranking.csv",
		"women.csv", "youth.csv", "seniors.csv", "category-teams.csv", "se_niors.csv", "category-se_niors.csv", "category-final-phase.csv",
		"a-very-long-name-for-a-category.csv", "teams.csv", "players.csv"}
	if !slices.Equal(names, want) {
		t.Errorf("CSV files %q;\nwant %q", names, want)
	}
	var b bytes.Buffer
	if err := export.WriteCSV(&b, sheets[8], export.CSVFormat{}); err != nil {
		t.Fatal(err)
	}
	if want := "Rank,No,Name,Country,Swiss rank,Points,Discs,Final phase\n1,4,Di,JPN,7,0,24,true\n2,6,Fay,DEU,5,0,30,true\n3,5,Eve,DEU,8,0,14,false\n"; b.String() != want {
		t.Errorf("seniors.csv:\n%s\nwant\n%s", b.String(), want)
	}
	// A workbook takes every name.
	if _, err := export.Sheets(tm); err != nil {
		t.Fatal(err)
	}
	if err := export.WriteXLSX(&b, tm); err != nil {
		t.Errorf("the workbook of categories with awkward names: %v", err)
	}
}

// TestChampionshipHTML: the results page of championship shows the final
// phases (qualifiers, matches, games), the final ranking, the categories
// and the teams, every name as text; the Swiss standings as they were.
func TestChampionshipHTML(t *testing.T) {
	var b bytes.Buffer
	if err := export.WriteHTML(&b, championship()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	p := parseHTML(t, b.Bytes())
	if p.elements["b"] > 0 || p.elements["script"] > 0 {
		t.Errorf("a name is markup: %v", p.elements)
	}
	if !strings.Contains(page, `<nav><a href="#final">Final phase</a> <a href="#final-ranking">Final ranking</a> <a href="#standings">Standings</a> <a href="#categories">Categories</a> <a href="#teams">Teams</a> <a href="#crosstable">Crosstable</a>`) {
		t.Errorf("the page's links: %s", page[strings.Index(page, "<nav>"):][:300])
	}
	checkRows(t, "matches", p.tables["matches"], []string{
		"Match|Higher seed|Other|Score|Winner",
		"Semi-final 1|2 Bob|8 " + hal + "|2-0|2 Bob",
		"Semi-final 2|1 Ann|3 Cy|1.5-1.5|1 Ann (level: the higher Swiss seed)",
		"Final|2 Bob|1 Ann|1-2|1 Ann",
		"3rd place|3 Cy|8 " + hal + "|0-1|8 " + hal,
		"Match|Higher seed|Other|Score|Winner", // the seniors'
		"Seniors play-off|4 Di|5 Eve|1-0|4 Di",
		"Seniors final|6 Fay|4 Di|0-1|4 Di",
	})
	checkRows(t, "final-games", p.tables["final-games"], []string{
		"Round|Match|Game|Black|White|Result",
		"1|Semi-final 1|1|8 " + hal + "|2 Bob|30-34", "1|Semi-final 2|1|1 Ann|3 Cy|32-32",
		"2|Semi-final 1|2|2 Bob|8 " + hal + "|40-24", "2|Semi-final 2|2|3 Cy|1 Ann|20-44", "3|Semi-final 2|3|1 Ann|3 Cy|30-34",
		"4|Final|1|2 Bob|1 Ann|36-28", "4|3rd place|1|8 " + hal + "|3 Cy|35-29", "5|Final|2|1 Ann|2 Bob|34-30", "6|Final|3|2 Bob|1 Ann|31-33",
		"Round|Match|Game|Black|White|Result",
		"1|Seniors play-off|1|4 Di|5 Eve|40-24", "2|Seniors final|1|4 Di|6 Fay|33-31",
	})
	// The qualifiers: their place, name and number apart.
	checkRows(t, "qualified", p.tables["qualified"], []string{
		"Seed|Qualified|No", "1|Bob|2", "2|Ann|1", "3|Cy|3", "4|" + hal + "|8",
		"Seed|Qualified|No", "1|Fay|6", "2|Di|4",
	})
	// The rules in words, not the settings' syntax.
	for _, note := range []string{
		"<h2>Final phase</h2>\n<p class=\"note rules\">Top 4 of the Swiss; each match is best of 3 games.\nA 3rd-place game.\nA play-off game decides a tie for the last qualifying place.\nA level match goes to the higher seed.\nThe colours of the first game are drawn by lot; then they alternate.</p>",
		"<h3>women</h3>\n<p class=\"note rules\">Top 4 of the Swiss; each match is one game.\nA 3rd-place game.\nA tie for the last qualifying place is decided by the tie-breaks.\nA level match goes to the higher seed.\nThe colours of the first game are drawn by lot; then they alternate.</p>\n<p class=\"note\">Not played: player 1 (Ann), of the category, reached the open semi-finals.</p>",
		"<h3>seniors</h3>\n<p class=\"note rules\">Top 2 of the Swiss; each match is one game.\nNo 3rd-place match.\n",
		"<p class=\"note\">Tied on points across the last place: Fay (no. 6), Di (no. 4), Eve (no. 5).</p>",
		"<p class=\"note\">Each team&#39;s points are the sum of its best 2 members&#39; Swiss points; equal points share a place. Not counted: the members of youth.</p>",
	} {
		if !strings.Contains(page, note) {
			t.Errorf("the page lacks %q", note)
		}
	}
	rank := "Rank|No|Name|Country|Points|Swiss rank"
	checkRows(t, "final-ranking", p.tables["final-ranking"], []string{rank,
		"1|1|Ann|FRA|1|2", "2|2|Bob|FRA|1|1", "3|8|" + hal + "|NOR|1|4", "4|3|Cy|JPN|1|3", "5|6|Fay|DEU|0|5", "6|7|Gus|JPN|0|6", "7|4|Di|JPN|0|7", "8|5|Eve|DEU|0|8"})
	checkRows(t, "category", p.tables["category"], []string{
		rank, "1|1|Ann|FRA|1|2", "2|6|Fay|DEU|0|5", "3|4|Di|JPN|0|7", "4|5|Eve|DEU|0|8",
		rank, "1|7|Gus|JPN|0|6",
		rank, "1|4|Di|JPN|0|7", "2|6|Fay|DEU|0|5", "3|5|Eve|DEU|0|8",
	})
	checkRows(t, "teams", p.tables["teams"], []string{"Rank|Team|Points|Counted|Members",
		"1|FRA|2|2 Bob (1); 1 Ann (1)|2", "2|JPN|1|3 Cy (1); 4 Di (0)|2", "2|NOR|1|8 " + hal + " (1)|1", "4|DEU|0|6 Fay (0)|1"})
	if got := p.tables["standings"]; len(got) != 9 || strings.Join(got[1], "|") != "1|2|Bob|FRA|1|50|50|1" {
		t.Errorf("the Swiss standings: %q", got)
	}
}

// TestFinalWallSheet: the wall sheet of each round of championship's final
// phase lists the games one 'final next' paired, with the categories'.
func TestFinalWallSheet(t *testing.T) {
	tm := championship()
	for k, want := range map[int][]string{
		1: {"Semi-final 1|1|8 " + hal + "|2 Bob", "Semi-final 2|1|1 Ann|3 Cy", "Seniors play-off|1|4 Di|5 Eve"},
		3: {"Semi-final 2|3|1 Ann|3 Cy"},
		4: {"Final|1|2 Bob|1 Ann", "3rd place|1|8 " + hal + "|3 Cy"},
	} {
		var b bytes.Buffer
		if err := export.WriteFinalWallSheet(&b, tm, k); err != nil {
			t.Fatal(err)
		}
		p := parseHTML(t, b.Bytes())
		checkRows(t, fmt.Sprintf("round %d", k), p.tables["final-wall"], append([]string{"Match|Game|Black|White"}, want...))
		if title := fmt.Sprintf("<title>Championship: final phase, round %d</title>", k); !strings.Contains(b.String(), title) || p.elements["b"] > 0 || len(p.links) > 0 {
			t.Errorf("round %d: no %s, or markup or a link: %v %q", k, title, p.elements, p.links)
		}
	}
	for _, k := range []int{0, 7} {
		if err := export.WriteFinalWallSheet(&bytes.Buffer{}, tm, k); err == nil {
			t.Errorf("round %d of 6: no error", k)
		}
	}
}

// TestProvisionalFinalRanking: until the final phase is over, the final
// ranking is the Swiss order, no place the final phase's; a category's
// the same until its own is over (seniors after its play-off only).
func TestProvisionalFinalRanking(t *testing.T) {
	tm := championship()
	tm.FinalGames = tm.FinalGames[:5]
	rows, over, err := app.FinalRanking(tm)
	if err != nil || over {
		t.Fatalf("over %v, %v", over, err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d:%d:%v", r.Rank, r.Player, r.Final))
	}
	if want := "1:2:false 2:1:false 3:3:false 4:8:false 5:6:false 6:7:false 7:4:false 8:5:false"; strings.Join(got, " ") != want {
		t.Errorf("provisional final ranking %q; want %q", got, want)
	}
	rows, _, err = app.CategoryRanking(tm, "seniors")
	if err != nil || len(rows) != 3 || rows[0].Player != 6 || rows[0].Final {
		t.Errorf("seniors after the play-off: %+v, %v; want the Swiss order, Fay first", rows, err)
	}
}

// TestSwissOnlyUnchanged: an event that is only a Swiss has none of a
// championship's sheets, rows or parts.
func TestSwissOnlyUnchanged(t *testing.T) {
	tm := smallEvent()
	if app.Championship(tm) {
		t.Fatal("smallEvent is a championship")
	}
	page, err := app.ResultsPage(tm)
	if err != nil {
		t.Fatal(err)
	}
	if page.Final != nil || page.FinalRanking != nil || page.Categories != nil || page.Teams != nil {
		t.Errorf("the page of a Swiss has a championship's parts: %+v", page)
	}
	var b bytes.Buffer
	if err := export.WriteHTML(&b, tm); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`id="final`, "Teams", "Categories"} { // not the style's .final-games
		if strings.Contains(b.String(), s) {
			t.Errorf("the page of a Swiss has %q", s)
		}
	}
	// A player in a team of their own makes it a championship: its teams.
	tm.Players[0].Team = "Club"
	sheets, err := export.Sheets(tm)
	if err != nil || len(sheets) != 6 || sheets[4].Name != "Teams" {
		t.Errorf("a Swiss with teams: %d sheets, %v", len(sheets), err)
	}
}

// TestChampionshipDuringSwiss: before the final phase, and before any
// round, a championship's reports are made all the same: the final phase
// waits for the Swiss, the rankings are the Swiss order so far.
func TestChampionshipDuringSwiss(t *testing.T) {
	for _, tc := range []struct {
		name  string
		games int // of round 1 kept
	}{{"round 1 without results", 4}, {"nothing paired", 0}} {
		t.Run(tc.name, func(t *testing.T) {
			tm := championship()
			tm.Rounds, tm.FinalGames, tm.Games = 2, nil, tm.Games[:tc.games]
			for i := range tm.Games {
				tm.Games[i].Result = nil
			}
			if err := export.WriteXLSX(&bytes.Buffer{}, tm); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := export.WriteHTML(&b, tm); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "After the Swiss (round 0 of 2 finished).") || !strings.Contains(b.String(), "Provisional: the final phase is not over.") {
				t.Errorf("the page does not say the final phase waits:\n%s", b.String())
			}
			// No points yet: every team shares 1st place; the players equal,
			// in the order of their numbers.
			checkRows(t, "teams", parseHTML(t, b.Bytes()).tables["teams"], []string{"Rank|Team|Points|Counted|Members",
				"1|FRA|0|1 Ann (0); 2 Bob (0)|2", "1|JPN|0|3 Cy (0); 4 Di (0)|2", "1|DEU|0|6 Fay (0)|1", "1|NOR|0|8 " + hal + " (0)|1"})
		})
	}
}
