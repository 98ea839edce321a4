package cli

import (
	"database/sql"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otd-project/otd/store/sqlite"
)

// TestBadInput runs wrong commands of every group against a small
// tournament (8 players, round 1 played, player 8 withdrawn, round 2 played
// with a bye; 'open': round 3 paired too, without results; 'fresh': no
// player yet) and against random, truncated, foreign (another program's),
// newer (a later schema), empty and missing database files and a folder.
// Each must exit with status 2 (wrong usage, an input file that cannot be
// read) or 1 (refused), print nothing on stdout and one line on stderr naming
// the problem and what to do, and leave the database as it was: the same
// dump, integrity check passed (for any other file, the same bytes).
// doubled returns a part of a message said twice in a row ("0-0: 0-0: ..."), or "".
func doubled(msg string) string {
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if parts[i] == parts[i-1] {
			return parts[i]
		}
	}
	return ""
}

func TestBadInput(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	dir := t.TempDir()
	dbs := map[string]string{}
	club := newTestDB(t)
	club.must("tournament", "new", "Club", "--rounds", "4", "--new-ids", "50000-59999")
	for _, n := range []string{"ONE, Ann", "TWO, Bob", "THREE, Cy", "FOUR, Di", "FIVE, Ed", "SIX, Flo", "SEVEN, Gil", "EIGHT, Hal"} {
		club.must("player", "add", n, "--country", "FR")
	}
	club.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4", "--force", "5-6", "--force", "7-8")
	for _, r := range [][]string{{"1", "1", "40-24"}, {"1", "2", "30-34"}, {"1", "3", "32-32"}, {"1", "4", "50-14"}} {
		club.must(append([]string{"result"}, r...)...)
	}
	club.must("player", "withdraw", "8")
	club.must("round", "pair", "--manual", "--force", "4-1", "--force", "2-3", "--force", "6-5", "--bye", "7")
	for _, r := range [][]string{{"2", "1", "33-31"}, {"2", "2", "20-44"}, {"2", "3", "64-0"}} {
		club.must(append([]string{"result"}, r...)...)
	}
	dbs[""] = club.path
	fixture, err := os.ReadFile(club.path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(club.path + "-wal"); err == nil {
		t.Fatal("the database has a WAL file after its last command")
	}
	fresh := newTestDB(t)
	fresh.must("tournament", "new", "Fresh", "--rounds", "3")
	dbs["fresh"] = fresh.path
	open := newTestDB(t)
	write(t, open.path, fixture)
	open.must("round", "pair")
	dbs["open"] = open.path

	// Damaged and foreign files.
	junk := make([]byte, 8192)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range junk {
		junk[i] = byte(rng.Uint32())
	}
	dbs["random"] = write(t, filepath.Join(dir, "random.db"), junk)
	dbs["truncated"] = write(t, filepath.Join(dir, "truncated.db"), fixture[:len(fixture)/2])
	dbs["newer"] = write(t, filepath.Join(dir, "newer.db"), fixture)
	dbs["foreign"] = filepath.Join(dir, "foreign.db")
	sqlExec(t, dbs["newer"], "PRAGMA user_version = 99")
	sqlExec(t, dbs["foreign"], "CREATE TABLE cat (name TEXT); INSERT INTO cat VALUES ('Tom')")
	dbs["missing"] = filepath.Join(dir, "missing.db")
	dbs["empty"] = write(t, filepath.Join(dir, "empty.db"), nil)
	dbs["folder"] = dir

	// Input files.
	goodELO := "%_% 11, ONE, Ann, FRA, 1, 40, 2000\n%_% 22, TWO, Bob, FRA, 0, 24, 1900\n%Round: 1\n11 (40)>(24) 22 B\n"
	elo := write(t, filepath.Join(dir, "good.ELO"), []byte(goodELO))
	badELO := write(t, filepath.Join(dir, "bad.ELO"), []byte(strings.Replace(goodELO, ">", "<", 1)))
	csv4 := write(t, filepath.Join(dir, "four.csv"), []byte("name,rating,country\nNEW, Ned,1800,FR,extra\n"))
	csvRating := write(t, filepath.Join(dir, "rating.csv"), []byte("\"NEW, Ned\",high,FR\n"))
	csvName := write(t, filepath.Join(dir, "name.csv"), []byte("\"NEW, Ned\",1800,FR\n\"\",1700,FR\n"))
	game := write(t, filepath.Join(dir, "game.txt"), []byte("f5d6c3\n"))
	nowhere := filepath.Join(dir, "no", "such", "folder", "out.ELO")

	for _, tc := range []struct {
		name string
		db   string // a key of dbs
		args []string
		code int
		want []string // the problem, and what to do
	}{
		// tournament
		{"tournament new without a name", "", []string{"tournament", "new"}, 2, []string{"accepts 1 arg(s), received 0", "see 'otd tournament new --help'"}},
		{"tournament new without rounds", "", []string{"tournament", "new", "X"}, 2, []string{`--rounds N: how many rounds (or --preset woc, 13)`, "see 'otd tournament new --help'"}},
		{"tournament new 0 rounds", "", []string{"tournament", "new", "X", "--rounds", "0"}, 2, []string{"--rounds 0: a tournament has 1 to 99 rounds", "--help"}},
		{"tournament new rounds not a number", "", []string{"tournament", "new", "X", "--rounds", "abc"}, 2, []string{`--rounds "abc": not a whole number`, "--help"}},
		{"tournament new unknown bq", "", []string{"tournament", "new", "X", "--rounds", "5", "--bq", "foo"}, 2, []string{`bq "foo"`, "want nearest, wof, exact or a whole number 0 to 64"}},
		{"tournament new bye points", "", []string{"tournament", "new", "X", "--rounds", "5", "--bye-points", "2"}, 2, []string{`--bye-points 2: a bye is worth 1 or 0.5 points`, "--help"}},
		{"tournament use missing tournament", "", []string{"tournament", "use", "9"}, 1, []string{"tournament 9: no tournament", "'otd tournament list' shows them"}},
		{"tournament use not a number", "", []string{"tournament", "use", "x"}, 2, []string{`not "x"`, "ID is a number from 'otd tournament list'"}},
		{"tournament show extra argument", "", []string{"tournament", "show", "extra"}, 2, []string{`unknown command "extra" for "otd tournament show"`, "see 'otd tournament show --help'"}},
		// player
		{"player add empty name", "", []string{"player", "add", " "}, 2, []string{"a player needs a name", "see 'otd player add --help'"}},
		{"player add rating", "", []string{"player", "add", "X", "--rating", "5000"}, 2, []string{"rating 5000", "a rating is 0 (none) to 4000"}},
		{"player add rating not a number", "", []string{"player", "add", "X", "--rating", "high"}, 2, []string{`--rating "high": not a whole number`, "--help"}},
		{"player add country", "", []string{"player", "add", "X", "--country", "FRANCE"}, 2, []string{`country "FRANCE"`, "a 2- or 3-letter code such as FR or GBR"}},
		{"player edit unknown player", "", []string{"player", "edit", "9", "--name", "X"}, 1, []string{"player 9: no such player", "players are numbered 1 to 8"}},
		{"player edit nothing", "", []string{"player", "edit", "1"}, 2, []string{"nothing to change", "give --name, --rating, --country, --wof-id, --engine, --team, --born or --category"}},
		{"player withdraw twice", "", []string{"player", "withdraw", "8"}, 1, []string{"player 8 (EIGHT, Hal): the player has withdrawn before round 2", "already: nothing to do"}},
		{"player withdraw not a number", "", []string{"player", "withdraw", "x"}, 2, []string{`not "x"`, "NUMBER is a player's number (see 'otd player list')"}},
		{"player absent paired round", "", []string{"player", "absent", "1", "--round", "2"}, 1, []string{"round 2 is already paired and under way", "enter a forfeit: 'otd result 2 1 --forfeit white'"}},
		{"player absent without round", "", []string{"player", "absent", "1"}, 2, []string{`required flag(s) "round" not set`, "see 'otd player absent --help'"}},
		{"player absent withdrawn", "", []string{"player", "absent", "8", "--round", "3"}, 1, []string{"player 8 (EIGHT, Hal): the player has withdrawn before round 2", "a withdrawn player is not paired"}},
		{"player absent unknown round", "", []string{"player", "absent", "1", "--round", "9"}, 1, []string{"round 9: no such round", "the tournament has 4 rounds"}},
		{"player import missing file", "", []string{"player", "import", filepath.Join(dir, "none.csv")}, 2, []string{"none.csv: no such file or directory"}},
		{"player import columns", "", []string{"player", "import", csv4}, 2, []string{"four.csv: line 2: 5 columns", "expected name, rating, country"}},
		{"player import rating", "", []string{"player", "import", csvRating}, 2, []string{`rating.csv: line 1: rating "high" is not a whole number`}},
		{"player import no name", "", []string{"player", "import", csvName}, 2, []string{"name.csv: line 2: a player needs a name", "--help"}},
		// round
		{"round pair withdrawn player", "", []string{"round", "pair", "--force", "1-8"}, 1, []string{"player 8 (EIGHT, Hal) has withdrawn before round 3", "cannot be in the forced pair 1-8"}},
		{"round pair second bye", "", []string{"round", "pair", "--bye", "7"}, 1, []string{"player 7 (SEVEN, Gil) already had the bye in round 2", "a player gets one bye at most"}},
		{"round pair player forced twice", "", []string{"round", "pair", "--force", "1-2", "--force", "3-1"}, 1, []string{"player 1 (ONE, Ann) is named twice", "in the forced pair 1-2 and in the forced pair 3-1"}},
		{"round pair against oneself", "", []string{"round", "pair", "--force", "2-2"}, 1, []string{"forced pair 2-2", "a player cannot play themself"}},
		{"round pair unknown player", "", []string{"round", "pair", "--force", "1-99"}, 1, []string{"player 99: no such player", "players are numbered 1 to 8"}},
		{"round pair not a pair", "", []string{"round", "pair", "--force", "1-x"}, 2, []string{`--force "1-x"`, "expected two player numbers such as 3-7"}},
		{"round pair manual incomplete", "", []string{"round", "pair", "--manual", "--force", "1-2"}, 1, []string{"leave players [3 4 5 6 7] unpaired", "--manual pairs only the forced pairs and the bye"}},
		{"round pair forced and forbidden", "", []string{"round", "pair", "--force", "1-2", "--forbid", "2-1"}, 1, []string{"pair 2-1 is both forced and forbidden"}},
		{"round pair round not finished", "open", []string{"round", "pair"}, 1, []string{"round 3 table 1", "has no result", "enter it with 'otd result 3 1 B-W'"}},
		{"round show before any pairing", "fresh", []string{"round", "show"}, 1, []string{"round 0: no such round: no round is paired yet", "pair round 1 with 'otd round pair'"}},
		{"round pair without players", "fresh", []string{"round", "pair"}, 1, []string{"0 active players; at least 2 are needed", "register players with 'otd player add'"}},
		{"result before any pairing", "fresh", []string{"result", "1", "1", "40-24"}, 1, []string{"round 1: no such round: no round is paired yet", "pair round 1 with 'otd round pair'"}},
		{"round show unknown round", "", []string{"round", "show", "9"}, 1, []string{"round 9: no such round", "rounds 1 to 2 are paired"}},
		{"round show not a number", "", []string{"round", "show", "x"}, 2, []string{`R is a round number, not "x"`}},
		{"round unpair with results", "", []string{"round", "unpair"}, 1, []string{"round 2: the round already has results", "undo them first with 'otd undo'"}},
		{"round check unknown round", "", []string{"round", "check", "3"}, 1, []string{"round 3: no such round", "rounds 1 to 2 are paired"}},
		// result
		{"result unknown table", "", []string{"result", "1", "9", "40-24"}, 1, []string{"round 1 table 9: no such game", "the round has tables 1 to 4"}},
		{"result round not paired", "", []string{"result", "3", "1", "40-24"}, 1, []string{"round 3: no such round", "rounds 1 to 2 are paired"}},
		{"result twice", "", []string{"result", "1", "1", "41-23"}, 1, []string{"the game already has a result (40-24)", "to change it, add --correct"}},
		{"result of a bye", "", []string{"result", "2", "4", "40-24"}, 1, []string{"round 2 table 4 is player 7's bye", "it needs no result"}},
		{"result 65-0: impossible, exit 1 as 0-0", "", []string{"result", "1", "1", "65-0", "--correct"}, 1, []string{"round 1 table 1: 65-0: impossible disc count (each 0 to 64, together 1 to 64)"}},
		{"result 0-0 said once", "", []string{"result", "1", "1", "0-0", "--correct"}, 1, []string{"round 1 table 1: 0-0: impossible disc count"}},
		{"player add unquoted name", "", []string{"player", "add", "Ann", "Archer"}, 2, []string{`accepts 1 arg(s), received 2: a name with spaces goes in quotes, e.g. otd player add "Ann Archer"`}},
		{"player add bad rating", "", []string{"player", "add", "Ann", "--rating", "-5"}, 2, []string{"rating -5: a rating is 0 (none) to 4000; see"}},
		{"tournament new bad bq", "", []string{"tournament", "new", "Y", "--rounds", "3", "--bq", "zz"}, 2, []string{`bq "zz": want nearest, wof, exact or a whole number 0 to 64; see`}},
		{"result 40-40: impossible, exit 1 as 0-0", "", []string{"result", "1", "1", "40-40", "--correct"}, 1, []string{"round 1 table 1: 40-40: impossible disc count"}},
		{"result not numbers", "", []string{"result", "1", "1", "forty-24", "--correct"}, 2, []string{`"forty-24"`, "a score is black discs, a dash, white discs (e.g. 40-24)"}},
		{"result round not a number", "", []string{"result", "one", "1", "40-24"}, 2, []string{`ROUND is a round number, or a final match's code (SF1, F, women:F), not "one"`}},
		{"result without score", "", []string{"result", "1", "1"}, 2, []string{"give the score B-W", "'otd result 1 1 40-24'"}},
		{"result colour", "", []string{"result", "1", "1", "40-24", "--correct", "--time-default", "purple"}, 2, []string{`--time-default is black or white, not "purple"`}},
		{"result default and forfeit", "", []string{"result", "1", "1", "40-24", "--correct", "--forfeit", "black", "--time-default", "white"}, 2, []string{"a time default or by a forfeit, not both"}},
		{"result forfeit with a score", "", []string{"result", "1", "1", "40-24", "--correct", "--forfeit", "black"}, 2, []string{"a forfeit has no score, the game was not played", "drop 40-24 ('otd result 1 1 --forfeit black')"}},
		{"result undo after the next pairing", "open", []string{"result", "undo"}, 1, []string{"nothing to undo of that kind: the last change is entry", "(round pair: round 3); 'otd undo' reverts it"}},
		{"result undo extra argument", "", []string{"result", "undo", "now"}, 2, []string{`unknown command "now" for "otd result undo"`, "see 'otd result undo --help'"}},
		// standings, crosstable, log
		{"standings unknown round", "", []string{"standings", "--round", "9"}, 2, []string{"standings --round 9: no such round", "give 1 to 4"}},
		{"standings round not paired", "", []string{"standings", "--round", "3"}, 1, []string{"round 3: no such round", "rounds 1 to 2 are paired"}},
		{"crosstable round not paired", "", []string{"crosstable", "--round", "4"}, 1, []string{"round 4: no such round", "rounds 1 to 2 are paired"}},
		{"standings json and csv", "", []string{"standings", "--json", "--csv"}, 2, []string{"--json or --csv, not both"}},
		{"standings round not a number", "", []string{"standings", "--round", "x"}, 2, []string{`--round "x": not a whole number`, "see 'otd standings --help'"}},
		{"crosstable unknown round", "", []string{"crosstable", "--round", "9"}, 2, []string{"crosstable --round 9: no such round", "give 1 to 4"}},
		{"crosstable extra argument", "", []string{"crosstable", "all"}, 2, []string{`unknown command "all" for "otd crosstable"`, "see 'otd crosstable --help'"}},
		{"log unknown flag", "", []string{"log", "--all"}, 2, []string{"unknown flag: --all", "see 'otd log --help'"}},
		// import, export
		{"import missing file", "", []string{"import", "elo", filepath.Join(dir, "none.ELO")}, 2, []string{"none.ELO: no such file or directory"}},
		{"import malformed file", "", []string{"import", "elo", badELO}, 2, []string{"bad.ELO: line 4: the discs do not match the sign between them", "not a valid .ELO file"}},
		{"import unknown bq", "", []string{"import", "elo", elo, "--bq", "papp"}, 2, []string{`bq "papp"`, "want nearest, wof, exact or a whole number 0 to 64"}},
		{"import without file", "", []string{"import", "elo"}, 2, []string{"accepts 1 arg(s), received 0", "see 'otd import elo --help'"}},
		{"export to a missing folder", "", []string{"export", "elo", nowhere}, 1, []string{"cannot write " + nowhere + ": no such file or directory", "name a file in an existing folder"}},
		{"export unknown format", "", []string{"export", "pdf", "out.pdf"}, 2, []string{`unknown command "pdf" for "otd export"`, "see 'otd export --help'"}},
		{"import unknown format", "", []string{"import", "csv", "in.csv"}, 2, []string{`unknown command "csv" for "otd import"`, "see 'otd import --help'"}},
		{"round unknown subcommand", "", []string{"round", "swap", "1", "2"}, 2, []string{`unknown command "swap" for "otd round"`, "see 'otd round --help'"}},
		// verify, perft, demo, version, otd itself
		{"verify unknown format", "", []string{"verify", "--format", "png", game}, 2, []string{"unknown format"}},
		{"verify missing file", "", []string{"verify", filepath.Join(dir, "none.txt")}, 2, []string{"none.txt: no such file or directory"}},
		{"perft depth", "", []string{"perft", "99"}, 2, []string{"DEPTH must be a whole number from 0 to 20, not \"99\""}},
		{"demo one player", "", []string{"demo", "--players", "1"}, 2, []string{"--players 2 to 8 (19 with --championship, 1000 with --simulated) and --rounds 1 to 99", "see 'otd demo --help'"}},
		{"demo championship simulated", "", []string{"demo", "--championship", "--simulated"}, 2, []string{"--championship is played by engines: leave out --simulated", "see 'otd demo --help'"}},
		{"demo rounds not a number", "", []string{"demo", "--rounds", "x"}, 2, []string{`--rounds "x": not a whole number`, "see 'otd demo --help'"}},
		{"version extra argument", "", []string{"version", "2"}, 2, []string{`unknown command "2" for "otd version"`}},
		{"unknown command", "", []string{"frobnicate"}, 2, []string{`unknown command "frobnicate" for "otd"`, "see 'otd --help'"}},
		{"unknown flag", "", []string{"--colour"}, 2, []string{"unknown flag: --colour", "see 'otd --help'"}},
		// database files
		{"random bytes: standings", "random", []string{"standings"}, 1, []string{"random.db: not an SQLite database", "name an otd database with --db"}},
		{"random bytes: player add", "random", []string{"player", "add", "X"}, 1, []string{"random.db: not an SQLite database", "name an otd database with --db"}},
		{"random bytes: tournament new", "random", []string{"tournament", "new", "X", "--rounds", "3"}, 1, []string{"random.db: not an SQLite database", "name an otd database with --db"}},
		{"truncated: standings", "truncated", []string{"standings"}, 1, []string{"truncated.db: the database file is damaged", "otd restore FILE"}},
		{"truncated: result", "truncated", []string{"result", "1", "1", "33-31", "--correct"}, 1, []string{"truncated.db: the database file is damaged", "otd restore FILE"}},
		{"truncated: tournament new", "truncated", []string{"tournament", "new", "X", "--rounds", "3"}, 1, []string{"truncated.db: the database file is damaged", "otd restore FILE"}},
		{"foreign: player list", "foreign", []string{"player", "list"}, 1, []string{"foreign.db: not an otd database", "name an otd database with --db"}},
		{"foreign: tournament new", "foreign", []string{"tournament", "new", "X", "--rounds", "3"}, 1, []string{"foreign.db: not an otd database", "name an otd database with --db"}},
		{"foreign: import", "foreign", []string{"import", "elo", elo}, 1, []string{"foreign.db: not an otd database", "name an otd database with --db"}},
		{"newer: standings", "newer", []string{"standings"}, 1, []string{"newer.db: the database was written by a newer otd (schema 99; this otd knows up to 19)", "upgrade otd"}},
		{"newer: result", "newer", []string{"result", "1", "1", "33-31", "--correct"}, 1, []string{"written by a newer otd", "upgrade otd"}},
		{"missing: standings", "missing", []string{"standings"}, 1, []string{"missing.db: no database", "create a tournament first ('otd tournament new NAME --rounds N') or name the database with --db"}},
		{"missing: player add", "missing", []string{"player", "add", "X"}, 1, []string{"missing.db: no database", "create a tournament first"}},
		{"empty file: standings", "empty", []string{"standings"}, 1, []string{"empty.db: no database", "create a tournament first"}},
		{"folder: player list", "folder", []string{"player", "list"}, 1, []string{"cannot open the database file", "name a database file that you may read and write with --db"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := dbs[tc.db]
			before := snapshot(t, path)
			db := &testDB{t: t, path: path}
			stdout, stderr, code := db.run(tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d", code, tc.code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.HasPrefix(stderr, "otd: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
				t.Errorf("stderr %q, want one line 'otd: ...'", stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			// The message says what is wrong once, without a sentinel's
			// words tacked on (issue 8, item 13).
			for _, stray := range []string{": invalid;", ": invalid syntax", ": invalid option"} {
				if strings.Contains(stderr+";", stray) {
					t.Errorf("stderr %q has a stray %q", stderr, stray)
				}
			}
			if m := doubled(stderr); m != "" {
				t.Errorf("stderr %q says %q twice", stderr, m)
			}
			if after := snapshot(t, path); after != before {
				t.Errorf("the database changed:\nbefore:\n%.2000s\nafter:\n%.2000s", before, after)
			}
		})
	}
}

// snapshot returns what a database holds: the store's dump of an otd
// database that passes the integrity check, the bytes of any other file.
func snapshot(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error() // no file, or a folder
	}
	s, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		return "bytes: " + string(b)
	}
	defer s.Close()
	if err := s.IntegrityCheck(); err != nil {
		return "bytes: " + string(b)
	}
	var dump strings.Builder
	if err := s.Dump(&dump); err != nil {
		t.Fatal(err)
	}
	return dump.String()
}

func write(t *testing.T, path string, b []byte) string {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sqlExec runs SQL on a database file as another program would.
func sqlExec(t *testing.T, path, query string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(query); err != nil {
		t.Fatal(err)
	}
}

// TestUnknownCommandSuggests: a mistyped command, at any level, is one
// clean line naming what was meant (no tab, no stray ';').
func TestUnknownCommandSuggests(t *testing.T) {
	d := newTestDB(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"standing"}, `otd: unknown command "standing" for "otd" (did you mean 'otd standings'?); see 'otd --help'` + "\n"},
		{[]string{"round", "pari"}, `otd: unknown command "pari" for "otd round" (did you mean 'otd round pair'?); see 'otd round --help'` + "\n"},
		{[]string{"tournament", "shwo"}, `otd: unknown command "shwo" for "otd tournament" (did you mean 'otd tournament show'?); see 'otd tournament --help'` + "\n"},
		{[]string{"frobnicate"}, `otd: unknown command "frobnicate" for "otd"; see 'otd --help'` + "\n"},
	} {
		_, errs, code := d.run(tc.args...)
		if code != exitUsage || errs != tc.want {
			t.Errorf("otd %s: exit %d, %q; want exit 2, %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
}
