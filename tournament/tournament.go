// Package tournament is otd's domain: a tournament's settings, players,
// rounds, games and results, and the operations a director performs on them
// (register, withdraw, pair, record, correct), each checking its invariants.
// It knows nothing of storage: the store loads a Tournament, an operation
// changes it, and the store saves the change with its audit row.
package tournament

import (
	"errors"
	"fmt"
	"slices"
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
)

// Settings are a tournament's rules, chosen when it is created.
type Settings struct {
	Name          string
	Rounds        int    // Swiss rounds planned
	System        string // "swiss" or "roundrobin"
	BQ            string // "nearest", "wof", "exact" or a number: the BQ constant
	TimeDefault   string // "complete", "fixed" or "wipeout"
	ByeHalfPoints int    // 2 (a whole point) or 1 (half a point)
	Tiebreaks     string // comma-separated chain, e.g. "points,bq,discs"
	FirstRound    string // "rating" or "random"
	Seed          uint64 // seed of every random choice in the pairing
}

// DefaultSettings are the settings of a new tournament where none are given.
func DefaultSettings(name string, rounds int) Settings {
	return Settings{Name: name, Rounds: rounds, System: "swiss", BQ: "nearest", TimeDefault: "complete",
		ByeHalfPoints: 2, Tiebreaks: "points,bq,discs", FirstRound: "rating", Seed: 1}
}

// Player is a registered player.
type Player struct {
	Number     int // 1, 2, ... in order of registration
	Name       string
	ID         int // the federation's (WOF) id, 0 if none
	Rating     int
	Country    string
	FirstRound int   // the first round the player can be paired in (late entries start later)
	Left       int   // 0, or the first round the player misses after withdrawing
	Absent     []int // rounds the player misses
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
	Black, White int
	Kind         Kind
	Loser        Color // for a time default or a forfeit
}

func (r Result) String() string {
	s := fmt.Sprintf("%d-%d", r.Black, r.White)
	if r.Kind != Normal && r.Kind != "" {
		s += fmt.Sprintf(" (%s, %s lost)", r.Kind, r.Loser)
	}
	return s
}

// Game is one board of a round; White is 0 for the bye.
type Game struct {
	Round, Table int
	Black, White int
	Result       *Result
}

// IsBye reports whether the game is a bye.
func (g Game) IsBye() bool { return g.White == 0 }

// Tournament is a tournament as loaded from the store.
type Tournament struct {
	ID int64
	Settings
	Players []Player // by number: Players[i].Number == i+1
	Games   []Game   // by round, then table
	Finals  []Game   // games after the Swiss rounds (semi-finals, finals): not in the standings
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
		return fmt.Errorf("round %d: %w: no round is paired yet; pair round 1 with 'otd round pair'", r, ErrNoRound)
	case r < 1 || r > t.Paired():
		return fmt.Errorf("round %d: %w (rounds 1 to %d are paired)", r, ErrNoRound, t.Paired())
	}
	return nil
}
