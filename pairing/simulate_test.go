package pairing

import (
	"errors"
	"fmt"
	"testing"
)

func TestSimulate(t *testing.T) {
	tests := []struct {
		cfg   SimConfig
		worst int // the largest |blacks - whites| allowed
	}{
		{SimConfig{Players: 40, Rounds: 7, Seed: 1}, 3}, // in small fields |B-W| = 3 can be cheaper than a float
		{SimConfig{Players: 41, Rounds: 9, Seed: 2}, 3},
		{SimConfig{Players: 1000, Rounds: 13, Seed: 1}, 2}, // issue 3's criterion
		{SimConfig{Players: 10, Rounds: 0, Seed: 1, System: SystemRoundRobin}, 2},
		{SimConfig{Players: 9, Rounds: 5, Seed: 1, System: SystemRoundRobin}, 2},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v-%d-%d", tt.cfg.System, tt.cfg.Players, tt.cfg.Rounds), func(t *testing.T) {
			rep, err := Simulate(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Rematches != 0 || rep.DoubleByes != 0 || rep.Violations != 0 || rep.ExcessGaps != 0 || rep.WorstColour > tt.worst {
				t.Errorf("rematches %d, double byes %d, violations %d, excess gaps %d, worst colour %d",
					rep.Rematches, rep.DoubleByes, rep.Violations, rep.ExcessGaps, rep.WorstColour)
			}
			if len(rep.PerRound) != rep.Rounds || tt.cfg.Rounds != 0 && rep.Rounds != tt.cfg.Rounds {
				t.Errorf("%d rounds reported, want %d", len(rep.PerRound), rep.Rounds)
			}
			for _, r := range rep.PerRound {
				if r.Pairs != tt.cfg.Players/2 || (r.Bye != 0) != (tt.cfg.Players%2 == 1) {
					t.Errorf("round %d: %d pairs, bye %d", r.Round, r.Pairs, r.Bye)
				}
				if tt.cfg.System == SystemSwiss && r.ForcedGap > r.MaxGap {
					t.Errorf("round %d: forced gap %d above the largest %d", r.Round, r.ForcedGap, r.MaxGap)
				}
			}
		})
	}
}

func TestSimulateErrors(t *testing.T) {
	for _, cfg := range []SimConfig{
		{Players: 1, Rounds: 3},
		{Players: 10, Rounds: 0},
		{Players: 10, Rounds: -1},
		{Players: 1001, System: SystemRoundRobin},
	} {
		if _, err := Simulate(cfg); err == nil {
			t.Errorf("Simulate(%+v) succeeded", cfg)
		}
	}
	// Round 4 of 3 players: all have had the bye; Papp's "infinity" is a
	// finite cost, so the round is paired with a second bye, the least bad.
	if rep, err := Simulate(SimConfig{Players: 3, Rounds: 4}); err != nil || rep.DoubleByes != 1 {
		t.Errorf("3 players, 4 rounds: %d double byes, err = %v; want 1, nil", rep.DoubleByes, err)
	}
}

func TestParseSystem(t *testing.T) {
	for _, s := range []System{SystemSwiss, SystemRoundRobin} {
		if got, err := ParseSystem(s.String()); got != s || err != nil {
			t.Errorf("ParseSystem(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseSystem("dutch"); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("ParseSystem(dutch) err = %v", err)
	}
}

func ExampleSimulate() {
	rep, err := Simulate(SimConfig{Players: 30, Rounds: 5, Seed: 7})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("rematches:", rep.Rematches, "double byes:", rep.DoubleByes, "worst |B-W|:", rep.WorstColour)
	for _, r := range rep.PerRound {
		fmt.Printf("round %d: %d pairs, %d across score groups, largest gap %d (forced %d)\n", r.Round, r.Pairs, r.Floats, r.MaxGap, r.ForcedGap)
	}
	// Output:
	// rematches: 0 double byes: 0 worst |B-W|: 2
	// round 1: 15 pairs, 0 across score groups, largest gap 0 (forced 0)
	// round 2: 15 pairs, 1 across score groups, largest gap 2 (forced 2)
	// round 3: 15 pairs, 0 across score groups, largest gap 0 (forced 0)
	// round 4: 15 pairs, 1 across score groups, largest gap 2 (forced 2)
	// round 5: 15 pairs, 0 across score groups, largest gap 0 (forced 0)
}
