package transcript_test

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
)

// maxFuzz bounds the inputs the fuzz targets read, to keep each run fast.
const maxFuzz = 4 << 10

// checkError checks that a reader's error is a *ParseError with a sentinel, a
// sane place in the input (text given, for a text format) and what was expected.
func checkError(t *testing.T, err error, text string) {
	t.Helper()
	var pe *transcript.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if !slices.ContainsFunc([]error{transcript.ErrSyntax, transcript.ErrTruncated, transcript.ErrUnsupported, transcript.ErrEmpty, transcript.ErrTooLarge},
		func(s error) bool { return errors.Is(err, s) }) {
		t.Errorf("error %v wraps no sentinel", err)
	}
	if pe.Line < 0 || pe.Column < 0 || pe.Expected == "" || pe.Error() == "" {
		t.Errorf("error %v: line %d, column %d, expected %q", err, pe.Line, pe.Column, pe.Expected)
	}
	if pe.Format == transcript.WTHOR || text == "" {
		return
	}
	if errors.Is(err, transcript.ErrSyntax) && (pe.Line < 1 || pe.Column < 1) {
		t.Errorf("syntax error %v without a place", err)
	}
	if lines := strings.Split(text, "\n"); pe.Line > len(lines) || pe.Line > 0 && pe.Column > len(lines[pe.Line-1])+1 {
		t.Errorf("error %v: line %d, column %d lie outside the input", err, pe.Line, pe.Column)
	}
}

// played is what a replay found: the moves with their colours and the first illegal move.
type played struct {
	Move     engine.Point
	Color    engine.Color
	Illegal  bool
	Position string // the board
}

func replayed(g transcript.Game) []played {
	r := transcript.Replay(g)
	out := make([]played, 0, len(r.Moves)+1)
	for _, m := range r.Moves {
		out = append(out, played{Move: m.Move, Color: m.Color})
	}
	if il := r.Illegal; il != nil {
		out = append(out, played{Move: il.Move, Color: il.Color, Illegal: true, Position: il.Before.String() + il.Before.ToMove().String()})
	}
	return append(out, played{Position: r.Final.String() + r.Final.ToMove().String()})
}

// checkGame verifies g, and checks that FormatMoves reads back as the same
// moves when g replays from the standard start (explicit passes are forced
// ones then, which the move list leaves implicit).
func checkGame(t *testing.T, g transcript.Game) {
	t.Helper()
	r := transcript.Verify(g, nil)
	transcript.Verify(g, &transcript.Result{Black: 33, White: 31})
	discs := slices.DeleteFunc(slices.Clone(g.Moves), isPass)
	if !r.Legal() || g.RuleSet().Standard() && g.Start != engine.Start() || len(discs) == 0 {
		return
	}
	back, err := transcript.ParseMovesRules(engine.FormatMoves(g.Moves), g.RuleSet())
	if err != nil {
		t.Fatalf("FormatMoves(%v) does not read back: %v", g.Moves, err)
	}
	if r2 := transcript.Replay(back); !slices.Equal(back.Moves, discs) || !r2.Legal() || r2.Final.String() != r.Final.String() {
		t.Errorf("FormatMoves(%v) reads back as %v", g.Moves, back.Moves)
	}
}

func FuzzParseMoves(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFuzz {
			return
		}
		g, err := transcript.ParseMoves(s)
		if err != nil {
			checkError(t, err, s)
			return
		}
		checkGame(t, g)
	})
}

func FuzzParseMoveLists(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFuzz {
			return
		}
		games, err := transcript.ParseMoveLists(s)
		if err != nil {
			checkError(t, err, s)
			return
		}
		for _, g := range games {
			checkGame(t, g)
		}
	})
}

func FuzzParseSheet(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFuzz {
			return
		}
		g, err := transcript.ParseSheet(s)
		if err != nil {
			checkError(t, err, s)
			return
		}
		checkSheet(t, g)
	})
}

// FuzzParseRules reads move lists and sheets under the rules named (boards
// up to 10x10, to keep the search for corrections fast).
func FuzzParseRules(f *testing.F) {
	f.Add("othello:10", "g6j10 j9")
	f.Add("othello:6", "e4 c5 a1 -- 20-16")
	f.Add("8stars", "d5 a1")
	f.Add("reversi", "d4 e4 b2")
	f.Add("anti+reversi:4", "b2 c3 b3 c2 pass")
	f.Add("othello+supply=1:4", "a2 c1 d1")
	f.Add("othello:6", "   a  b  c  d  e  f\n1  .  .  .  .  .  .\n2  .  .  .  .  .  .\n3  .  .  O  X  .  .\n4  .  .  X  O  1  .\n5  .  .  2  .  .  .\n6  .  .  .  .  .  .\n")
	f.Add("8stars", strings.Repeat("# # . . . . . . # #\n", 10))
	f.Fuzz(func(t *testing.T, rules, s string) {
		r, err := engine.ParseRules(rules)
		if err != nil || r.Size > 10 || len(s) > maxFuzz {
			return
		}
		if g, err := transcript.ParseMovesRules(s, r); err != nil {
			checkError(t, err, s)
		} else {
			checkGame(t, g)
		}
		if g, err := transcript.ParseSheetRules(s, r); err != nil {
			checkError(t, err, s)
		} else {
			checkSheet(t, g)
		}
	})
}

// checkSheet checks a sheet read: its corrections replay as they say, it
// writes and reads back, and its moves number it.
func checkSheet(t *testing.T, g transcript.Game) {
	t.Helper()
	if g.Sheet == nil {
		t.Fatal("a sheet's game has no Sheet")
	}
	for _, claimed := range []*transcript.Result{nil, {Black: 40, White: 24}} {
		r := transcript.Verify(g, claimed)
		for _, c := range r.Corrections {
			if rc := transcript.Replay(c.Sheet.Game()); !rc.Legal() || rc.Over != c.Over || rc.Score != c.Score {
				t.Errorf("correction %q does not replay as it says: %v", c.What, rc.Illegal)
			}
		}
	}
	back, err := transcript.ParseSheetRules(g.Sheet.String(), g.RuleSet())
	if err != nil || *back.Sheet != *g.Sheet {
		t.Fatalf("Sheet.String does not read back (%v):\n%s", err, g.Sheet)
	}
	if g.Problem == nil && transcript.SheetFromMoves(g.RuleSet(), g.Moves) != *g.Sheet {
		t.Errorf("SheetFromMoves(%v) is not the sheet read", g.Moves)
	}
}

func FuzzParseGGF(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFuzz {
			return
		}
		games, err := transcript.ParseGGF(s)
		if err != nil {
			checkError(t, err, s)
			return
		}
		for _, g := range games {
			transcript.Verify(g, nil)
			out := transcript.FormatGGF(g)
			back, err := transcript.ParseGGF(out)
			if err != nil || len(back) != 1 {
				t.Fatalf("FormatGGF does not read back (%v): %s", err, out)
			}
			b := back[0]
			if b.Start != g.Start || b.RuleSet() != g.RuleSet() || b.Black != g.Black || b.White != g.White || b.Event != g.Event || b.Time != g.Time ||
				(b.Result == nil) != (g.Result == nil) || b.Result != nil && *b.Result != *g.Result {
				t.Errorf("FormatGGF reads back as %+v, want %+v: %s", b, g, out)
			}
			if !slices.Equal(replayed(b), replayed(g)) {
				t.Errorf("FormatGGF moves %v read back as %v: %s", g.Moves, b.Moves, out)
			}
		}
	})
}

// FuzzParseWTHOR reads the fuzz bytes as game records under a valid header
// (and as a whole file, and as name files).
func FuzzParseWTHOR(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzz {
			return
		}
		for _, size := range []int{20, 26} {
			if _, err := transcript.ParseNames(data, size); err != nil {
				checkError(t, err, "")
			}
		}
		if _, err := transcript.ParseWTHOR(data, nil); err != nil {
			checkError(t, err, "")
		}
		recs := data[:len(data)/68*68]
		games, err := transcript.ParseWTHOR(wtb(recs), nil)
		if err != nil {
			checkError(t, err, "")
			return
		}
		if len(games) != len(recs)/68 {
			t.Fatalf("%d games from %d records", len(games), len(recs)/68)
		}
		for i, g := range games {
			transcript.Verify(g, nil)
			rec := recs[i*68:]
			n := func(at int) uint16 { return binary.LittleEndian.Uint16(rec[at:]) }
			back, err := transcript.ParseWTHOR(wtb(wthorRecord(t, nil, g, n(0), n(2), n(4))), nil)
			if err != nil {
				t.Fatalf("AppendWTHOR does not read back: %v", err)
			}
			b := back[0]
			if !slices.Equal(b.Moves, g.Moves) || *b.Result != *g.Result || b.Black != g.Black || b.White != g.White || b.Event != g.Event {
				t.Errorf("AppendWTHOR reads back as %+v, want %+v", b, g)
			}
		}
	})
}

func FuzzParseOBF(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFuzz {
			return
		}
		ps, err := transcript.ParseOBF(s)
		if err != nil {
			checkError(t, err, s)
			return
		}
		for _, p := range ps {
			transcript.Verify(transcript.Game{Start: p.Position}, nil)
			out := transcript.FormatOBF(p)
			back, err := transcript.ParseOBF(out)
			if err != nil || len(back) != 1 || back[0].Position != p.Position || !slices.Equal(back[0].Scores, p.Scores) {
				t.Fatalf("FormatOBF does not read back (%v): %s", err, out)
			}
		}
	})
}

func FuzzDetectParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzz {
			return
		}
		games, err := transcript.Parse(data, transcript.Auto)
		if err != nil {
			text := string(data)
			if transcript.Detect(data) == transcript.WTHOR {
				text = ""
			}
			checkError(t, err, text)
			return
		}
		if len(games) == 0 {
			t.Fatal("Parse returned no game and no error")
		}
		for _, g := range games {
			transcript.Verify(g, nil)
		}
	})
}

// FuzzParsePGN: the PGN reader refuses with a *ParseError placed in the
// input, or returns games that replay (checkGame), each with at most as many
// moves as the board has squares to fill and a result that is a score of
// the board or a winner.
func FuzzParsePGN(f *testing.F) {
	f.Add("[Event \"World Championship - 1977\"]\n[Date \"1977\"]\n[Black \"Inoue Hiroshi\"]\n[White \"Heiberg Thomas\"]\n[Result \"34-30\"]\n1. F5 D6\n2. C3 F3\n\n[Black \"B\"]\n1. f5 -- 2. pass {x} $2 d6 1-0\n")
	f.Add("[Result \"0-1\"]\n\n 1. f5 f6 2. e6 f4\n{W wins 16-48} 0-1\n\n\n1. f5 d6 *")
	f.Add("[FEN \"x\"]\n1. f5 (1. d3) ; c\n%e\n[Black \"\\\"q\\\"\"]")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > maxFuzz {
			return
		}
		games, err := transcript.ParsePGN(s)
		if err != nil {
			checkError(t, err, s)
			return
		}
		for _, g := range games {
			if len(g.Moves) > transcript.MaxRecordMoves {
				t.Fatalf("%s: %d moves", g.Name, len(g.Moves))
			}
			if r := g.Result; r != nil && (r.Black < 0 || r.White < 0 || r.Black+r.White > 64 || r.WinnerOnly && r.Black+r.White > 2) {
				t.Fatalf("%s: result %+v", g.Name, *r)
			}
			checkGame(t, g)
		}
	})
}
