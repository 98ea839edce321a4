package engine

import (
	"errors"
	"testing"
	"time"
)

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want TimeControl
		str  string
	}{
		{"5m+2s", TimeControl{Base: 5 * time.Minute, Increment: 2 * time.Second}, "5m+2s"},
		{" 5m + 2s ", TimeControl{Base: 5 * time.Minute, Increment: 2 * time.Second}, "5m+2s"},
		{"10m", TimeControl{Base: 10 * time.Minute}, "10m"},
		{"10m+0s", TimeControl{Base: 10 * time.Minute}, "10m"},
		{"1h30m+30s", TimeControl{Base: 90 * time.Minute, Increment: 30 * time.Second}, "1h30m+30s"},
		{"1h", TimeControl{Base: time.Hour}, "1h"},
		{"1m30s+500ms", TimeControl{Base: 90 * time.Second, Increment: 500 * time.Millisecond}, "1m30s+500ms"},
		{"10s/move", TimeControl{PerMove: 10 * time.Second}, "10s/move"},
		{"250ms/move", TimeControl{PerMove: 250 * time.Millisecond}, "250ms/move"},
		{"2m/move", TimeControl{PerMove: 2 * time.Minute}, "2m/move"},
	} {
		got, err := ParseTimeControl(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.str {
			t.Errorf("%q: String() = %q; want %q", tc.in, s, tc.str)
		}
		if back, err := ParseTimeControl(got.String()); err != nil || back != got {
			t.Errorf("%q: String() %q does not parse back: %+v, %v", tc.in, got.String(), back, err)
		}
	}
	for _, in := range []string{"", "5", "5m+", "+2s", "5m+2", "0s", "-5m", "5m+-2s", "0s/move", "/move",
		"10s/moves", "10s/move+2s", "5m+2s+1s", "abc", "5x+2s", "-1s/move"} {
		if tc, err := ParseTimeControl(in); !errors.Is(err, ErrBadTimeControl) {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want ErrBadTimeControl", in, tc, err)
		}
	}
}
