package web

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/otd-project/otd/internal/htmlpage"
	"github.com/otd-project/otd/tournament"
)

// TestTranslated: every message of serve's templates has its French and its
// Japanese (htmlpage's own are TestTranslated's there).
func TestTranslated(t *testing.T) {
	if missing := htmlpage.Untranslated(templates[language.English]); len(missing) > 0 {
		t.Errorf("messages without a translation:\n%s", strings.Join(missing, "\n"))
	}
}

// TestLanguages: a page is in the browser's language (Accept-Language),
// or the one chosen by ?lang=, which a cookie then remembers; English by
// default; the names as they are. Each language's page is kept apart.
func TestLanguages(t *testing.T) {
	srv, _, cancel := newServer(t)
	defer cancel()
	page := func(path string, header http.Header) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	name := "<td>4 Cy Cole</td><td>1 LEADER, Imre</td>"
	for _, tc := range []struct {
		path, accept, cookie string
		lang                 string
		want                 []string
	}{
		{"/", "", "", "en", []string{"<h2>Round 2: where do I play?</h2>", "3 rounds, Swiss pairing; ties broken by Brightwell quotient, then discs", name}},
		{"/", "de-CH, de;q=0.9", "", "en", []string{"<h2>Round 2: where do I play?</h2>"}},
		{"/", "fr-CA,fr;q=0.9,en;q=0.8", "", "fr", []string{`<a href="/">Appariements</a>`, "<h2>Ronde 2 : où est-ce que je joue ?</h2>",
			"3 rondes, système suisse ; départage par le quotient de Brightwell, puis les pions", "<th>Noir</th><th>Blanc</th>", name}},
		{"/", "ja", "", "ja", []string{`<a href="/">組み合わせ</a>`, "<h2>第2回戦：私の席は？</h2>", "全3回戦、スイス式。同点はブライトウェル係数、次に石数で順位を決定", "<th>黒</th><th>白</th>", name}},
		{"/standings", "en", "lang=ja", "ja", []string{"<h2>第1回戦終了時の順位（全3回戦）</h2>", `<th class="n">石数</th>`}},
		{"/standings?lang=fr", "ja", "lang=ja", "fr", []string{"<h2>Classement après la ronde 1 sur 3</h2>", `<strong lang="fr">Français</strong>`, `<a href="?lang=ja" lang="ja" hreflang="ja">日本語</a>`}},
		{"/player/1", "fr", "", "fr", []string{`<h2>1 LEADER, Imre</h2>`, "<th>Adversaire</th>", "<td>noir</td>"}},
		{"/round/1/table/1?move=3", "ja", "", "ja", []string{"<h2>第1回戦 1番テーブル</h2>", "3手目／20手", "(黒)", "« 最初"}},
	} {
		h := http.Header{}
		if tc.accept != "" {
			h.Set("Accept-Language", tc.accept)
		}
		if tc.cookie != "" {
			h.Set("Cookie", tc.cookie)
		}
		resp, body := page(tc.path, h)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `<html lang="`+tc.lang+`">`) || resp.Header.Get("Content-Language") != tc.lang {
			t.Errorf("GET %s (Accept-Language %q, cookie %q): %d, Content-Language %q, want %s:\n%.600s", tc.path, tc.accept, tc.cookie, resp.StatusCode, resp.Header.Get("Content-Language"), tc.lang, body)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s in %s: the page lacks %q", tc.path, tc.lang, w)
			}
		}
		if vary := resp.Header.Get("Vary"); !strings.Contains(vary, "Accept-Language") || !strings.Contains(vary, "Cookie") {
			t.Errorf("GET %s: Vary %q", tc.path, vary)
		}
	}
	// ?lang= is remembered: the cookie it sets.
	resp, _ := page("/?lang=ja", http.Header{})
	if c := resp.Cookies(); len(c) != 1 || c[0].Name != "lang" || c[0].Value != "ja" || c[0].Path != "/" || c[0].MaxAge <= 0 {
		t.Errorf("GET /?lang=ja sets %v", c)
	}
	// An unknown language is no choice: no cookie, the browser's language.
	resp, body := page("/?lang=xx", http.Header{"Accept-Language": {"fr"}})
	if len(resp.Cookies()) != 0 || !strings.Contains(body, `<html lang="fr">`) {
		t.Errorf("GET /?lang=xx sets %v, in %.200s", resp.Cookies(), body)
	}
}

// TestFinalWords: how a level final match was decided and why a category's
// final phase is not played are values (tournament.Decision, PhaseNote),
// which the pages say in the reader's language; the command line's English
// is their String.
func TestFinalWords(t *testing.T) {
	seed := tournament.Decision{Kind: tournament.LevelBySeed}
	discs := tournament.Decision{Kind: tournament.LevelByDiscs, WinnerDiscs: 98, LoserDiscs: 94}
	few := tournament.PhaseNote{Kind: tournament.TooFewPlayers, Players: 3, Needed: 4}
	semis := tournament.PhaseNote{Kind: tournament.InOpenSemiFinals, Player: 6, Name: "Ann Archer"}
	wait := tournament.PhaseNote{Kind: tournament.InOpenMatch, Player: 6, Name: "Ann Archer", Match: "QF2"}
	for _, tc := range []struct {
		lang language.Tag
		name string
		v    any
		want string
	}{
		{language.English, "decision", seed, "level: the higher Swiss seed"},
		{language.English, "phase-note", few, "3 players: fewer than the 4 players it needs."},
		{language.English, "phase-note", tournament.PhaseNote{Kind: tournament.TooFewPlayers, Players: 1, Needed: 2}, "1 player: fewer than the 2 players it needs."},
		{language.French, "decision", seed, "à égalité : la meilleure tête de série du système suisse"},
		{language.French, "decision", discs, "à égalité : aux pions du match, 98-94"},
		{language.French, "phase-note", few, "3 joueurs : moins que les 4 joueurs qu&#39;elle demande."},
		{language.French, "phase-note", wait, "le joueur 6 (Ann Archer), de la catégorie, joue « Quart de finale 2 » de l&#39;open, qui peut le mener en demi-finale."},
		{language.Japanese, "decision", seed, "同点：スイス式の上位シード"},
		{language.Japanese, "phase-note", semis, "このカテゴリーの選手6（Ann Archer）がオープンの準決勝に進出。"},
	} {
		var b strings.Builder
		if err := templates[tc.lang].ExecuteTemplate(&b, tc.name, tc.v); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s %s %+v: %q, want %q", tc.lang, tc.name, tc.v, b.String(), tc.want)
		}
	}
	for _, c := range []struct{ got, want string }{
		{seed.String(), "level: the higher Swiss seed"},
		{discs.String(), "level: the discs of the match, 98-94"},
		{few.String(), "3 players: fewer than the 4 players it needs"},
		{semis.String(), "player 6 (Ann Archer), of the category, reached the open semi-finals"},
		{wait.String(), "player 6 (Ann Archer), of the category, plays the open QF2, which may take them to the semi-finals"},
	} {
		if c.got != c.want {
			t.Errorf("the command line's words: %q, want %q", c.got, c.want)
		}
	}
}
