package htmlpage

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"text/template/parse"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Languages are the languages the pages are written in, English first (the
// default, and export html's).
var Languages = []language.Tag{language.English, language.French, language.Japanese}

// LanguageNames name each of Languages in itself, for a page's switch.
var LanguageNames = map[language.Tag]string{language.English: "English", language.French: "Français", language.Japanese: "日本語"}

// words is the pages' messages: the English text is the key; French and
// Japanese (words_fr.go, words_ja.go) are set on it, and a message that
// counts is set with its plural forms.
var words = func() *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for tag, msgs := range map[language.Tag][][2]string{language.French: french, language.Japanese: japanese} {
		for _, m := range msgs {
			if err := b.SetString(tag, m[0], m[1]); err != nil {
				panic(fmt.Sprintf("the %s message %q: %v", tag, m[0], err))
			}
		}
	}
	for _, p := range plurals {
		if err := b.Set(p.tag, p.key, plural.Selectf(1, "%d", "one", p.one, "other", p.other)); err != nil {
			panic(fmt.Sprintf("the %s message %q: %v", p.tag, p.key, err))
		}
	}
	return b
}()

// plurals are the messages whose words depend on a count (the first
// argument): English's and French's "one" (French: 0 and 1 too).
var plurals = []struct {
	tag             language.Tag
	key, one, other string
}{
	{language.English, "%d rounds, Swiss pairing", "%d round, Swiss pairing", "%d rounds, Swiss pairing"},
	{language.French, "%d rounds, Swiss pairing", "%d ronde, système suisse", "%d rondes, système suisse"},
	{language.English, "%d rounds, round robin", "%d round, round robin", "%d rounds, round robin"},
	{language.French, "%d rounds, round robin", "%d ronde, toutes rondes", "%d rondes, toutes rondes"},
	{language.English, "%d players: fewer than the %d players it needs.", "%d player: fewer than the %d players it needs.", "%d players: fewer than the %d players it needs."},
	{language.French, "%d players: fewer than the %d players it needs.", "%d joueur : moins que les %d joueurs qu'elle demande.", "%d joueurs : moins que les %d joueurs qu'elle demande."},
	{language.English, "The start (%d moves)", "The start (%d move)", "The start (%d moves)"},
	{language.French, "The start (%d moves)", "Le début (%d coup)", "Le début (%d coups)"},
	{language.English, "Each team's points are the sum of its best %d members' Swiss points; equal points share a place.",
		"Each team's points are its best member's Swiss points; equal points share a place.",
		"Each team's points are the sum of its best %d members' Swiss points; equal points share a place."},
	{language.French, "Each team's points are the sum of its best %d members' Swiss points; equal points share a place.",
		"Les points d'une équipe sont ceux de son meilleur membre au système suisse ; à points égaux, place partagée.",
		"Les points d'une équipe sont la somme des points au système suisse de ses %d meilleurs membres ; à points égaux, place partagée."},
}

// codeWords are the messages the functions of Funcs say (the templates'
// are in the templates' T calls): every one needs its translations too.
var codeWords = []string{
	"%d rounds, Swiss pairing", "%d rounds, round robin", "%s; ties broken by %s", "%s; ranked by %s", ", then ",
	"points", "Brightwell quotient", "discs", "head-to-head result", "wins", "disc difference",
	"black", "white", "(not known)", "Play-off", "Final", "3rd place", "Semi-final %s", "Quarter-final %s", ", ",
	"%s play-off", "%s final", "%s 3rd place", "%s semi-final %s", "%s quarter-final %s", "%s (not known)",
}

// matchKey gives the message of a final phase's match code ("Semi-final %s")
// and its number ("1"); no message for a code it does not know.
func matchKey(code string) (key, n string) {
	switch {
	case code == "":
		return "(not known)", ""
	case code == "PO":
		return "Play-off", ""
	case code == "F":
		return "Final", ""
	case code == "3P":
		return "3rd place", ""
	case strings.HasPrefix(code, "SF"):
		return "Semi-final %s", code[2:]
	case strings.HasPrefix(code, "QF"):
		return "Quarter-final %s", code[2:]
	}
	return "", ""
}

// tieBreakWords name scoring.TieBreak's keys (by their String) in words.
var tieBreakWords = map[string]string{"points": "points", "bq": "Brightwell quotient", "discs": "discs",
	"h2h": "head-to-head result", "wins": "wins", "diff": "disc difference"}

// Printer says the pages' messages in lang (one of Languages).
func Printer(lang language.Tag) *message.Printer {
	return message.NewPrinter(lang, message.Catalog(words))
}

// Funcs are the templates' functions that say a page's words in lang:
// T (a message, fmt's verbs), lang (its code), list (names, listed),
// colour ("black" or
// "white"), match (a final phase's match: its category and code) and
// played (how the event is played: its rounds, system and tie-breaks).
// Names are never translated.
func Funcs(lang language.Tag) template.FuncMap {
	p := Printer(lang)
	return template.FuncMap{
		"T":      func(key string, a ...any) string { return p.Sprintf(key, a...) },
		"lang":   func() string { return lang.String() },
		"list":   func(s []string) string { return strings.Join(s, p.Sprintf(", ")) },
		"colour": func(c string) string { return p.Sprintf(c) },
		"match": func(category, code string) string {
			key, n := matchKey(code)
			if key == "" { // a code otd does not know, as it is
				return strings.TrimSpace(category + " " + code)
			}
			var args []any
			if category != "" { // "Youth semi-final 1": a category's matches say its name
				key, args = "%s "+strings.ToLower(key[:1])+key[1:], []any{strings.ToUpper(category[:1]) + category[1:]}
			}
			if n != "" {
				args = append(args, n)
			}
			return p.Sprintf(key, args...)
		},
		"played": func(rounds int, system string, tieBreaks []string) string {
			how := p.Sprintf("%d rounds, Swiss pairing", rounds)
			if system == "roundrobin" {
				how = p.Sprintf("%d rounds, round robin", rounds)
			}
			key := "%s; ranked by %s"
			if len(tieBreaks) > 0 && tieBreaks[0] == "points" {
				key, tieBreaks = "%s; ties broken by %s", tieBreaks[1:]
			}
			if len(tieBreaks) == 0 {
				return how
			}
			named := make([]string, len(tieBreaks))
			for i, k := range tieBreaks {
				named[i] = p.Sprintf(cmp.Or(tieBreakWords[k], k))
			}
			return p.Sprintf(key, how, strings.Join(named, p.Sprintf(", then ")))
		},
	}
}

// In returns a copy of set (Templates, or a set built on it) that says its
// words in lang.
func In(set *template.Template, lang language.Tag) *template.Template {
	return template.Must(set.Clone()).Funcs(Funcs(lang))
}

// Untranslated lists the messages of set's T calls, and those Funcs says,
// that lack a translation in one of Languages but English ("fr: Pairings"):
// a message added without its translations.
func Untranslated(set *template.Template) []string {
	keys := slices.Clone(codeWords)
	for _, t := range set.Templates() {
		if t.Tree != nil {
			keys = messagesOf(t.Tree.Root, keys)
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var out []string
	for _, lang := range Languages[1:] {
		for _, k := range keys {
			if words.Context(lang, noRenderer{}).Execute(k) != nil {
				out = append(out, lang.String()+": "+k)
			}
		}
	}
	return out
}

// messagesOf adds to keys the messages of the T calls under n.
func messagesOf(n parse.Node, keys []string) []string {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				keys = messagesOf(c, keys)
			}
		}
	case *parse.ActionNode:
		keys = messagesOf(n.Pipe, keys)
	case *parse.TemplateNode:
		keys = messagesOf(n.Pipe, keys)
	case *parse.IfNode:
		keys = messagesOf(&n.BranchNode, keys)
	case *parse.RangeNode:
		keys = messagesOf(&n.BranchNode, keys)
	case *parse.WithNode:
		keys = messagesOf(&n.BranchNode, keys)
	case *parse.BranchNode:
		keys = messagesOf(n.Pipe, keys)
		keys = messagesOf(n.List, keys)
		keys = messagesOf(n.ElseList, keys)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				keys = messagesOf(c, keys)
			}
		}
	case *parse.CommandNode:
		if len(n.Args) > 1 {
			if f, ok := n.Args[0].(*parse.IdentifierNode); ok && f.Ident == "T" {
				if s, ok := n.Args[1].(*parse.StringNode); ok {
					keys = append(keys, s.Text)
				}
			}
		}
		for _, a := range n.Args {
			keys = messagesOf(a, keys)
		}
	}
	return keys
}

// noRenderer renders nothing: Untranslated only asks whether a message is
// there.
type noRenderer struct{}

func (noRenderer) Render(string) {}
func (noRenderer) Arg(int) any   { return 1 }
