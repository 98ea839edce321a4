package transcript_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
)

func rulesOf(t testing.TB, name string) engine.Rules {
	t.Helper()
	r, err := engine.ParseRules(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestVariantIllegalMoves replays short games worked out by hand on other
// boards: the first illegal move, and the board before it row by row (X
// black, O white, - empty) with its legal moves.
func TestVariantIllegalMoves(t *testing.T) {
	for _, tc := range []struct {
		rules, moves string
		illegal      string
		board        []string // the rows before the illegal move
		legal        string
	}{
		// 6x6: c3 and d4 white, d3 and c4 black; e4 flips d4, c5 flips c4.
		{"othello:6", "e4 c5 a1", "move 3, a1 by black: the move flips no disc",
			[]string{"------", "------", "--OX--", "--OXX-", "--O---", "------"}, "b2 b3 b4 b5 b6"},
		// 10x10: e5 and f6 white, f5 and e6 black; g6 flips f6; j10 is one square.
		{"othello:10", "g6j10", "move 2, j10 by white: the move flips no disc",
			[]string{"----------", "----------", "----------", "----------", "----OX----", "----XXX---", "----------", "----------", "----------", "----------"}, "g5 e7 g7"},
		// Reversi: the first four moves fill d4, e4, d5, e5.
		{"reversi", "d4 e4 b2", "move 3, b2 by black: the first four moves of Reversi fill the four centre squares",
			[]string{"--------", "--------", "--------", "---XO---", "--------", "--------", "--------", "--------"}, "d5 e5"},
		{"reversi", "d4 d4", "move 2, d4 by white: the square is occupied",
			[]string{"--------", "--------", "--------", "---X----", "--------", "--------", "--------", "--------"}, "e4 d5 e5"},
		// 4x4, one disc each: a2 flips b2, c1 flips c2; then neither may move.
		{"othello+supply=1:4", "a2 c1 d1", "move 3, d1 by black: the game is over",
			[]string{"--O-", "XXO-", "-XO-", "----"}, "none"},
	} {
		t.Run(tc.rules+" "+tc.moves, func(t *testing.T) {
			g, err := transcript.ParseMovesRules(tc.moves, rulesOf(t, tc.rules))
			if err != nil {
				t.Fatal(err)
			}
			r := transcript.Verify(g, nil)
			if r.Illegal == nil {
				t.Fatalf("no illegal move; want %s", tc.illegal)
			}
			if got := r.Illegal.String(); got != tc.illegal {
				t.Errorf("illegal %q, want %q", got, tc.illegal)
			}
			if got, want := r.Illegal.Before.String(), strings.Join(tc.board, ""); got != want {
				t.Errorf("board before it %s, want %s", got, want)
			}
			var legal []string
			for _, m := range r.Illegal.Before.Moves() {
				legal = append(legal, m.String())
			}
			if got := strings.Join(legal, " "); got != tc.legal && !(got == "" && tc.legal == "none") {
				t.Errorf("legal moves %q, want %q", got, tc.legal)
			}
		})
	}
}

// TestVariantScores: games of other rules that end, scored by hand.
func TestVariantScores(t *testing.T) {
	for _, tc := range []struct {
		rules, moves string
		over         bool
		score        string
	}{
		// Each has placed its one disc: 3-3 and 10 empty squares, a tie of 8-8.
		{"othello+supply=1:4", "a2 c1", true, "8-8"},
		// The Reversi opening done (no flips): two discs each, black to move.
		{"reversi", "d4 e4 e5 d5", false, "2-2"},
		// 6x6: after e4 c5 black has d3, d4, e4 and white c3, c4, c5.
		{"othello:6", "e4 c5", false, "3-3"},
	} {
		t.Run(tc.rules+" "+tc.moves, func(t *testing.T) {
			g, err := transcript.ParseMovesRules(tc.moves, rulesOf(t, tc.rules))
			if err != nil {
				t.Fatal(err)
			}
			r := transcript.Replay(g)
			if !r.Legal() || r.Over != tc.over || r.Score.String() != tc.score {
				t.Errorf("legal %v (%v), over %v, score %v; want over %v, %s", r.Legal(), r.Illegal, r.Over, r.Score, tc.over, tc.score)
			}
		})
	}
}

func TestParseMovesRules(t *testing.T) {
	for _, tc := range []struct{ rules, in, want string }{
		{"othello:10", "g6j10 J9", "[g6 j10 j9]"},
		{"othello:16", "p16a1 p1,a16", "[p16 a1 p1 a16]"},
		{"8stars", "1. d5 2. c5 pass a3", "[d5 c5 pass a3]"},
	} {
		g, err := transcript.ParseMovesRules(tc.in, rulesOf(t, tc.rules))
		if err != nil || fmt.Sprint(g.Moves) != tc.want || g.RuleSet() != rulesOf(t, tc.rules) {
			t.Errorf("%s %q: %v %v (%v), want %s", tc.rules, tc.in, g.Moves, g.RuleSet(), err, tc.want)
		}
	}
	for _, tc := range []struct {
		rules, in string
		col       int
		expected  string
	}{
		{"othello", "f5 j10", 4, "a square a1..h8, a pass"},
		{"othello:6", "e4 g1", 4, "a square a1..f6, a pass"},
		{"othello:10", "g6 k11", 4, "a square a1..j10, a pass"},
		{"othello:10", "g6 a11", 4, "a square a1..j10, a pass"},
		{"8stars", "d5 b1", 4, "a square a1..j10 but the three cut at each corner"},
		{"othello:16", "a1 q1", 4, "a square a1..p16"},
	} {
		t.Run(tc.rules+" "+tc.in, func(t *testing.T) {
			_, err := transcript.ParseMovesRules(tc.in, rulesOf(t, tc.rules))
			wantParseError(t, err, 1, tc.col, transcript.ErrSyntax, tc.expected)
		})
	}
}

// TestVariantSheets reads sheets of other boards written by hand.
func TestVariantSheets(t *testing.T) {
	six := "   a  b  c  d  e  f\n1  .  .  .  .  .  .\n2  .  .  .  .  .  .\n3  .  .  O  X  .  .\n4  .  .  X  O  1  .\n5  .  .  2  .  .  .\n6  .  .  .  .  .  .\n"
	g, err := transcript.ParseMovesRules("e4 c5", rulesOf(t, "othello:6"))
	if err != nil {
		t.Fatal(err)
	}
	if got := transcript.SheetFromMoves(g.RuleSet(), g.Moves).String(); got != six {
		t.Errorf("6x6 sheet:\n%s\nwant\n%s", got, six)
	}
	stars := `# a sheet of 8Stars: # on the cut squares (or blank)
# # . . . . . . # #
# . . . . . . . . #
. . . . . . . . . .
. . . . . . . . . .
. . . . O X 2 . . .
. . . . X O 1 . . .
. . . . . . . . . .
. . . . . . . . . .
# . . . . . . . . #
# # . . . . . . # #
`
	sg, err := transcript.ParseSheetRules(stars, rulesOf(t, "8stars"))
	if err != nil {
		t.Fatal(err)
	}
	if r := transcript.Verify(sg, nil); fmt.Sprint(sg.Moves) != "[g6 g5]" || !r.Legal() {
		t.Errorf("8stars sheet: moves %v, illegal %v; want g6 g5, legal", sg.Moves, r.Illegal)
	}
	bad := strings.Replace(stars, "# # . .", "1 # . .", 1)
	_, err = transcript.ParseSheetRules(bad, rulesOf(t, "8stars"))
	wantParseError(t, err, 2, 1, transcript.ErrSyntax, "an empty cell or # (the board cuts this square) for a1")
	_, err = transcript.ParseSheetRules(six, rulesOf(t, "othello:8"))
	wantParseError(t, err, 1, 4, transcript.ErrSyntax, "8 cells in row 1")
	_, err = transcript.ParseSheetRules(strings.Replace(six, " 2 ", "37 ", 1), rulesOf(t, "othello:6"))
	wantParseError(t, err, 6, 9, transcript.ErrSyntax, "a move number 1-32 or an empty cell for c5")
}

// randomGame plays a seeded random legal game under r to its end; passes are
// left out, as the formats keep them implicit.
func randomGame(t testing.TB, r engine.Rules, seed uint64) []engine.Point {
	t.Helper()
	b, err := transcript.StartBoard(transcript.Game{Rules: r, Start: engine.Start()})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	var moves []engine.Point
	for !b.GameOver() {
		ms := b.Moves()
		m := ms[rng.IntN(len(ms))]
		if b, err = b.Play(m); err != nil {
			t.Fatalf("%s after %v: %v", m, moves, err)
		}
		if m != engine.PassPoint {
			moves = append(moves, m)
		}
	}
	return moves
}

// TestVariantWriters checks that each writer's output of a game under other
// rules reads back as the same game: move lists, sheets, GGF (which says its
// rules by its board) and the SVG board.
func TestVariantWriters(t *testing.T) {
	for _, name := range []string{"othello:6", "othello:10", "othello:16", "8stars", "anti+8stars", "anti:10", "reversi", "reversi:6", "othello:4"} {
		t.Run(name, func(t *testing.T) {
			rules := rulesOf(t, name)
			g := transcript.Game{Name: "game", Rules: rules, Moves: randomGame(t, rules, 1), Black: "Doe", White: "Roe"}
			r := transcript.Replay(g)
			if !r.Legal() || !r.Over {
				t.Fatalf("the random game does not replay: %v", r.Illegal)
			}
			m, err := transcript.ParseMovesRules(engine.FormatMoves(g.Moves), rules)
			if err != nil || fmt.Sprint(m.Moves) != fmt.Sprint(g.Moves) {
				t.Errorf("FormatMoves does not read back: %v", err)
			}
			sheet := transcript.SheetFromMoves(rules, g.Moves)
			sg, err := transcript.ParseSheetRules(sheet.String(), rules)
			if err != nil || *sg.Sheet != sheet || fmt.Sprint(sg.Moves) != fmt.Sprint(g.Moves) {
				t.Fatalf("Sheet.String does not read back: %v\n%s", err, sheet)
			}
			games, err := transcript.ParseGGF(transcript.FormatGGF(g))
			if err != nil || len(games) != 1 {
				t.Fatalf("FormatGGF does not read back: %v\n%s", err, transcript.FormatGGF(g))
			}
			gg := games[0]
			if gg.RuleSet() != rules || gg.Black != "Doe" || fmt.Sprint(replayed(gg)) != fmt.Sprint(replayed(g)) {
				t.Errorf("GGF game under %v: %v, want %v", gg.RuleSet(), gg.Moves, g.Moves)
			}
			pic, _ := r.Picture(-1)
			var b bytes.Buffer
			if err := pic.WriteSVG(&b); err != nil {
				t.Fatal(err)
			}
			d := readSVG(t, b.Bytes())
			discs := 0
			for _, p := range sheet.Squares() {
				c, ok := r.Final.At(p)
				if got := d.discs[p.String()]; ok && got != c.String() || !ok && got != "" {
					t.Errorf("SVG: %s holds %q", p, got)
				}
				if ok {
					discs++
				}
			}
			if want := rules.Size*rules.Size - rules.Squares(); len(d.discs) != discs || d.cuts != want {
				t.Errorf("SVG: %d discs, %d squares cut; want %d, %d", len(d.discs), d.cuts, discs, want)
			}
		})
	}
}

// TestReaderRules: the rules given to a Reader against what a record says.
func TestReaderRules(t *testing.T) {
	read := func(in string, f transcript.Format, rules string) (transcript.Game, error) {
		rd, err := transcript.NewReader(strings.NewReader(in), f, nil)
		if err != nil {
			return transcript.Game{}, err
		}
		rd.SetRules(rulesOf(t, rules))
		return rd.Next()
	}
	_, err := read("(;GM[Othello]TY[8]B[f5];)", transcript.GGF, "othello:10")
	wantParseError(t, err, 1, 14, transcript.ErrUnsupported, "the 10x10 board of the rules given (othello:10)")
	g, err := read("(;GM[Othello]TY[10]B[g6]W[g5];)", transcript.GGF, "anti+8stars")
	if r := transcript.Replay(g); err != nil || g.RuleSet() != rulesOf(t, "anti+8stars") || !r.Legal() {
		t.Errorf("a 10x10 GGF record under 8stars: %v, %v", g.RuleSet(), err)
	}
	g, err = read("a1 b1\nj10", transcript.Moves, "othello:10")
	if err != nil || g.RuleSet() != rulesOf(t, "othello:10") || fmt.Sprint(g.Moves) != "[a1 b1 j10]" {
		t.Errorf("a 10x10 move list: %v %v, %v", g.RuleSet(), g.Moves, err)
	}
	_, err = read(engine.Start().String()+" X;", transcript.OBF, "anti")
	wantParseError(t, err, 0, 0, transcript.ErrUnsupported, "standard 8x8 Othello")
	if _, err := transcript.AppendWTHOR(nil, transcript.Game{Rules: rulesOf(t, "reversi")}, 0, 0, 0); !errors.Is(err, transcript.ErrUnsupported) {
		t.Errorf("AppendWTHOR of a Reversi game: %v, want ErrUnsupported", err)
	}
}

// TestLargeBoardScores: a score past 64 discs is read on a board that has the
// squares (a move list's final score, GGF's RE), and refused on one that has
// not; on 8x8 a row has one digit, so a score may follow the last move.
func TestLargeBoardScores(t *testing.T) {
	ten := engine.Rules{Size: 10}
	if g, err := transcript.ParseMovesRules("e4 25-75", ten); err != nil || g.Result == nil || *g.Result != (transcript.Result{Black: 25, White: 75}) {
		t.Errorf("10x10 move list with 25-75: %+v, %v", g.Result, err)
	}
	if _, err := transcript.ParseMovesRules("e4 60-50", ten); err == nil {
		t.Error("60-50 on 10x10 (110 discs on 100 squares) was read")
	}
	if _, err := transcript.ParseMoves("f5 40-25"); err == nil {
		t.Error("40-25 on 8x8 (65 discs) was read")
	}
	g, err := transcript.ParseMoves("f5d6c340-24")
	if err != nil || len(g.Moves) != 3 || g.Moves[2].String() != "c3" || g.Result == nil || *g.Result != (transcript.Result{Black: 40, White: 24}) {
		t.Errorf("f5d6c340-24 on 8x8: %v, %+v, %v", g.Moves, g.Result, err)
	}
	gs, err := transcript.ParseGGF("(;GM[Othello]TY[10]RE[+70.000]B[e4];)")
	if err != nil || len(gs) != 1 || gs[0].Result == nil || gs[0].Result.Black != 70 {
		t.Errorf("GGF 10x10 with RE[+70]: %+v, %v", gs, err)
	}
}
