package elo_test

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/otd-project/otd/elo"
)

// FuzzRead: Read never panics; it refuses a file with a *ParseError wrapping
// ErrInvalid, in one line of bounded length (a quoted line is cut); a file it
// reads is written again (or refused with ErrValue, before any line) and the
// written file reads back with the same header, standings, games and otd's
// rules, rounds, forfeits, time defaults and byes. (otd's lines of players
// and names are written for the players of the standings only.) Seeds:
// testdata/fuzz/FuzzRead and the files below.
func FuzzRead(f *testing.F) {
	f.Add([]byte(clubText))
	f.Add([]byte("%%Tournament: Club\n%_%  +    1, ONE, Ann, FRA, 1, 40, 0\n%_%  +    2, TWO, Bob, FRA, 0, 24, 0\n%Round: 1\n     1 (40)>(24)      2 B\n"))
	f.Add([]byte("%%Tournament: X\r\n%_%      1, A, B, C, 0.5, 32, 2000\r\n%_%      2, D, E, F, 0.5, 32, -\r\n%Round: 1\r\n1 (32)=(32) 2\r\n%%Added results\r\n1 (32)<(32) 2 B\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := elo.Read(bytes.NewReader(data))
		if err != nil {
			var pe *elo.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%v (%T) is not a *ParseError", err, err)
			}
			checkOneLine(t, err, elo.ErrInvalid)
			return
		}
		var w bytes.Buffer
		if err := e.Write(&w); err != nil {
			checkOneLine(t, err, elo.ErrValue)
			if w.Len() != 0 {
				t.Fatalf("%d bytes written before refusing", w.Len())
			}
			return
		}
		again, err := elo.Read(&w)
		if err != nil {
			t.Fatalf("the file written does not read back: %v\n%s", err, w.String())
		}
		same := func(what string, a, b any) {
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s read back as %+v; written %+v", what, b, a)
			}
		}
		same("header", e.Header, again.Header)
		same("standings", e.Standings, again.Standings)
		same("rounds", e.Rounds, again.Rounds)
		same("added results", e.Added, again.Added)
		if o, a := e.Otd, again.Otd; o != nil {
			if a == nil {
				t.Fatal("otd's lines not read back")
			}
			same("otd's rules", []any{o.Rounds, o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks}, []any{a.Rounds, a.BQ, a.TimeDefault, a.ByePoints, a.TieBreaks})
			same("forfeits", o.Forfeits, a.Forfeits)
			same("time defaults", o.TimeDefaults, a.TimeDefaults)
			same("byes", o.Byes, a.Byes)
		}
	})
}

// checkOneLine fails unless err wraps want and is one readable line.
func checkOneLine(t *testing.T, err, want error) {
	t.Helper()
	msg := err.Error()
	if !errors.Is(err, want) {
		t.Fatalf("%v does not wrap %v", err, want)
	}
	if strings.ContainsAny(msg, "\n\r") || len(msg) > 1000 || !utf8.ValidString(msg) {
		t.Fatalf("not one readable line (%d bytes): %.300q", len(msg), msg)
	}
}

// FuzzReadWith: ReadWith under each rule for a sign that contradicts the
// discs never panics, refuses only with a *ParseError in one line, and
// reads what Read reads for a file without such a line; a game without
// discs has none, and a game with a loser has equal discs or none. Seeds:
// the layouts of the WOF archive.
func FuzzReadWith(f *testing.F) {
	f.Add([]byte("%Round1\n 11 > 22\n 33 < 44 B\n 55=66\n%12 had a bye\n"), uint8(0))
	f.Add([]byte("%_% ??????, A, B, ?, 1.0, 64\n%_% 8, C, D, ?, 0, 0\n%Round PO\n ?????? (64)>(00) 8\n"), uint8(1))
	f.Add([]byte("%_% 1, A, B, J, 1.0, 25\n%_% 2, C, D, J, 0.0, 39\n% Round 1\n 1 (25)>(39) 2\n%%Round: 2\n 2 (32)>(32) 1 W\n"), uint8(2))
	f.Add([]byte("%_%  5, A, B, NL, 4,5, 264\n%_% ID, NAME\n 5 (40)>(24) 6 %a comment\n%Semi-finals\n5 > 6 6 > 5\n"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, rule uint8) {
		sign := []elo.SignRule{elo.SignRefuse, elo.SignDiscs, elo.SignSign}[rule%3]
		e, err := elo.ReadWith(bytes.NewReader(data), elo.Options{Sign: sign})
		strict, serr := elo.Read(bytes.NewReader(data))
		if err != nil {
			var pe *elo.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%v (%T) is not a *ParseError", err, err)
			}
			checkOneLine(t, err, elo.ErrInvalid)
			if serr == nil {
				t.Fatalf("refused under %q, read by Read: %v", sign, err)
			}
			return
		}
		if serr == nil && !reflect.DeepEqual(e, strict) {
			t.Fatalf("read under %q differs from Read's", sign)
		}
		for _, gs := range append(append(slices.Clone(e.Rounds), e.Added), e.Unrounded) {
			for _, g := range gs {
				if g.NoDiscs && (g.BlackDiscs != 0 || g.WhiteDiscs != 0) || g.Loser != "" && !g.NoDiscs && g.BlackDiscs != g.WhiteDiscs {
					t.Fatalf("game %+v", g)
				}
			}
		}
	})
}
