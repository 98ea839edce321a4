package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
