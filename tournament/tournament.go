// Package tournament is otd's domain: a tournament's settings, players,
// rounds, games and results, and the operations a director performs on them
// (register, withdraw, pair, record, correct), each checking its invariants
// and returning a typed Change. It says what it needs of storage (Storage,
// Tx and the errors callers check) and holds the application layer over it
// (Director): a store (store/sqlite) loads a Tournament, an operation changes
// it, and the store saves the change with its audit row; it knows no SQL. It plays
// its engine entrants' games itself (Director.PlayRound, Director.Run),
// starting their programs with the engine clients (StartEngine).
package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Sentinel errors of the operations; check them with errors.Is.
var (
	ErrInvalid       = errors.New("invalid")
	ErrNoPlayer      = errors.New("no such player")
	ErrNoGame        = errors.New("no such game")
	ErrNoRound       = errors.New("no such round")
	ErrHasResult     = errors.New("the game already has a result")
	ErrRoundStarted  = errors.New("the round already has results")
	ErrAllPaired     = errors.New("every round is paired")
	ErrNotFinished   = errors.New("the previous round is not finished")
	ErrLateEntry     = errors.New("too late to enter")
	ErrWithdrawn     = errors.New("the player has withdrawn")
	ErrBadPairing    = errors.New("the pairing is not valid")
	ErrNothingToUndo = errors.New("nothing to undo")
	ErrLaterRound    = errors.New("a later round is paired")
	ErrChanged       = errors.New("changed since")
	ErrInconsistent  = errors.New("the tournament's data are inconsistent")
	ErrHasGames      = errors.New("the player has games")
	ErrDuplicate     = errors.New("the name is taken")
	ErrNoTournament  = errors.New("no tournament")
	ErrNotForbidden  = errors.New("the pair is not forbidden to meet")
	ErrSettingFixed  = errors.New("the setting can no longer change")
	ErrFinalWaiting  = errors.New("the final games paired wait for their results")
	// ErrFinalFacts: a change would alter what final games paired rest on.
	ErrFinalFacts = errors.New("final games paired rest on what this changes (who qualified, the seeds, a match's outcome)")
	// ErrSameResult: the result entered is the one recorded; nothing
	// changes (not a failure: the director entered it twice).
	ErrSameResult = errors.New("the result is recorded already, as entered")
	// Errors of a Storage that a caller checks: it may not be written, or
	// another held it too long (or changed the same data meanwhile) and
	// nothing was saved: trying again may work.
	ErrReadOnly = errors.New("the database is read-only")
	// ErrUpgrade comes with ErrReadOnly: a database written by an older
	// otd, opened read-only, that this otd must upgrade before reading.
	ErrUpgrade = errors.New("this otd must upgrade it")
	ErrBusy    = errors.New("the database is in use")
)

// NotFoundError is a tournament id that the database does not have: it is
// ErrNoTournament for errors.Is.
type NotFoundError struct{ ID int64 }

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("tournament %d: %s", e.ID, ErrNoTournament)
}
func (e *NotFoundError) Is(target error) bool { return target == ErrNoTournament }

// DuplicateError is a tournament's name that another tournament of the
// database has, whatever the case (NameKey): it is ErrDuplicate for
// errors.Is. Storage returns it from its constraint.
type DuplicateError struct {
	ID   int64  // the other tournament
	Name string // its name
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("tournament %d is named %q already: %s", e.ID, e.Name, ErrDuplicate)
}

func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicate }

// SameResultError is a result entered that the game of round Round, table
// Table has already: it is ErrSameResult for errors.Is.
type SameResultError struct {
	Where  string // the game: "round 3 table 2", "SF1 game 2"
	Result Result // the result recorded
}

func (e *SameResultError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Where, ErrSameResult, e.Result)
}

func (e *SameResultError) Is(target error) bool { return target == ErrSameResult }

// NameKey is the form of a tournament's name that no two tournaments of a
// database may share: each letter folded to the smallest of its case
// variants ("PARIS OPEN"), so that two names have the same key exactly when
// strings.EqualFold says they are equal.
func NameKey(name string) string {
	return strings.Map(func(r rune) rune {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		return m
	}, name)
}

// invalidError is a value that the tournament refuses: it is ErrInvalid for
// errors.Is, but its text says only what is wrong, without a trailing
// ": invalid".
type invalidError struct{ err error }

func (e *invalidError) Error() string        { return e.err.Error() }
func (e *invalidError) Unwrap() error        { return e.err }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

// invalidf formats an error that is ErrInvalid (%w wraps as fmt.Errorf does).
func invalidf(format string, a ...any) error { return Invalid(fmt.Errorf(format, a...)) }

// Invalid makes err a value that the tournament refuses: ErrInvalid for
// errors.Is, its text err's.
func Invalid(err error) error { return &invalidError{err} }

// Player is a registered player. The JSON form is the audit trail's: its
// names must not change (ChangeVersion).
type Player struct {
	Number     int    `json:"number"` // 1, 2, ... in order of registration
	Name       string `json:"name"`
	WOFID      int    `json:"fed_id,omitempty"` // the federation's (WOF) id, 0 if none
	NewID      bool   `json:"new_id,omitempty"` // WOFID is new to the rating list, from a federation's new-player range (.ELO: "+")
	Rating     int    `json:"rating,omitempty"`
	Country    string `json:"country,omitempty"`
	FirstRound int    `json:"first_round"`      // the first round the player can be paired in (late entries start later)
	Left       int    `json:"left,omitempty"`   // 0, or the first round the player misses after withdrawing
	Absent     []int  `json:"absent,omitempty"` // rounds the player misses
	// Engine is, for a computer program entered as a player, how otd starts
	// it: "gtp:ARGV", "nboard:ARGV" or "builtin:NAME" (ParseEngine); "" for
	// a person.
	Engine string `json:"engine,omitempty"`
	// Team is the player's team: "" their country's, NoTeam none (TeamOf).
	Team string `json:"team,omitempty"`
	// Born is the birth as given, a year or a date; zero if not given (a
	// category by age goes by its year).
	Born Born `json:"born,omitzero"`
	// Categories are the categories the player was entered in by name
	// (women, ...); those by year of birth follow Born (Category.Member).
	Categories []string `json:"categories,omitempty"`
}

// Active reports whether the player can be paired in round r.
func (p Player) Active(r int) bool {
	return r >= p.FirstRound && !p.WithdrawnBy(r) && !slices.Contains(p.Absent, r)
}

// WithdrawnBy reports whether the player has withdrawn before round r.
func (p Player) WithdrawnBy(r int) bool { return p.Left != 0 && r >= p.Left }

// Kind is how a game ended.
type Kind string

// Kinds of result.
const (
	Normal      Kind = "normal"
	TimeDefault Kind = "time-default" // Loser's flag fell
	Forfeit     Kind = "forfeit"      // Loser did not play
	// NoDiscs is a result known without its discs: older events' .ELO
	// files write only who won ("11 > 22"). Loser is the colour that lost
	// ("" for a draw), Black and White are 0: it counts its points only,
	// no discs (scoring.NoDiscs).
	NoDiscs Kind = "no-discs"
)

// Color is black or white.
type Color string

// Colours.
const (
	Black Color = "black"
	White Color = "white"
)

// Result is a recorded result: the discs as recorded under the tournament's
// rules (empties to the winner, time-default policy applied).
type Result struct {
	Black int  `json:"black"`
	White int  `json:"white"`
	Kind  Kind `json:"kind"`
	// Loser is the colour that lost a time default, a forfeit or a result
	// without discs (NoDiscs); in a game drawn on the board, the colour that
	// lost when something other than the rules decided it, as a file
	// records it (a tie written '<' or '>': after an .ELO's %%Added
	// results, who did not go through; in a round of a Japanese file, who
	// lost the game).
	Loser Color `json:"loser,omitempty"`
	// A game otd played itself (an engine round) keeps its transcript and
	// how it ended.
	Moves string `json:"moves,omitempty"` // the move list, e.g. "f5d6c3...", passes implicit
	End   string `json:"end,omitempty"`   // EndNormal, EndTime, EndCrash, EndIllegal, EndNoReply
	Note  string `json:"note,omitempty"`  // why a default happened, in words
}

// String gives the result as a director reads it: "42-22"; a time default
// "19-45 (black lost on time)"; a forfeit, whose discs are a convention and
// not a game, "forfeit: black did not play, white wins".
func (r Result) String() string {
	switch r.Kind {
	case TimeDefault:
		why := "lost on time"
		switch r.End {
		case EndCrash:
			why = "lost by default: its engine failed"
		case EndIllegal:
			why = "lost by default: an illegal move"
		case EndNoReply:
			why = "lost by default: no reply"
		}
		return fmt.Sprintf("%d-%d (%s %s)", r.Black, r.White, r.Loser, why)
	case Forfeit:
		return fmt.Sprintf("forfeit: %s did not play, %s wins", r.Loser, r.Loser.Other())
	case NoDiscs:
		if r.Loser == "" {
			return "draw (no discs)"
		}
		return fmt.Sprintf("%s wins (no discs)", r.Loser.Other())
	}
	if r.Loser != "" {
		return fmt.Sprintf("%d-%d (%s went through)", r.Black, r.White, r.Loser.Other())
	}
	return fmt.Sprintf("%d-%d", r.Black, r.White)
}

// Other gives the other colour.
func (c Color) Other() Color {
	if c == Black {
		return White
	}
	return Black
}

// Game is a game of the tournament: a board of a Swiss round (Round and
// Table; White 0 for the bye), or a game of a final phase (Round 0: see
// FinalRef), paired by FinalNext. Both are recorded, corrected, played and
// stored alike. The JSON form is the audit trail's: a round's game writes
// round, table, black, white and result; a final game, FinalRef's names and
// black, white and result (ChangeVersion).
type Game struct {
	Round int `json:"round,omitempty"` // 1, 2, ...; 0 for a final phase's game
	Table int `json:"table,omitempty"`
	FinalRef
	Black  int     `json:"black"`
	White  int     `json:"white"` // 0: the bye
	Result *Result `json:"result,omitempty"`
}

// FinalRef places a game in the final phases: Match names its match (PO the
// play-off, QF1-QF4, SF1, SF2, F, 3P) in Category ("" the open), Game its
// number in the match (1, 2, ...), Seq its place in the order the final
// phases' games were paired (1, 2, ..., across categories: the order of the
// .ELO's added results). A game imported from a file whose match was not
// found has Match "". Zero for a round's game.
type FinalRef struct {
	Category string `json:"category,omitempty"`
	Match    string `json:"match,omitempty"`
	Game     int    `json:"game,omitempty"`
	Seq      int    `json:"seq,omitempty"`
}

// IsBye reports whether the game is a bye.
func (g Game) IsBye() bool { return g.White == 0 }

// IsFinal reports whether the game is a final phase's, not a round's.
func (g Game) IsFinal() bool { return g.Round == 0 }

// key identifies the game among the tournament's: a round's by its round
// and table, a final game by its place in the order paired (round 0), as
// the games table keys them. It orders each kind as Tournament keeps it.
func (g Game) key() [2]int {
	if g.IsFinal() {
		return [2]int{0, g.Seq}
	}
	return [2]int{g.Round, g.Table}
}

// Where names the game as 'otd result' does: "round 2 table 3", "SF1 game
// 2", "women:F game 1".
func (g Game) Where() string {
	if g.IsFinal() {
		return fmt.Sprintf("%s game %d", g.Code(), g.Game)
	}
	return fmt.Sprintf("round %d table %d", g.Round, g.Table)
}

// Tournament is a tournament as loaded from the store.
type Tournament struct {
	ID int64
	Settings
	Players []Player // by number: Players[i].Number == i+1
	Games   []Game   // the rounds' games, by round, then table
	// FinalGames are the games of the final phases after the Swiss
	// (play-offs, semi-finals, finals, the categories'), in the order paired
	// (Seq): not in the Swiss standings.
	FinalGames []Game
	// Forbidden are the pairs that may not meet in any round paired from
	// now on (Forbid), by A then B.
	Forbidden []ForbiddenPair
	// RoundRules are the rules each round was paired under, by round; a
	// round paired without any has none.
	RoundRules []RoundRules
}

// Player returns the player with number n.
func (t *Tournament) Player(n int) (*Player, error) {
	if n < 1 || n > len(t.Players) {
		return nil, fmt.Errorf("player %d: %w (players are numbered 1 to %d)", n, ErrNoPlayer, len(t.Players))
	}
	return &t.Players[n-1], nil
}

// Paired returns the number of rounds paired so far.
func (t *Tournament) Paired() int {
	if len(t.Games) == 0 {
		return 0
	}
	return t.Games[len(t.Games)-1].Round
}

// Round returns the games of round r.
func (t *Tournament) Round(r int) []Game {
	var out []Game
	for _, g := range t.Games {
		if g.Round == r {
			out = append(out, g)
		}
	}
	return out
}

// Game returns the game at table of round r.
func (t *Tournament) Game(r, table int) (*Game, error) {
	for i := range t.Games {
		if g := &t.Games[i]; g.Round == r && g.Table == table {
			return g, nil
		}
	}
	if err := t.CheckPaired(r); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("round %d table %d: %w (the round has tables 1 to %d)", r, table, ErrNoGame, len(t.Round(r)))
}

// CheckPaired returns an error wrapping ErrNoRound unless round r is paired.
func (t *Tournament) CheckPaired(r int) error {
	switch {
	case t.Paired() == 0:
		return fmt.Errorf("round %d: %w: %w", r, ErrNoRound, ErrNonePaired)
	case r < 1 || r > t.Paired():
		return fmt.Errorf("round %d: %w (rounds 1 to %d are paired)", r, ErrNoRound, t.Paired())
	}
	return nil
}
