package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// evilName is issue 28's name: it clears the terminal and retitles it; the
// \xfc after it is Latin-1, not UTF-8.
const evilName = "\x1b[2J\x1b]0;pwn\x07EVIL M\xfcller"

// TestStoredNameEscaped (issue 28): a name the store holds, whatever it
// holds (here put there by hand, as an import of 2d7bbec did), reaches no
// terminal and no file raw: player list, standings and crosstable print it
// escaped (\x1b), the CSV and HTML exports are UTF-8 without a control
// character.
func TestStoredNameEscaped(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "2")
	for _, n := range []string{"Ann", "Bob", "Cy", "Di"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	db.must("result", "1", "1", "40-24")
	db.must("result", "1", "2", "24-40")
	raw, err := sql.Open("sqlite", db.path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = raw.Exec("UPDATE player SET name = CAST(? AS BLOB) WHERE number = 1", []byte(evilName))
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	const shown = `\x1b[2J\x1b]0;pwn\aEVIL M\xfcller`
	dir := t.TempDir()
	html, csvDir := filepath.Join(dir, "club.html"), filepath.Join(dir, "csv")
	db.must("export", "html", html)
	db.must("export", "csv", csvDir)
	outputs := map[string]string{}
	for _, args := range [][]string{{"player", "list"}, {"standings"}, {"crosstable"}, {"standings", "--csv"}} {
		out := db.must(args...)
		outputs[strings.Join(args, " ")] = out
		if !strings.Contains(out, `\x1b[2J`) {
			t.Errorf("otd %s: the name not escaped:\n%s", strings.Join(args, " "), out)
		}
	}
	for _, f := range []string{html, filepath.Join(csvDir, "standings.csv"), filepath.Join(csvDir, "players.csv")} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		outputs[filepath.Base(f)] = string(b)
		if !strings.Contains(string(b), "pwn") {
			t.Errorf("%s: the name is not there", f)
		}
	}
	outputs["player list --json"] = db.must("player", "list", "--json") // JSON escapes as JSON does
	for what, out := range outputs {
		if !utf8.ValidString(out) {
			t.Errorf("%s: not UTF-8", what)
		}
		if i := strings.IndexFunc(out, func(r rune) bool { return r < ' ' && r != '\n' && r != '\t' && r != '\r' || r == 0x7f }); i >= 0 {
			t.Errorf("%s: a control character %q at byte %d", what, out[i], i)
		}
		if what != "player list --json" && !strings.Contains(out, "pwn\\aEVIL") {
			t.Errorf("%s: the name is not shown as %s", what, shown)
		}
	}
}

// TestVerifyTagEscaped (issue 28): verify prints a PGN's tags escaped.
func TestVerifyTagEscaped(t *testing.T) {
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(pgn, []byte("[Black \"\x1b]0;pwn\x07Eve\"]\n[White \"Ann\"]\n\n1. f5 d6 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := newTestDB(t)
	out, errs, _ := db.run("verify", pgn)
	if strings.ContainsAny(out+errs, "\x1b\x07") || !strings.Contains(out, `\x1b]0;pwn\aEve (black)`) {
		t.Errorf("verify printed the tag raw or not at all:\n%q\n%q", out, errs)
	}
}

// TestImportBadName (issue 28): import elo and import ftd refuse a name
// that 'player add' refuses, at its line, and store nothing.
func TestImportBadName(t *testing.T) {
	dir := t.TempDir()
	eloFile, ftdFile := filepath.Join(dir, "club.ELO"), filepath.Join(dir, "club.json")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(eloFile, []byte("%%Tournament: Club\n%%Date: 21/11/2026\n%_% 79, LEADER, Imre, GBR, 1, 40, 0\n"+
		"%_% 2, \x1b[2J\x1b]0;pwn\x07EVIL, Eve, FRA, 0, 24, 0\n%Round: 1\n79 (40)>(24) 2 B\n"), 0o644))
	must(os.WriteFile(ftdFile, []byte("{\"players_list\": [{\"id\": 1, \"surname\": \"LEADER\"},\n{\"id\": 2, \"surname\": \"\\u001b]0;pwn\\u0007EVIL\"}],\n"+
		"\"rounds\": [{\"currentRound\": 1, \"pairing\": [[{\"id\": 1, \"score\": 40, \"result\": 2}, {\"id\": 2}]]}]}\n"), 0o644))
	for _, tc := range []struct{ kind, file, want string }{
		{"elo", eloFile, "club.ELO: line 4: the name"},
		{"ftd", ftdFile, "club.json: line 2, column 1: players_list[1]: the name"},
	} {
		db := newTestDB(t)
		out, errs, code := db.run("import", tc.kind, tc.file)
		if code != 2 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "U+001B is a control character") || strings.ContainsAny(errs, "\x1b\x07") {
			t.Errorf("import %s: exit %d, %q, %q; want exit 2 and %q", tc.kind, code, out, errs, tc.want)
		}
	}
}
