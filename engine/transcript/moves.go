package transcript

import (
	"fmt"
	"slices"
	"strings"

	"github.com/otd-project/otd/engine"
)

// expectMove says what a move list on the board of r holds.
func expectMove(r engine.Rules) string {
	return "a square " + boardSquares(r) + ", a pass (pass, PS or --) or a final score such as 40-24"
}

// boardSquares names the squares of the board of r: "a1..h8".
func boardSquares(r engine.Rules) string {
	s := "a1.." + engine.Point{Col: int8(r.Size - 1), Row: int8(r.Size - 1)}.String()
	if r.Shape == engine.EightStars {
		s += " but the three cut at each corner"
	}
	return s
}

// ParseMoves reads one game of standard Othello written as a move list:
// squares such as f5d6c3, any case, with or without spaces or commas, passes
// implicit or written pass, PS or --, move numbers such as "1." ignored, and
// optionally the claimed final score (black first, e.g. 40-24) at the end. It
// may span several lines. An input without a move or a score is ErrEmpty; a
// line of more than MaxLine bytes, or more moves than the board has empty
// squares (MaxMoves; MaxRecordMoves with passes), ErrTooLarge.
func ParseMoves(s string) (Game, error) { return ParseMovesRules(s, engine.Othello()) }

// ParseMovesRules reads one game played under r written as a move list, as
// ParseMoves does. A square is a letter and one or two digits, read
// greedily ("j10" is one square); a square off the board of r is an error.
func ParseMovesRules(s string, r engine.Rules) (Game, error) {
	g := newGame("game", r)
	start, err := StartBoard(g)
	if err != nil {
		return Game{}, &ParseError{Format: Moves, Expected: "valid rules", Found: err.Error(), Err: ErrUnsupported}
	}
	for i, line := range strings.Split(s, "\n") {
		if len(line) > MaxLine {
			return Game{}, &ParseError{Format: Moves, Line: i + 1, Expected: fmt.Sprintf("a line of at most %d KiB", MaxLine>>10), Found: "a longer line", Err: ErrTooLarge}
		}
		moves, cols, res, err := parseMoveLine(line, i+1, r)
		if err != nil {
			return Game{}, err
		}
		if g.Result != nil && (len(moves) > 0 || res != nil) {
			col := len(line) - len(strings.TrimLeft(line, " \t\r,;")) + 1
			return Game{}, &ParseError{Format: Moves, Line: i + 1, Column: col, Expected: "nothing after the final score", Found: found(strings.TrimSpace(line)), Err: ErrSyntax}
		}
		before := len(g.Moves)
		g.Moves = append(g.Moves, moves...)
		if k, expected, bad := tooManyMoves(start, g.Moves); bad {
			return Game{}, &ParseError{Format: Moves, Line: i + 1, Column: cols[k-before], Expected: expected, Found: found(g.Moves[k].String()), Err: ErrTooLarge}
		}
		if res != nil {
			g.Result = res
		}
	}
	if len(g.Moves) == 0 && g.Result == nil {
		return Game{}, &ParseError{Format: Moves, Expected: "a move list such as f5d6c3", Found: "no move", Err: ErrEmpty}
	}
	return g, nil
}

// ParseMoveLists reads a file of move lists, one game per line (a batch). A
// line continues the game of the line before unless that line ended with a
// score or it starts with an opening move (d3, c4, f5 or e6) that cannot
// continue that game (its square is taken or the move is illegal there), so
// that a long move list wrapped over lines stays one game. Blank lines and
// lines starting with # or % are skipped. The Reader's limits apply (a line
// of at most MaxLine bytes, a game of at most MaxMoves moves); NewReader reads
// such a batch one game at a time.
func ParseMoveLists(s string) ([]Game, error) {
	rd, err := NewReader(strings.NewReader(s), Moves, nil)
	if err != nil {
		return nil, err
	}
	return readAll(rd)
}

// isOpening reports whether m is a legal first move of a game from start.
func isOpening(start Board, m engine.Point) bool {
	_, err := start.Play(m)
	return m != engine.PassPoint && err == nil
}

// continues reports whether m, the first move of a line, can continue g: it
// is legal after g's moves or, if g does not replay, its square is still empty.
func continues(g Game, m engine.Point) bool {
	r := Replay(g)
	if r.Illegal != nil {
		return !slices.Contains(g.Moves, m)
	}
	p := r.Final
	if p.MustPass() {
		p, _ = p.Play(engine.PassPoint)
	}
	_, err := p.Play(m)
	return err == nil
}

// parseMoveLine reads the moves of a line, the column of each, and a final score.
// A square is a letter and one or two digits, and must be on the board of r.
func parseMoveLine(line string, lineNo int, r engine.Rules) ([]engine.Point, []int, *Result, error) {
	moves := make([]engine.Point, 0, len(line)/2+1)
	cols := make([]int, 0, len(line)/2+1)
	var res *Result
	for i := 0; i < len(line); {
		c := line[i] | 0x20
		perr := func(expected string) error {
			tok := line[i:]
			if j := strings.IndexAny(tok, " \t,;"); j > 0 {
				tok = tok[:j]
			}
			return &ParseError{Format: Moves, Line: lineNo, Column: i + 1, Expected: expected, Found: found(strings.TrimRight(tok, "\r")), Err: ErrSyntax}
		}
		switch {
		case line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == ',' || line[i] == ';':
			i++
			continue
		case res != nil:
			return nil, nil, nil, perr("nothing after the final score")
		case c >= 'a' && c <= 'z' && i+1 < len(line) && isDigit(line[i+1]):
			j, row := i+1, 0
			digits := 1 // of a row: two from 10x10 up (f5d6c340-24 is c3, then a score)
			if r.Size >= 10 {
				digits = 2
			}
			for ; j < len(line) && j <= i+digits && isDigit(line[j]); j++ {
				row = 10*row + int(line[j]-'0')
			}
			p := engine.Point{Col: int8(c - 'a'), Row: int8(row - 1)}
			if line[i+1] == '0' || !r.Playable(int(p.Col), int(p.Row)) {
				return nil, nil, nil, perr(expectMove(r))
			}
			moves, cols = append(moves, p), append(cols, i+1)
			i = j
		case hasPrefixFold(line[i:], "pass"):
			moves, cols = append(moves, engine.PassPoint), append(cols, i+1)
			i += 4
		case hasPrefixFold(line[i:], "ps"), strings.HasPrefix(line[i:], "--"):
			moves, cols = append(moves, engine.PassPoint), append(cols, i+1)
			i += 2
		case line[i] >= '0' && line[i] <= '9':
			j := i
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j < len(line) && line[j] == '.' { // a move number: "1." or "12."
				i = j + 1
				continue
			}
			k := j
			for k < len(line) && !strings.ContainsRune(" \t\r,;", rune(line[k])) {
				k++
			}
			sc, err := engine.ParseScore(line[i:k])
			if err != nil || sc.Black+sc.White > r.Squares() {
				return nil, nil, nil, perr(expectMove(r))
			}
			res = &Result{Black: sc.Black, White: sc.White}
			i = k
		default:
			return nil, nil, nil, perr(expectMove(r))
		}
	}
	return moves, cols, res, nil
}

// hasPrefixFold reports whether s starts with the ASCII word p in any case.
func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
