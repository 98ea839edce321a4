package transcript

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
)

// OBFPosition is a position in Edax's OBF format: 64 squares a1..h8 (X, O,
// -), the side to move, and optionally the exact score of moves, as in
// "<board> X; G8:+18; H1:+12;".
type OBFPosition struct {
	Line     int
	Position engine.Bitboard
	Scores   []MoveScore
}

// MoveScore is a move with its exact final disc difference for the side to move.
type MoveScore struct {
	Move  engine.Square
	Score int
}

// ParseOBF reads one position a line; blank lines and lines starting with %
// or # are skipped; a line of more than MaxLine bytes is ErrTooLarge.
func ParseOBF(text string) ([]OBFPosition, error) {
	rd, err := NewReader(strings.NewReader(text), OBF, nil)
	if err != nil {
		return nil, err
	}
	var out []OBFPosition
	for {
		b, err := rd.readLine()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		line := strings.TrimRight(string(b), "\r")
		if t := strings.TrimSpace(line); t == "" || t[0] == '%' || t[0] == '#' {
			continue
		}
		p, err := parseOBFLine(line, rd.line)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
}

func parseOBFLine(line string, n int) (OBFPosition, error) {
	perr := func(col int, expected, f string) error {
		return &ParseError{Format: OBF, Line: n, Column: col, Expected: expected, Found: found(f), Err: ErrSyntax}
	}
	if len(line) < 66 {
		return OBFPosition{}, perr(1, "64 squares (X, O, -), a space and the side to move", line)
	}
	b, err := engine.ParseBoard(line[:64])
	if err != nil {
		return OBFPosition{}, perr(1, "64 squares of X, O and -", line[:64])
	}
	p := OBFPosition{Line: n, Position: engine.Bitboard{Board: b}}
	switch line[64:66] {
	case " X", " x":
	case " O", " o":
		p.Position.ToMove = engine.White
	default:
		return OBFPosition{}, perr(65, "a space and the side to move, X or O", line[64:min(len(line), 67)])
	}
	col := 67
	for _, field := range strings.Split(line[66:], ";") {
		f := strings.TrimSpace(field)
		if f == "" {
			col += len(field) + 1
			continue
		}
		mv, sc, ok := strings.Cut(f, ":")
		s, err1 := engine.ParseSquare(mv)
		v, err2 := strconv.Atoi(strings.TrimPrefix(sc, "+"))
		if strings.EqualFold(mv, "ps") || strings.EqualFold(mv, "pa") || strings.EqualFold(mv, "pass") {
			err1 = nil
		}
		if !ok || err1 != nil || err2 != nil || v < -64 || v > 64 {
			at := col + len(field) - len(strings.TrimLeft(field, " \t")) // the field's first character
			return OBFPosition{}, perr(at, "a move and its score such as G8:+18", f)
		}
		m := engine.Pass
		if s != engine.NoSquare {
			m = s
		}
		p.Scores = append(p.Scores, MoveScore{Move: m, Score: v})
		col += len(field) + 1
	}
	return p, nil
}

// looksOBF reports whether the first line that is not blank or a comment is a position.
func looksOBF(data []byte) bool {
	for line := range strings.Lines(string(data)) {
		if t := strings.TrimSpace(line); t == "" || t[0] == '%' || t[0] == '#' {
			continue
		}
		if len(line) < 66 || line[64] != ' ' {
			return false
		}
		_, err := engine.ParseBoard(line[:64])
		return err == nil
	}
	return false
}

// FormatOBF writes a position (and move scores, if any) as one OBF line.
func FormatOBF(p OBFPosition) string {
	var b strings.Builder
	b.WriteString(p.Position.Board.String())
	b.WriteString(" " + "XO"[p.Position.ToMove:p.Position.ToMove+1] + ";")
	for _, s := range p.Scores {
		fmt.Fprintf(&b, " %s:%+d;", strings.ToUpper(s.Move.String()), s.Score)
	}
	return b.String()
}
