package interchange_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/rating"
)

// TestListReading reads one hand-made file of each kind of contradiction
// (testdata/list-reading) as the rating list does (archive.ListReading,
// RULES.md section 8): every game counts, each contradiction is set aside
// with its line, and only a game that cannot be attributed (or against
// oneself) is dropped, never the file; read strictly, as 'otd import elo'
// does, the file is refused for that line. The days are the file's
// %%Date. The games are those of each file,
// read by hand.
func TestListReading(t *testing.T) {
	type g = archive.Game
	win := func(round, black, white, bd, wd int) g {
		return g{Round: round, Black: black, White: white, HasDiscs: true, BlackDiscs: bd, WhiteDiscs: wd, Result: rating.Win}
	}
	for _, c := range []struct {
		file  string
		games []archive.Game
		// setAside: the one contradiction set aside, its start (the line)
		// and a part of it; strict: a part of the strict reading's refusal.
		line, setAside, strict string
		// day: the tournament's first and last day, as read.
		day string
	}{
		// "1 (30)>(34) 2": the sign says black won; the discs are not kept.
		{"sign.ELO", []g{{Round: 1, Black: 1, White: 2, Result: rating.Win}},
			"line 7: ", "the discs (30)-(34) do not match the sign", "line 7: the discs do not match the sign", "2024-12-01"},
		// Player 1 twice in round 1: both games count, the second lost to 3
		// (20-44) moved to a round 2 of its own.
		{"twice.ELO", []g{win(1, 1, 2, 40, 24), {Round: 2, Black: 1, White: 3, HasDiscs: true, BlackDiscs: 20, WhiteDiscs: 44, Result: rating.Loss}},
			"line 9: ", "round 1: player id 1 has another game in the round (line 8)", "line 9: round 1: player id 1 has another game", "2024-12-01"},
		// ARCHER's published 50 discs; the game gives 40.
		{"discs.ELO", []g{win(1, 1, 2, 40, 24)},
			"line 4: ", "ARCHER, Ann: published disc total 50, but the games and byes give 40", "line 4: ARCHER, Ann: published disc total 50", "2024-12-01"},
		// BOND's published 2 points; the game gives 0.
		{"score.ELO", []g{win(1, 1, 2, 40, 24)},
			"line 4: ", "BOND, Bea: published score 2, but the games and byes give 0", "line 4: BOND, Bea: published score 2", "2024-12-01"},
		// ARCHER listed on lines 4 and 6: the first counts.
		{"listed.ELO", []g{win(1, 1, 2, 40, 24)},
			"line 6: ", "player id 1 is listed twice: the first line (4) counts", "line 6: player id 1 is listed twice", "2024-12-01"},
		// "3 (33)>(31) 3": dropped; the other game counts.
		{"self.ELO", []g{win(1, 1, 2, 40, 24)},
			"line 9: ", "player id 3 plays against themselves: the game is dropped", "line 9: player id 3 plays against themselves", "2024-12-01"},
		// ARCHER against ??????, where two players have no id: dropped.
		{"unknown.ELO", []g{win(1, 2, 3, 33, 31)},
			"line 11: ", "a game of ??????, but 2 players have no id (lines 6 7): which one played cannot be told: the game is dropped", "line 11: a game of ??????", "2024-12-01"},
		// Player 2 plays, but is not in the standings: added from the game.
		{"unlisted.ELO", []g{win(1, 1, 2, 40, 24)},
			"line 6: ", "player id 2 is not in the standings: added from the games", "line 6: player id 2 is not in the standings", "2024-12-01"},
		// "02/12/2024 - 01/12/2024": the last day before the first; the
		// tournament is dated 2 December alone.
		{"dates.ELO", []g{win(1, 1, 2, 40, 24)},
			"line 2: ", `%%Date: "02/12/2024 - 01/12/2024": the last day is before the first: the tournament is dated by its first day alone, 02/12/2024`,
			`%%Date: "02/12/2024 - 01/12/2024": the last day is before the first`, "2024-12-02"},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "list-reading", c.file))
			if err != nil {
				t.Fatal(err)
			}
			tm, err := archive.ReadELO(c.file, data, archive.ListReading, interchange.ArchiveGames)
			if err != nil {
				t.Fatalf("read as the list does: %v", err)
			}
			if start, end := tm.Start.Format(time.DateOnly), tm.End.Format(time.DateOnly); start != c.day || end != c.day {
				t.Errorf("days %s to %s, want %s", start, end, c.day)
			}
			if !slices.Equal(tm.Games, c.games) {
				t.Errorf("games %+v, want %+v", tm.Games, c.games)
			}
			if len(tm.SetAside) != 1 || !strings.HasPrefix(tm.SetAside[0], c.line) || !strings.Contains(tm.SetAside[0], c.setAside) {
				t.Errorf("set aside %q, want one contradiction, %q...%q", tm.SetAside, c.line, c.setAside)
			}
			_, err = archive.ReadELO(c.file, data, archive.Reading{}, interchange.ArchiveGames)
			if err == nil || !strings.Contains(err.Error(), c.strict) {
				t.Errorf("read strictly: %v, want the file refused: %q", err, c.strict)
			}
		})
	}
}
