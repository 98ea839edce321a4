package ftd_test

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/ftd"
	"github.com/otd-project/otd/internal/testenv"
)

func readFile(t *testing.T, path string) *ftd.File {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f, err := ftd.Read(fh)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestReadReal reads the four real files of
// ../shared/data/othello-tournaments-ftd/raw and checks every pair against
// ftd_games.csv, the same games flattened by another hand (round, board,
// players, discs, result code, transcript; a bye's white -1), and every
// standing against ftd_standings.csv.
func TestReadReal(t *testing.T) {
	games := testenv.CSV(t, "othello-tournaments-ftd/ftd_games.csv")[1:]
	standings := testenv.CSV(t, "othello-tournaments-ftd/ftd_standings.csv")[1:]
	checked := 0
	for _, id := range []string{"559", "573", "579", "591"} {
		f := readFile(t, testenv.SharedFile(t, "othello-tournaments-ftd/raw/tournament_"+id+".json"))
		var got []string
		for _, r := range f.Rounds {
			for board, g := range r.Games {
				white, bd, wd, code := strconv.Itoa(g.White), "", "", ""
				if g.IsBye() {
					white = "-1"
				}
				if g.HasResult {
					bd, wd = strconv.Itoa(g.BlackDiscs), strconv.Itoa(g.WhiteDiscs)
					code = map[bool]string{g.BlackDiscs > 32: "2", g.BlackDiscs == 32: "1", g.BlackDiscs < 32: "0"}[true]
				}
				got = append(got, strings.Join([]string{id, strconv.Itoa(r.Number), strconv.Itoa(board), strconv.Itoa(g.Black), white, bd, wd, code, g.Transcript}, ","))
			}
		}
		var want []string
		for _, row := range games {
			if row[0] == id {
				want = append(want, strings.Join([]string{row[0], row[1], row[3], row[4], row[6], row[8], row[9], row[10], row[11]}, ","))
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d pairs read, %d in ftd_games.csv", id, len(got), len(want))
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("%s: pair %d: read %s\nftd_games.csv has %s", id, i, got[i], want[i])
			}
			checked++
		}
		var published []string
		for _, row := range standings {
			if row[0] == id {
				published = append(published, strings.Join([]string{row[4], row[5], row[6], row[7], row[8], row[9], row[10], row[2]}, ","))
			}
		}
		for i, s := range f.Standings {
			p, _ := f.Player(s.PlayerID)
			left := ""
			if s.LeftAfter != 0 {
				left = strconv.Itoa(s.LeftAfter)
			}
			line := strings.Join([]string{strconv.Itoa(s.PlayerID), p.Surname, p.Name, p.Country, strconv.FormatFloat(float64(s.Points)/2, 'f', -1, 64),
				strconv.FormatFloat(s.MBQ, 'f', -1, 64), left, strconv.Itoa(f.Info.Rounds)}, ",")
			if i >= len(published) || line != published[i] {
				t.Errorf("%s: standing %d: %s; ftd_standings.csv: %q", id, i+1, line, published[min(i, len(published)-1)])
			}
		}
	}
	if checked != len(games) {
		t.Errorf("checked %d pairs of %d", checked, len(games))
	}
}

// TestReadErrors: what a file gets wrong, said with the line, column and
// path of the value.
func TestReadErrors(t *testing.T) {
	const players = `"players_list": [{"id": 1, "surname": "ONE"}, {"id": 2, "surname": "TWO"}]`
	pair := func(s string) string {
		return `{` + players + `, "rounds": [{"currentRound": 1, "pairing": [` + s + `]}]}`
	}
	for _, tc := range []struct{ name, in, want string }{
		{"empty", ``, `line 1, column 1: JSON syntax: unexpected end of JSON input`},
		{"syntax", "{\"players_list\": [],\n \"rounds\": [1 2]}", `line 2, column 15: JSON syntax: invalid character '2' after array element`},
		{"not an object", `[]`, `line 1, column 1: expected an object {...}, found a list`},
		{"no rounds", `{` + players + `}`, `no "rounds": a FlipTheDisc tournament file has its players and rounds`},
		{"type", `{"players_list": [{"id": "1"}], "rounds": []}`, `line 1, column 19: players_list[0]: id: expected a whole number, found a JSON string`},
		{"no id", `{"players_list": [{"surname": "X"}], "rounds": []}`, `line 1, column 19: players_list[0]: a player without an "id"`},
		{"twice", `{"players_list": [], "players_list": [], "rounds": []}`, `line 1, column 38: players_list: "players_list" appears twice`},
		{"no round number", `{` + players + `, "rounds": [{"pairing": []}]}`, `rounds[0]: a round without "currentRound", its number`},
		{"not a pair", pair(`[{"id": 1}]`), `rounds[0].pairing[0]: expected a pair of two players, each with an "id"`},
		{"not a pair either", pair(`3`), `rounds[0].pairing[0]: expected a pair [black, white] or a category's name`},
		{"score type", pair(`[{"id": 1, "score": "40", "result": 2}, {"id": 2}]`), `line 1, column 121: rounds[0].pairing[0]: score: expected a whole number, found a JSON string`},
		{"score range", pair(`[{"id": 1, "score": 65, "result": 2}, {"id": 2}]`), `score 65: expected Black's discs, 0 to 64`},
		{"result code", pair(`[{"id": 1, "score": 40, "result": 3}, {"id": 2}]`), `result 3: expected 2 (a win), 1 (a draw) or 0 (a loss)`},
		{"contradiction", pair(`[{"id": 1, "score": 30, "result": 2}, {"id": 2}]`), `line 1, column 121: rounds[0].pairing[0]: score 30-34 is a loss, but the result code 2 says a win`},
		{"half a result", pair(`[{"id": 1, "score": 30}, {"id": 2}]`), `a score without a result code, or a result code without a score`},
		{"bye result", pair(`[{"id": 1, "score": 40, "result": 2}, {"id": -1}]`), `a bye with a result`},
		{"themselves", pair(`[{"id": 1}, {"id": 1}]`), `player 1 plays against themselves`},
		{"unknown", pair(`[{"id": 1}, {"id": 7}]`), `rounds[0].pairing[0]: player id 7 is not in players_list`},
		{"paired twice", pair(`[{"id": 1}, {"id": 2}], [{"id": 2}, {"id": -1}]`), `rounds[0].pairing[1]: round 1: TWO is paired twice`},
		{"listed twice", `{"players_list": [{"id": 1}, {"id": 1}], "rounds": []}`, `players_list[1]: player id 1 is listed twice`},
		{"standing", `{` + players + `, "standings": [{"player_id": 3, "score": 1}], "rounds": []}`, `standings[0]: player id 3 is not in players_list`},
		{"half points", `{` + players + `, "standings": [{"player_id": 1, "score": 1.25}], "rounds": []}`, `standings[0]: score 1.25: expected points in halves, such as 4 or 4.5`},
		{"round twice", `{` + players + `, "rounds": [{"currentRound": 1, "pairing": []}, {"currentRound": 1, "pairing": []}]}`, `rounds[1]: round 1 appears twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ftd.Read(strings.NewReader(tc.in))
			var pe *ftd.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ftd.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v (%T); want a *ParseError with %q", err, err, tc.want)
			}
		})
	}
}

// TestReadTooLarge: a file over MaxSize is refused after reading MaxSize+1 bytes.
func TestReadTooLarge(t *testing.T) {
	r := &counter{n: ftd.MaxSize + 10}
	_, err := ftd.Read(r)
	if !errors.Is(err, ftd.ErrInvalid) || !strings.Contains(err.Error(), "larger than 16 MiB") || r.read != ftd.MaxSize+1 {
		t.Fatalf("%v after %d bytes", err, r.read)
	}
}

// counter is an input of n spaces that counts the bytes read.
type counter struct{ n, read int }

func (c *counter) Read(p []byte) (int, error) {
	if c.read >= c.n {
		return 0, fmt.Errorf("read past the end")
	}
	k := min(len(p), c.n-c.read)
	for i := range k {
		p[i] = ' '
	}
	c.read += k
	return k, nil
}
