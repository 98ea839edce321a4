package ftd_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/otd-project/otd/ftd"
)

// FuzzRead: Read never panics; it refuses a file with a *ParseError
// wrapping ErrInvalid, in one line, placed inside the file (line and
// column of an existing byte, or just past the end); a file it reads has
// every paired player in its players_list, each at most once in a Swiss
// round, and results that are scores (Black's discs and 64 minus them).
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"players_list": [{"id": 1, "surname": "ONE"}, {"id": 2, "surname": "TWO"}], "standings": [{"player_id": 1, "score": 1, "mbq": 40}],
 "rounds": [{"currentRound": 1, "pairing": [[{"id": 1, "score": 40, "result": 2, "transcript": "f5d6"}, {"id": 2}]]},
  {"currentRound": 108, "pairing": ["open", [{"id": 2, "score": 32, "result": 1, "gameName": "SF1"}, {"id": 1}], [{"id": 1}, {"id": -1}]]}],
 "info": {"name": "X", "rounds": 1, "mbq_coef": "6", "finals": 1, "roundNames": [{"round": 108, "round_name": "SF"}]}}`))
	f.Add([]byte(`{"players_list": [], "rounds": [], "info": {"mbq_coef": 6}}`))
	f.Add([]byte("{\"players_list\": [{\"id\": 1}],\n\"rounds\": [{\"currentRound\": 1, \"pairing\": [[{\"id\": 1}, {\"id\": 3}]]}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := ftd.Read(bytes.NewReader(data))
		if err != nil {
			var pe *ftd.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ftd.ErrInvalid) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("%q (%T)", err, err)
			}
			if pe.Line > 0 {
				lines := bytes.Split(data, []byte{'\n'})
				if pe.Line > len(lines) || pe.Column < 1 || pe.Column > len(lines[pe.Line-1])+1 {
					t.Fatalf("%v: line %d column %d is not in the file", err, pe.Line, pe.Column)
				}
			}
			return
		}
		ids := map[int]bool{}
		for _, p := range file.Players {
			ids[p.ID] = true
		}
		for _, r := range file.Rounds {
			seen := map[int]bool{}
			for _, g := range r.Games {
				if !ids[g.Black] || !g.IsBye() && !ids[g.White] || g.Black == g.White {
					t.Fatalf("round %d: %d-%d: not two players of the file", r.Number, g.Black, g.White)
				}
				if r.Number < ftd.SemiFinals && (seen[g.Black] || seen[g.White]) {
					t.Fatalf("round %d: a player twice", r.Number)
				}
				seen[g.Black], seen[g.White] = true, !g.IsBye()
				if g.HasResult && (g.IsBye() || g.BlackDiscs < 0 || g.BlackDiscs+g.WhiteDiscs != 64) {
					t.Fatalf("round %d: result %d-%d", r.Number, g.BlackDiscs, g.WhiteDiscs)
				}
			}
		}
	})
}
