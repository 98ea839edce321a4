package scoring_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/otd-project/otd/scoring"
)

func TestParseBQRule(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want scoring.BQRule
	}{
		{"nearest", scoring.BQRule{}},
		{"WOF", scoring.BQRule{Kind: scoring.WOF}},
		{"exact", scoring.BQRule{Kind: scoring.Exact}},
		{"0", scoring.BQRule{Kind: scoring.Fixed}},
		{"6", scoring.BQRule{Kind: scoring.Fixed, C: 6}},
		{"64", scoring.BQRule{Kind: scoring.Fixed, C: 64}},
	} {
		got, err := scoring.ParseBQRule(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseBQRule(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "near", "65", "-1", "+6", "6.5", " 6", "1e1"} {
		if _, err := scoring.ParseBQRule(in); !errors.Is(err, scoring.ErrSyntax) {
			t.Errorf("ParseBQRule(%q): err = %v, want ErrSyntax", in, err)
		}
	}
}

func TestBQConstant(t *testing.T) {
	for _, tt := range []struct {
		rule             string
		rounds, num, den int
	}{
		{"nearest", 13, 5, 1}, {"nearest", 7, 9, 1}, {"nearest", 5, 13, 1}, {"nearest", 11, 6, 1}, {"nearest", 1, 64, 1},
		{"wof", 13, 6, 1}, {"wof", 8, 6, 1}, {"wof", 7, 0, 1},
		{"exact", 13, 64, 13}, {"exact", 7, 64, 7},
		{"6", 13, 6, 1},
	} {
		r, _ := scoring.ParseBQRule(tt.rule)
		if num, den := (scoring.Rules{BQ: r}).Constant(tt.rounds); num != tt.num || den != tt.den {
			t.Errorf("%s, %d rounds: c = %d/%d, want %d/%d", tt.rule, tt.rounds, num, den, tt.num, tt.den)
		}
	}
}

func TestParseTimePolicyAndByePoints(t *testing.T) {
	for i, s := range []string{"complete", "fixed", "Wipeout"} {
		if p, err := scoring.ParseTimePolicy(s); err != nil || p != scoring.TimePolicy(i) {
			t.Errorf("ParseTimePolicy(%q) = %v, %v", s, p, err)
		}
	}
	if _, err := scoring.ParseTimePolicy("forfeit"); !errors.Is(err, scoring.ErrSyntax) {
		t.Errorf("ParseTimePolicy(forfeit): %v", err)
	}
	for s, want := range map[string]scoring.HalfPoints{"1": scoring.Point, "0.5": scoring.Half, "1.0": scoring.Point} {
		if h, err := scoring.ParseByePoints(s); err != nil || h != want {
			t.Errorf("ParseByePoints(%q) = %v, %v", s, h, err)
		}
	}
	for _, s := range []string{"0", "1.5", "2", "x"} {
		if _, err := scoring.ParseByePoints(s); !errors.Is(err, scoring.ErrSyntax) {
			t.Errorf("ParseByePoints(%q): %v", s, err)
		}
	}
}

func TestParseTieBreaks(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want scoring.TieBreaks
	}{
		{"points,bq,discs,h2h", scoring.TieBreaks{scoring.ByPoints, scoring.ByBQ, scoring.ByDiscs, scoring.ByH2H}},
		{"points, BQ", scoring.TieBreaks{scoring.ByPoints, scoring.ByBQ}},
		{"japanese", scoring.TieBreaks{scoring.ByWins, scoring.ByDiscDiff, scoring.ByH2H}},
		{"discs,wins,diff", scoring.TieBreaks{scoring.ByDiscs, scoring.ByWins, scoring.ByDiscDiff}},
	} {
		got, err := scoring.ParseTieBreaks(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseTieBreaks(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "points,", "points,points", "points,elo", "japanese,bq"} {
		if _, err := scoring.ParseTieBreaks(in); !errors.Is(err, scoring.ErrSyntax) {
			t.Errorf("ParseTieBreaks(%q): err = %v, want ErrSyntax", in, err)
		}
	}
	if s := (scoring.TieBreaks{scoring.ByWins, scoring.ByDiscDiff, scoring.ByH2H}).String(); s != "wins,diff,h2h" {
		t.Errorf("String = %q", s)
	}
}

func TestRulesValidate(t *testing.T) {
	if err := (scoring.Rules{}).Validate(); err != nil {
		t.Errorf("zero Rules: %v", err)
	}
	for _, r := range []scoring.Rules{
		{BQ: scoring.BQRule{Kind: 9}},
		{BQ: scoring.BQRule{Kind: scoring.Fixed, C: 65}},
		{BQ: scoring.BQRule{Kind: scoring.Fixed, C: -1}},
		{BQ: scoring.BQRule{Kind: scoring.Nearest, C: 5}},
		{TimeDefault: 3},
		{ByePoints: -1},
		{ByePoints: 3},
		{ByeDiscs: 31},
		{ByeDiscs: -2},
		{ByeDiscs: 65},
		{TieBreaks: scoring.TieBreaks{0}},
		{TieBreaks: scoring.TieBreaks{scoring.ByDiscDiff + 1}},
		{TieBreaks: scoring.TieBreaks{scoring.ByBQ, scoring.ByBQ}},
	} {
		if err := r.Validate(); !errors.Is(err, scoring.ErrOption) {
			t.Errorf("%+v: err = %v, want ErrOption", r, err)
		}
	}
}
