package fakeengine

import (
	"math/bits"
	"os"
	"slices"
	"testing"
)

func TestArgv(t *testing.T) {
	got := Argv("nboard", "late", 3, "delay=1s", "quiet")
	want := []string{os.Args[0], "otd-fake-engine", "nboard", "late", "3", "delay=1s", "quiet"}
	if !slices.Equal(got, want) {
		t.Errorf("Argv = %q; want %q", got, want)
	}
	if _, ok := Main(); ok {
		t.Error("Main runs an engine in a test binary started as a test")
	}
}

func TestParseGGF(t *testing.T) {
	const head = "(;GM[Othello]PC[x]TI[05:00]TY[8]BO[" + startBO + "]"
	for _, tc := range []struct {
		game  string
		discs int // on the board after the game; -1 for an error
	}{
		{head + ";)", 4},
		{head + "B[F5]W[d6/1.0/2];)", 6},
		{head + "B[F5]W[F5];)", -1}, // an occupied square
		{head + "B[F5]B[D6];)", -1}, // a colour out of turn
		{"(;GM[Othello]TY[8]BO[8 " + "--------" + " *];)", -1},
		{head + "B[F5]", -1},
		{"(;GM[Othello];)", -1},
	} {
		p, err := parseGGF(tc.game)
		if n := bits.OnesCount64(p.Black | p.White); tc.discs < 0 && err == nil || tc.discs >= 0 && (err != nil || n != tc.discs) {
			t.Errorf("parseGGF(%q) = %d discs, %v; want %d", tc.game, n, err, tc.discs)
		}
	}
}
