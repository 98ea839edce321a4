package export_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/tournament"
)

// FuzzFromELO: a file that elo.Read reads is built into a tournament or
// refused with elo.ErrInvalid in one line of bounded length (a quoted name
// is cut), never a panic; a valid tournament built from it makes a file
// again (or one refused with elo.ErrValue), which reads back with the same
// players. Seeds: testdata/fuzz/FuzzFromELO and the files below.
func FuzzFromELO(f *testing.F) {
	tm := smallEvent()
	tm.Players[0].Name = "SMITH, John, Jr."
	fe, err := export.ToELO(tm, smallMeta)
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	if err := fe.Write(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte("%%Tournament: Club\n%_%  +    1, ONE, Ann, FRA, 1, 40, 0\n%_%  +    2, TWO, Bob, FRA, 0, 24, 0\n%Round: 1\n     1 (40)>(24)      2 B\n"))
	f.Add([]byte("%%Tournament: X\r\n%_%      1, A, B, C, 0.5, 32, 2000\r\n%_%      2, D, E, F, 0.5, 32, -\r\n%Round: 1\r\n1 (32)=(32) 2\r\n%%Added results\r\n1 (32)<(32) 2 B\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := elo.Read(bytes.NewReader(data))
		if err != nil {
			return // elo.FuzzRead's
		}
		back, _, err := export.FromELO(e, export.ELOSettings(e, tournament.DefaultSettings("", 1)))
		if err != nil {
			checkOneLine(t, err, elo.ErrInvalid)
			return
		}
		if back.Validate() != nil {
			return
		}
		out, err := export.ToELO(back, export.ELOMeta(back))
		if err != nil {
			return // e.g. two players with one WOF id
		}
		if len(out.Rounds) == 0 {
			return // no round finished: a file without %Round lines, which elo.Read refuses
		}
		var w bytes.Buffer
		if err := out.Write(&w); err != nil {
			checkOneLine(t, err, elo.ErrValue)
			return
		}
		again, err := elo.Read(&w)
		if err != nil {
			t.Fatalf("otd's own file does not read back: %v\n%s", err, w.String())
		}
		if len(again.Standings) != len(out.Standings) {
			t.Fatalf("%d players read back; %d written", len(again.Standings), len(out.Standings))
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
