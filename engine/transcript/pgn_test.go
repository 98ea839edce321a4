package transcript_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
)

func readPGN(t *testing.T, name string) (string, []transcript.Game) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "pgn", name))
	if err != nil {
		t.Fatal(err)
	}
	if f := transcript.Detect(data); f != transcript.PGN {
		t.Errorf("%s detected as %v", name, f)
	}
	games, err := transcript.Parse(data, transcript.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), games
}

// TestPGNReal reads the real PGN files of testdata/pgn (SOURCE.txt): every
// game replays to its end and agrees with its recorded result (the WTHOR
// archive's scores; PlayOK's 38-26; the Edax layout's 0-1), with the names,
// event and year of its tags.
func TestPGNReal(t *testing.T) {
	for _, tc := range []struct {
		file                      string
		games                     int
		name, black, white, event string
		year                      int
		result                    string
		passes                    int // written in the first game
	}{
		{"WTH_1977.pgn", 12, "line 1", "Inoue Hiroshi", "Heiberg Thomas", "World Championship - 1977", 1977, "34-30", 0},
		{"WTH_2004_first7.pgn", 7, "line 1", "Vecchi Elisabetta", "Halvorsen Luke", "Australian National - 2004", 2004, "41-23", 0},
		{"playok_2020-05-05.pgn", 1, "line 1", "t7m4o1k9a", "cafego", "", 2020, "38-26", 1},
		{"edax_layout.pgn", 1, "line 1", "Woch Alan", "Jacobs Carol", "", 1977, "0-1 (White wins)", 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			text, games := readPGN(t, tc.file)
			if len(games) != tc.games || len(games) != strings.Count(text, "[Black ") {
				t.Fatalf("%d games, want %d", len(games), tc.games)
			}
			g := games[0]
			if g.Name != tc.name || g.Black != tc.black || g.White != tc.white || g.Event != tc.event || g.Year != tc.year || g.Result == nil || g.Result.String() != tc.result {
				t.Errorf("first game: %q %q %q %q %d %v", g.Name, g.Black, g.White, g.Event, g.Year, g.Result)
			}
			if n := len(slices.DeleteFunc(slices.Clone(g.Moves), func(m engine.Point) bool { return m != engine.PassPoint })); n != tc.passes {
				t.Errorf("first game: %d passes written, want %d", n, tc.passes)
			}
			for _, g := range games {
				if r := transcript.Verify(g, nil); !r.Agrees() {
					t.Errorf("%s (%s - %s): legal %v, over %v, score %v, recorded %v", g.Name, g.Black, g.White, r.Legal(), r.Over, r.Score, g.Result)
				}
			}
		})
	}
}

// TestPGNMatchesWTHOR: the first 7 games of the WTHOR archive's 2004 PGN
// are the first 7 of ../shared/data/wthor/WTH_2004.wtb, read by the WTHOR
// reader: the same players, moves, scores, and event (the WTHOR
// tournament's name and the year, as thor2pgn writes it).
func TestPGNMatchesWTHOR(t *testing.T) {
	_, games := readPGN(t, "WTH_2004_first7.pgn")
	wthor := readWTHOR(t, "WTH_2004.wtb")
	for i, g := range games {
		w := wthor[i]
		if g.Black != w.Black || g.White != w.White || g.Event != w.Event+" - 2004" || !slices.Equal(g.Moves, w.Moves) || *g.Result != *w.Result {
			t.Errorf("game %d: PGN %s-%s %q %v %v\nWTHOR %s-%s %q %v %v", i+1, g.Black, g.White, g.Event, g.Result, g.Moves, w.Black, w.White, w.Event, w.Result, w.Moves)
		}
	}
}

// TestPGNResults: the result of a PGN game, from its [Result] tag, its move
// text or both (RULES.md section 2: a score is Black's discs first).
func TestPGNResults(t *testing.T) {
	const moves = "1. f5 d6 2. c3 d3 3. c4 f4 4. f6 f3 5. e6 e7 6. d7 g6 7. f8 f7 8. g5 h6 9. h4 g4 10. h3 g3 11. h5 h2 12. e2 d1 13. f1 c5 14. c6 e8 15. d8 b6 16. e3 b5 17. f2 c7 18. b4 d2 19. g8 a5 20. b3 a2 21. c2 g2 22. a3 e1 23. c1 g7 24. a1 b1 25. a6 b2 26. a4 a7 27. b8 c8 28. h8 a8 29. h7 g1 30. h1 b7"
	for _, tc := range []struct{ tag, text, want string }{
		{"52-12", "", "52-12"},
		{"", "52-12", "52-12"},
		{"52-12", "52-12", "52-12"},
		{"1-0", "", "1-0 (Black wins)"},
		{"1-0", "52-12", "52-12"}, // the score says more
		{"52-12", "1-0", "52-12"},
		{"*", "*", "<nil>"},
		{"", "1/2-1/2", "1/2-1/2 (a draw)"},
	} {
		text := `[Black "B"]` + "\n"
		if tc.tag != "" {
			text += `[Result "` + tc.tag + `"]` + "\n"
		}
		text += moves + " " + tc.text + "\n"
		games, err := transcript.ParsePGN(text)
		if err != nil {
			t.Fatalf("%s / %s: %v", tc.tag, tc.text, err)
		}
		got := "<nil>"
		if r := games[0].Result; r != nil {
			got = r.String()
		}
		if got != tc.want {
			t.Errorf("tag %q, text %q: %s, want %s", tc.tag, tc.text, got, tc.want)
		}
	}
	// Black wins 52-12 (the game of ExampleParsePGN); 0-1 says White won.
	games, err := transcript.ParsePGN(`[Result "0-1"]` + "\n" + moves)
	if err != nil {
		t.Fatal(err)
	}
	if r := transcript.Verify(games[0], nil); r.Agrees() || !r.Over || r.Score != (engine.Score{Black: 52, White: 12}) {
		t.Errorf("0-1 for a 52-12 game: agrees %v, score %v", r.Agrees(), r.Score)
	}
}

// TestPGNErrors: what a PGN file gets wrong, with its line and column.
func TestPGNErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		err      error
		want     string
	}{
		{"tag", `[Black Tastet]`, transcript.ErrSyntax, `pgn: line 1, column 1: expected a tag pair such as [Black "Tastet Marc"], found "[Black Tastet]"`},
		{"unclosed tag", `[Black "Tastet`, transcript.ErrSyntax, `pgn: line 1, column 1: expected a tag pair`},
		{"after a tag", `[Black "A"] f5`, transcript.ErrSyntax, `pgn: line 1, column 13: expected the end of the line after a tag pair, found "f5"`},
		{"result tag", "[Black \"A\"]\n[Result \"1-1-1\"]\nf5", transcript.ErrSyntax, `pgn: line 2, column 1: expected a result such as 40-24 (discs, Black first), 1-0 (Black wins), 0-1, 1/2-1/2 or *, found "1-1-1"`},
		{"square", "[Black \"A\"]\n1. f5 d6 2. c9", transcript.ErrSyntax, `pgn: line 2, column 13: expected a square a1..h8`},
		{"variation", "[Black \"A\"]\n1. f5 (1. d3) d6", transcript.ErrUnsupported, `pgn: line 2, column 7: expected the main line (otd reads no variations), found "(1."`},
		{"comment", "[Black \"A\"]\n\n1. f5 {a comment\nthat never ends", transcript.ErrTruncated, `pgn: line 3, column 1: expected a comment { ... } closed by }, found the end of the game`},
		{"after the result", "[Black \"A\"]\n1. f5 d6 * c3", transcript.ErrSyntax, `pgn: line 2, column 12: expected nothing after the game's result, found "c3"`},
		{"results differ", "[Result \"40-24\"]\n1. f5 d6 33-31", transcript.ErrSyntax, `pgn: line 2, column 10: expected the result of the [Result] tag on line 1, 40-24, found "33-31"`},
		{"winner differs", "[Result \"1-0\"]\n1. f5 d6 24-40", transcript.ErrSyntax, `pgn: line 2, column 10: expected the result of the [Result] tag on line 1, 1-0 (Black wins), found "24-40"`},
		{"fen", "[FEN \"8/8/8/8/8/8/8/8 w\"]\n1. f5", transcript.ErrUnsupported, `pgn: line 1, column 1: expected a game from the start position (otd verifies whole games), found a set-up position ([FEN])`},
		{"too many", "[Black \"A\"]\n" + strings.Repeat("f5 ", 61), transcript.ErrTooLarge, `pgn: line 2, column 181: expected at most 60 moves in a game`},
		{"too large", "[Black \"A\"]\n" + strings.Repeat("{"+strings.Repeat("x", 1000)+"}\n", 70), transcript.ErrTooLarge, `pgn: line 1: expected a game of at most 64 KiB`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transcript.ParsePGN(tc.in)
			if !errors.Is(err, tc.err) || err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("got %v; want %v: %s", err, tc.err, tc.want)
			}
			checkError(t, err, tc.in)
		})
	}
}

// TestPGNGames: where one game ends and the next starts, with and without
// a result token or tags.
func TestPGNGames(t *testing.T) {
	for _, tc := range []struct {
		in    string
		names []string
	}{
		{"[Black \"A\"]\n1. f5 d6\n\n[Black \"B\"]\n1. f5 f6\n", []string{"line 1", "line 4"}},
		{"1. f5 d6 *\n1. f5 f6 *\n", []string{"line 1", "line 2"}},
		{"%escape\n\n[Black \"A\"]\n\n; a comment\n1. f5 {d6?} d6 $1 *\n\n\n", []string{"line 3"}},
		{"\uFEFF[Black \"A\"] [White \"B\"]\n1.f5 1...d6\n", []string{"line 1"}},
		{"\n\n", nil},
	} {
		games, err := transcript.ParsePGN(tc.in)
		var names []string
		for _, g := range games {
			names = append(names, g.Name)
			if len(g.Moves) != 2 {
				t.Errorf("%q: %s: moves %v", tc.in, g.Name, g.Moves)
			}
		}
		if err != nil || !slices.Equal(names, tc.names) {
			t.Errorf("%q: games %v (%v), want %v", tc.in, names, err, tc.names)
		}
	}
}

// BenchmarkReadPGN reads and verifies the 9,113 games of
// ../shared/data/wthor/WTH_2004.wtb written as the WOF/FFO archive's PGN
// (thor2pgn's layout: five tags, a line per pair of moves), one game at a
// time through a Reader: the throughput of 'otd verify WTH_2004.pgn'.
func BenchmarkReadPGN(b *testing.B) {
	var text strings.Builder
	for _, g := range readWTHOR(b, "WTH_2004.wtb") {
		fmt.Fprintf(&text, "[Event %q]\n[Date \"2004\"]\n[Black %q]\n[White %q]\n[Result \"%d-%d\"]\n", g.Event+" - 2004", g.Black, g.White, g.Result.Black, g.Result.White)
		for i, m := range g.Moves {
			if i%2 == 0 {
				fmt.Fprintf(&text, "%d. %s", i/2+1, strings.ToUpper(m.String()))
			} else {
				fmt.Fprintf(&text, " %s\n", strings.ToUpper(m.String()))
			}
		}
		if len(g.Moves)%2 == 1 {
			text.WriteString("\n")
		}
		text.WriteString("\n")
	}
	data := text.String()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd, err := transcript.NewReader(strings.NewReader(data), transcript.Auto, nil)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			g, err := rd.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
			if r := transcript.Verify(g, nil); !r.Agrees() {
				b.Fatalf("%s: does not agree", g.Name)
			}
			n++
		}
		if n != 9113 {
			b.Fatalf("%d games", n)
		}
	}
}
