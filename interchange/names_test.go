package interchange_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/ftd"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/tournament"
)

// evil is issue 28's name: it clears the terminal and retitles it.
const evil = "\x1b[2J\x1b]0;pwn\x07EVIL"

// namedELO is a two-player .ELO file whose second player, on line 4, is
// named last, first.
func namedELO(last, first string) string {
	return "%%Tournament: Club\n%%Date: 21/11/2026\n%_% 79, LEADER, Imre, GBR, 1, 40, 0\n" +
		"%_% 2, " + last + ", " + first + ", FRA, 0, 24, 0\n%Round: 1\n79 (40)>(24) 2 B\n"
}

// TestELOImportNames (issue 28): a name that 'player add' refuses is
// refused at its line, as a name is an identity; with --lenient
// names=clean it is cleaned and noted.
func TestELOImportNames(t *testing.T) {
	for _, tc := range []struct{ name, last, first, err string }{
		{"ESC and BEL", evil, "Eve", `line 4: the name "\x1b[2J\x1b]0;pwn\aEVIL, Eve": character U+001B is a control character`},
		{"10,000 characters", strings.Repeat("A", 10000), "Eve", "line 4: the name \"AAAA"},
		{"10,000 characters, their length", strings.Repeat("A", 10000), "Eve", "longer than 200 characters"},
		{"a bidirectional override", "ARCHER\u202e", "Ann", "character U+202E is a control character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := elo.Read(strings.NewReader(namedELO(tc.last, tc.first)))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = interchange.FromELO(f, tournament.DefaultSettings("", 1))
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, elo.ErrInvalid) {
				t.Fatalf("got %v; want an error wrapping elo.ErrInvalid with %q", err, tc.err)
			}
			tm, notes, err := interchange.FromELOWith(f, tournament.DefaultSettings("", 1), elo.Lenient{Names: "clean"})
			if err != nil {
				t.Fatal(err)
			}
			if name := tm.Players[1].Name; txt.CheckName(name) != nil {
				t.Errorf("names=clean kept %.40q", name)
			}
			if !slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, "line 4: the name") }) {
				t.Errorf("no note of the name cleaned: %q", notes)
			}
		})
	}
}

// TestELOImportEncoding (issue 28): a file in Latin-1 (Papp's joueurs.txt
// is) is read as Windows-1252, noted, and kept as UTF-8; a byte-order
// mark before %%Tournament is left out.
func TestELOImportEncoding(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string
		note             bool
	}{
		{"Latin-1", namedELO("M\xdcLLER", "J\xf6rg"), "MÜLLER, Jörg", true},
		{"Windows-1252", namedELO("\x8aAR\x8aUN", "J\x9ce"), "ŠARŠUN, Jœe", true},
		{"BOM", "\uFEFF" + namedELO("MÜLLER", "Jörg"), "MÜLLER, Jörg", false},
		{"BOM and Latin-1", "\uFEFF" + namedELO("M\xdcLLER", "J\xf6rg"), "MÜLLER, Jörg", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := elo.Read(strings.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			tm, notes, err := interchange.FromELO(f, tournament.DefaultSettings("", 1))
			if err != nil {
				t.Fatal(err)
			}
			if tm.Name != "Club" || tm.Players[1].Name != tc.want {
				t.Errorf("tournament %q, player 2 %q; want Club, %q", tm.Name, tm.Players[1].Name, tc.want)
			}
			if noted := slices.Contains(notes, txt.Windows1252Note); noted != tc.note {
				t.Errorf("notes %q: Windows-1252 noted %t; want %t", notes, noted, tc.note)
			}
			if err := tm.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

// namedFTD is a FlipTheDisc file of two players, the second's surname
// given as JSON text (escapes and all), on line 3.
func namedFTD(surname string) string {
	return "{\"players_list\": [{\"id\": 1, \"surname\": \"LEADER\", \"name\": \"Imre\"},\n" +
		"\n{\"id\": 2, \"surname\": \"" + surname + "\", \"name\": \"Eve\"}],\n" +
		"\"rounds\": [{\"currentRound\": 1, \"pairing\": [[{\"id\": 1, \"score\": 40, \"result\": 2}, {\"id\": 2}]]}]}\n"
}

// TestFTDImportNames (issue 28): a FlipTheDisc file's name that 'player
// add' refuses is refused at its line; a byte-order mark is left out, and
// a file that is not UTF-8 read as Windows-1252, noted.
func TestFTDImportNames(t *testing.T) {
	for _, tc := range []struct{ name, file, want, err string }{
		{"ESC and BEL", namedFTD(`\u001b[2J\u001b]0;pwn\u0007EVIL`), "", `line 3, column 1: players_list[1]: the name "\x1b[2J\x1b]0;pwn\aEVIL, Eve": character U+001B is a control character`},
		{"10,000 characters", namedFTD(strings.Repeat("A", 10000)), "", "line 3, column 1: players_list[1]: the name \"AAAA"},
		{"BOM", "\uFEFF" + namedFTD("MÜLLER"), "MÜLLER, Eve", ""},
		{"Latin-1", namedFTD("M\xdcLLER"), "MÜLLER, Eve", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ftd.Read(strings.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			tm, notes, err := interchange.FromFTD(f, interchange.FTDSettings(f, tournament.DefaultSettings("Club", 1)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ftd.ErrInvalid) {
					t.Fatalf("got %v; want an error wrapping ftd.ErrInvalid with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tm.Players[1].Name != tc.want {
				t.Errorf("player 2 %q; want %q", tm.Players[1].Name, tc.want)
			}
			if noted := slices.Contains(notes, txt.Windows1252Note); noted != (tc.name == "Latin-1") {
				t.Errorf("notes %q: Windows-1252 noted %t", notes, noted)
			}
		})
	}
}
