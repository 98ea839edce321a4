package export_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/ftd"
	"github.com/otd-project/otd/interchange"
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
	f.Add([]byte("%Round1\n 11 > 22\n 22 < 33 B\n%Round 1\n 11 = 33\n"))
	f.Add([]byte("%_% ??????, A, B, ?, 2.0, 128\n%_% 8, C, D, ?, 0, 0\n%Round PO\n ?????? (64)>(00) 8\n ?????? (64)>(00) 8\n"))
	f.Add([]byte("%_% 1, A, B, J, 2.0, 64\n%_% 2, C, D, J, 0.0, 64\n%_% 2, C, D, J, 0.0, 64\n% Round 1\n 1 (32)>(32) 2\n 1 (32)>(32) 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := elo.Read(bytes.NewReader(data))
		if err != nil {
			return // elo.FuzzRead's
		}
		// Every lenient rule: a tournament or an error in one line, never a panic.
		l := elo.Lenient{Rounds: "split", Totals: "games", Listed: "first"}
		if tm, _, err := interchange.FromELOWith(e, tournament.DefaultSettings("x", 1), l); err != nil {
			checkOneLine(t, err, elo.ErrInvalid)
		} else if tm.Rounds <= 99 {
			if err := tm.Validate(); err != nil {
				t.Fatalf("lenient import: %v", err)
			}
		}
		back, _, err := interchange.FromELO(e, interchange.ELOSettings(e, tournament.DefaultSettings("", 1)))
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

// FuzzFromFTD: a file that ftd.Read reads is built into a tournament or
// refused with ftd.ErrInvalid in one line, never a panic; a tournament that
// validates has its standings and, where it has final games, its phases.
// Seeds: the hand-written final phase and the files below.
func FuzzFromFTD(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("..", "interchange", "testdata", "ftd_final.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"players_list": [{"id": 1, "surname": "ONE", "left_after_round": 1}, {"id": 2, "surname": "TWO"}, {"id": 3}],
 "standings": [{"player_id": 2, "score": 1}], "info": {"rounds": 2, "mbq_coef": "6"},
 "rounds": [{"currentRound": 1, "pairing": [[{"id": 2, "score": 40, "result": 2}, {"id": 1}], [{"id": 3}, {"id": -1}]]},
  {"currentRound": 2, "pairing": [[{"id": 2}, {"id": 3}]]}, {"currentRound": 110, "pairing": ["open", [{"id": 2, "score": 32, "result": 1}, {"id": 3}]]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ftd.Read(bytes.NewReader(data))
		if err != nil {
			return // ftd.FuzzRead's
		}
		tr, _, err := interchange.FromFTD(file, interchange.FTDSettings(file, tournament.DefaultSettings("", 1)))
		if err != nil {
			checkOneLine(t, err, ftd.ErrInvalid)
			return
		}
		if tr.Validate() != nil {
			return
		}
		if _, err := tr.Standings(tr.Paired()); err != nil {
			t.Fatalf("standings of a valid import: %v", err)
		}
		if _, err := tr.Phase(""); err != nil {
			t.Fatalf("the final phase of a valid import: %v", err)
		}
	})
}
