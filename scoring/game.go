// Package scoring implements RULES.md sections 2 and 3: scoring one game
// (empty squares, ties, time defaults, forfeits, byes) and the standings of a
// tournament (points, the Brightwell Quotient under each federation's
// constant, disc totals, head-to-head, the Japanese preset) with a crosstable.
//
// Everything is an integer: points are HalfPoints, and a BQ is an exact
// fraction. The functions are pure: they read their input and change nothing.
package scoring

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Squares is the number of squares of the 8x8 board, the default of
// Rules.Squares: a recorded score adds up to it.
const Squares = 64

// Errors of ScoreGame, Event.Standings and the parsers; check them with errors.Is.
var (
	ErrDiscs   = errors.New("impossible disc count")           // a count outside 0..64, or a sum of 0 or above 64
	ErrOutcome = errors.New("outcome does not fit the result") // a claimed winner with fewer discs, a time default without a winner...
	ErrKind    = errors.New("unknown kind of result")          // a Kind that is not a result
	ErrPlayer  = errors.New("invalid player")                  // an unknown or repeated player id, a game against oneself
	ErrRound   = errors.New("invalid round")                   // a round outside the tournament, a player twice in a round or after withdrawing
	ErrOption  = errors.New("invalid option")                  // a Rules value outside its range
	ErrSyntax  = errors.New("invalid syntax")                  // text that a Parse function does not understand
)

// sentinelError is an error that is its sentinel for errors.Is, but whose
// text says only what is wrong, without the sentinel's words at the end.
type sentinelError struct {
	err, is error
}

func (e *sentinelError) Error() string        { return e.err.Error() }
func (e *sentinelError) Unwrap() error        { return e.err }
func (e *sentinelError) Is(target error) bool { return target == e.is }

// syntaxf formats an error that is ErrSyntax; optionf, one that is ErrOption.
func syntaxf(format string, a ...any) error {
	return &sentinelError{fmt.Errorf(format, a...), ErrSyntax}
}

func optionf(format string, a ...any) error {
	return &sentinelError{fmt.Errorf(format, a...), ErrOption}
}

// HalfPoints counts tournament points in halves: a win is 2, a draw 1.
type HalfPoints int

// A half point and a whole point.
const (
	Half  HalfPoints = 1
	Point HalfPoints = 2
)

// String gives the points in the usual notation: "4", "3.5", "0.5".
func (h HalfPoints) String() string {
	s := strconv.Itoa(int(h / 2))
	if h%2 != 0 {
		if h < 0 && h > -2 {
			s = "-0"
		}
		s += ".5"
	}
	return s
}

// MarshalJSON writes the points as a JSON number: 3.5.
func (h HalfPoints) MarshalJSON() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalJSON reads what MarshalJSON writes.
func (h *HalfPoints) UnmarshalJSON(b []byte) (err error) {
	*h, err = ParseHalfPoints(string(b))
	return err
}

// MarshalText writes the points as String does: "3.5".
func (h HalfPoints) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads the points with ParseHalfPoints.
func (h *HalfPoints) UnmarshalText(b []byte) (err error) {
	*h, err = ParseHalfPoints(string(b))
	return err
}

// ParseHalfPoints reads points written as String writes them ("4", "3.5"),
// also accepting "4.0"; the value must be between 0 and 1,000,000 points.
func ParseHalfPoints(s string) (HalfPoints, error) {
	whole, frac, dot := strings.Cut(s, ".")
	n, err := strconv.Atoi(whole)
	if err != nil || whole == "" || whole[0] < '0' || whole[0] > '9' || n > 1e6 || dot && frac != "0" && frac != "5" {
		return 0, syntaxf("points %q: want a multiple of 0.5 such as 3 or 3.5", s)
	}
	h := HalfPoints(2 * n)
	if frac == "5" {
		h++
	}
	return h, nil
}

// Kind is how a game ended, or (Missed, in a crosstable) that there was none.
type Kind uint8

// Kinds of result.
const (
	Normal      Kind = iota // played to the end
	TimeDefault             // a flag fell (or an engine failed): the declared winner wins
	Forfeit                 // the loser did not play; the winner scores as for a bye
	Bye                     // no opponent; the player is Black
	Missed                  // crosstable only: no game this round (late entry, absence, withdrawal)
	// NoDiscs is a game known only by who won (Outcome): older events'
	// rating files give no discs. It counts its points and no discs: 0-0,
	// and in the BQ the opponent's points alone.
	NoDiscs
	// DecidedTie is a game tied on the board that the event gave to one
	// side (Outcome), as Japanese rating files record it ("(32)>(32)"):
	// the winner scores the win, the discs count as they are.
	DecidedTie
)

var kindNames = [...]string{"normal", "time-default", "forfeit", "bye", "missed", "no-discs", "decided-tie"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText writes the kind's name, for JSON.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Outcome is who won a game.
type Outcome uint8

// Outcomes. For a normal game the outcome is an optional claim (from a result
// slip or a file) that ScoreGame checks against the discs; a time default and
// a forfeit need the winner.
const (
	Unclaimed Outcome = iota
	BlackWins
	WhiteWins
	Draw
)

var outcomeNames = [...]string{"unclaimed", "black wins", "white wins", "draw"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "outcome(" + strconv.Itoa(int(o)) + ")"
}

// Colour is the colour a player had in a game.
type Colour uint8

// The two colours.
const (
	Black Colour = iota
	White
)

func (c Colour) String() string {
	if c == Black {
		return "black"
	}
	return "white"
}

// MarshalText writes the colour's name, for JSON.
func (c Colour) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Result is a game's result as entered by the director or as recorded: the
// discs of a normal game at its end (empty squares not yet given, or given:
// scoring a recorded result again changes nothing); for a time default, the
// game as the winner completed it or the board as it stood when the flag
// fell, empty squares included (used under TimeComplete only). The discs of a
// forfeit and a bye are set by the Rules.
type Result struct {
	Kind                   Kind
	Outcome                Outcome
	BlackDiscs, WhiteDiscs int
}

// Score is a game as recorded: discs after the empty-square rule, and points.
// A bye is recorded against a virtual opponent (White).
type Score struct {
	BlackDiscs, WhiteDiscs   int
	BlackPoints, WhitePoints HalfPoints
}

// String gives the discs and points, as in "35-29 (1-0)".
func (s Score) String() string {
	return fmt.Sprintf("%d-%d (%v-%v)", s.BlackDiscs, s.WhiteDiscs, s.BlackPoints, s.WhitePoints)
}

// ScoreGame applies RULES.md section 2 to one result: the empty squares go to
// the winner (a tie with empties is 32-32); a time default gives the winner
// (TimeComplete) the empty squares of the completed game or of the board as
// it stood, never the player whose flag fell, and then at least 33-31: black's
// flag falls at 19-5 is 19-45, at 40-20 is 31-33; or 33-31 (TimeFixed) or
// 64-0 (TimeWipeout). A forfeit is a win for the present
// player recorded like a bye against a virtual opponent: Rules.ByeDiscs to
// 64 - Rules.ByeDiscs (32-32 by default; 0-0 under NoByeDiscs); a bye scores
// Rules.ByePoints.
func ScoreGame(r Result, rules Rules) (Score, error) {
	if err := rules.Validate(); err != nil {
		return Score{}, err
	}
	return score(r, rules)
}

func score(r Result, rules Rules) (Score, error) {
	byeWin, byeLose := rules.byeDiscs()
	n := rules.squares()
	if rules.Anti {
		r.BlackDiscs, r.WhiteDiscs = r.WhiteDiscs, r.BlackDiscs
	}
	switch r.Kind {
	case Normal:
		b, w := r.BlackDiscs, r.WhiteDiscs
		if err := checkDiscs(b, w, n); err != nil {
			return Score{}, err
		}
		switch {
		case b > w:
			b = n - w
		case w > b:
			w = n - b
		default:
			b, w = n/2, n/2
		}
		s := points(b, w)
		if o := outcomeOf(s); r.Outcome != Unclaimed && r.Outcome != o {
			return Score{}, fmt.Errorf("%d-%d is %v, not %v: %w", r.BlackDiscs, r.WhiteDiscs, o, r.Outcome, ErrOutcome)
		}
		return s, nil
	case TimeDefault, Forfeit:
		if r.Outcome != BlackWins && r.Outcome != WhiteWins {
			return Score{}, fmt.Errorf("a %v needs a winner, not %v: %w", r.Kind, r.Outcome, ErrOutcome)
		}
		win, lose := r.BlackDiscs, r.WhiteDiscs
		if r.Outcome == WhiteWins {
			win, lose = lose, win
		}
		switch {
		case r.Kind == Forfeit:
			win, lose = byeWin, byeLose
		case rules.TimeDefault == TimeWipeout:
			win, lose = n, 0
		case rules.TimeDefault == TimeComplete:
			if err := checkDiscs(win, lose, n); err != nil {
				return Score{}, fmt.Errorf("the board of the time default: %w", err)
			}
			// The empty squares go to the winner on time, then the minimal win.
			win = max(n-lose, n/2+1)
			lose = n - win
		default: // TimeFixed
			win, lose = n/2+1, n/2-1
		}
		if r.Outcome == WhiteWins {
			return Score{BlackDiscs: lose, WhiteDiscs: win, WhitePoints: Point}, nil
		}
		return Score{BlackDiscs: win, WhiteDiscs: lose, BlackPoints: Point}, nil
	case Bye:
		return Score{BlackDiscs: byeWin, WhiteDiscs: byeLose, BlackPoints: rules.byePoints()}, nil
	case NoDiscs, DecidedTie:
		s := Score{}
		if r.Kind == DecidedTie {
			if r.BlackDiscs != r.WhiteDiscs || 2*r.BlackDiscs > n {
				return Score{}, fmt.Errorf("a decided tie of %d-%d: %w (a tie has equal discs)", r.BlackDiscs, r.WhiteDiscs, ErrDiscs)
			}
			s.BlackDiscs, s.WhiteDiscs = r.BlackDiscs, r.WhiteDiscs
		}
		switch {
		case r.Outcome == BlackWins:
			s.BlackPoints = Point
		case r.Outcome == WhiteWins:
			s.WhitePoints = Point
		case r.Outcome == Draw && r.Kind == NoDiscs:
			s.BlackPoints, s.WhitePoints = Half, Half
		default:
			return Score{}, fmt.Errorf("a %v needs a winner, not %v: %w", r.Kind, r.Outcome, ErrOutcome)
		}
		return s, nil
	}
	return Score{}, fmt.Errorf("%v: %w", r.Kind, ErrKind)
}

// CheckBoard checks the discs of a board as the director enters them: each
// 0 to the board's squares, together 1 to them. Every score is held to it,
// the board of a time default too under every policy (fixed and wipeout do
// not use it, but a board given is a board).
func (r Rules) CheckBoard(black, white int) error { return checkDiscs(black, white, r.squares()) }

func checkDiscs(b, w, n int) error {
	if b < 0 || w < 0 || b > n || w > n || b+w > n || b+w == 0 {
		return fmt.Errorf("%d-%d: %w (each 0 to %d, together 1 to %d)", b, w, ErrDiscs, n, n)
	}
	return nil
}

// points scores recorded discs, the winner having more.
func points(b, w int) Score {
	s := Score{BlackDiscs: b, WhiteDiscs: w}
	switch {
	case b > w:
		s.BlackPoints = Point
	case w > b:
		s.WhitePoints = Point
	default:
		s.BlackPoints, s.WhitePoints = Half, Half
	}
	return s
}

func outcomeOf(s Score) Outcome {
	switch {
	case s.BlackPoints > s.WhitePoints:
		return BlackWins
	case s.WhitePoints > s.BlackPoints:
		return WhiteWins
	}
	return Draw
}
