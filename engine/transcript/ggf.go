package transcript

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
)

// ParseGGF reads every game of a GGF file: records (;GM[Othello]...;) with
// properties such as PB and PW (players), PC (place), DT (date), TI (time
// control, kept as written in Game.Time), TY (board
// type: the size, s for synchro, a for Anti-Othello: TY[8], TY[s10a]), RE
// (result: black's disc difference, with :t for time, :r for resignation, :s
// for an agreed score), BO (starting board: BO[8 <64 squares of -, * and O>
// <* or O to move>], BO[n ...] on an n x n board) and the moves B[f5] W[d6]
// (with optional /evaluation/time; PA is a pass). A colour that moves twice
// in a row means the other colour passed. The board says the rules: its size,
// 8Stars if it writes # on exactly the squares that board cuts, historical
// Reversi if it starts empty; on a board other than 8x8 Othello the game must
// start from the start of its rules. A record of more than MaxGGFRecord bytes
// or of more moves than its board has empty squares is ErrTooLarge;
// NewReader reads a GGF file one record at a time (with the rules set by
// Reader.SetRules, a record of another size is an error).
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
	rules       engine.Rules // the reader's rules
	fixed       bool         // the rules were given: the record may not say another size
	anti        bool         // TY says Anti-Othello
	board       string       // BO's squares, if any
	boardAt     int          // where BO stands
	sized       bool         // TY or BO said the board size
	settled     bool         // the game's rules and start are set
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
	g := newGame(fmt.Sprintf("game %d", n), p.rules)
	last := -1 // colour of the last recorded move
	for {
		p.skipSpace()
		if strings.HasPrefix(p.text[p.pos:], ";)") {
			p.pos += 2
			return g, p.settle(&g)
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
	case "TI":
		g.Time = v
	case "DT": // 2003.05.12_07:04:17.MDT, or seconds since 1970
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && len(v) > 4 {
			g.Year = time.Unix(n, 0).UTC().Year()
		} else if len(v) >= 4 {
			g.Year, _ = strconv.Atoi(v[:4])
		}
	case "TY":
		// s: a synchro game; then the board size; k: komi, r: a random
		// start, a: Anti-Othello.
		digits := strings.TrimLeft(v, "s")
		rest := strings.TrimLeft(digits, "0123456789")
		size, err := strconv.Atoi(digits[:len(digits)-len(rest)])
		if err != nil || size < 4 || size > 16 || size%2 != 0 {
			return p.errAt(at, "a game type TY[n] of an even board size n from 4 to 16", found(v), ErrUnsupported)
		}
		if err := p.setSize(size, at, v); err != nil {
			return err
		}
		p.anti = strings.ContainsRune(rest, 'a')
	case "RE":
		r, ok := parseGGFResult(v)
		if !ok {
			return p.errAt(at, "a result such as RE[+12.000] or RE[-4:t]", found(v), ErrSyntax)
		}
		g.Result = r
	case "BO":
		f := append(strings.Fields(v), "")
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 4 || n > 16 || n%2 != 0 {
			return p.errAt(at, "a board BO[8 <64 squares of -, * and O> <* or O to move>] (or BO[n ...], n even from 4 to 16)", found(v), ErrSyntax)
		}
		board := strings.Join(f[1:], "")
		if len(board) != n*n+1 || strings.Trim(board[:n*n], "-*O#") != "" || !strings.ContainsRune("*O", rune(board[n*n])) {
			return p.errAt(at, fmt.Sprintf("a board BO[%d <%d squares of -, * and O> <* or O to move>]", n, n*n), found(v), ErrSyntax)
		}
		if err := p.setSize(n, at, v); err != nil {
			return err
		}
		p.board, p.boardAt = board, at
	case "B", "W":
		c := 0
		if name == "W" {
			c = 1
		}
		mv := v
		if i := strings.IndexByte(mv, '/'); i >= 0 {
			mv = mv[:i]
		}
		if err := p.settle(g); err != nil {
			return err
		}
		m := engine.PassPoint
		if !strings.EqualFold(mv, "pa") && !strings.EqualFold(mv, "pass") {
			var err error
			if m, err = engine.ParsePoint(mv); err != nil {
				return p.errAt(at, "a move such as "+name+"[f5] or "+name+"[PA]", found(v), ErrSyntax)
			}
			if r := g.RuleSet(); !r.Playable(int(m.Col), int(m.Row)) {
				return p.errAt(at, "a square "+boardSquares(r)+" of the board", found(v), ErrSyntax)
			}
		}
		start, err := StartBoard(*g)
		if err != nil {
			return p.errAt(at, "valid rules", err.Error(), ErrUnsupported)
		}
		first := engine.Color(c) != start.ToMove() && len(g.Moves) == 0
		if (*last == c || first) && m != engine.PassPoint {
			g.Moves = append(g.Moves, engine.PassPoint) // the other colour passed
		}
		g.Moves = append(g.Moves, m)
		*last = c
		if i, expected, bad := tooManyMoves(start, g.Moves); bad {
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
	if err != nil || strings.Trim(frac, "0") != "" || d < -engine.MaxSquares || d > engine.MaxSquares { // the size may come later
		return nil, false
	}
	r.Black = d
	return r, true
}

// setSize sets the board size a property (v at at) says: it may not
// contradict the rules given nor what TY or BO said before, nor come after a move.
func (p *ggfParser) setSize(n, at int, v string) error {
	switch {
	case p.fixed && n != p.rules.Size:
		return p.errAt(at, fmt.Sprintf("the %dx%d board of the rules given (%s)", p.rules.Size, p.rules.Size, p.rules), found(v), ErrUnsupported)
	case p.sized && n != p.rules.Size:
		return p.errAt(at, fmt.Sprintf("the %dx%d board the record said before", p.rules.Size, p.rules.Size), found(v), ErrSyntax)
	case p.settled:
		return p.errAt(at, "the board (TY, BO) before the first move", found(v), ErrSyntax)
	}
	p.rules.Size, p.sized = n, true
	return nil
}

// settle sets the rules and the start of g from what the record said of its
// board (TY, BO) before its first move.
func (p *ggfParser) settle(g *Game) error {
	if p.settled {
		return nil
	}
	p.settled = true
	r := p.rules
	if !p.fixed && p.board != "" {
		n := r.Size
		if stars, err := engine.RulesFor("8stars", n); err == nil && strings.ContainsRune(p.board, '#') {
			r.Shape, r.Size = stars.Shape, stars.Size
		}
		if strings.Trim(p.board[:n*n], "-#") == "" {
			r.Start, r.Supply = engine.ReversiStart, r.Squares()/2
		}
	}
	if !p.fixed && p.anti {
		r.Winner = engine.FewestDiscs
	}
	if err := r.Validate(); err != nil {
		return p.errAt(p.boardAt, "valid rules", found(err.Error()), ErrUnsupported)
	}
	g.Rules, g.Start = r, newGame("", r).Start
	if p.board == "" {
		return nil
	}
	n := r.Size
	var sb strings.Builder
	for row := range n {
		for col := range n {
			c := p.board[row*n+col]
			if !r.Playable(col, row) {
				c = '#'
			} else if c == '#' {
				return p.errAt(p.boardAt, fmt.Sprintf("a board of %s, whose square %s is not cut", r, engine.Point{Col: int8(col), Row: int8(row)}), found(p.board), ErrSyntax)
			}
			sb.WriteByte(c)
		}
	}
	board := strings.NewReplacer("*", "X", "#", "-").Replace(sb.String())
	if r.Standard() {
		b, err := engine.ParseBoard(board)
		if err != nil {
			return p.errAt(p.boardAt, "a board BO[8 <64 squares of -, * and O> <* or O to move>]", found(p.board), ErrSyntax)
		}
		g.Start = engine.Bitboard{Board: b}
		if p.board[n*n] == 'O' {
			g.Start.ToMove = engine.White
		}
		return nil
	}
	start, _ := StartBoard(*g)
	if strings.ReplaceAll(start.String(), "#", "-") != board || p.board[n*n] != '*' {
		return p.errAt(p.boardAt, fmt.Sprintf("the starting board of %s, black to move (other starting boards are replayed on 8x8 Othello only)", r), found(p.board), ErrUnsupported)
	}
	return nil
}

// FormatGGF writes a game as one GGF record, its properties in the order
// NBoard writes them (PC, PB, PW, RE, TI, TY, BO, then the moves): the place,
// the players and the time control where the game has them, the result (RE[?]
// when unknown). Its board says the rules as ParseGGF reads them back (TY[n],
// with a for Anti-Othello; BO[n ...] with # on the squares 8Stars cuts, empty
// for the Reversi start); a disc supply other than Reversi's is not written.
// BO's squares are one run, as NBoard writes them (GGS puts a space between
// rows): some engines of the NBoard protocol split BO at its spaces.
func FormatGGF(g Game) string {
	var b strings.Builder
	b.WriteString("(;GM[Othello]")
	for _, p := range [][2]string{{"PC", g.Event}, {"PB", g.Black}, {"PW", g.White}} {
		if p[1] != "" {
			fmt.Fprintf(&b, "%s[%s]", p[0], ggfEscape.Replace(p[1]))
		}
	}
	result := "?"
	if r := g.Result; r != nil && !r.WinnerOnly {
		end := map[Ending]string{Timeout: ":t", Resigned: ":r", Agreed: ":s"}[r.Ending]
		result = fmt.Sprintf("%+d.000%s", r.Black-r.White, end)
	}
	fmt.Fprintf(&b, "RE[%s]", result)
	if g.Time != "" {
		fmt.Fprintf(&b, "TI[%s]", ggfEscape.Replace(g.Time))
	}
	rules := g.RuleSet()
	anti := ""
	if rules.Winner == engine.FewestDiscs {
		anti = "a"
	}
	fmt.Fprintf(&b, "TY[%d%s]", rules.Size, anti)
	start, _ := StartBoard(g)
	board := strings.ReplaceAll(start.String(), "X", "*")
	fmt.Fprintf(&b, "BO[%d %s %s]", start.Rules().Size, board, "*O"[start.ToMove():start.ToMove()+1])
	r := Replay(g) // the colours of the moves, forced passes included
	for _, m := range r.Moves {
		writeGGFMove(&b, m.Color, m.Move)
	}
	c := r.Final.ToMove()
	for _, m := range g.Moves[min(len(g.Moves), len(r.Moves)-forced(r)):] { // after an illegal move: alternate
		writeGGFMove(&b, c, m)
		c = c.Opponent()
	}
	b.WriteString(";)")
	return b.String()
}

// GGFTime returns a time control as GGF's TI writes it (Game.Time): the main
// time, then "/" and the increment when there is one, each as mm:ss in whole
// seconds (rounded down), at least 00:01: TI[05:00/00:02].
func GGFTime(main, increment time.Duration) string {
	clock := func(d time.Duration) string {
		s := max(1, int64(d/time.Second))
		return fmt.Sprintf("%02d:%02d", s/60, s%60)
	}
	if increment > 0 {
		return clock(main) + "/" + clock(increment)
	}
	return clock(main)
}

var ggfEscape = strings.NewReplacer(`\`, `\\`, "]", `\]`)

// writeGGFMove writes B[F5], W[PA]: a square as Point.String writes it, in
// upper case (without fmt: nboard writes a whole game before each move).
func writeGGFMove(b *strings.Builder, c engine.Color, m engine.Point) {
	b.WriteString("BW"[c : c+1])
	switch {
	case m == engine.PassPoint:
		b.WriteString("[PA]")
	case m.Col >= 0 && m.Col < 16 && m.Row >= 0 && m.Row < 16:
		b.WriteByte('[')
		b.WriteByte('A' + byte(m.Col))
		b.WriteString(strconv.Itoa(int(m.Row) + 1))
		b.WriteByte(']')
	default:
		b.WriteString("[" + m.String() + "]")
	}
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
