package transcript_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/testenv"
)

// wthorFiles are the WTHOR databases of ../shared/data/wthor with their game counts.
var wthorFiles = map[string]int{"WTH_2004.wtb": 9113, "WTH_2013.wtb": 2396, "WTH_2018.wtb": 2429, "WTH_2019.wtb": 1949}

func readWTHOR(t testing.TB, name string) []transcript.Game {
	t.Helper()
	dir := testenv.SharedFile(t, "wthor")
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var names transcript.Names
	var err error
	if names.Players, err = transcript.ParseNames(read("WTHOR.JOU"), 20); err != nil {
		t.Fatal(err)
	}
	if names.Tournaments, err = transcript.ParseNames(read("WTHOR.TRN"), 26); err != nil {
		t.Fatal(err)
	}
	games, err := transcript.ParseWTHOR(read(name), &names)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// TestWTHORSharedData: every game of the four WTHOR databases replays legally
// to its end and its stored black score (empties to the winner) agrees.
func TestWTHORSharedData(t *testing.T) {
	for name, count := range wthorFiles {
		t.Run(name, func(t *testing.T) {
			games := readWTHOR(t, name)
			if len(games) != count {
				t.Fatalf("%d games, want %d", len(games), count)
			}
			bad := 0
			for _, g := range games {
				r := transcript.Verify(g, nil)
				if !r.Agrees() && bad < 5 {
					bad++
					t.Errorf("%s (%s: %s vs %s): legal %v, over %v, score %v, stored %v",
						g.Name, g.Event, g.Black, g.White, r.Legal(), r.Over, r.Score, g.Result)
				}
				if strings.HasPrefix(g.Black, "player #") || strings.HasPrefix(g.Event, "tournament #") {
					t.Fatalf("%s: name not resolved: %q %q", g.Name, g.Black, g.Event)
				}
			}
		})
	}
}

type ftdGame struct {
	id, name string
	moves    string
	claimed  transcript.Result
}

func readFTD(t *testing.T) []ftdGame {
	t.Helper()
	rows := testenv.CSV(t, "othello-tournaments-ftd/ftd_games.csv")
	var out []ftdGame
	for _, r := range rows[1:] {
		if r[11] == "" {
			continue
		}
		var b, w int
		fmt.Sscan(r[8], &b)
		fmt.Sscan(r[9], &w)
		surname := func(s string) string { return strings.Fields(s)[0] }
		out = append(out, ftdGame{
			id:      fmt.Sprintf("%s r%s %s-%s", r[0], r[1], surname(r[5]), surname(r[7])),
			name:    r[5] + " - " + r[7],
			moves:   r[11],
			claimed: transcript.Result{Black: b, White: w},
		})
	}
	return out
}

// TestFTDTranscripts verifies every transcript of the four FlipTheDisc
// tournaments against its result slip: the games SOURCE.txt names disagree
// (with the true score it names), every other one agrees.
func TestFTDTranscripts(t *testing.T) {
	disagree := map[string]string{ // id -> what verify must find
		"559 r1 VAES-POLIAKOFF":   "18-46",
		"573 r1 GRIMALDI-BERRUTO": "unfinished after 1",
		"579 r2 SNEEK-DUFOUR":     "33-31",
		"579 r3 DE-ZILLIG":        "42-22",
		"579 r7 DE-VAN":           "27-37",
		"591 r4 MALKI-SHIFMAN":    "unfinished after 32",
	}
	games := readFTD(t)
	if len(games) < 50 {
		t.Fatalf("only %d transcripts read", len(games))
	}
	found := 0
	for _, fg := range games {
		t.Run(fg.id, func(t *testing.T) {
			g, err := transcript.ParseMoves(fg.moves)
			if err != nil {
				t.Fatal(err)
			}
			r := transcript.Verify(g, &fg.claimed)
			want, bad := disagree[fg.id]
			if !r.Legal() {
				t.Fatalf("illegal: %v", r.Illegal)
			}
			if !bad {
				if !r.Agrees() {
					t.Errorf("%s: moves give %v (over %v), slip says %v", fg.name, r.Score, r.Over, fg.claimed)
				}
				return
			}
			found++
			got := r.Score.String()
			if !r.Over {
				got = fmt.Sprintf("unfinished after %d", len(r.Moves))
			}
			if r.Agrees() || got != want {
				t.Errorf("%s: agrees %v, verify found %s; want a disagreement, %s", fg.name, r.Agrees(), got, want)
			}
		})
	}
	if found != len(disagree) {
		t.Errorf("found %d of the %d disagreeing games named in SOURCE.txt", found, len(disagree))
	}
}

// damage is one way a transcript sheet gets written wrong.
type damage struct {
	kind  string
	first int // the lowest move number the damage touches
	sheet transcript.Sheet
}

// damages returns the damaged versions of s: a swap of two numbers, one
// number written on another square (whose own number is lost), a missing number.
func damages(s transcript.Sheet, rng *rand.Rand) []damage {
	at := map[int]engine.Point{}
	last := 0
	for _, sq := range s.Squares() {
		if n := s.At(sq); n > 0 {
			at[n] = sq
			last = max(last, n)
		}
	}
	var out []damage
	i, j := 1+rng.IntN(last-1), 0
	for j = 1 + rng.IntN(last); j == i; j = 1 + rng.IntN(last) {
	}
	sw := s
	sw.Set(at[i], j)
	sw.Set(at[j], i)
	out = append(out, damage{fmt.Sprintf("swap %d-%d", i, j), min(i, j), sw})
	// Adjacent numbers are the commonest swap.
	k := 1 + rng.IntN(last-1)
	adj := s
	adj.Set(at[k], k+1)
	adj.Set(at[k+1], k)
	out = append(out, damage{"adjacent swap", k, adj})
	// k written on the square of a later move l; l is then lost.
	k, l := 1+rng.IntN(last-1), 0
	l = k + 1 + rng.IntN(last-k)
	mis := s
	mis.Set(at[k], 0)
	mis.Set(at[l], k)
	out = append(out, damage{"misplaced", k, mis})
	// A number never written.
	k = 1 + rng.IntN(last-1)
	miss := s
	miss.Set(at[k], 0)
	out = append(out, damage{"missing", k, miss})
	return out
}

// TestDamagedSheets turns real games into transcript sheets, damages them and
// checks that verify names the first illegal move and that the true sheet is
// among the three corrections it prints.
func TestDamagedSheets(t *testing.T) {
	type game struct {
		name  string
		moves []engine.Point
		score transcript.Result
	}
	var games []game
	for _, fg := range readFTD(t) {
		g, _ := transcript.ParseMoves(fg.moves)
		if r := transcript.Verify(g, &fg.claimed); r.Agrees() {
			games = append(games, game{fg.id, g.Moves, fg.claimed})
		}
	}
	wthor := readWTHOR(t, "WTH_2019.wtb")
	for i := 0; i < len(wthor); i += 20 {
		games = append(games, game{wthor[i].Name, wthor[i].Moves, *wthor[i].Result})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	stats := map[string][3]int{} // kind -> illegal sheets, true sheet among the candidates, among the three printed
	for _, g := range games {
		orig := transcript.SheetFromMoves(engine.Othello(), g.moves)
		for _, d := range damages(orig, rng) {
			r := transcript.Verify(d.sheet.Game(), &g.score)
			if r.Legal() {
				continue // the damage happens to leave a legal game: nothing to find
			}
			kind, _, _ := strings.Cut(d.kind, " ")
			st := stats[kind]
			st[0]++
			if r.Illegal.Number < d.first {
				t.Errorf("%s, %s: first illegal move %d is before the damage at %d", g.name, d.kind, r.Illegal.Number, d.first)
			}
			checkFirstIllegal(t, d.sheet, r.Illegal.Number)
			rank := slices.IndexFunc(r.Corrections, func(c transcript.Correction) bool { return c.Sheet == orig })
			switch {
			case rank < 0:
				t.Errorf("%s, %s at %d: the true sheet is not among the corrections %v", g.name, d.kind, d.first, whats(r.Corrections))
			case rank < 3:
				st[1]++
				st[2]++
			default:
				st[1]++
				t.Logf("%s, %s: the true correction is candidate %d of %v (they all give the claimed score)", g.name, d.kind, rank+1, whats(r.Corrections))
			}
			stats[kind] = st
		}
	}
	for kind, st := range stats {
		t.Logf("%s: %d illegal sheets; true correction found %d, among the three printed %d", kind, st[0], st[1], st[2])
		// Several corrections may give a legal game with the claimed score; the
		// ranking cannot always tell which is true, but it must almost always.
		if st[2]*100 < st[0]*98 {
			t.Errorf("%s: the true correction is among the three printed in only %d of %d sheets", kind, st[2], st[0])
		}
	}
	if len(stats) != 4 {
		t.Errorf("only %d kinds of damage produced an illegal sheet", len(stats))
	}
}

// checkFirstIllegal plays the sheet's moves one by one with the engine alone:
// moves before n are legal and move n is not (or its number is missing or doubled).
func checkFirstIllegal(t *testing.T, s transcript.Sheet, n int) {
	t.Helper()
	var at [61][]engine.Square
	for _, p := range s.Squares() {
		if k := s.At(p); k > 0 {
			at[k] = append(at[k], engine.SquareAt(int(p.Col), int(p.Row)))
		}
	}
	p := engine.Start()
	for k := 1; k <= n; k++ {
		if len(at[k]) != 1 {
			if k != n {
				t.Errorf("number %d is missing or doubled before the reported move %d", k, n)
			}
			return
		}
		if p.MustPass() {
			p, _ = p.Play(engine.Pass)
		}
		next, err := p.Play(at[k][0])
		if (err == nil) != (k < n) {
			t.Errorf("move %d (%s): error %v, but verify reported move %d as the first illegal one", k, at[k][0], err, n)
			return
		}
		p = next
	}
}

func whats(cs []transcript.Correction) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.What)
	}
	return out
}
