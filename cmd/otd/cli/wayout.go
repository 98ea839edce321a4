package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

// worded is err's text with the way out of a domain error that it wraps
// said in command words, where the domain's text of that error sits (the
// domain says the problem and carries its data; it names no command).
func worded(err error) string {
	msg := err.Error()
	domain, text := wayOut(err)
	if domain == nil {
		return msg
	}
	old := domain.Error()
	i := strings.LastIndex(msg, old)
	if i < 0 {
		return msg
	}
	return msg[:i] + text + msg[i+len(old):]
}

// wayOut returns the domain error in err that the command line knows a way
// out of, and its text with that way out; nil if none.
func wayOut(err error) (error, string) {
	var (
		noResult  *tournament.NoResultError
		tooFew    *tournament.TooFewPlayersError
		forbidden *tournament.ForbiddenPairError
		started   *tournament.RoundStartedError
		facts     *tournament.FinalFactsError
		hasGames  *tournament.HasGamesError
		absence   *tournament.AbsenceError
		inUse     *tournament.CategoryInUseError
		exclude   *tournament.TeamsExcludeError
		waiting   *tournament.FinalWaitingError
		undo      *tournament.UndoBreaksError
	)
	then := func(e error, format string, a ...any) (error, string) {
		return e, e.Error() + fmt.Sprintf(format, a...)
	}
	switch {
	case errors.As(err, &noResult):
		return then(noResult, "; enter it with 'otd result %d %d B-W'", noResult.Round, noResult.Table)
	case errors.As(err, &tooFew):
		return then(tooFew, " (register players with 'otd player add')")
	case errors.As(err, &forbidden) && forbidden.Forced:
		return then(forbidden, "; 'otd pair allow %d %d' lifts that first", forbidden.Rule.A, forbidden.Rule.B)
	case errors.As(err, &forbidden):
		return then(forbidden, "; pair the round with --manual, or 'otd pair allow %d %d'", forbidden.Rule.A, forbidden.Rule.B)
	case errors.As(err, &started):
		return then(started, "; undo them first with 'otd undo'")
	case errors.As(err, &facts):
		return then(facts, "; undo back to before them ('otd undo', 'otd log' lists the changes), or make the change with --rederive, which drops them for 'otd final next' to pair the final phase again")
	case errors.As(err, &hasGames):
		return then(hasGames, " ('otd player withdraw %d')", hasGames.Player)
	case errors.As(err, &absence) && absence.Unpairable:
		return then(absence, ": unpair it first with 'otd round unpair', then mark the absence and pair it again")
	case errors.As(err, &absence) && absence.Table > 0:
		return then(absence, ": to record that they did not play, enter a forfeit: 'otd result %d %d --forfeit %s'", absence.Round, absence.Table, absence.Colour)
	case errors.As(err, &inUse):
		return then(inUse, " ('otd player edit %d --category ...')", inUse.Player)
	case errors.As(err, &exclude):
		return then(exclude, " (add it first, 'otd category add %s', then set the teams' rules with 'otd tournament edit --teams')", exclude.Category)
	case errors.As(err, &waiting):
		var enter []string
		for _, g := range waiting.Games {
			enter = append(enter, fmt.Sprintf("'otd result %s %d B-W'", g.Code(), g.Game))
		}
		return waiting, fmt.Sprintf("%v: enter them (%s)", tournament.ErrFinalWaiting, strings.Join(enter, ", "))
	case errors.As(err, &undo):
		return then(undo, "; unpair the later round first ('otd round unpair'), or correct the result with 'otd result --correct'")
	case errors.Is(err, tournament.ErrNonePaired):
		return then(tournament.ErrNonePaired, "; pair round 1 with 'otd round pair'")
	case errors.Is(err, tournament.ErrNoCategory):
		return then(tournament.ErrNoCategory, " ('otd category add NAME' makes one)")
	case errors.Is(err, tournament.ErrNoFinal):
		return then(tournament.ErrNoFinal, ": set one with 'otd tournament edit --final woc' (or top=2,bestof=3...)")
	case errors.Is(err, tournament.ErrNoFinalGames):
		return then(tournament.ErrNoFinalGames, " ('otd final start' pairs the first)")
	case errors.Is(err, tournament.ErrFinalOver):
		return then(tournament.ErrFinalOver, " ('otd standings --final')")
	case errors.Is(err, tournament.ErrNotForbidden):
		return then(tournament.ErrNotForbidden, " ('otd pair list' shows the pairs that are)")
	}
	return nil, ""
}

// rederiveFlag adds --rederive to a command whose change final games paired
// may rest on (result --correct, player edit, player withdraw, tournament
// edit).
func rederiveFlag(f *pflag.FlagSet, v *bool) {
	f.BoolVar(v, "rederive", false, "where final games paired rest on what this changes, make it all the same and drop them (listed) for 'otd final next' to pair again (as --repair pairs the next Swiss round again)")
}

// rederiving is d, rederiving the final phase (app.Director.Rederiving) if on.
func rederiving(d *app.Director, on bool) *app.Director {
	if on {
		return d.Rederiving()
	}
	return d
}

// printChangeNotes says the notes of an action's changes on standard error.
func printChangeNotes(g *globals, changes []tournament.Change) {
	for _, c := range changes {
		for _, n := range c.Notes {
			fmt.Fprintf(g.Stderr, "otd: note: %s\n", n)
		}
	}
}
