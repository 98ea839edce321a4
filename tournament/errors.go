package tournament

import (
	"errors"
	"fmt"
	"strings"
)

// The errors below say a problem in the domain's words and carry its data;
// the way out in command words is the caller's to add (the command line's
// advice), so that the domain names no command.

var (
	// ErrNoCategory: the tournament has no category at all (it is
	// ErrInvalid where an operation names one).
	ErrNoCategory = errors.New("the tournament has no category")
	// ErrNoFinal: the tournament has no final phase, the open's or a
	// category's.
	ErrNoFinal = errors.New("the tournament has no final phase")
	// ErrNoFinalGames: no game of a final phase is paired yet.
	ErrNoFinalGames = errors.New("no final game is paired")
	// ErrNonePaired: no round is paired yet (with ErrNoRound).
	ErrNonePaired = errors.New("no round is paired yet")
	// ErrFinalOver: every final phase is decided; it is ErrAllPaired for
	// errors.Is, without its words ("every round is paired").
	ErrFinalOver error = &prefixed{err: ErrAllPaired, text: "every final phase is over"}
)

// NoResultError is a game of the last round paired without a result, which
// the next round's pairing waits for: it is ErrNotFinished for errors.Is.
type NoResultError struct {
	Round, Table int
	Black, White int
}

func (e *NoResultError) Error() string {
	return fmt.Sprintf("round %d table %d (%d-%d) has no result: %v", e.Round, e.Table, e.Black, e.White, ErrNotFinished)
}

func (e *NoResultError) Unwrap() error { return ErrNotFinished }

// TooFewPlayersError is a round to pair with fewer than two active
// players: it is ErrBadPairing for errors.Is.
type TooFewPlayersError struct {
	Round  int
	Active int // the players who may be paired in the round
}

func (e *TooFewPlayersError) Error() string {
	return fmt.Sprintf("round %d: %v: %s; at least 2 are needed", e.Round, ErrBadPairing, Plural(e.Active, "active player"))
}

func (e *TooFewPlayersError) Unwrap() error { return ErrBadPairing }

// ForbiddenPairError is a pair that a pairing would make though a standing
// rule forbids the two to meet: a pair the director forced, or a table of
// the round-robin schedule. It is ErrBadPairing for errors.Is.
type ForbiddenPairError struct {
	Round        int
	Black, White int           // the pair, as forced or as the table has it
	Rule         ForbiddenPair // the rule that forbids it
	Forced       bool          // the director forced the pair; else the round robin's table pairs it
}

func (e *ForbiddenPairError) Error() string {
	if e.Forced {
		return fmt.Sprintf("forced pair %d-%d: %v: the two are forbidden to meet (%s)", e.Black, e.White, ErrBadPairing, e.Rule)
	}
	return fmt.Sprintf("round robin round %d: the table pairs %d-%d, but they are forbidden to meet (%s): %v", e.Round, e.Black, e.White, e.Rule, ErrBadPairing)
}

func (e *ForbiddenPairError) Unwrap() error { return ErrBadPairing }

// RoundStartedError is a round that cannot be unpaired: table Table has a
// result. It is ErrRoundStarted for errors.Is.
type RoundStartedError struct{ Round, Table int }

func (e *RoundStartedError) Error() string {
	return fmt.Sprintf("round %d: %v (table %d)", e.Round, ErrRoundStarted, e.Table)
}

func (e *RoundStartedError) Unwrap() error { return ErrRoundStarted }

// HasGamesError is a player who cannot be removed, only withdrawn: their
// first round is paired, or a player registered after them (Later), whom
// removing would renumber, is paired in Round. It is ErrHasGames for
// errors.Is.
type HasGamesError struct {
	Player int
	Name   string
	Round  int
	Later  int // 0 when Round is the player's own first
}

func (e *HasGamesError) Error() string {
	if e.Later == 0 {
		return fmt.Sprintf("player %d (%s): %v: round %d, their first, is paired; withdraw them instead", e.Player, e.Name, ErrHasGames, e.Round)
	}
	return fmt.Sprintf("player %d (%s): %v: player %d, registered after them, is paired in round %d, and removing would renumber them; withdraw %d instead",
		e.Player, e.Name, ErrHasGames, e.Later, e.Round, e.Player)
}

func (e *HasGamesError) Unwrap() error { return ErrHasGames }

// AbsenceError is an absence marked for a round already paired. It is
// ErrInvalid for errors.Is.
type AbsenceError struct {
	Round  int
	Player int
	Name   string
	Seat   string // in the round: "plays at table 2", "has the bye", "is not in it"
	// Unpairable tells that the round is the last paired and has no result:
	// it can be unpaired, the absence marked and the round paired again.
	Unpairable bool
	// Table is the player's game in the round, which a forfeit records
	// they did not play; 0 if they have none (or the bye).
	Table  int
	Colour Color // theirs at Table
}

func (e *AbsenceError) Error() string {
	if e.Unpairable {
		return fmt.Sprintf("round %d is already paired (player %d, %s, %s)", e.Round, e.Player, e.Name, e.Seat)
	}
	s := fmt.Sprintf("round %d is already paired and under way (player %d, %s, %s)", e.Round, e.Player, e.Name, e.Seat)
	if e.Table == 0 {
		s += ": an absence is marked before its round is paired"
	}
	return s
}

func (e *AbsenceError) Is(target error) bool { return target == ErrInvalid }

// CategoryInUseError is a category that cannot be removed: player Player
// is entered in it. It is ErrInvalid for errors.Is.
type CategoryInUseError struct {
	Category string
	Player   int
	Name     string
}

func (e *CategoryInUseError) Error() string {
	return fmt.Sprintf("category %q: player %d (%s) is entered in it: take them out first", e.Category, e.Player, e.Name)
}

func (e *CategoryInUseError) Is(target error) bool { return target == ErrInvalid }

// TeamsExcludeError is a category that the teams' rules leave out but the
// tournament does not have. It is ErrInvalid for errors.Is.
type TeamsExcludeError struct{ Category string }

func (e *TeamsExcludeError) Error() string {
	return fmt.Sprintf("--teams exclude=%s: no such category", e.Category)
}

func (e *TeamsExcludeError) Is(target error) bool { return target == ErrInvalid }

// FinalWaitingError is the final games paired that have no result yet:
// the next ones wait for them. It is ErrFinalWaiting for errors.Is.
type FinalWaitingError struct{ Games []Game }

func (e *FinalWaitingError) Error() string {
	var where []string
	for _, g := range e.Games {
		where = append(where, g.Where())
	}
	return fmt.Sprintf("%v: %s", ErrFinalWaiting, strings.Join(where, ", "))
}

func (e *FinalWaitingError) Unwrap() error { return ErrFinalWaiting }

// UndoBreaksError is an undo refused because the tournament it would leave
// breaks an invariant (Err): a later change rests on the one undone (a
// round paired on a result, a correction).
type UndoBreaksError struct{ Err error }

func (e *UndoBreaksError) Error() string { return e.Err.Error() }
func (e *UndoBreaksError) Unwrap() error { return e.Err }
