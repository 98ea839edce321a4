package tournament

import (
	"fmt"

	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
)

// System is how rounds are paired.
type System string

// Pairing systems.
const (
	Swiss      System = "swiss"
	RoundRobin System = "roundrobin"
)

// ParseSystem reads a pairing system: swiss or roundrobin.
func ParseSystem(s string) (System, error) {
	switch System(s) {
	case Swiss, RoundRobin:
		return System(s), nil
	}
	return "", fmt.Errorf("system %q: swiss or roundrobin: %w", s, ErrInvalid)
}

// MarshalText writes the system as ParseSystem reads it.
func (s System) MarshalText() ([]byte, error) {
	if _, err := ParseSystem(string(s)); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// UnmarshalText reads the system with ParseSystem.
func (s *System) UnmarshalText(b []byte) (err error) {
	*s, err = ParseSystem(string(b))
	return err
}

// Settings are a tournament's rules. Each option is typed and written as text
// (TextMarshaler) in the database and the audit trail; the JSON names are the
// audit trail's and must not change (ChangeVersion).
type Settings struct {
	Name        string             `json:"name"`
	Rounds      int                `json:"rounds"` // rounds planned
	System      System             `json:"system"`
	BQ          scoring.BQRule     `json:"bq"`
	TimeDefault scoring.TimePolicy `json:"time_default"`
	ByePoints   scoring.HalfPoints `json:"bye_points"` // scoring.Point or scoring.Half
	TieBreaks   scoring.TieBreaks  `json:"tiebreaks"`
	FirstRound  pairing.FirstRound `json:"first_round"`
	Seed        uint64             `json:"seed"` // seed of every random choice in the pairing
}

// DefaultSettings are the settings of a new tournament where none are given.
func DefaultSettings(name string, rounds int) Settings {
	return Settings{Name: name, Rounds: rounds, System: Swiss, BQ: scoring.BQRule{Kind: scoring.Nearest},
		TimeDefault: scoring.TimeComplete, ByePoints: scoring.Point, TieBreaks: scoring.DefaultTieBreaks(),
		FirstRound: pairing.ByRating, Seed: 1}
}

// Check checks the settings: a name, 1 to 99 rounds, and every option in its range.
func (s Settings) Check() error {
	if err := checkName("tournament", s.Name); err != nil {
		return err
	}
	if s.Rounds < 1 || s.Rounds > 99 {
		return fmt.Errorf("--rounds %d: a tournament has 1 to 99 rounds: %w", s.Rounds, ErrInvalid)
	}
	if _, err := ParseSystem(string(s.System)); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if _, err := s.FirstRound.MarshalText(); err != nil {
		return fmt.Errorf("--first-round: %w: %w", err, ErrInvalid)
	}
	if len(s.TieBreaks) == 0 {
		return fmt.Errorf("--tiebreaks: an empty chain: %w", ErrInvalid)
	}
	if s.ByePoints != scoring.Point && s.ByePoints != scoring.Half {
		return fmt.Errorf("--bye-points %v: a bye is worth 1 or 0.5 points: %w", s.ByePoints, ErrInvalid)
	}
	if err := s.Rules().Validate(); err != nil {
		return fmt.Errorf("%w: %w", err, ErrInvalid)
	}
	return nil
}

// Rules returns the scoring rules of the settings.
func (s Settings) Rules() scoring.Rules {
	return scoring.Rules{BQ: s.BQ, TimeDefault: s.TimeDefault, ByePoints: s.ByePoints, TieBreaks: s.TieBreaks}
}

// ChangeSettings replaces the settings with s. The name, the number of rounds
// (not below those paired), the BQ rule and the tie-breaks may change at any
// time, since standings are computed from them; the options that decide
// pairings and recorded scores (system, first round, seed, time-default
// policy, bye points) only until round 1 is paired.
func (t *Tournament) ChangeSettings(s Settings) (Change, error) {
	if err := s.Check(); err != nil {
		return Change{}, err
	}
	old := t.Settings
	if t.Paired() > 0 {
		if s.Rounds < t.Paired() {
			return Change{}, fmt.Errorf("--rounds %d: %d rounds are paired already: %w", s.Rounds, t.Paired(), ErrInvalid)
		}
		fixed := func(name string, same bool) error {
			if same {
				return nil
			}
			return fmt.Errorf("--%s: %w: it decides pairings and recorded scores, so it changes only before round 1 is paired", name, ErrRoundStarted)
		}
		for _, err := range []error{
			fixed("system", s.System == old.System),
			fixed("first-round", s.FirstRound == old.FirstRound),
			fixed("seed", s.Seed == old.Seed),
			fixed("time-default", s.TimeDefault == old.TimeDefault),
			fixed("bye-points", s.ByePoints == old.ByePoints),
		} {
			if err != nil {
				return Change{}, err
			}
		}
	}
	t.Settings = s
	return t.change(ActSettings, "settings", State{Settings: &old}, State{Settings: &s}), nil
}
