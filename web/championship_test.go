package web

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// championship is a 4-player, 1-round event with a final between the top
// 2, played by otd (its moves recorded), a category and teams. Round 1:
// 1-2 40-24, 3-4 30-34; by points then discs: 1 (1 point, 40 discs), 4 (1,
// 34), 3 (0, 30), 2 (0, 24). The final, 1 v 4, one game: 4 (black) wins
// 40-24 (its moves the opening's 20: the viewer does not check them). The
// final ranking: 4, 1, then 3, 2. Women (2 and 3, no final phase): 3, 2.
// Teams, by country (FRA 1 and 2, JPN 3 and 4), the best 3: 1 point each,
// a shared 1st place.
func championship() *tournament.Tournament {
	s := tournament.DefaultSettings("Club <b>Cup</b>", 1)
	s.TieBreaks = scoring.TieBreaks{scoring.ByPoints, scoring.ByDiscs}
	s.Final, _ = tournament.ParseFinalRules("top=2,bestof=1,third=0")
	s.Categories = []tournament.Category{{Name: "women"}}
	t := &tournament.Tournament{Settings: s}
	for i, name := range []string{"LEADER, Imre", scriptName, "Ann Archer", "Cy Cole"} {
		p := tournament.Player{Number: i + 1, Name: name, FirstRound: 1, Country: []string{"FRA", "JPN"}[i/2]}
		if i == 1 || i == 2 {
			p.Categories = []string{"women"}
		}
		t.Players = append(t.Players, p)
	}
	t.Games = []tournament.Game{
		{Round: 1, Table: 1, Black: 1, White: 2, Result: &tournament.Result{Black: 40, White: 24, Kind: tournament.Normal}},
		{Round: 1, Table: 2, Black: 3, White: 4, Result: &tournament.Result{Black: 30, White: 34, Kind: tournament.Normal}},
	}
	t.FinalGames = []tournament.Game{{FinalRef: tournament.FinalRef{Match: "F", Game: 1, Seq: 1}, Black: 4, White: 1,
		Result: &tournament.Result{Black: 40, White: 24, Kind: tournament.Normal, Moves: opening}}}
	return t
}

// TestChampionshipPages: the final phase live (on the home page its last
// round, on /final every match and game and the final ranking), each
// category's ranking, the teams, a player's final games, and the viewer of
// a final game otd played; an event that is only a Swiss has none.
func TestChampionshipPages(t *testing.T) {
	ts, _, _ := serverOf(t, championship())
	for _, tc := range []struct {
		path   string
		status int
		want   []string
	}{
		{"/", 200, []string{`<a href="/">Pairings</a> <a href="/final">Final phase</a> <a href="/standings">Standings</a> <a href="/categories">Categories</a> <a href="/teams">Teams</a> <a href="/crosstable">`,
			"<h2>Final phase, round 1</h2>", `<td class="n">1</td><td>Final</td><td class="n">1</td><td>4 Cy Cole</td><td>1 LEADER, Imre</td><td><a href="/final/game/1">40-24</a></td>`,
			"Round 1: where do I play?"}},
		{"/final", 200, []string{"<tr><td class=\"n\">1</td><td>LEADER, Imre</td><td class=\"n\">1</td></tr>\n<tr><td class=\"n\">2</td><td>Cy Cole</td><td class=\"n\">4</td></tr>", "Top 2 of the Swiss; each match is one game.", "<td>Final</td><td>1 LEADER, Imre</td><td>4 Cy Cole</td><td>0-1</td><td>4 Cy Cole</td>",
			`<td><a href="/final/game/1">40-24</a></td>`, "<h2>Final ranking</h2>",
			`<tr class="final-place"><td class="n">1</td><td class="n">4</td><td>Cy Cole</td><td>JPN</td><td class="n">1</td><td class="n">2</td></tr>`,
			`<tr><td class="n">4</td><td class="n">2</td><td>` + escaped + `</td><td>FRA</td><td class="n">0</td><td class="n">4</td></tr>`}},
		{"/categories", 200, []string{"<h3>women</h3>", `<td class="n">1</td><td class="n">3</td><td>Ann Archer</td>`, `<td class="n">2</td><td class="n">2</td><td>` + escaped + `</td>`}},
		{"/teams", 200, []string{`<td class="n">1</td><td>FRA</td><td class="n">1</td><td>1 LEADER, Imre (1); 2 ` + escaped + ` (0)</td><td class="n">2</td>`,
			`<td class="n">1</td><td>JPN</td><td class="n">1</td><td>4 Cy Cole (1); 3 Ann Archer (0)</td><td class="n">2</td>`}},
		{"/player/4", 200, []string{"<h2>4 Cy Cole</h2>\n<p class=\"standing\">Rank 2; points: 1; final ranking: 1</p>", "<h3>Final phase</h3>", `<td>Final</td><td class="n">1</td><td>4 Cy Cole</td><td>1 LEADER, Imre</td><td><a href="/final/game/1">40-24</a></td>`}},
		{"/final/game/1", 200, []string{"<h2>Final, game 1</h2>", `<a href="/player/4">4 Cy Cole</a> (black) against <a href="/player/1">1 LEADER, Imre</a> (white): 40-24`,
			"Move 20 of 20: e6 by white", "<svg", `<form action="/final/game/1" method="get">`, `<a href="/final">Final phase</a>`}},
		{"/final/game/1?move=5", 200, []string{"Move 5 of 20: d6 by black", `<a href="?move=4">‹ prev</a> <a href="?move=6">next ›</a>`}},
		{"/final/game/1?move=21", 404, []string{"Final game 1 has no move 21: its moves are 0 (the start) to 20"}},
		{"/final/game/2", 404, []string{"no such page"}},
		{"/final/game/01", 404, []string{"no such page"}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if _, body := fetch(t, ts.URL+tc.path, tc.status, tc.want); strings.Contains(body, scriptName) {
				t.Error("a name is not text")
			}
		})
	}
	plain, _, _ := newServer(t)
	for _, path := range []string{"/final", "/categories", "/teams", "/final/game/1"} {
		if resp, _ := get(t, "GET", plain.URL+path); resp.StatusCode != 404 {
			t.Errorf("%s of a Swiss: status %d; want 404", path, resp.StatusCode)
		}
	}
	if _, body := get(t, "GET", plain.URL+"/"); strings.Contains(body, "/final") || strings.Contains(body, "/teams") {
		t.Error("the home page of a Swiss links to a championship's pages")
	}
}

// TestCategoryMatchOnPlayerPage (issue 30 point 5): a player's page names
// a category's match with its category, "Youth semi-final 1", not the
// open's "Semi-final 1". The event is championship()'s Swiss (by points
// then discs: 1, 4, 3, 2), all four youths, the youth final phase the top 4
// in single games: SF1 = seed 1 v seed 4 = 1 v 2, paired, not played.
func TestCategoryMatchOnPlayerPage(t *testing.T) {
	tm := championship()
	tm.Final = tournament.FinalRules{}
	rules, err := tournament.ParseFinalRules("top=4,bestof=1,third=0")
	if err != nil {
		t.Fatal(err)
	}
	tm.Categories = []tournament.Category{{Name: "youth", Final: rules}}
	for i := range tm.Players {
		tm.Players[i].Categories = []string{"youth"}
	}
	tm.FinalGames = []tournament.Game{{FinalRef: tournament.FinalRef{Category: "youth", Match: "SF1", Game: 1, Seq: 1}, Black: 1, White: 2}}
	ts, _, _ := serverOf(t, tm)
	_, body := fetch(t, ts.URL+"/player/1", 200, []string{"<td>Youth semi-final 1</td>"})
	if strings.Contains(body, "<td>Semi-final 1</td>") {
		t.Error("the youth semi-final is listed as the open's")
	}
}

// TestPagesEscapeNames (issue 28): whatever the database holds (an older
// otd stored any name), every page is UTF-8 without a raw control or
// format character: html/template escapes the markup, not ESC, a bell, a
// bidirectional override or a byte that is not UTF-8. A championship, for
// its final phase, categories and teams; a Swiss, for its game viewer.
func TestPagesEscapeNames(t *testing.T) {
	const bad, shown = "\x1b]0;pwn\x07EVIL M\xfcller\u202e", `\x1b]0;pwn\aEVIL`
	champ, swiss := championship(), event()
	for _, tm := range []*tournament.Tournament{champ, swiss} {
		tm.Players[1].Name = bad
		tm.Players[1].Country = "FRA"
	}
	for _, tc := range []struct {
		tm    *tournament.Tournament
		paths []string
	}{
		{champ, []string{"/", "/final", "/categories", "/teams", "/standings", "/crosstable", "/round/1", "/player/2", "/final/game/1", "/?q=evil"}},
		{swiss, []string{"/", "/round/1", "/player/2", "/round/1/table/1", "/round/1/table/1?move=3", "/?q=%1b]0%3Bpwn%07evil%e2%80%ae"}},
	} {
		ts, _, _ := serverOf(t, tc.tm)
		for _, path := range tc.paths {
			_, body := fetch(t, ts.URL+path, 200, nil)
			if !utf8.ValidString(body) {
				t.Errorf("%s: not UTF-8", path)
			}
			if i := strings.IndexFunc(body, func(r rune) bool {
				return r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.In(r, unicode.Cf))
			}); i >= 0 {
				t.Errorf("%s: %+q raw at byte %d", path, []rune(body[i:])[0], i)
			}
			if path != "/final/game/1" && !strings.Contains(body, shown) {
				t.Errorf("%s: the name is not shown as %s:\n%s", path, shown, body)
			}
		}
	}
}
