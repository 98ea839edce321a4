package tournament

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/pairing"
)

func TestParsePairingModel(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      string // in the error; "" for none
	}{
		{"papp", "papp", ""},
		{"PAPP", "papp", ""},
		{"plain", "plain", ""},
		{"", "plain", ""},
		{"plain,float_back_always=1,elitism=none", "plain", ""}, // plain's own values
		{"papp, elitism = none ,same_colour=10", "papp,same_colour=10,elitism=none", ""},
		{"papp,country=2/1/0,float_back_always=true", "papp,float_back_always=1,country=2/1/0", ""},
		{"papp,elitism=100", "papp,elitism=100", ""},
		{"swiss", "", "start with a preset"},
		{"papp,foo=1", "", "the names: rematch"},
		{"papp,gap", "", "want name=value"},
		{"papp,same_colour=x", "", "want a number"},
		{"papp,gap=1/x", "", "numbers separated by /"},
		{"papp,colour=-1/2", "", "outside"},
		{"papp,gap=none", "", "colour and gap"},
		{"papp,float_back_always=2", "", "0 or 1"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			m, err := ParsePairingModel(tc.in)
			switch {
			case tc.err == "" && (err != nil || string(m) != tc.want):
				t.Errorf("ParsePairingModel(%q) = %q, %v; want %q", tc.in, m, err, tc.want)
			case tc.err != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("ParsePairingModel(%q) = %q, %v; want an error with %q", tc.in, m, err, tc.err)
			}
		})
	}
	w, err := PairingModel("papp,same_colour=10").Weights()
	if want := pairing.Papp(); err != nil || w.SameColour != 10 || w.Rematch != want.Rematch || len(w.Elitism) != 10 || w.FloatBackAlways {
		t.Errorf("weights %+v, %v", w, err)
	}
	if w, _ := PairingModel("").Weights(); w.Elitism != nil || !w.FloatBackAlways {
		t.Errorf("the empty model (settings from before it) is not plain: %+v", w)
	}
}

// TestPairingModelSetting: new tournaments use Papp's model; it changes until
// round 1 is paired, not after, like the other options that decide pairings.
func TestPairingModelSetting(t *testing.T) {
	tm := club(t, 4, 3)
	if tm.Pairing != PairingPapp {
		t.Fatalf("default model %q, want papp", tm.Pairing)
	}
	s := tm.Settings
	s.Pairing = "plain"
	if _, err := tm.ChangeSettings(s); err != nil {
		t.Fatal(err)
	}
	s.Pairing = "papp,elitism=none"
	if _, err := tm.ChangeSettings(s); err != nil {
		t.Fatal(err)
	}
	s.Pairing = "papp, elitism=none" // not canonical
	if _, err := tm.ChangeSettings(s); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `write it "papp,elitism=none"`) {
		t.Errorf("ChangeSettings(non-canonical) = %v", err)
	}
	if _, err := tm.Pair(PairOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Pairing = "papp"
	if _, err := tm.ChangeSettings(s); !errors.Is(err, ErrSettingFixed) || !strings.Contains(err.Error(), "--pairing") {
		t.Errorf("ChangeSettings(pairing) after round 1 = %v, want ErrSettingFixed", err)
	}
	s.Pairing = tm.Pairing
	s.Name = "Club 2"
	if _, err := tm.ChangeSettings(s); err != nil {
		t.Errorf("ChangeSettings(name) after round 1 = %v", err)
	}
}

// TestPairLastResort: 9 players, 10 rounds. After 9 rounds every player has
// had the bye, so round 10 needs a second bye (or a rematch with the same
// colours): Papp's "infinity" is a finite cost, so the round is paired, the
// least bad way, and the change says so. Before issue 10, otd refused.
func TestPairLastResort(t *testing.T) {
	tm := club(t, 9, 10)
	for r := 1; r <= 10; r++ {
		c, err := tm.Pair(PairOptions{})
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if r == 10 && (c.Subject != "round 10" || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "no pairing avoids")) {
			t.Errorf("round 10: change %q, notes %q: does not note which last resort it took", c.Subject, c.Notes)
		}
		finish(t, tm)
	}
}

// TestPairingHistoryPoints: the pairing sees what each game gave (2 a win, 1
// a draw, 0 a loss; a bye none), which Papp's float compensation reads.
func TestPairingHistoryPoints(t *testing.T) {
	tm := pairedClub(t, 4, [][2]int{{1, 2}, {3, 4}}) // finish: black wins 40-24
	if _, err := tm.Pair(PairOptions{Manual: true, Forced: [][2]int{{2, 4}, {1, 3}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.RecordResult(At(2, 1), ResultInput{Black: 32, White: 32, HasScore: true}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.RecordResult(At(2, 2), ResultInput{Black: 20, White: 44, HasScore: true}, false); err != nil {
		t.Fatal(err)
	}
	in, err := tm.pairingInput(3, nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int][]int{1: {2, 0}, 2: {0, 1}, 3: {2, 2}, 4: {0, 1}}
	for _, p := range in.Players {
		var got []int
		for _, g := range p.Games {
			got = append(got, g.Points)
		}
		if !slices.Equal(got, want[p.ID]) {
			t.Errorf("player %d: game points %v, want %v", p.ID, got, want[p.ID])
		}
	}
}
