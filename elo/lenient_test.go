package elo_test

import (
	"strings"
	"testing"

	"github.com/otd-project/otd/elo"
)

// FuzzParseLenient: --lenient is read or refused in one line, and a value
// read is one of the rules.
func FuzzParseLenient(f *testing.F) {
	for _, s := range []string{"", "sign=discs", "sign=sign,rounds=split", "totals=games,listed=first", "sign=x", ",,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := elo.ParseLenient(s)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("not one line: %q", err)
			}
			return
		}
		if l.Sign != "" && l.Sign != elo.SignDiscs && l.Sign != elo.SignSign || l.Rounds != "" && l.Rounds != "split" || l.Totals != "" && l.Totals != "games" || l.Listed != "" && l.Listed != "first" {
			t.Fatalf("%q read as %+v", s, l)
		}
		if again, err := elo.ParseLenient(l.String()); err != nil || again != l {
			t.Fatalf("%q read as %+v, written %q, read again as %+v, %v", s, l, l.String(), again, err)
		}
	})
}
