package transcript

import (
	"fmt"
	"strings"

	"github.com/otd-project/otd/engine"
)

const expectMove = "a square a1..h8, a pass (pass, PS or --) or a final score such as 40-24"

// ParseMoves reads one game written as a move list: squares such as f5d6c3,
// any case, with or without spaces or commas, passes implicit or written pass,
// PS or --, move numbers such as "1." ignored, and optionally the claimed
// final score (black first, e.g. 40-24) at the end. It may span several lines.
func ParseMoves(s string) (Game, error) {
	g := Game{Name: "game", Start: engine.Start()}
	for i, line := range strings.Split(s, "\n") {
		moves, res, err := parseMoveLine(line, i+1)
		if err != nil {
			return Game{}, err
		}
		if g.Result != nil && len(moves) > 0 {
			return Game{}, &ParseError{Format: Moves, Line: i + 1, Column: 1, Expected: "nothing after the final score", Found: found(strings.TrimSpace(line))}
		}
		g.Moves = append(g.Moves, moves...)
		if res != nil {
			g.Result = res
		}
	}
	return g, nil
}

// ParseMoveLists reads a file of move lists, one game per line (a batch). A
// line continues the game of the line before unless that line ended with a
// score or it starts with an opening move (d3, c4, f5 or e6), so that a long
// move list wrapped over lines stays one game. Blank lines and lines starting
// with # or % are skipped.
func ParseMoveLists(s string) ([]Game, error) {
	var games []Game
	open := false // the last game may continue on the next line
	for i, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t == "" || t[0] == '#' || t[0] == '%' {
			continue
		}
		moves, res, err := parseMoveLine(line, i+1)
		if err != nil {
			return nil, err
		}
		if !open || (len(moves) > 0 && isOpening(moves[0])) {
			games = append(games, Game{Name: fmt.Sprintf("line %d", i+1), Start: engine.Start()})
		}
		g := &games[len(games)-1]
		g.Moves = append(g.Moves, moves...)
		g.Result = res
		open = res == nil
	}
	return games, nil
}

func isOpening(m engine.Move) bool {
	return engine.Start().LegalMoves()&m.Square().Bit() != 0 && !m.IsPass()
}

func parseMoveLine(line string, lineNo int) ([]engine.Move, *Result, error) {
	var moves []engine.Move
	var res *Result
	for i := 0; i < len(line); {
		c := line[i] | 0x20
		rest := strings.ToLower(line[i:])
		perr := func(expected string) error {
			tok := line[i:]
			if j := strings.IndexAny(tok, " \t,;"); j > 0 {
				tok = tok[:j]
			}
			return &ParseError{Format: Moves, Line: lineNo, Column: i + 1, Expected: expected, Found: found(strings.TrimRight(tok, "\r"))}
		}
		switch {
		case strings.ContainsRune(" \t\r,;", rune(line[i])):
			i++
			continue
		case res != nil:
			return nil, nil, perr("nothing after the final score")
		case c >= 'a' && c <= 'h' && i+1 < len(line) && line[i+1] >= '1' && line[i+1] <= '8':
			moves = append(moves, engine.MoveAt(engine.SquareAt(int(c-'a'), int(line[i+1]-'1'))))
			i += 2
		case strings.HasPrefix(rest, "pass"):
			moves = append(moves, engine.Pass)
			i += 4
		case strings.HasPrefix(rest, "ps"), strings.HasPrefix(rest, "--"):
			moves = append(moves, engine.Pass)
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
			if err != nil {
				return nil, nil, perr(expectMove)
			}
			res = &Result{Black: sc.Black, White: sc.White}
			i = k
		default:
			return nil, nil, perr(expectMove)
		}
	}
	return moves, res, nil
}

// FormatMoves writes moves as a compact move list, such as f5d6c3; passes are
// left implicit, as they are forced.
func FormatMoves(moves []engine.Move) string {
	var b strings.Builder
	for _, m := range moves {
		if !m.IsPass() {
			b.WriteString(m.String())
		}
	}
	return b.String()
}
