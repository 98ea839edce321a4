package htmlpage_test

import (
	"html/template"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"github.com/otd-project/otd/internal/htmlpage"
)

// TestTranslated: every message the templates say (and Funcs says) has its
// French and its Japanese; a new message without them fails here.
func TestTranslated(t *testing.T) {
	if missing := htmlpage.Untranslated(htmlpage.Templates()); len(missing) > 0 {
		t.Errorf("messages without a translation:\n%s", strings.Join(missing, "\n"))
	}
	// The check can fail: a message of a template of its own has none.
	set := template.Must(htmlpage.Templates().Parse(`{{define "new"}}{{T "A message nobody translated"}}{{end}}`))
	got := htmlpage.Untranslated(set)
	if want := "fr: A message nobody translated|ja: A message nobody translated"; strings.Join(got, "|") != want {
		t.Errorf("a new message: %q, want %q", got, want)
	}
}

// TestWords: how an event is played and a final phase's matches, in each
// language: the players' words (Othello's: rondes, pions; 回戦, 石), never
// the settings' syntax; a category's name as it is.
func TestWords(t *testing.T) {
	for _, tc := range []struct {
		lang                  language.Tag
		swiss, one, robin, sf string
	}{
		{language.English, "7 rounds, Swiss pairing; ties broken by Brightwell quotient, then discs",
			"1 round, Swiss pairing; ties broken by discs", "5 rounds, round robin; ranked by head-to-head result", "Women semi-final 2"},
		{language.French, "7 rondes, système suisse ; départage par le quotient de Brightwell, puis les pions",
			"1 ronde, système suisse ; départage par les pions", "5 rondes, toutes rondes ; classement par la confrontation directe", "Demi-finale 2 (Women)"},
		{language.Japanese, "全7回戦、スイス式。同点はブライトウェル係数、次に石数で順位を決定",
			"全1回戦、スイス式。同点は石数で順位を決定", "全5回戦、総当たり。直接対決で順位を決定", "Women 準決勝2"},
	} {
		f := htmlpage.Funcs(tc.lang)
		played := f["played"].(func(int, string, []string) string)
		match := f["match"].(func(string, string) string)
		for _, c := range []struct{ got, want string }{
			{played(7, "swiss", []string{"points", "bq", "discs"}), tc.swiss},
			{played(1, "swiss", []string{"points", "discs"}), tc.one},
			{played(5, "roundrobin", []string{"h2h"}), tc.robin},
			{match("women", "SF2"), tc.sf},
		} {
			if c.got != c.want {
				t.Errorf("%s: %q, want %q", tc.lang, c.got, c.want)
			}
		}
	}
}
