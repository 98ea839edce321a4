package transcript

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
)

// ParsePGN reads the games of a PGN file of Othello games, the chess
// format's tag pairs and move text as Othello archives and programs write
// them. Three real dialects, all read:
//
//   - the WOF/FFO archive converted to PGN (the WTHOR database, one file a
//     year: MartinMSPedersen/othello-games, pgn/with_python_code/WTH_1977.pgn,
//     written by its code/Python/thor2pgn.py): tags [Event "World
//     Championship - 1977"], [Date "1977"], [Black], [White] and [Result
//     "34-30"] (discs, Black first), then one line per pair of moves, "1. F5
//     D6", capitals, passes left out (so a "pair" is two moves, not Black's
//     and White's), no blank line after the tags and no result token after
//     the moves unless asked (--add-result);
//   - PlayOK's Reversi export (quoted in a public Othello program's
//     Parser.h): [Black] before [White], [Result "38-26"], "1. f5 d6 2. c3
//     f3 ... 29. -- g8 30. h7 a2 31. a1 38-26", a pass written "--", the
//     result again after the moves;
//   - Edax's (abulmo/edax-reversi, src/game.c, game_export_pgn): [Result
//     "1-0"] when Black wins, "0-1" when White does, "1/2-1/2" a draw (the
//     first number is Black's: the opposite of chess, where White moves
//     first), a pass written "pass", "{NAME wins 40-24}" as a comment,
//     [FEN] for a game from another position.
//
// Move numbers ("12." or "12...") are skipped, squares are read in any
// case, passes may be implicit or written --, pass or PS; comments {...}
// and ; to the end of the line and NAGs ($1) are skipped; a line starting
// with % is an escape line. A game ends at the next tag after its moves, or
// after its result token (1-0, 0-1, 1/2-1/2, *, or a score such as 40-24).
// The claimed result is the [Result] tag's, or the move text's: when both
// are there they must agree (a score and the winner it gives agree). A
// variation "( ... )" and a game from a set-up position ([FEN], [SetUp
// "1"]) are refused as unsupported: otd verifies whole games from the
// start. A game of more than MaxPGNGame bytes, or of more moves than the
// board has empty squares, is ErrTooLarge; NewReader reads a PGN file one
// game at a time.
func ParsePGN(text string) ([]Game, error) {
	rd, err := NewReader(strings.NewReader(text), PGN, nil)
	if err != nil {
		return nil, err
	}
	return readAll(rd)
}

// MaxPGNGame is the largest game of a PGN file, tags, move text and
// comments, in bytes: a game with every tag and a comment on each move is
// under 16 KiB.
const MaxPGNGame = 64 << 10

// looksPGN reports whether data starts (after spaces and a byte-order mark)
// with a PGN tag pair: [Name "...
func looksPGN(data []byte) bool {
	s := strings.TrimLeft(strings.TrimPrefix(string(data), "\uFEFF"), " \t\r\n")
	name, rest, ok := strings.Cut(strings.TrimPrefix(s, "["), " ")
	return ok && strings.HasPrefix(s, "[") && name != "" && strings.TrimLeft(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == "" &&
		strings.HasPrefix(strings.TrimLeft(rest, " \t"), `"`)
}

// pgnGame is a game being read: where its parts are, for errors.
type pgnGame struct {
	g       Game
	tagRes  *Result
	tagAt   [2]int // line and column of the [Result] tag
	textRes *Result
	textAt  [2]int
	ended   bool     // the move text's result token was read
	inMoves bool     // move text has started
	comment int      // the line of an open comment {, 0 if none
	at      [][2]int // where each move is
	size    int
	start   int
	setUp   *ParseError // a [FEN] or [SetUp "1"] tag
}

// pgnLine returns the next line (the one held back first), without its
// line feed and carriage return, and its number.
func (rd *Reader) pgnLine() (string, int, error) {
	if rd.held != nil {
		h := *rd.held
		rd.held = nil
		return h.text, h.line, nil
	}
	b, err := rd.readLine()
	if err != nil {
		return "", 0, err
	}
	s := strings.TrimSuffix(string(b), "\r")
	if rd.line == 1 {
		s = strings.TrimPrefix(s, "\uFEFF")
	}
	return s, rd.line, nil
}

// heldLine is a line read that starts the next game.
type heldLine struct {
	text string
	line int
}

// nextPGN reads the next game of a PGN file.
func (rd *Reader) nextPGN() (Game, error) {
	p := &pgnGame{g: newGame("", rd.rules)}
	for {
		line, no, err := rd.pgnLine()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Game{}, err
		}
		trimmed := strings.TrimSpace(line)
		if p.comment == 0 {
			if trimmed == "" || line[0] == '%' {
				continue
			}
			if trimmed[0] == '[' && (p.inMoves || p.ended) || p.ended {
				rd.held = &heldLine{line, no} // the next game's
				break
			}
		}
		if p.start == 0 {
			p.start = no
		}
		if p.size += len(line) + 1; p.size > MaxPGNGame {
			return Game{}, &ParseError{Format: PGN, Line: p.start, Expected: fmt.Sprintf("a game of at most %d KiB", MaxPGNGame>>10), Found: "a longer one", Err: ErrTooLarge}
		}
		if p.comment == 0 && trimmed[0] == '[' {
			if err := p.tags(line, no); err != nil {
				return Game{}, err
			}
			continue
		}
		if err := p.moves(line, no, rd.rules); err != nil {
			return Game{}, err
		}
	}
	if p.start == 0 {
		return Game{}, io.EOF
	}
	return p.finish()
}

// pgnError is a syntax error of line no at column col (0-based).
func pgnError(no, col int, expected, found string, err error) error {
	return &ParseError{Format: PGN, Line: no, Column: col + 1, Expected: expected, Found: found, Err: err}
}

// token returns the text of s from i to the next space.
func token(s string, i int) string {
	t := s[i:]
	if j := strings.IndexAny(t, " \t"); j >= 0 {
		t = t[:j]
	}
	return t
}

// tags reads the tag pairs of a line: [Name "value"], one or more.
func (p *pgnGame) tags(line string, no int) error {
	const want = `a tag pair such as [Black "Tastet Marc"]`
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return nil
		}
		if line[i] != '[' {
			return pgnError(no, i, "the end of the line after a tag pair", found(token(line, i)), ErrSyntax)
		}
		at := i
		name, rest, ok := strings.Cut(line[i+1:], " ")
		rest = strings.TrimLeft(rest, " \t")
		if !ok || name == "" || !strings.HasPrefix(rest, `"`) {
			return pgnError(no, at, want, found(strings.TrimSpace(line[at:])), ErrSyntax)
		}
		j := len(line) - len(rest) + 1 // after the opening quote
		var v strings.Builder
		for ; j < len(line) && line[j] != '"'; j++ {
			if line[j] == '\\' && j+1 < len(line) {
				j++
			}
			v.WriteByte(line[j])
		}
		k := j + 1
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if j >= len(line) || k >= len(line) || line[k] != ']' {
			return pgnError(no, at, want, found(line[at:]), ErrSyntax)
		}
		if err := p.tag(name, strings.TrimSpace(v.String()), no, at); err != nil {
			return err
		}
		i = k + 1
	}
}

// tag keeps what otd uses of a tag pair ("?" is PGN's unknown).
func (p *pgnGame) tag(name, v string, no, col int) error {
	if v == "?" {
		v = ""
	}
	switch strings.ToLower(name) {
	case "event":
		p.g.Event = v
	case "black":
		p.g.Black = v
	case "white":
		p.g.White = v
	case "date":
		if y, err := strconv.Atoi(v[:min(4, len(v))]); err == nil && len(v) >= 4 {
			p.g.Year = y
		}
	case "result":
		r, ok := pgnResult(v)
		if !ok {
			return pgnError(no, col, "a result such as 40-24 (discs, Black first), 1-0 (Black wins), 0-1, 1/2-1/2 or *", found(v), ErrSyntax)
		}
		p.tagRes, p.tagAt = r, [2]int{no, col}
	case "fen", "setup":
		if v != "0" {
			p.setUp = &ParseError{Format: PGN, Line: no, Column: col + 1, Expected: "a game from the start position (otd verifies whole games)",
				Found: fmt.Sprintf("a set-up position ([%s])", name), Err: ErrUnsupported}
		}
	}
	return nil
}

// pgnResult reads a result: a score (Black's discs first), 1-0, 0-1 or
// 1/2-1/2 (the winner only, the first number Black's, as Edax writes it),
// or * or nothing (unknown: nil). It returns false for anything else.
func pgnResult(s string) (*Result, bool) {
	switch s {
	case "*", "":
		return nil, true
	case "1-0":
		return &Result{Black: 1, White: 0, WinnerOnly: true}, true
	case "0-1":
		return &Result{Black: 0, White: 1, WinnerOnly: true}, true
	case "1/2-1/2":
		return &Result{Black: 1, White: 1, WinnerOnly: true}, true
	}
	sc, err := engine.ParseScore(s)
	if err != nil || strings.Contains(s, ":") {
		return nil, false
	}
	return &Result{Black: sc.Black, White: sc.White}, true
}

// moves reads a line of move text.
func (p *pgnGame) moves(line string, no int, r engine.Rules) error {
	p.inMoves = true
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case p.comment != 0:
			j := strings.IndexByte(line[i:], '}')
			if j < 0 {
				return nil
			}
			i += j + 1
			p.comment = 0
		case c == ' ' || c == '\t':
			i++
		case c == '{':
			p.comment = no
			i++
		case c == ';':
			return nil
		case c == '$':
			for i++; i < len(line) && isDigit(line[i]); i++ {
			}
		case c == '(':
			return pgnError(no, i, "the main line (otd reads no variations)", found(token(line, i)), ErrUnsupported)
		default:
			j := i + strings.IndexAny(line[i:]+" ", " \t{;($")
			tok := line[i:j]
			if p.ended {
				return pgnError(no, i, "nothing after the game's result", found(tok), ErrSyntax)
			}
			if err := p.token(tok, no, i, r); err != nil {
				return err
			}
			i = j
		}
	}
	return nil
}

// token reads a token of move text at column col: a move number, moves,
// passes, a result.
func (p *pgnGame) token(tok string, no, col int, r engine.Rules) error {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "*":
		p.textRes, _ = pgnResult(tok)
		p.textAt, p.ended = [2]int{no, col}, true
		return nil
	}
	k := 0
	for k < len(tok) && isDigit(tok[k]) {
		k++
	}
	if k > 0 && k < len(tok) && tok[k] == '.' { // a move number: "12." or "12..." (before a move or alone)
		for k < len(tok) && tok[k] == '.' {
			k++
		}
		tok, col = tok[k:], col+k
		if tok == "" {
			return nil
		}
	}
	moves, cols, res, err := parseMoveLine(tok, no, r)
	if pe, ok := err.(*ParseError); ok {
		pe.Format, pe.Column = PGN, pe.Column+col
		return pe
	}
	for k, m := range moves {
		p.g.Moves = append(p.g.Moves, m)
		p.at = append(p.at, [2]int{no, col + cols[k]})
	}
	if res != nil {
		p.textRes, p.textAt, p.ended = res, [2]int{no, col}, true
	}
	return nil
}

// finish checks the game read and returns it.
func (p *pgnGame) finish() (Game, error) {
	g := p.g
	g.Name = fmt.Sprintf("line %d", p.start)
	if p.comment != 0 {
		return Game{}, pgnError(p.comment, 0, "a comment { ... } closed by }", "the end of the game", ErrTruncated)
	}
	if p.setUp != nil {
		return Game{}, p.setUp
	}
	start, err := StartBoard(g)
	if err != nil {
		return Game{}, &ParseError{Format: PGN, Line: p.start, Expected: "valid rules", Found: err.Error(), Err: ErrUnsupported}
	}
	if i, expected, bad := tooManyMoves(start, g.Moves); bad {
		return Game{}, &ParseError{Format: PGN, Line: p.at[i][0], Column: p.at[i][1], Expected: expected, Found: found(g.Moves[i].String()), Err: ErrTooLarge}
	}
	for _, r := range []*Result{p.tagRes, p.textRes} {
		if r != nil && !r.WinnerOnly && r.Black+r.White > start.Rules().Squares() {
			return Game{}, &ParseError{Format: PGN, Line: p.start, Expected: fmt.Sprintf("a score of at most %d discs", start.Rules().Squares()), Found: r.String(), Err: ErrSyntax}
		}
	}
	g.Result = p.tagRes
	if t, m := p.tagRes, p.textRes; m != nil {
		switch {
		case t == nil:
			g.Result = m
		case *t == *m:
		case (t.WinnerOnly || m.WinnerOnly) && sign(t.Black-t.White) == sign(m.Black-m.White):
			if t.WinnerOnly { // the score says more
				g.Result = m
			}
		default:
			return Game{}, pgnError(p.textAt[0], p.textAt[1], fmt.Sprintf("the result of the [Result] tag on line %d, %s", p.tagAt[0], t), found(m.String()), ErrSyntax)
		}
	}
	return g, nil
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}
