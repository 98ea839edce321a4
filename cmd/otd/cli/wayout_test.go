package cli

import (
	"errors"
	"fmt"
	"testing"

	"github.com/otd-project/otd/tournament"
)

// TestWayOutWorded: the command line words the way out of each domain error
// that carries it as data, as the domain itself said it before it named no
// command (the wanted lines are those messages, letter for letter), where
// the error sits in the message: wrapped, or followed by more.
func TestWayOutWorded(t *testing.T) {
	semi := tournament.Game{FinalRef: tournament.FinalRef{Match: "SF2", Game: 1, Seq: 2}, Black: 4, White: 2}
	final := tournament.Game{FinalRef: tournament.FinalRef{Match: "F", Game: 2, Seq: 3}, Black: 1, White: 4}
	women := tournament.Game{FinalRef: tournament.FinalRef{Category: "women", Match: "F", Game: 1, Seq: 4}, Black: 7, White: 9}
	for _, c := range []struct {
		err  error
		want string
	}{
		{&tournament.NoResultError{Round: 3, Table: 1, Black: 5, White: 2},
			"round 3 table 1 (5-2) has no result: the previous round is not finished; enter it with 'otd result 3 1 B-W'"},
		{&tournament.TooFewPlayersError{Round: 1, Active: 0},
			"round 1: the pairing is not valid: 0 active players; at least 2 are needed (register players with 'otd player add')"},
		{&tournament.ForbiddenPairError{Round: 2, Black: 2, White: 1, Rule: tournament.ForbiddenPair{A: 1, B: 2, Reason: "family"}, Forced: true},
			"forced pair 2-1: the pairing is not valid: the two are forbidden to meet (1-2 forbidden (family)); 'otd pair allow 1 2' lifts that first"},
		{fmt.Errorf("round 2: %w", &tournament.ForbiddenPairError{Round: 2, Black: 3, White: 1, Rule: tournament.ForbiddenPair{A: 1, B: 3}}),
			"round 2: round robin round 2: the table pairs 3-1, but they are forbidden to meet (1-3 forbidden): the pairing is not valid; pair the round with --manual, or 'otd pair allow 1 3'"},
		{&tournament.RoundStartedError{Round: 2, Table: 4},
			"round 2: the round already has results (table 4); undo them first with 'otd undo'"},
		{fmt.Errorf("player 4: %w", &tournament.FinalFactsError{Games: []tournament.Game{semi, final}}),
			"player 4: final games paired rest on what this changes (who qualified, the seeds, a match's outcome): SF2 game 1, F game 2; undo back to before them ('otd undo', 'otd log' lists the changes), or make the change with --rederive, which drops them for 'otd final next' to pair the final phase again"},
		{&tournament.HasGamesError{Player: 1, Name: "Ben", Round: 1},
			"player 1 (Ben): the player has games: round 1, their first, is paired; withdraw them instead ('otd player withdraw 1')"},
		{&tournament.HasGamesError{Player: 3, Name: "Ann", Round: 2, Later: 5},
			"player 3 (Ann): the player has games: player 5, registered after them, is paired in round 2, and removing would renumber them; withdraw 3 instead ('otd player withdraw 3')"},
		{&tournament.AbsenceError{Round: 2, Player: 1, Name: "Ben", Seat: "has the bye", Unpairable: true},
			"round 2 is already paired (player 1, Ben, has the bye): unpair it first with 'otd round unpair', then mark the absence and pair it again"},
		{&tournament.AbsenceError{Round: 2, Player: 4, Name: "Cy", Seat: "plays at table 3", Table: 3, Colour: tournament.White},
			"round 2 is already paired and under way (player 4, Cy, plays at table 3): to record that they did not play, enter a forfeit: 'otd result 2 3 --forfeit white'"},
		{&tournament.AbsenceError{Round: 2, Player: 4, Name: "Cy", Seat: "has the bye"},
			"round 2 is already paired and under way (player 4, Cy, has the bye): an absence is marked before its round is paired"},
		{&tournament.CategoryInUseError{Category: "women", Player: 7, Name: "Eve"},
			`category "women": player 7 (Eve) is entered in it: take them out first ('otd player edit 7 --category ...')`},
		{fmt.Errorf("settings: %w", &tournament.TeamsExcludeError{Category: "youth"}),
			"settings: --teams exclude=youth: no such category (add it first, 'otd category add youth', then set the teams' rules with 'otd tournament edit --teams')"},
		{&tournament.FinalWaitingError{Games: []tournament.Game{final, women}},
			"the final games paired wait for their results: enter them ('otd result F 2 B-W', 'otd result women:F 1 B-W')"},
		{fmt.Errorf("cannot undo entry 9 (result: round 1 table 1 (1 A - 2 B)): %w", &tournament.UndoBreaksError{Err: errors.New("round 2 pairs player 1, who withdrew")}),
			"cannot undo entry 9 (result: round 1 table 1 (1 A - 2 B)): round 2 pairs player 1, who withdrew; unpair the later round first ('otd round unpair'), or correct the result with 'otd result --correct'"},
		{fmt.Errorf("round %d: %w: %w", 0, tournament.ErrNoRound, tournament.ErrNonePaired),
			"round 0: no such round: no round is paired yet; pair round 1 with 'otd round pair'"},
		{fmt.Errorf("category %q: %w", "X", fmt.Errorf("%w: %w", tournament.ErrInvalid, tournament.ErrNoCategory)),
			`category "X": invalid: the tournament has no category ('otd category add NAME' makes one)`},
		{tournament.Invalid(tournament.ErrNoFinal),
			"the tournament has no final phase: set one with 'otd tournament edit --final woc' (or top=2,bestof=3...)"},
		{fmt.Errorf("%s game %d: %w: %w", "SF1", 1, tournament.ErrNoGame, tournament.ErrNoFinalGames),
			"SF1 game 1: no such game: no final game is paired ('otd final start' pairs the first)"},
		{tournament.ErrFinalOver, "every final phase is over ('otd standings --final')"},
		{fmt.Errorf("players %d and %d: %w", 1, 2, tournament.ErrNotForbidden),
			"players 1 and 2: the pair is not forbidden to meet ('otd pair list' shows the pairs that are)"},
		// The way out follows the error it is of, not the whole message.
		{fmt.Errorf("%w, and nothing was saved", &tournament.RoundStartedError{Round: 2, Table: 4}),
			"round 2: the round already has results (table 4); undo them first with 'otd undo', and nothing was saved"},
		{errors.New("round 2: no such round"), "round 2: no such round"},
	} {
		if got := worded(c.err); got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.err, got, c.want)
		}
	}
}
