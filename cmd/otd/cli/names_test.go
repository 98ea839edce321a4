package cli

import (
	"database/sql"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
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
	db := clubWithName(t)
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
		checkShown(t, what, out)
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

// clubWithName is a club of 4 players, round 1 played (1-2 40-24, 3-4
// 24-40), and player 1 named evilName by hand.
func clubWithName(t *testing.T) *testDB {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "2")
	for _, n := range []string{"Ann", "Bob", "Cy", "Di"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	db.must("result", "1", "1", "40-24")
	db.must("result", "1", "2", "24-40")
	storeName(t, db, 1, evilName)
	return db
}

// storeName puts name as player n's name into db's SQLite file by hand, as
// an import of an older otd could (2d7bbec took any name).
func storeName(t *testing.T, db *testDB, n int, name string) {
	t.Helper()
	rawExec(t, db, "UPDATE player SET name = CAST(? AS BLOB) WHERE number = ?", []byte(name), n)
}

// rawExec runs an SQL statement on db's SQLite file, behind otd's back.
func rawExec(t *testing.T, db *testDB, query string, args ...any) {
	t.Helper()
	raw, err := sql.Open("sqlite", db.path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(query, args...); err != nil {
		t.Fatal(err)
	}
}

// bidiName reorders the line it is on (U+202E, the right-to-left override)
// and starts a terminal's control sequence (U+009B, CSI in C1).
const bidiName = "Cy \u202eeloC\u009b2J"

// checkShown fails unless out is UTF-8 without a control, format, line or
// paragraph separator character (but for tabs and line feeds): what no
// terminal and no page may get raw.
func checkShown(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: not UTF-8", what)
	}
	if i := strings.IndexFunc(out, func(r rune) bool {
		return r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp))
	}); i >= 0 {
		t.Errorf("%s: the character %+q raw at byte %d:\n%.300q", what, []rune(out[i:])[0], i, out[max(0, i-100):])
	}
}

// opening is a game's first 20 moves, legal from the start (examples/game.txt).
const opening = "c4e3f4c5d6f3d3c2f2e2c3b5e1c6a6d2c1f6f5e6"

// TestServedNamesEscaped (issue 28): whatever the store holds, every page of
// otd serve (pairings, the search, standings, crosstable, a round, a
// player's page, the game viewer) and every board drawn (export svg,
// verify --svg) is UTF-8 without a raw control or format character:
// html/template escapes the markup, not ESC, a bell, a bidirectional
// override or a byte that is not UTF-8. The name is there, escaped.
func TestServedNamesEscaped(t *testing.T) {
	db := clubWithName(t)
	storeName(t, db, 3, bidiName)
	rawExec(t, db, "UPDATE game SET moves = ? WHERE round = 1", opening) // as if otd had played them

	url, _, cancel, done := startServe(t, db.path, serveOptions{})
	defer func() { cancel(); <-done }()
	const shown = `\x1b[2J\x1b]0;pwn\aEVIL`
	for _, tc := range []struct{ path, want string }{
		{"", shown}, {"?q=evil", shown}, {"?q=%1b]0%3Bpwn%07%e2%80%ae", `named “\x1b]0;pwn\a\u202e”`}, {"standings", shown}, {"crosstable", shown},
		{"round/1", shown}, {"player/1", shown}, {"player/3", `\u202eeloC\u009b2J`}, {"round/1/table/1", shown},
		{"round/1/table/1?move=3", shown}, {"round/1/table/2", `\u202e`},
	} {
		resp, err := http.Get(url + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), tc.want) {
			t.Errorf("GET /%s: %d, lacks %q:\n%s", tc.path, resp.StatusCode, tc.want, page)
		}
		checkShown(t, "GET /"+tc.path, string(page))
	}

	svg := filepath.Join(t.TempDir(), "r1t1.svg")
	db.must("export", "svg", "--round", "1", "--table", "1", svg)
	pgn := filepath.Join(t.TempDir(), "game.pgn")
	if err := os.WriteFile(pgn, []byte("[Black \""+evilName+"\"]\n[White \""+bidiName+"\"]\n\n1. f5 d6 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	verified := filepath.Join(t.TempDir(), "verified.svg")
	db.run("verify", pgn, "--svg", verified)
	for f, want := range map[string]string{svg: "2 Bob", verified: `\u202eeloC`} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), shown) || !strings.Contains(string(b), want) {
			t.Errorf("%s: the names are not there, escaped:\n%s", f, b)
		}
		checkShown(t, filepath.Base(f), string(b))
	}
}

// TestCommandsEscapeStoredName (issue 28): whatever the store holds, no
// command writes it raw to the terminal, on standard output or standard
// error, in a table or a line of its own: result, final show, category
// show, teams, standings, round show, log, tournament show, player
// withdraw, absent, remove, edit, pair forbid, undo.
func TestCommandsEscapeStoredName(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Champ", "--rounds", "1", "--final", "top=2,bestof=1,third=0")
	db.must("category", "add", "women")
	for _, n := range []string{"Ann", "Bob", "Cy", "Di"} {
		db.must("player", "add", n, "--country", "FRA")
	}
	db.must("player", "edit", "1", "--category", "women")
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	db.must("result", "1", "1", "40-24")
	db.must("result", "1", "2", "24-40")
	db.must("final", "start")
	storeName(t, db, 1, evilName)
	storeName(t, db, 3, bidiName)
	const shown = `\x1b[2J\x1b]0;pwn\aEVIL`
	for _, tc := range []struct {
		args []string
		want string // in stdout or stderr
	}{
		{[]string{"result", "F", "1", "40-24"}, ""},
		{[]string{"final", "show"}, shown},
		{[]string{"category", "show", "women"}, shown},
		{[]string{"teams"}, shown},
		{[]string{"standings", "--final"}, shown},
		{[]string{"standings"}, `\u202eeloC`},
		{[]string{"round", "show", "1"}, shown},
		{[]string{"tournament", "show"}, ""},
		{[]string{"player", "absent", "1", "--round", "1"}, shown},
		{[]string{"player", "remove", "3"}, `\u202eeloC`},
		{[]string{"player", "edit", "1", "--rating", "2000"}, shown},
		{[]string{"pair", "forbid", "1", "3"}, shown},
		{[]string{"player", "withdraw", "1", "--rederive"}, shown}, // out of the final it played: its game dropped
		{[]string{"log"}, shown},
		{[]string{"undo"}, ""},
		{[]string{"log", "--wide"}, `\u202eeloC`},
	} {
		out, errs, _ := db.run(tc.args...)
		what := "otd " + strings.Join(tc.args, " ")
		checkShown(t, what+": stdout", out)
		checkShown(t, what+": stderr", errs)
		if !strings.Contains(out+errs, tc.want) {
			t.Errorf("%s: the name is not shown escaped (%s):\n%s\n%s", what, tc.want, out, errs)
		}
	}
}

// TestEditStoredBadName (issue 28): a player whose name an older otd
// stored (10,000 characters, as 'import elo' of 2d7bbec took) is refused a
// correction that keeps it, with what to do: the name too, in the same
// command; which then goes through.
func TestEditStoredBadName(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "2")
	db.must("player", "add", "Ann")
	db.must("player", "add", "Bob")
	storeName(t, db, 2, strings.Repeat("a", 10_000))
	_, errs, code := db.run("player", "edit", "2", "--rating", "2000")
	if code != exitUsage || !strings.Contains(errs, "longer than 200 characters") || !strings.Contains(errs, "add --name NAME to the command ('otd player edit 2 --name NAME ...'") {
		t.Errorf("player edit 2 --rating 2000: exit %d, %q; want 2 and what to do", code, errs)
	}
	if out := db.must("player", "edit", "2", "--rating", "2000", "--name", "Bob Brown"); !strings.Contains(out, "Player 2 Bob Brown, 2000") {
		t.Errorf("player edit 2 --rating 2000 --name 'Bob Brown': %q", out)
	}
}

// TestPlayersFileWindows1252 (issue 28): a players file that Excel on
// Windows saved as "CSV" is in the computer's code page: read as
// Windows-1252 (E9 é, F4 ô, FC ü), and said so.
func TestPlayersFileWindows1252(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "2")
	file := filepath.Join(t.TempDir(), "players.csv")
	if err := os.WriteFile(file, []byte("Nom;Classement;Pays\r\nJ\xe9r\xf4me;1500;FR\r\nM\xfcller, J\xf6rg;;DE\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := db.run("player", "import", file)
	if code != 0 || !strings.Contains(out, "Registered 2 players") || !strings.Contains(errs, "otd: note: "+file+": the file is not UTF-8: read as Windows-1252") {
		t.Fatalf("player import: exit %d, %q, %q", code, out, errs)
	}
	var players []struct{ Name string }
	db.json(&players, "player", "list", "--json")
	if len(players) != 2 || players[0].Name != "Jérôme" || players[1].Name != "Müller, Jörg" {
		t.Errorf("registered %+v; want Jérôme and Müller, Jörg", players)
	}
}

// TestRatingsListNames (issue 28): a rating list (--ratings, as 'otd
// rating --csv' writes it) saved by Excel in Windows-1252 is read so, and
// said so; a name in it that otd does not keep is registered cleaned, and
// said so: a name is an identity, but a list is not the player's entry.
func TestRatingsListNames(t *testing.T) {
	dir := t.TempDir()
	latin1, bad := filepath.Join(dir, "latin1.csv"), filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(latin1, []byte("WOF id;Name;Country;Rating\r\n79;L\xc9ADER, Imr\xe9;GBR;2157,43\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("WOF id,Name,Country,Rating\n79,\"\x1b]0;pwn\x07LEADER,\tImre\",GBR,2157.43\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		list, name, note string
	}{
		{latin1, "LÉADER, Imré", "otd: note: --ratings " + latin1 + ": the file is not UTF-8: read as Windows-1252"},
		{bad, "]0;pwnLEADER, Imre", `is not one otd keeps (character U+001B is a control character): registered as "]0;pwnLEADER, Imre"`},
	} {
		for _, cmd := range [][]string{
			{"tournament", "new", "Club", "--rounds", "2", "--ratings", tc.list, "--players", "79"},
			{"player", "import", "--ratings", tc.list, "79"},
		} {
			db := newTestDB(t)
			if cmd[0] == "player" {
				db.must("tournament", "new", "Club", "--rounds", "2")
			}
			out, errs, code := db.run(cmd...)
			what := strings.Join(cmd, " ")
			if code != 0 || !strings.Contains(out+errs, tc.note) {
				t.Errorf("%s: exit %d, %q, %q; want the note %q", what, code, out, errs, tc.note)
			}
			checkShown(t, what, out+errs)
			var players []struct{ Name string }
			db.json(&players, "player", "list", "--json")
			if len(players) != 1 || players[0].Name != tc.name {
				t.Errorf("%s: registered %+v; want %q", what, players, tc.name)
			}
		}
	}
}

// TestRatingArchiveNotes (issue 28): 'otd rating --archive DIR' keeps the
// games of a file with a name otd does not keep (cleaned) or in
// Windows-1252, and counts the notes on standard error in one line with
// where to read them, not one line a note.
func TestRatingArchiveNotes(t *testing.T) {
	dir := t.TempDir()
	elo := "%%Tournament: Club\n%%Date: 21/11/2026\n" +
		"%_% 79, LEADER, Imre, GBR, 1, 40, 0\n%_% 2, \x1b[2J\x1b]0;pwn\x07EVIL, Eve, FRA, 0, 24, 0\n%_% 3, M\xdcLLER, J\xf6rg, DEU, 0, 0, 0\n" +
		"%Round: 1\n79 (40)>(24) 2 B\n"
	if err := os.WriteFile(filepath.Join(dir, "club.ELO"), []byte(elo), 0o644); err != nil {
		t.Fatal(err)
	}
	db := newTestDB(t)
	out, errs, code := db.run("rating", "--archive", dir, "--at", "2026-12-01", "--all")
	want := "otd: note: " + dir + ": 2 notes on 1 .ELO file (names cleaned, files read as Windows-1252; their games kept): 'otd archive index " + dir + "' says each\n"
	if code != 0 || errs != want {
		t.Errorf("rating --archive: exit %d, stderr %q; want %q", code, errs, want)
	}
	if !strings.Contains(out, "[2J]0;PWNEVIL") { // the surname in capitals, as the list writes it
		t.Errorf("rating --archive: the cleaned name is not listed:\n%s", out)
	}
	checkShown(t, "rating --archive", out+errs)
}
