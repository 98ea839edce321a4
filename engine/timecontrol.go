package engine

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrBadTimeControl is returned by ParseTimeControl for a malformed time control.
var ErrBadTimeControl = errors.New(`a time control is BASE+INCREMENT (e.g. "5m+2s"), BASE (e.g. "10m") or a time per move (e.g. "10s/move"), each a positive Go duration`)

// TimeControl is either a clock for the whole game (Base, plus Increment
// added after each move) or a fixed time for each move (PerMove): the clock
// of a game, which a tournament keeps among its settings and engine/match
// plays a game under.
type TimeControl struct {
	Base      time.Duration
	Increment time.Duration
	PerMove   time.Duration // when non-zero, Base and Increment are zero
}

// ParseTimeControl parses "5m+2s" (base plus increment), "10m" (base, no
// increment) or "10s/move" (a fixed time per move). Durations are Go
// durations (time.ParseDuration): "1m30s", "500ms".
func ParseTimeControl(s string) (TimeControl, error) {
	t := strings.TrimSpace(s)
	bad := func() (TimeControl, error) {
		return TimeControl{}, fmt.Errorf("%q: %w", s, ErrBadTimeControl)
	}
	if per, ok := strings.CutSuffix(t, "/move"); ok {
		d, err := time.ParseDuration(strings.TrimSpace(per))
		if err != nil || d <= 0 {
			return bad()
		}
		return TimeControl{PerMove: d}, nil
	}
	base, inc, hasInc := strings.Cut(t, "+")
	b, err := time.ParseDuration(strings.TrimSpace(base))
	if err != nil || b <= 0 {
		return bad()
	}
	tc := TimeControl{Base: b}
	if hasInc {
		i, err := time.ParseDuration(strings.TrimSpace(inc))
		if err != nil || i < 0 {
			return bad()
		}
		tc.Increment = i
	}
	return tc, nil
}

// String returns the time control as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	switch {
	case tc.PerMove > 0:
		return short(tc.PerMove) + "/move"
	case tc.Increment > 0:
		return short(tc.Base) + "+" + short(tc.Increment)
	}
	return short(tc.Base)
}

// short drops the zero units time.Duration.String writes ("5m0s" -> "5m").
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// MarshalText writes the time control as String does; "" for the zero value.
func (tc TimeControl) MarshalText() ([]byte, error) {
	if tc == (TimeControl{}) {
		return nil, nil
	}
	if err := tc.Valid(); err != nil {
		return nil, err
	}
	return []byte(tc.String()), nil
}

// UnmarshalText reads a time control with ParseTimeControl; "" is the zero value.
func (tc *TimeControl) UnmarshalText(b []byte) (err error) {
	if len(b) == 0 {
		*tc = TimeControl{}
		return nil
	}
	*tc, err = ParseTimeControl(string(b))
	return err
}

// Valid reports an error for a time control that gives no time.
func (tc TimeControl) Valid() error {
	if tc.PerMove > 0 && tc.Base == 0 && tc.Increment == 0 || tc.PerMove == 0 && tc.Base > 0 && tc.Increment >= 0 {
		return nil
	}
	return fmt.Errorf("%+v: %w", tc, ErrBadTimeControl)
}
