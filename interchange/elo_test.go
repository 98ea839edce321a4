package interchange_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/tournament"
)

// TestFromELORefuses: a file that contradicts itself, in its games or in
// otd's lines, is refused with elo.ErrInvalid when the tournament is built.
func TestFromELORefuses(t *testing.T) {
	const good = `%%Tournament: Club
%_%  +    1, ONE, Ann, FRA, 2, 72, 0
%_%  +    2, TWO, Bob, FRA, 0, 24, 0
%_%  +    3, THREE, Cy, FRA, 1, 64, 0
% otd: rounds 2
% otd: rules bq=nearest time-default=complete bye-points=1 tiebreaks=points,bq,discs
% otd: player 2 absent 2
%Round: 1
     1 (40)>(24)      2 B
% otd: bye 3
%Round: 2
% otd: forfeit 1 3 white
`
	// papp is a file of another program: no otd lines.
	const papp = `%_%  11, ONE, Ann, FRA, 1, 40, 2000
%_%  22, TWO, Bob, FRA, 0, 24, 1900
%_%  33, SIX, Sam, FRA, 0, 0, 1800
%Round: 1
  11 (40)>(24)   22 B
`
	read := func(s string) (*tournament.Tournament, error) {
		f, err := elo.Read(strings.NewReader(s))
		if err != nil {
			t.Fatalf("%v in\n%s", err, s)
		}
		tm, _, err := interchange.FromELO(f, interchange.ELOSettings(f, tournament.DefaultSettings("", 1)))
		return tm, err
	}
	tm, err := read(good)
	if err != nil {
		t.Fatal(err)
	}
	if g := tm.Round(2); len(g) != 1 || g[0].Result.Kind != tournament.Forfeit || g[0].Result.Black != 32 {
		t.Errorf("round 2: %+v; want the forfeit, 32-32 as recorded", g)
	}
	if _, err := read(papp); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, file, old, new, want string }{
		{"unknown player", good, "player 2 absent", "player 9 absent", "otd line: player id 9 is not in the standings"},
		{"unknown name", good, "% otd: player 2", "% otd: name 9 \"X\"\n% otd: player 2", "otd line: name: player id 9 is not in the standings"},
		{"absent and playing", good, "player 2 absent 2", "player 2 absent 1", "round 1: TWO, Bob has a game but is not in the round"},
		{"absent outside the rounds", good, "player 2 absent 2", "player 2 absent 2,7", "otd line: player TWO, Bob: entry, withdrawal or absences outside rounds 1 to 2"},
		{"bye and game", good, "bye 3", "bye 2", "round 1: player id 2 has a game and the bye"},
		{"bye of no one", good, "bye 3", "bye 8", "round 1: otd line: player id 8 is not in the standings"},
		{"score", good, "FRA, 1, 64", "FRA, 0, 64", "line 4: THREE, Cy: published score 0, but the games and byes give 1"},
		{"game of no one", papp, "   22 B", "   44 B", "line 5: player id 44 is not in the standings"},
		{"plays themselves", papp, "   22 B", "   11 B", "line 5: player id 11 plays against themselves"},
		{"two games", papp, "   22 B\n", "   22 B\n  33 (32)=(32)   22 B\n", "line 6: round 1: player id 22 has another game in the round (line 5)"},
		{"listed twice", papp, "%_%  33, SIX", "%_%  22, SIX", "line 3: player id 22 is listed twice (first on line 2)"},
		{"added game of no one", papp, "   22 B\n", "   22 B\n%%Added results\n  11 (40)>(24)   55 B\n", "line 7: player id 55 is not in the standings"},
	} {
		file := strings.Replace(tc.file, tc.old, tc.new, 1)
		if file == tc.file {
			t.Fatalf("%s: %q is not in the file", tc.name, tc.old)
		}
		_, err := read(file)
		if !errors.Is(err, elo.ErrInvalid) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
}
