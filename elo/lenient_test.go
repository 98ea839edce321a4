package elo_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/elo"
)

// FuzzParseLenient: --lenient is read or refused in one line, and a value
// read is one of the rules.
func FuzzParseLenient(f *testing.F) {
	for _, s := range []string{"", "sign=discs", "sign=sign,rounds=split", "totals=games,listed=first", "games=list", "sign=x", ",,"} {
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
		if l.Sign != "" && l.Sign != elo.SignDiscs && l.Sign != elo.SignSign || l.Rounds != "" && l.Rounds != "split" || l.Totals != "" && l.Totals != "games" || l.Listed != "" && l.Listed != "first" || l.Games != "" && l.Games != "list" {
			t.Fatalf("%q read as %+v", s, l)
		}
		if again, err := elo.ParseLenient(l.String()); err != nil || again != l {
			t.Fatalf("%q read as %+v, written %q, read again as %+v, %v", s, l, l.String(), again, err)
		}
	})
}

// TestReadWithSigns: a game line whose sign contradicts its discs, and one
// whose discs add up to more than the board's 64 (27 + 38 = 65, a file of
// the WOF archive's 2018), are listed in File.Signs with their lines; the
// sign says who won under SignSign (both: the discs are not kept), the
// discs under SignDiscs (the first; the second is refused, as by Read).
func TestReadWithSigns(t *testing.T) {
	const file = "%Round: 1\n1 (30)>(34) 2 B\n3 (27)<(38) 4 B\n"
	f, err := elo.ReadWith(strings.NewReader(file), elo.Options{Sign: elo.SignSign})
	if err != nil {
		t.Fatal(err)
	}
	want := []elo.Game{{Black: 1, White: 2, NoDiscs: true, Loser: elo.White}, {Black: 3, White: 4, NoDiscs: true, Loser: elo.Black}}
	if !slices.Equal(f.Rounds[0], want) {
		t.Errorf("games %+v, want %+v", f.Rounds[0], want)
	}
	signs := []elo.Commented{{Line: 2, Game: elo.Game{Black: 1, BlackDiscs: 30, White: 2, WhiteDiscs: 34}}, {Line: 3, Game: elo.Game{Black: 3, BlackDiscs: 27, White: 4, WhiteDiscs: 38}}}
	if !slices.Equal(f.Signs, signs) {
		t.Errorf("signs %+v, want %+v", f.Signs, signs)
	}
	for _, sign := range []elo.SignRule{elo.SignDiscs, elo.SignRefuse} {
		if _, err := elo.ReadWith(strings.NewReader(file), elo.Options{Sign: sign}); err == nil || !strings.HasPrefix(err.Error(), map[elo.SignRule]string{elo.SignDiscs: "line 3: the discs add up to 65", elo.SignRefuse: "line 2: the discs do not match"}[sign]) {
			t.Errorf("sign %q: %v, want the file refused", sign, err)
		}
	}
}
