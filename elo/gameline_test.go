package elo

import (
	"slices"
	"testing"
)

// FuzzGameLine: matchGameLine, where it answers, gives what the regexp
// gameLine gives; and it answers the lines of games the files write.
func FuzzGameLine(f *testing.F) {
	for _, s := range []string{
		"    79 (40)>(24)      2 B", "15 (33)>(31) 16", "  2 (32)=(32)     79 B ", "79 > 2", "79>2", "?????? (20)<(44) 15 W",
		"15 (33)>(31) ??????", "1 ( 33 ) > ( 31 ) 2 b", "12 (64)<(00) 15\r", "1 (33)>(31) 2B", "1 (33)>(31) 2 B X", "1 (33)>(31) 2 x",
		"1 (33) (31) 2", "1 (33)>31 2", "(33)>(31) 2", "1 (33)>(31)", "1 2 (33)>(31) 3 4 (20)<(44) 5", "1?? > 2", "?12 > 3", "1 (3?)>(31) 2",
		"\t1\f(33)>(31)\v2", "", " ", "%Round: 1", "1 = 2 W  ", "1 (33)>(31) 2 B\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast := matchGameLine(s)
		if fast == nil {
			return // the regexp is asked
		}
		if re := gameLine.FindStringSubmatchIndex(s); !slices.Equal(fast, re) {
			t.Errorf("matchGameLine(%q) = %v, the regexp gives %v", s, fast, re)
		}
	})
}

// TestGameLineFast: the usual lines are read without the regexp.
func TestGameLineFast(t *testing.T) {
	for _, s := range []string{"    79 (40)>(24)      2 B", "15 (33)>(31) 16", "79 > 2", "?????? (20)<(44) 15 W", "1 ( 33 ) > ( 31 ) 2 b"} {
		if matchGameLine(s) == nil {
			t.Errorf("matchGameLine(%q) = nil, want a game", s)
		}
	}
}
