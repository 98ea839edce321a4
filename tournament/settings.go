package tournament

import (
	"fmt"
	"time"

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
	return "", invalidf("system %q: swiss or roundrobin", s)
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

	// What the rating list and the reports say of the event; any may be empty.
	Start    Date   `json:"start,omitzero"`
	End      Date   `json:"end,omitzero"`
	City     string `json:"city,omitempty"`
	Country  string `json:"country,omitempty"` // a 2- or 3-letter code
	Director string `json:"director,omitempty"`
}

// Date is a day of the calendar, written YYYY-MM-DD; the zero Date is none.
type Date struct{ t time.Time }

// ParseDate reads a date written YYYY-MM-DD ("" is no date).
func ParseDate(s string) (Date, error) {
	if s == "" {
		return Date{}, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, invalidf("date %q: write it YYYY-MM-DD, e.g. 2026-11-21", s)
	}
	return Date{t}, nil
}

// IsZero reports whether d is no date.
func (d Date) IsZero() bool { return d.t.IsZero() }

// String gives the date as YYYY-MM-DD, "" for none.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return d.t.Format(time.DateOnly)
}

// Time gives the date as midnight UTC of that day.
func (d Date) Time() time.Time { return d.t }

// MarshalText writes the date as ParseDate reads it.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads the date with ParseDate.
func (d *Date) UnmarshalText(b []byte) (err error) {
	*d, err = ParseDate(string(b))
	return err
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
		return invalidf("--rounds %d: a tournament has 1 to 99 rounds", s.Rounds)
	}
	if _, err := ParseSystem(string(s.System)); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if _, err := s.FirstRound.MarshalText(); err != nil {
		return invalidf("--first-round: %w", err)
	}
	if len(s.TieBreaks) == 0 {
		return invalidf("--tiebreaks: an empty chain")
	}
	if s.ByePoints != scoring.Point && s.ByePoints != scoring.Half {
		return invalidf("--bye-points %v: a bye is worth 1 or 0.5 points", s.ByePoints)
	}
	if err := s.Rules().Validate(); err != nil {
		return invalidf("%w", err)
	}
	if !s.Start.IsZero() && !s.End.IsZero() && s.End.Time().Before(s.Start.Time()) {
		return invalidf("--end %s is before --start %s", s.End, s.Start)
	}
	for _, f := range []struct{ what, v string }{{"city", s.City}, {"director", s.Director}} {
		if f.v != "" {
			if err := checkName(f.what, f.v); err != nil {
				return err
			}
		}
	}
	if c, err := NormalizeCountry(s.Country); err != nil {
		return fmt.Errorf("--%w", err)
	} else if c != s.Country {
		return invalidf("--country %q: write it %q", s.Country, c)
	}
	return nil
}

// Rules returns the scoring rules of the settings.
func (s Settings) Rules() scoring.Rules {
	return scoring.Rules{BQ: s.BQ, TimeDefault: s.TimeDefault, ByePoints: s.ByePoints, TieBreaks: s.TieBreaks}
}

// ChangeSettings replaces the settings with s. The name, the dates, city,
// country and director, the number of rounds (not below those paired), the
// BQ rule and the tie-breaks may change at any time, since standings are
// computed from them; the options that decide
// pairings and recorded scores (system, first round, seed, time-default
// policy, bye points) only until round 1 is paired.
func (t *Tournament) ChangeSettings(s Settings) (Change, error) {
	if err := s.Check(); err != nil {
		return Change{}, err
	}
	old := t.Settings
	if t.Paired() > 0 {
		if s.Rounds < t.Paired() {
			return Change{}, invalidf("--rounds %d: %d rounds are paired already", s.Rounds, t.Paired())
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
