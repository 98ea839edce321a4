package tournament

import (
	"errors"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

func TestNormalizeCountry(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"FR", "FRA"}, {"fr", "FRA"}, {"FRA", "FRA"}, {" fra ", "FRA"}, {"GB", "GBR"}, {"UK", "GBR"},
		{"NL", "NLD"}, {"JP", "JPN"}, {"TW", "TWN"}, {"HK", "HKG"}, {"IL", "ISR"}, {"UAE", "ARE"}, {"", ""},
	} {
		if got, err := NormalizeCountry(tc.in); got != tc.want || err != nil {
			t.Errorf("NormalizeCountry(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"XX", "FRN", "FRANCE", "F", "G1", "ÉÉ"} {
		if got, err := NormalizeCountry(in); !errors.Is(err, ErrInvalid) {
			t.Errorf("NormalizeCountry(%q) = %q, %v; want ErrInvalid", in, got, err)
		}
	}
}

// TestNormalizeCountryWOF: every country of the real WOF rating files is
// accepted as it is written there (UAE, not an ISO code, as ARE).
func TestNormalizeCountryWOF(t *testing.T) {
	for _, row := range testenv.CSV(t, "othello-tournaments-wof-elo/elo_standings.csv")[1:] {
		c := row[6]
		want := c
		if c == "UAE" {
			want = "ARE"
		}
		if got, err := NormalizeCountry(c); got != want || err != nil {
			t.Errorf("%s %s: country %q gives %q, %v", row[4], row[5], c, got, err)
		}
	}
}

func TestPlayerWOFID(t *testing.T) {
	tm := club(t, 2, 3)
	id := 79
	if _, err := tm.EditPlayer(1, PlayerEdit{WOFID: &id}); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.EditPlayer(2, PlayerEdit{WOFID: &id}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a second player with WOF id 79: %v", err)
	}
	if _, err := tm.AddPlayer(PlayerInput{Name: "X", WOFID: 79}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a new player with WOF id 79: %v", err)
	}
	if _, err := tm.EditPlayer(1, PlayerEdit{WOFID: &id}); err != nil { // their own id again
		t.Errorf("player 1 keeps WOF id 79: %v", err)
	}
	if tm.Players[0].WOFID != 79 {
		t.Errorf("player 1 has WOF id %d; want 79", tm.Players[0].WOFID)
	}
}
