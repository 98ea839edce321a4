package transcript_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/testenv"
)

// Real games (FlipTheDisc, tournament 559, round 1; ../shared/data/othello-tournaments-ftd).
const (
	// Black 8, white 56; white passes after move 40 and black twice near the end.
	gamePasses = "c4e3f4c5d6f3d3c2f2e2c3b5e1c6a6d2c1f6f5e6f7b6c7d1a5d7e8f1g1e7f8c8d8g8g7h8g6h5h7h6g5g4a4a3g2g3b4b3b2b7a8b8a7a2h2h3h1b1a1h4"
	// Black 33, white 31; move 21 is d3, an opening square.
	gameFull = "f5f6e6d6c4f3e7f4c5f7e3c7c6d8b8d7f8d2g8c3d3c2e2d1b3a4a3a2f1b4b5e1c1e8c8b6a5a6g3g4h4f2g5h6h5g6h7h2g7h3h1h8b7b1g1g2a1b2a7a8"
	// A game over after 9 moves: black wipes white out.
	gameWipeout = "d3c3b3d2e1d6d7e3f4"
	// The first ten moves of a real game, for the sheets below.
	gameTen = "f5d6c3d3c4f4e3f3g3f2"
)

// movesOf parses a move list the test knows to be valid.
func movesOf(t testing.TB, s string) []engine.Point {
	t.Helper()
	g, err := transcript.ParseMoves(s)
	if err != nil {
		t.Fatalf("ParseMoves(%q): %v", s, err)
	}
	return g.Moves
}

// wantParseError checks that err is a *ParseError at line:col, wrapping
// sentinel, whose Expected contains expected.
func wantParseError(t *testing.T, err error, line, col int, sentinel error, expected string) {
	t.Helper()
	var pe *transcript.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error = %v (%T), want a *ParseError", err, err)
	}
	if pe.Line != line || pe.Column != col {
		t.Errorf("error at line %d, column %d, want %d, %d: %v", pe.Line, pe.Column, line, col, err)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("error %v does not wrap %v", err, sentinel)
	}
	if !strings.Contains(pe.Expected, expected) {
		t.Errorf("Expected = %q, want it to name %q", pe.Expected, expected)
	}
	if !strings.Contains(err.Error(), "expected "+pe.Expected) {
		t.Errorf("message %q does not say what was expected", err)
	}
}

func TestParseMoves(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, result string
	}{
		{"compact", "f5d6c3d3c4", "[f5 d6 c3 d3 c4]", ""},
		{"upper case with spaces", "F5 D6 C3", "[f5 d6 c3]", ""},
		{"mixed case, commas, semicolons, tabs", "f5,D6;\tc3 ,d3", "[f5 d6 c3 d3]", ""},
		{"passes", "f5 pass d6 PS c3 -- e6 Pass ps", "[f5 pass d6 pass c3 pass e6 pass pass]", ""},
		{"passes without spaces", "f5passd6psc3--e6", "[f5 pass d6 pass c3 pass e6]", ""},
		{"move numbers", "1. f5 d6 2. c3 d3 10.c4", "[f5 d6 c3 d3 c4]", ""},
		{"claimed score", "f5d6c3 40-24", "[f5 d6 c3]", "40-24"},
		{"claimed score with a colon", "f5 d6 33:31\n", "[f5 d6]", "33-31"},
		{"wrapped over lines", "f5d6c3\r\nd3c4\n\nf4\n", "[f5 d6 c3 d3 c4 f4]", ""},
		{"score on a line of its own", "f5d6\n  64-0  \n", "[f5 d6]", "64-0"},
		{"only a score", "32-32", "[]", "32-32"},
		{"full game", gameFull, fmt.Sprint(movesOf(t, gameFull)), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := transcript.ParseMoves(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(g.Moves); got != tc.want {
				t.Errorf("moves = %s, want %s", got, tc.want)
			}
			if got := fmt.Sprint(g.Result); g.Result == nil && tc.result != "" || g.Result != nil && got != tc.result {
				t.Errorf("result = %s, want %q", got, tc.result)
			}
			if g.Start != engine.Start() {
				t.Errorf("start = %v, want the standard start", g.Start)
			}
		})
	}
}

func TestParseMovesErrors(t *testing.T) {
	const move = "a square a1..h8, a pass"
	for _, tc := range []struct {
		name, in  string
		line, col int
		err       error
		expected  string
	}{
		{"not a square", "f5 x9", 1, 4, transcript.ErrSyntax, move},
		{"column beyond h", "f5d6 i1", 1, 6, transcript.ErrSyntax, move},
		{"row 9", "f9", 1, 1, transcript.ErrSyntax, move},
		{"half a square", "f5d", 1, 3, transcript.ErrSyntax, move},
		{"second line", "f5\nd6 z", 2, 4, transcript.ErrSyntax, move},
		{"a lone number", "f5 7", 1, 4, transcript.ErrSyntax, "final score such as 40-24"},
		{"score over 64 discs", "f5 50-20", 1, 4, transcript.ErrSyntax, "final score"},
		{"single dash", "f5 - d6", 1, 4, transcript.ErrSyntax, "pass (pass, PS or --)"},
		{"move after the score", "f5 40-24 d6", 1, 10, transcript.ErrSyntax, "nothing after the final score"},
		{"line after the score", "f5 40-24\n  d6", 2, 3, transcript.ErrSyntax, "nothing after the final score"},
		{"two scores", "f5 40-24\n33-31", 2, 1, transcript.ErrSyntax, "nothing after the final score"},
		{"empty", "", 0, 0, transcript.ErrEmpty, "a move list"},
		{"blank lines", " \n\t\r\n", 0, 0, transcript.ErrEmpty, "a move list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transcript.ParseMoves(tc.in)
			wantParseError(t, err, tc.line, tc.col, tc.err, tc.expected)
		})
	}
}

func TestParseMoveLists(t *testing.T) {
	wrapped := gameFull[:40] + "\n" + gameFull[40:80] + "\n" + gameFull[80:] // line 2 starts with d3
	for _, tc := range []struct {
		name, in string
		want     []string // each game's moves, compact
		results  []string // each game's claimed result, "" for none
		lines    []string // each game's Name
	}{
		{"batch of full games", gamePasses + "\n" + gameFull + "\r\n" + gameWipeout + "\n",
			[]string{gamePasses, gameFull, gameWipeout}, []string{"", "", ""}, []string{"line 1", "line 2", "line 3"}},
		{"wrapped game", wrapped, []string{gameFull}, []string{""}, []string{"line 1"}},
		{"wrapped game with a score", "1. f5 d6\n2. c3 d3 40-24\nf5f6", []string{"f5d6c3d3", "f5f6"}, []string{"40-24", ""}, []string{"line 1", "line 3"}},
		{"a score closes a game", "f5d6 33-31\nc3d3", []string{"f5d6", "c3d3"}, []string{"33-31", ""}, []string{"line 1", "line 2"}},
		{"opening square already played", "f5d6c3\nf5f6e6", []string{"f5d6c3", "f5f6e6"}, []string{"", ""}, []string{"line 1", "line 2"}},
		{"opening move illegal in the game", "f5d6c3d3c4\ne6f4", []string{"f5d6c3d3c4", "e6f4"}, []string{"", ""}, []string{"line 1", "line 2"}},
		{"comments and blank lines", "# round 1\n\n" + gameFull + "\n% board 2\n" + gamePasses,
			[]string{gameFull, gamePasses}, []string{"", ""}, []string{"line 3", "line 5"}},
		{"empty", "\n# nothing\n", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, err := transcript.ParseMoveLists(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got, results, lines []string
			for _, g := range games {
				got = append(got, engine.FormatMoves(g.Moves))
				results = append(results, "")
				if g.Result != nil {
					results[len(results)-1] = g.Result.String()
				}
				lines = append(lines, g.Name)
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(results, tc.results) || !slices.Equal(lines, tc.lines) {
				t.Errorf("games = %q %q %q, want %q %q %q", got, results, lines, tc.want, tc.results, tc.lines)
			}
		})
	}
}

func TestParseMoveListsErrors(t *testing.T) {
	_, err := transcript.ParseMoveLists("f5d6\n# note\nc4 c3 x1\n")
	wantParseError(t, err, 3, 7, transcript.ErrSyntax, "a square a1..h8")
	_, err = transcript.Parse([]byte("\n# nothing\n"), transcript.Moves)
	wantParseError(t, err, 0, 0, transcript.ErrEmpty, "at least one game")
}

// The sheets of gameTen, written in several ways.
const (
	sheetDots = `. . . . . . . .
. . . . . 10 . .
. . 3 4 7 8 9 .
. . 5 O X 6 . .
. . . X O 1 . .
. . . 2 . . . .
. . . . . . . .
. . . . . . . .
`
	sheetZeros = `% zeros, B and W in the centre, and a claimed score
0 0 0 0 0 0 0 0
0 0 0 0 0 10 0 0
0 0 3 4 7 8 9 0
0 0 5 W B 6 0 0
0 0 0 B W 1 0 0
0 0 0 2 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0

40-24
`
	sheetCSV  = ",,,,,,,\r\n,,,,, 10 ,,\r\n,,3,4,7,8,9,\r\n,,5, , ,6,,\r\n,,,x,o,1,,\r\n,,,2,,,,\r\n,,,,,,,\r\n,,,,,,,\r\n"
	sheetTabs = "\t\t\t\t\t\t\t\n\t\t\t\t\t10\t\t\n\t\t3\t4\t7\t8\t9\t\n\t\t5\tO\tX\t6\t\t\n" +
		"\t\t\tX\tO\t1\t\t\n\t\t\t2\t\t\t\t\n\t\t\t\t\t\t\t\n\t\t\t\t\t\t\t\n"
	sheetBars = `| a | b | c | d | e | f | g | h |
|   |   |   |   |   |   |   |   |
|   |   |   |   |   | 10|   |   |
|   |   | 3 | 4 | 7 | 8 | 9 |   |
|   |   | 5 |   |   | 6 |   |   |
|   |   |   |   |   | 1 |   |   |
|   |   |   | 2 |   |   |   |   |
|   |   |   |   |   |   |   |   |
|   |   |   |   |   |   |   |   |
`
	sheetBarsLabelled = `  | a | b | c | d | e | f | g | h |
1 |   |   |   |   |   |   |   |   |
2 |   |   |   |   |   | 10|   |   |
3 |   |   | 3 | 4 | 7 | 8 | 9 |   |
4 |   |   | 5 | O | X | 6 |   |   |
5 |   |   |   | X | O | 1 |   |   |
6 |   |   |   | 2 |   |   |   |   |
7 |   |   |   |   |   |   |   |   |
8 |   |   |   |   |   |   |   |   |
`
	sheetAligned = `   a  b  c  d  e  f  g  h
1
2                10
3        3  4  7  8  9
4        5  O  X  6
5           X  O  1
6           2
7
8
`
	sheetAlignedNoLabels = `  a  b  c  d  e  f  g  h
        .
                10
        3  4  7  8  9
        5        6
                 1
           2
  .
.
33-31
`
	sheetCSVHeader = ",a,b,c,d,e,f,g,h\n1,,,,,,,,\n2,,,,,,10,,\n3,,,3,4,7,8,9,\n4,,,5,,,6,,\n" +
		"5,,,,,,1,,\n6,,,,2,,,,\n7,,,,,,,,\n8,,,,,,,,\n"
)

func TestParseSheet(t *testing.T) {
	ten := transcript.SheetFromMoves(engine.Othello(), movesOf(t, gameTen))
	full := transcript.SheetFromMoves(engine.Othello(), movesOf(t, gameFull))
	short := full
	short.Set(engine.Point{Col: 0, Row: 7}, 0) // a8, move 60: row 8 has a label and 7 numbers
	for _, tc := range []struct {
		name, in string
		want     transcript.Sheet
		result   string
	}{
		{"dots and centre letters", sheetDots, ten, ""},
		{"zeros, B and W, claimed score", sheetZeros, ten, "40-24"},
		{"CSV with blank and whitespace cells", sheetCSV, ten, ""},
		{"tabs", sheetTabs, ten, ""},
		{"bars with a header", sheetBars, ten, ""},
		{"bars with row labels", sheetBarsLabelled, ten, ""},
		{"header, row labels, space-aligned blanks", sheetAligned, ten, ""},
		// Without row labels a row of blanks is a blank line, and is skipped:
		// rows 7 and 8 hold a dot each here.
		{"header, space-aligned blanks, no labels", sheetAlignedNoLabels, ten, "33-31"},
		{"CSV header and row labels", sheetCSVHeader, ten, ""},
		{"String", full.String(), full, ""},
		{"String, full game, one blank", strings.ReplaceAll(short.String(), ".", " "), short, ""},
		{"String of a short game", ten.String(), ten, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := transcript.ParseSheet(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if g.Sheet == nil || *g.Sheet != tc.want {
				t.Fatalf("sheet =\n%v\nwant\n%v", g.Sheet, tc.want)
			}
			want, _ := tc.want.Moves()
			if !slices.Equal(g.Moves, want) || g.Problem != nil {
				t.Errorf("moves = %v (problem %v), want %v", g.Moves, g.Problem, want)
			}
			if got := fmt.Sprint(g.Result); g.Result == nil && tc.result != "" || g.Result != nil && got != tc.result {
				t.Errorf("result = %s, want %q", got, tc.result)
			}
			if r := transcript.Verify(g, nil); !r.Legal() {
				t.Errorf("sheet does not replay: %v", r.Illegal)
			}
		})
	}
}

func TestParseSheetProblem(t *testing.T) {
	in := strings.Replace(sheetDots, " 8 ", " 7 ", 1) // 7 doubled on e3 and f3, 8 missing
	g, err := transcript.ParseSheet(in)
	if err != nil {
		t.Fatal(err)
	}
	if g.Problem == nil || g.Problem.Kind != transcript.Doubled || g.Problem.Number != 7 || fmt.Sprint(g.Problem.Squares) != "[e3 f3]" {
		t.Errorf("problem = %+v, want 7 doubled on e3 and f3", g.Problem)
	}
	if fmt.Sprint(g.Moves) != "[f5 d6 c3 d3 c4 f4]" {
		t.Errorf("moves = %v, want the six before the problem", g.Moves)
	}
}

func TestParseSheetErrors(t *testing.T) {
	const (
		cell   = "a move number 1-60 or an empty cell"
		letter = "letters stand only on d4, e4, d5, e5"
	)
	rows := strings.Split(sheetDots, "\n")
	for _, tc := range []struct {
		name, in  string
		line, col int
		err       error
		expected  string
	}{
		{"empty", "", 1, 1, transcript.ErrEmpty, "8 rows of 8 cells"},
		{"only a header", "a b c d e f g h\n", 1, 16, transcript.ErrEmpty, "8 rows of 8 cells"},
		{"seven rows", strings.Join(rows[:7], "\n") + "\n\n", 7, 16, transcript.ErrTruncated, "8 rows of 8 cells"},
		{"seven cells", strings.Replace(sheetDots, ". . . . . 10 . .", ". . . . 10 . .", 1), 2, 1, transcript.ErrSyntax, "8 cells in row 2"},
		{"nine cells", strings.Replace(sheetDots, ". . . . . 10 . .", "  . . . . . 10 . . .", 1), 2, 3, transcript.ErrSyntax, "8 cells in row 2"},
		{"letter off the centre", "X" + sheetDots[1:], 1, 1, transcript.ErrSyntax, letter + ") for a1"},
		{"number over 60", strings.Replace(sheetDots, ". . 3 4", ". . 61 4", 1), 3, 5, transcript.ErrSyntax, cell + " for c3"},
		{"word", strings.Replace(sheetDots, "10", "ten", 1), 2, 11, transcript.ErrSyntax, cell + " for f2"},
		{"aligned cell", strings.Replace(sheetAligned, "10", "99", 1), 3, 18, transcript.ErrSyntax, cell + " for f2"},
		{"CSV cell", strings.Replace(sheetCSV, "3,4,7", "3,-4,7", 1), 3, 5, transcript.ErrSyntax, cell + " for d3"},
		{"wrong row label", "7 " + sheetDots, 1, 1, transcript.ErrSyntax, "row label 1"},
		{"text after the grid", sheetDots + "\n  resigned\n", 10, 3, transcript.ErrSyntax, "nothing after the 8 rows but a claimed score"},
		{"two scores", sheetDots + "40-24\n33-31\n", 10, 1, transcript.ErrSyntax, "nothing after the 8 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transcript.ParseSheet(tc.in)
			wantParseError(t, err, tc.line, tc.col, tc.err, tc.expected)
		})
	}
}

const ggfGame = `(;GM[Othello]PC[GGS/os]DT[2003.05.12_07:04:17.MDT]PB[alice]PW[bob\]s]RB[2000.0]TI[15:00//02:00]
TY[8]RE[+12.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]
B[f5//0.01]W[d6/-1.50/2.3]B[C3];)`

func TestParseGGF(t *testing.T) {
	start := engine.Start()
	whiteToMove := start
	whiteToMove.ToMove = engine.White
	custom := engine.Bitboard{Board: engine.Board{Black: engine.SquareAt(0, 0).Bit(), White: engine.SquareAt(1, 0).Bit()}, ToMove: engine.White}
	for _, tc := range []struct {
		name, in string
		want     []string // each game's moves
		start    []engine.Bitboard
		result   []string // each game's result and ending, "" for none
	}{
		{"single game", ggfGame, []string{"[f5 d6 c3]"}, []engine.Bitboard{start}, []string{"+12 0"}},
		{"two games", ggfGame + "\n\n  " + `(;GM[Othello]TY[s8]RE[-4.000:t]B[f5]W[f6];)` + "\n",
			[]string{"[f5 d6 c3]", "[f5 f6]"}, []engine.Bitboard{start, start}, []string{"+12 0", "-4 1"}},
		{"resignation", `(;GM[Othello]RE[+64:r]B[f5];)(;GM[Othello]RE[0.000:s];)(;GM[othello]RE[?];)`,
			[]string{"[f5]", "[]", "[]"}, []engine.Bitboard{start, start, start}, []string{"+64 2", "+0 3", ""}},
		{"BO with white to move", `(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- O]W[e3]B[f4];)`,
			[]string{"[e3 f4]"}, []engine.Bitboard{whiteToMove}, []string{""}},
		{"BO custom board", `(;GM[Othello]BO[8 *O------ ` + strings.Repeat("-------- ", 7) + `O]W[pa];)`,
			[]string{"[pass]"}, []engine.Bitboard{custom}, []string{""}},
		{"PA passes", `(;GM[Othello]B[f5]W[PA]B[d6]W[pass];)`, []string{"[f5 pass d6 pass]"}, []engine.Bitboard{start}, []string{""}},
		{"a colour moving twice", `(;GM[Othello]B[f5]W[d6]W[c3]B[d3]B[c4];)`, []string{"[f5 d6 pass c3 d3 pass c4]"}, []engine.Bitboard{start}, []string{""}},
		{"white moving first", `(;GM[Othello]W[d6];)`, []string{"[pass d6]"}, []engine.Bitboard{start}, []string{""}},
		{"empty file", " \n", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			games, err := transcript.ParseGGF(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got, results []string
			var starts []engine.Bitboard
			for _, g := range games {
				got = append(got, fmt.Sprint(g.Moves))
				starts = append(starts, g.Start)
				if g.Result == nil {
					results = append(results, "")
				} else {
					results = append(results, fmt.Sprintf("%v %d", g.Result, g.Result.Ending))
				}
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(starts, tc.start) || !slices.Equal(results, tc.result) {
				t.Errorf("games = %v %v %q, want %v %v %q", got, starts, results, tc.want, tc.start, tc.result)
			}
		})
	}
	games, err := transcript.ParseGGF(ggfGame)
	if err != nil {
		t.Fatal(err)
	}
	if games, err := transcript.ParseGGF(`(;GM[Othello]DT[1054046655];)`); err != nil || games[0].Year != 2003 {
		t.Errorf("DT in seconds: year %v, %v; want 2003", games, err)
	}
	if g := games[0]; g.Black != "alice" || g.White != "bob]s" || g.Event != "GGS/os" || g.Year != 2003 || !g.Result.DiffOnly || g.Time != "15:00//02:00" {
		t.Errorf("game = %+v, want alice, bob]s, GGS/os, 2003, a difference and TI 15:00//02:00", g)
	}
}

// TestFormatGGF: a game written as GGF (skatgame.net/mburo/ggsa/ggf) with
// its time control, in the order and the board layout of NBoard's set game
// records (GM PC PB PW RE TI TY BO, then the moves; BO's squares in one run);
// the record reads back.
func TestFormatGGF(t *testing.T) {
	const bo = "BO[8 ---------------------------O*------*O--------------------------- *]"
	f5, d6 := engine.Point{Col: 5, Row: 4}, engine.Point{Col: 3, Row: 5}
	for _, tc := range []struct {
		g    transcript.Game
		want string
	}{
		{transcript.Game{Start: engine.Start()}, "(;GM[Othello]RE[?]TY[8]" + bo + ";)"},
		{transcript.Game{Start: engine.Start(), Moves: []engine.Point{f5, d6}, Event: "GGS/os", Black: "alice", White: "bob]s",
			Time: "01:00/00:00/02:00", Result: &transcript.Result{Black: 33, White: 31, DiffOnly: true, Ending: transcript.Resigned}},
			`(;GM[Othello]PC[GGS/os]PB[alice]PW[bob\]s]RE[+2.000:r]TI[01:00/00:00/02:00]TY[8]` + bo + "B[F5]W[D6];)"},
		{transcript.Game{Start: engine.Start(), Moves: []engine.Point{f5}, Time: "05:00/00:02"}, "(;GM[Othello]RE[?]TI[05:00/00:02]TY[8]" + bo + "B[F5];)"},
	} {
		got := transcript.FormatGGF(tc.g)
		if got != tc.want {
			t.Errorf("FormatGGF =\n%s, want\n%s", got, tc.want)
		}
		if games, err := transcript.ParseGGF(got); err != nil || games[0].Time != tc.g.Time || !slices.Equal(games[0].Moves, tc.g.Moves) {
			t.Errorf("%s reads back as %+v, %v", got, games, err)
		}
	}
}

// TestGGFTime: a time control as GGF's TI writes it, main[/increment], each
// mm:ss in whole seconds and at least one.
func TestGGFTime(t *testing.T) {
	for _, tc := range []struct {
		main, inc time.Duration
		want      string
	}{
		{5 * time.Minute, 2 * time.Second, "05:00/00:02"},
		{90*time.Second + 999*time.Millisecond, 0, "01:30"},
		{time.Hour, 0, "60:00"},
		{10 * time.Millisecond, 0, "00:01"},
		{0, 0, "00:01"},
		{15 * time.Minute, 500 * time.Millisecond, "15:00/00:01"},
	} {
		if got := transcript.GGFTime(tc.main, tc.inc); got != tc.want {
			t.Errorf("GGFTime(%v, %v) = %q, want %q", tc.main, tc.inc, got, tc.want)
		}
	}
}

func TestParseGGFErrors(t *testing.T) {
	const prop = `a property such as PB[name] or the end of the game ";)"`
	for _, tc := range []struct {
		name, in  string
		line, col int
		err       error
		expected  string
	}{
		{"no game start", "GM[Othello]", 1, 1, transcript.ErrSyntax, `the start of a game "(;"`},
		{"junk after a game", "(;GM[Othello];)\n  x", 2, 3, transcript.ErrSyntax, `the start of a game "(;"`},
		{"another game", "(;GM[Chess];)", 1, 3, transcript.ErrUnsupported, "GM[Othello]"},
		{"18x18", "(;GM[Othello]TY[18];)", 1, 14, transcript.ErrUnsupported, "an even board size n from 4 to 16"},
		{"TY and BO disagree", "(;GM[Othello]TY[10]BO[8 " + strings.Repeat("-", 64) + " *];)", 1, 20, transcript.ErrSyntax, "the 10x10 board the record said before"},
		{"10x10 from another start", "(;GM[Othello]BO[10 " + strings.Repeat("-", 99) + "* *];)", 1, 14, transcript.ErrUnsupported, "the starting board of othello:10"},
		{"off the 6x6 board", "(;GM[Othello]TY[6]B[g1];)", 1, 19, transcript.ErrSyntax, "a square a1..f6 of the board"},
		{"unclosed value", "(;GM[Othello]\nPB[alice", 2, 1, transcript.ErrTruncated, "']' closing property PB"},
		{"unclosed game", "(;GM[Othello]PB[x] ", 1, 20, transcript.ErrTruncated, prop},
		{"lower-case property", "(;GM[Othello]\n  pb[x];)", 2, 3, transcript.ErrSyntax, prop},
		{"text between properties", "(;GM[Othello] x;)", 1, 15, transcript.ErrSyntax, prop},
		{"bad move", "(;GM[Othello]B[f5]W[z9];)", 1, 19, transcript.ErrSyntax, "a move such as W[f5] or W[PA]"},
		{"bad result", "(;GM[Othello]RE[+3.5];)", 1, 14, transcript.ErrSyntax, "a result such as RE[+12.000]"},
		{"bad ending", "(;GM[Othello]RE[+3:x];)", 1, 14, transcript.ErrSyntax, "a result such as RE[+12.000]"},
		{"bad board", "(;GM[Othello]BO[8 ---- *];)", 1, 14, transcript.ErrSyntax, "a board BO[8"},
		{"bad side to move", "(;GM[Othello]BO[8 " + strings.Repeat("-", 64) + " X];)", 1, 14, transcript.ErrSyntax, "a board BO[8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transcript.ParseGGF(tc.in)
			wantParseError(t, err, tc.line, tc.col, tc.err, tc.expected)
		})
	}
}

// wthorRecord appends the WTHOR record of a standard Othello game.
func wthorRecord(t testing.TB, b []byte, g transcript.Game, tournament, black, white uint16) []byte {
	t.Helper()
	b, err := transcript.AppendWTHOR(b, g, tournament, black, white)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func isPass(p engine.Point) bool { return p == engine.PassPoint }

// wtb returns a .wtb file of the 68-byte game records recs.
func wtb(recs []byte) []byte {
	h := []byte{20, 18, 7, 31, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 24, 0}
	binary.LittleEndian.PutUint32(h[4:], uint32(len(recs)/68))
	binary.LittleEndian.PutUint16(h[10:], 2018)
	return append(h, recs...)
}

// namesFile returns a WTHOR.JOU (size 20) or WTHOR.TRN (size 26) file.
func namesFile(size int, names ...string) []byte {
	b := make([]byte, 16, 16+size*len(names))
	binary.LittleEndian.PutUint16(b[8:], uint16(len(names)))
	for _, n := range names {
		rec := make([]byte, size)
		copy(rec, n)
		b = append(b, rec...)
	}
	return b
}

func TestWTHOR(t *testing.T) {
	g1 := transcript.Game{Start: engine.Start(), Moves: movesOf(t, gamePasses)}
	g2 := transcript.Game{Start: engine.Start(), Moves: movesOf(t, gameWipeout), Result: &transcript.Result{Black: 40, White: 24}}
	g3 := transcript.Game{Start: engine.Start(), Moves: movesOf(t, gameFull), Result: &transcript.Result{Black: -2, DiffOnly: true}}
	data := wthorRecord(t, nil, g1, 1, 0, 2)
	data = wthorRecord(t, data, g2, 0, 2, 1)
	data = wtb(wthorRecord(t, data, g3, 1, 1, 0))
	if got := transcript.Detect(data); got != transcript.WTHOR {
		t.Errorf("Detect = %v, want wthor", got)
	}
	players, err := transcript.ParseNames(namesFile(20, "Doe John", "M\xfcller Anna", "Nakamura"), 20)
	if err != nil {
		t.Fatal(err)
	}
	tourneys, err := transcript.ParseNames(namesFile(26, "Open de Paris", "Championnat du Monde"), 26)
	if err != nil {
		t.Fatal(err)
	}
	games, err := transcript.ParseWTHOR(data, &transcript.Names{Players: players, Tournaments: tourneys})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"game 1 2018 Championnat du Monde: Doe John-Nakamura 8-56 " + gamePasses,
		"game 2 2018 Open de Paris: Nakamura-Müller Anna 40-24 " + gameWipeout,
		"game 3 2018 Championnat du Monde: Müller Anna-Doe John 31-33 " + gameFull,
	}
	for i, g := range games {
		got := fmt.Sprintf("%s %d %s: %s-%s %v %s", g.Name, g.Year, g.Event, g.Black, g.White, g.Result, engine.FormatMoves(g.Moves))
		if i >= len(want) || got != want[i] {
			t.Errorf("game %d = %s", i+1, got)
		}
		if r := transcript.Verify(g, nil); !r.Legal() || !r.Over {
			t.Errorf("game %d does not replay to the end: %v", i+1, r.Illegal)
		}
	}
	if len(games) != len(want) {
		t.Errorf("%d games, want %d", len(games), len(want))
	}
	auto, err := transcript.Parse(data, transcript.Auto)
	if err != nil || len(auto) != 3 || auto[0].Black != "player #0" || auto[1].Event != "tournament #0" {
		t.Errorf("Parse(Auto) = %d games, %v; want 3 games with numbered names", len(auto), err)
	}
}

func TestWTHORErrors(t *testing.T) {
	rec := wthorRecord(t, nil, transcript.Game{Moves: movesOf(t, gameTen)}, 0, 0, 0)
	file := wtb(append(slices.Clone(rec), rec...))
	badScore := slices.Clone(file)
	badScore[16+6] = 65
	badMove := slices.Clone(file)
	badMove[16+68+8+3] = 99 // game 2, move 4
	badSize := slices.Clone(file)
	badSize[12] = 10
	for _, tc := range []struct {
		name      string
		data      []byte
		line, col int
		err       error
		expected  string
	}{
		{"no header", file[:10], 0, 0, transcript.ErrTruncated, "a 16-byte header"},
		{"a game short", file[:len(file)-68], 0, 0, transcript.ErrTruncated, "152 bytes for 2 games"},
		{"a byte more", append(slices.Clone(file), 0), 0, 0, transcript.ErrTruncated, "152 bytes for 2 games"},
		{"10x10 board", badSize, 0, 13, transcript.ErrUnsupported, "board size 8"},
		{"score over 64", badScore, 1, 7, transcript.ErrSyntax, "a black score 0-64"},
		{"move 99", badMove, 2, 12, transcript.ErrSyntax, "a move 11-88"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transcript.ParseWTHOR(tc.data, nil)
			wantParseError(t, err, tc.line, tc.col, tc.err, tc.expected)
		})
	}
	for _, tc := range []struct {
		name     string
		data     []byte
		size     int
		err      error
		expected string
	}{
		{"no header", make([]byte, 8), 20, transcript.ErrTruncated, "a 16-byte header"},
		{"names missing", namesFile(20, "a", "b")[:50], 20, transcript.ErrTruncated, "2 names of 20 bytes"},
		{"record size 0", namesFile(20, "a"), 0, transcript.ErrUnsupported, "a record size of 20"},
	} {
		t.Run("names "+tc.name, func(t *testing.T) {
			_, err := transcript.ParseNames(tc.data, tc.size)
			wantParseError(t, err, 0, 0, tc.err, tc.expected)
		})
	}
}

func TestParseOBF(t *testing.T) {
	start := engine.Start().String()
	for _, tc := range []struct {
		name, in string
		want     []string // FormatOBF of each position
	}{
		{"start", start + " X;", []string{start + " X;"}},
		{"scores", start + " X; F5:+0; d3:+0;C4:-0 ; E6:+2;\r\n", []string{start + " X; F5:+0; D3:+0; C4:+0; E6:+2;"}},
		{"white to move, no semicolon", strings.ToLower(start) + " o", []string{start + " O;"}},
		{"pass", "XO" + strings.Repeat("-", 62) + " O; PS:-2;", []string{"XO" + strings.Repeat("-", 62) + " O; PASS:-2;"}},
		{"other board letters", "*0._" + start[4:] + " X;", []string{"XO--" + start[4:] + " X;"}},
		{"comments and blank lines", "% FFO\n\n# x\n" + start + " X; F5:+0;\n", []string{start + " X; F5:+0;"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := transcript.ParseOBF(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, transcript.FormatOBF(p))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("positions = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseOBFErrors(t *testing.T) {
	start := engine.Start().String()
	const move = "a move and its score such as G8:+18"
	for _, tc := range []struct {
		name, in  string
		line, col int
		expected  string
	}{
		{"short line", "\n" + start[:60], 2, 1, "64 squares (X, O, -), a space and the side to move"},
		{"bad square", "Z" + start[1:] + " X;", 1, 1, "64 squares of X, O and -"},
		{"no space", start + "X;", 1, 65, "a space and the side to move, X or O"},
		{"bad side", start + " Y;", 1, 65, "a space and the side to move, X or O"},
		{"no score", start + " X; F5:+0;  F6;", 1, 77, move},
		{"score too big", start + " X;F5:+66;", 1, 68, move},
		{"bad move", start + " X; Z9:+2;", 1, 69, move},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := transcript.ParseOBF(tc.in)
			wantParseError(t, err, tc.line, tc.col, transcript.ErrSyntax, tc.expected)
		})
	}
}

// TestFFOEndgame reads every position of the FFO endgame suite and checks that
// the moves scored on each line are exactly the legal moves of its position.
func TestFFOEndgame(t *testing.T) {
	for _, name := range []string{"fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf", "fforum-60-79.obf"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(testenv.SharedFile(t, "ffo-endgame/"+name))
			if err != nil {
				t.Fatal(err)
			}
			ps, err := transcript.ParseOBF(string(data))
			if err != nil {
				t.Fatal(err)
			}
			lines := 0
			for line := range strings.Lines(string(data)) {
				if strings.TrimSpace(line) != "" {
					lines++
				}
			}
			if len(ps) != lines || lines < 19 {
				t.Fatalf("%d positions, want one for each of the %d lines", len(ps), lines)
			}
			for _, p := range ps {
				var listed uint64
				for _, s := range p.Scores {
					listed |= s.Move.Bit()
				}
				if legal := p.Position.LegalMoves(); listed != legal || len(p.Scores) == 0 {
					t.Errorf("line %d: moves listed %x, legal %x", p.Line, listed, legal)
				}
				if q, err := transcript.ParseOBF(transcript.FormatOBF(p)); err != nil || q[0].Position != p.Position || !slices.Equal(q[0].Scores, p.Scores) {
					t.Errorf("line %d: FormatOBF does not read back: %v", p.Line, err)
				}
			}
			if got := transcript.Detect(data); got != transcript.OBF {
				t.Errorf("Detect = %v, want obf", got)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want transcript.Format
	}{
		{gameFull, transcript.Moves},
		{"f5 d6 c3 d3 c4 f4 c5 b3\n" + strings.Repeat("1. f5 d6 c3 d3 c4 f4 c5 b3\n", 8), transcript.Moves},
		{sheetDots, transcript.SheetFormat},
		{sheetCSV, transcript.SheetFormat},
		{ggfGame, transcript.GGF},
		{"% a comment\n" + engine.Start().String() + " X;", transcript.OBF},
	} {
		if got := transcript.Detect([]byte(tc.in)); got != tc.want {
			t.Errorf("Detect(%.20q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestWriters checks that each writer's output reads back as the same game.
func TestWriters(t *testing.T) {
	for _, s := range []string{gamePasses, gameFull, gameWipeout, gameTen, "f5 d6 c3 a1 pass h8"} {
		g := transcript.Game{Name: "game", Start: engine.Start(), Moves: movesOf(t, s), Black: `Doe \ John]`, White: "Roe", Event: "Open",
			Result: &transcript.Result{Black: 20, White: 44, DiffOnly: true, Ending: transcript.Timeout}}
		r := transcript.Replay(g)
		t.Run(s[:10], func(t *testing.T) {
			if m, err := transcript.ParseMoves(engine.FormatMoves(g.Moves)); err != nil || engine.FormatMoves(m.Moves) != engine.FormatMoves(g.Moves) {
				t.Errorf("FormatMoves does not read back: %v", err)
			}
			sheet := transcript.SheetFromMoves(engine.Othello(), g.Moves)
			sg, err := transcript.ParseSheet(sheet.String())
			if err != nil || *sg.Sheet != sheet {
				t.Fatalf("Sheet.String does not read back: %v\n%s", err, sheet)
			}
			if r.Legal() && (!slices.Equal(sg.Moves, slices.DeleteFunc(slices.Clone(g.Moves), isPass)) || sg.Problem != nil) {
				t.Errorf("the sheet's moves = %v, want %v", sg.Moves, g.Moves)
			}
			games, err := transcript.ParseGGF(transcript.FormatGGF(g))
			if err != nil || len(games) != 1 {
				t.Fatalf("FormatGGF does not read back: %v\n%s", err, transcript.FormatGGF(g))
			}
			gg := games[0]
			if gg.Black != g.Black || gg.White != g.White || gg.Event != g.Event || *gg.Result != (transcript.Result{Black: -24, DiffOnly: true, Ending: transcript.Timeout}) {
				t.Errorf("GGF game = %+v, result %v", gg, gg.Result)
			}
			if !slices.Equal(replayed(gg), replayed(g)) {
				t.Errorf("GGF moves = %v, want %v", gg.Moves, g.Moves)
			}
		})
	}
}
