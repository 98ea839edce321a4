package transcript

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
)

// ParseGGF reads every game of a GGF file: records (;GM[Othello]...;) with
// properties such as PB and PW (players), PC (place), DT (date), TY (board
// type), RE (result: black's disc difference, with :t for time, :r for
// resignation, :s for an agreed score), BO (starting board) and the moves
// B[f5] W[d6] (with optional /evaluation/time; PA is a pass). A colour that
// moves twice in a row means the other colour passed. A record of more than
// MaxGGFRecord bytes or of more moves than its board has empty squares is
// ErrTooLarge; NewReader reads a GGF file one record at a time.
func ParseGGF(text string) ([]Game, error) {
	rd, err := NewReader(strings.NewReader(text), GGF, nil)
	if err != nil {
		return nil, err
	}
	return readAll(rd)
}

// ggfParser parses one record; line0 and col0 are where its text starts in the input.
type ggfParser struct {
	text        string
	pos         int
	line0, col0 int
}

func (p *ggfParser) rest() string {
	r := p.text[p.pos:]
	if i := strings.IndexAny(r, "\n"); i >= 0 {
		r = r[:i]
	}
	return r
}

func (p *ggfParser) skipSpace() {
	for p.pos < len(p.text) && strings.ContainsRune(" \t\r\n", rune(p.text[p.pos])) {
		p.pos++
	}
}

func (p *ggfParser) errAt(pos int, expected, f string, err error) error {
	nl := strings.Count(p.text[:pos], "\n")
	line := p.line0 + nl
	col := pos - strings.LastIndex(p.text[:pos], "\n")
	if nl == 0 {
		col = p.col0 + pos
	}
	return &ParseError{Format: GGF, Line: line, Column: col, Expected: expected, Found: f, Err: err}
}

func (p *ggfParser) errf(expected, f string) error { return p.errAt(p.pos, expected, f, ErrSyntax) }

// game reads properties up to the closing ";)".
func (p *ggfParser) game(n int) (Game, error) {
	g := Game{Name: fmt.Sprintf("game %d", n), Start: engine.Start()}
	last := -1 // colour of the last recorded move
	for {
		p.skipSpace()
		if strings.HasPrefix(p.text[p.pos:], ";)") {
			p.pos += 2
			return g, nil
		}
		start := p.pos
		for p.pos < len(p.text) && p.text[p.pos] >= 'A' && p.text[p.pos] <= 'Z' {
			p.pos++
		}
		name := p.text[start:p.pos]
		if p.pos >= len(p.text) {
			return g, p.errAt(p.pos, "a property such as PB[name] or the end of the game \";)\"", "end of input", ErrTruncated)
		}
		if name == "" || p.text[p.pos] != '[' {
			return g, p.errf("a property such as PB[name] or the end of the game \";)\"", found(p.rest()))
		}
		p.pos++
		var val strings.Builder
		for {
			if p.pos >= len(p.text) {
				return g, p.errAt(start, "']' closing property "+name, "end of input", ErrTruncated)
			}
			c := p.text[p.pos]
			p.pos++
			if c == '\\' && p.pos < len(p.text) {
				c = p.text[p.pos]
				p.pos++
			} else if c == ']' {
				break
			}
			val.WriteByte(c)
		}
		v := strings.TrimSpace(val.String())
		if err := p.property(&g, name, v, start, &last); err != nil {
			return g, err
		}
	}
}

func (p *ggfParser) property(g *Game, name, v string, at int, last *int) error {
	switch name {
	case "GM":
		if !strings.EqualFold(v, "othello") {
			return p.errAt(at, "GM[Othello]", found(v), ErrUnsupported)
		}
	case "PB":
		g.Black = v
	case "PW":
		g.White = v
	case "PC":
		g.Event = v
	case "DT": // 2003.05.12_07:04:17.MDT, or seconds since 1970
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && len(v) > 4 {
			g.Year = time.Unix(n, 0).UTC().Year()
		} else if len(v) >= 4 {
			g.Year, _ = strconv.Atoi(v[:4])
		}
	case "TY":
		// s: a synchro game, still an 8x8 game; a: anti-Othello.
		size := strings.TrimLeft(v, "s")
		if !strings.HasPrefix(size, "8") || strings.ContainsRune(size, 'a') {
			return p.errAt(at, "an 8x8 Othello game (TY[8])", found(v), ErrUnsupported)
		}
	case "RE":
		r, ok := parseGGFResult(v)
		if !ok {
			return p.errAt(at, "a result such as RE[+12.000] or RE[-4:t]", found(v), ErrSyntax)
		}
		g.Result = r
	case "BO":
		pos, ok := parseGGFBoard(v)
		if !ok {
			return p.errAt(at, "a board BO[8 <64 squares of -, * and O> <* or O to move>]", found(v), ErrSyntax)
		}
		g.Start = pos
	case "B", "W":
		c := 0
		if name == "W" {
			c = 1
		}
		mv := v
		if i := strings.IndexByte(mv, '/'); i >= 0 {
			mv = mv[:i]
		}
		var m engine.Move
		if strings.EqualFold(mv, "pa") || strings.EqualFold(mv, "pass") {
			m = engine.Pass
		} else {
			s, err := engine.ParseSquare(mv)
			if err != nil {
				return p.errAt(at, "a move such as "+name+"[f5] or "+name+"[PA]", found(v), ErrSyntax)
			}
			m = engine.MoveAt(s)
		}
		first := engine.Color(c) != g.Start.ToMove && len(g.Moves) == 0
		if (*last == c || first) && !m.IsPass() {
			g.Moves = append(g.Moves, engine.Pass) // the other colour passed
		}
		g.Moves = append(g.Moves, m)
		*last = c
		if i, expected, bad := tooManyMoves(g.Start, g.Moves); bad {
			return p.errAt(at, expected, found(g.Moves[i].String()), ErrTooLarge)
		}
	}
	return nil
}

func parseGGFResult(v string) (*Result, bool) {
	if v == "" || v == "?" {
		return nil, true
	}
	r := &Result{DiffOnly: true}
	if i := strings.IndexByte(v, ':'); i >= 0 {
		switch v[i+1:] {
		case "t":
			r.Ending = Timeout
		case "r":
			r.Ending = Resigned
		case "s":
			r.Ending = Agreed
		default:
			return nil, false
		}
		v = v[:i]
	}
	whole, frac, _ := strings.Cut(v, ".")
	d, err := strconv.Atoi(whole)
	if err != nil || strings.Trim(frac, "0") != "" || d < -64 || d > 64 {
		return nil, false
	}
	r.Black = d
	return r, true
}

func parseGGFBoard(v string) (engine.Position, bool) {
	f := strings.Join(strings.Fields(v), "")
	if !strings.HasPrefix(f, "8") || len(f) != 1+64+1 {
		return engine.Position{}, false
	}
	b, err := engine.ParseBoard(strings.ReplaceAll(f[1:65], "*", "X"))
	if err != nil {
		return engine.Position{}, false
	}
	pos := engine.Position{Board: b}
	switch f[65] {
	case '*':
	case 'O':
		pos.ToMove = engine.White
	default:
		return engine.Position{}, false
	}
	return pos, true
}

// FormatGGF writes a game as one GGF record.
func FormatGGF(g Game) string {
	var b strings.Builder
	b.WriteString("(;GM[Othello]")
	for _, p := range [][2]string{{"PC", g.Event}, {"PB", g.Black}, {"PW", g.White}} {
		if p[1] != "" {
			fmt.Fprintf(&b, "%s[%s]", p[0], ggfEscape.Replace(p[1]))
		}
	}
	b.WriteString("TY[8]")
	if r := g.Result; r != nil {
		end := map[Ending]string{Timeout: ":t", Resigned: ":r", Agreed: ":s"}[r.Ending]
		fmt.Fprintf(&b, "RE[%+d.000%s]", r.Black-r.White, end)
	}
	board := strings.ReplaceAll(g.Start.Board.String(), "X", "*")
	b.WriteString("BO[8 ")
	for r := 0; r < 8; r++ {
		b.WriteString(board[r*8:r*8+8] + " ")
	}
	b.WriteString("*O"[g.Start.ToMove:g.Start.ToMove+1] + "]")
	r := Replay(g) // the colours of the moves, forced passes included
	for _, m := range r.Moves {
		writeGGFMove(&b, m.Color, m.Move)
	}
	c := r.Final.ToMove
	for _, m := range g.Moves[min(len(g.Moves), len(r.Moves)-forced(r)):] { // after an illegal move: alternate
		writeGGFMove(&b, c, m)
		c = c.Opponent()
	}
	b.WriteString(";)")
	return b.String()
}

var ggfEscape = strings.NewReplacer(`\`, `\\`, "]", `\]`)

func writeGGFMove(b *strings.Builder, c engine.Color, m engine.Move) {
	v := "PA"
	if !m.IsPass() {
		v = strings.ToUpper(m.String())
	}
	fmt.Fprintf(b, "%s[%s]", "BW"[c:c+1], v)
}

func forced(r Report) int {
	n := 0
	for _, m := range r.Moves {
		if m.Forced {
			n++
		}
	}
	return n
}
