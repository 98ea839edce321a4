package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otd-project/otd/tournament"
)

// TestPlayerDuplicateName: a name that a registered player has, case,
// spacing and accents aside, is refused by player add, edit and import
// (wrong usage, exit 2), naming that player and what to do; --allow-duplicate
// registers two people of one name (issue 21, item 2).
func TestPlayerDuplicateName(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Open", "--rounds", "5")
	for _, n := range []string{"Leader, Imre", "Müller, Jörg", "Dupont, Marie"} {
		db.must("player", "add", n)
	}
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	registered := file("registered.csv", "name;rating\nNew, One;1500\nMULLER,  Jorg;1800\n")
	twice := file("twice.csv", "name;rating\nŻak, Tomasz;1500\nZak, Tomasz;1400\n")
	for _, tc := range []struct {
		args []string
		code int
		out  string // stdout, or the start of stderr's line after "otd: "
	}{
		{[]string{"player", "add", "Dupont, Marie"}, 2, `name "Dupont, Marie": player 3 (Dupont, Marie) has it already; if it is the same person, they are registered already; two people of one name: tell them apart (a club or city after the name), or add --allow-duplicate`},
		{[]string{"player", "add", "DUPONT,  Marie"}, 2, `name "DUPONT, Marie": player 3 (Dupont, Marie) has it already, case, spacing and accents aside;`},
		{[]string{"player", "add", "Muller, Jorg", "--rating", "1800"}, 2, `name "Muller, Jorg": player 2 (Müller, Jörg) has it already, case, spacing and accents aside;`},
		{[]string{"player", "edit", "1", "--name", "dupont, marie"}, 2, `name "dupont, marie": player 3 (Dupont, Marie) has it already, case, spacing and accents aside;`},
		{[]string{"player", "import", registered}, 2, registered + `: line 3: "MULLER, Jorg" is already registered as player 2, as "Müller, Jörg" (duplicate name): delete the line`},
		{[]string{"player", "import", twice}, 2, twice + `: line 3: "Zak, Tomasz" is on line 2 too, as "Żak, Tomasz" (duplicate name): delete one of the two lines, or tell the two players apart (a club or city after the name); two people of one name: import with --allow-duplicate`},
		// Nothing was registered: the next number is 4.
		{[]string{"player", "add", "Dupont, Marie", "--allow-duplicate"}, 0, "4\n"},
		{[]string{"player", "edit", "1", "--name", "MÜLLER, Jörg", "--allow-duplicate"}, 0, "Player 1 MÜLLER, Jörg\n"},
		{[]string{"player", "edit", "4", "--rating", "1500"}, 0, "Player 4 Dupont, Marie, 1500\n"},
		{[]string{"player", "import", registered, "--allow-duplicate"}, 0, "Registered 2 players, numbers 5 to 6."},
		{[]string{"player", "import", twice, "--allow-duplicate"}, 0, "Registered 2 players, numbers 7 to 8."},
	} {
		out, errs, code := db.run(tc.args...)
		got := out
		if tc.code != 0 {
			got = strings.TrimPrefix(errs, "otd: ")
		}
		if code != tc.code || !strings.Contains(got, tc.out) || tc.code != 0 && !strings.HasPrefix(got, tc.out) {
			t.Errorf("otd %s: exit %d, %q%q; want exit %d, %q", strings.Join(tc.args, " "), code, out, errs, tc.code, tc.out)
		}
	}
}

// TestPlayerRemoveRenumbers: player remove says who moved up a number, one
// player or several, in words that fit (issue 21, item 10: "Players 25 to 25
// are now numbered 24 to 24").
func TestPlayerRemoveRenumbers(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Open", "--rounds", "5")
	for _, n := range []string{"Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"} {
		db.must("player", "add", n)
	}
	for _, tc := range []struct{ n, want string }{
		{"7", "Removed player 7 (Gus).\n"}, // the last: nobody moves
		{"5", "Removed player 5 (Eve). Player 6 (Fay) is now player 5.\n"},
		{"3", "Removed player 3 (Cat). Players 4 and 5 are now numbered 3 and 4.\n"}, // Dan, Fay
		{"1", "Removed player 1 (Ann). Players 2 to 4 are now numbered 1 to 3.\n"},   // Ben, Dan, Fay
	} {
		if got := db.must("player", "remove", tc.n); got != tc.want {
			t.Errorf("player remove %s: %q; want %q", tc.n, got, tc.want)
		}
	}
}

// ptr is a pointer to v: a flag given, in an edit.
func ptr[T any](v T) *T { return &v }

func TestPlayerEditFlags(t *testing.T) {
	type o = playerEditOptions
	type e = tournament.PlayerEdit
	type entry = tournament.PlayerEntry
	checkFlags(t, newPlayerEditCmd, []flagCase[o]{
		// The country is the tournament's to write as GBR.
		{args: []string{"player", "edit", "12", "--name", "SMITH, Ben", "--country", "GB", "--wof-id", "2357"},
			want: o{Number: 12, Edit: e{Name: ptr("SMITH, Ben"), Country: ptr("GB"), WOFID: ptr(2357)}}},
		{args: []string{"player", "edit", "4", "--rating", "0", "--name", "Dupont, Marie", "--allow-duplicate"},
			want: o{Number: 4, Edit: e{Name: ptr("Dupont, Marie"), Rating: ptr(0), AllowDuplicate: true}}},
		// The engine is started by the run, not by reading the flags.
		{args: []string{"player", "edit", "3", "--engine", "gtp:/nonexistent/gtp-rhino -l 3"},
			want: o{Number: 3, Edit: e{Engine: ptr("gtp:/nonexistent/gtp-rhino -l 3")}}},
		{args: []string{"player", "edit", "3", "--engine", "", "--no-check"}, want: o{Number: 3, Edit: e{Engine: ptr("")}, NoCheck: true}},
		{args: []string{"player", "edit", "7", "--category", "women,youth", "--born", "2011", "--team", "-"},
			want: o{Number: 7, Entry: entry{Team: ptr("-"), Born: ptr(tournament.BornIn(2011)), Categories: ptr([]string{"women", "youth"})}}},
		{args: []string{"player", "edit", "7"}, code: exitUsage, err: "player edit: nothing to change: give --name, --rating, --country, --wof-id, --engine, --team, --born or --category"},
		{args: []string{"player", "edit", "7", "--allow-duplicate"}, code: exitUsage, err: "player edit: nothing to change"},
		{args: []string{"player", "edit", "0", "--rating", "2000"}, code: exitUsage, err: `player edit: NUMBER is a player's number (see 'otd player list'), not "0"`},
		{args: []string{"player", "edit", "7", "--born", "late"}, code: exitUsage, err: `player edit: --born: born "late": not a year: give a year (2009) or a date (2009-05-01)`},
		{args: []string{"player", "edit", "7", "--born", "0"}, want: o{Number: 7, Entry: entry{Born: ptr(tournament.Born{})}}},
	})
}

func TestPlayerImportFlags(t *testing.T) {
	type o = playerImportOptions
	day := func(s string) tournament.Date {
		d, err := tournament.ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	checkFlags(t, newPlayerImportCmd, []flagCase[o]{
		{args: []string{"player", "import", "players.csv"}, want: o{File: "players.csv"}},
		{args: []string{"player", "import", "players.csv", "--allow-duplicate"}, want: o{File: "players.csv", AllowDuplicate: true}},
		{args: []string{"player", "import", "--ratings", "archive.db", "79", "2357,4120"},
			want: o{List: listFlags{Ratings: "archive.db"}, Args: []string{"79", "2357,4120"}}},
		// No id: the ratings of the players registered, from the list.
		{args: []string{"player", "import", "--ratings", "wof-archive", "--at", "2026-05-01", "--min-part", "5"},
			want: o{List: listFlags{Ratings: "wof-archive", At: day("2026-05-01"), MinPart: 5}, Args: []string{}}},
		{args: []string{"player", "import"}, code: exitUsage, err: "player import: name one players file (or give --ratings LIST and WOF ids)"},
		{args: []string{"player", "import", "a.csv", "b.csv"}, code: exitUsage, err: "player import: name one players file"},
		{args: []string{"player", "import", "a.csv", "--at", "2026-05-01"}, code: exitUsage, err: "player import: --at and --min-part go with --ratings"},
		{args: []string{"player", "import", "--ratings", "list.csv", "--min-part", "1"}, code: exitUsage, err: "a rated part has at least 2 players"},
		{args: []string{"player", "import", "--ratings", "list.csv", "--at", "May"}, code: exitUsage, err: `"May"`},
	})
}
