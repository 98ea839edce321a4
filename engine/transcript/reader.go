package transcript

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/otd-project/otd/engine"
)

// Limits of the readers: what no genuine record reaches (and MaxPGNGame). An input over one is
// refused with a *ParseError wrapping ErrTooLarge, after reading at most the
// limit (and the bytes before it); the readers never hold more than one game
// and one line (or one GGF record) of the input at a time, however long it is.
const (
	// MaxLine is the longest line, in bytes, of a text format (move lists,
	// transcript sheets, OBF, GGF): a game of 60 moves written out with
	// numbers and a score is under 500 bytes.
	MaxLine = 64 << 10
	// MaxGGFRecord is the largest GGF game record "(;...;)", in bytes
	// (a game with every evaluation and clock written is under 4 KiB).
	MaxGGFRecord = 64 << 10
	// MaxSheet is the largest transcript sheet file, in bytes (8 rows of 8
	// cells, a header and a score are under 1 KiB).
	MaxSheet = 64 << 10
	// MaxMoves is the most moves (discs placed; passes aside) of one game
	// from the standard start: its 60 empty squares. Under other rules the
	// limit is the empty squares of the start of the rules.
	MaxMoves = 60
	// MaxRecordMoves is the most moves and passes of one game record from
	// the standard start: a pass stands only between two moves, or before the
	// first or after the last (under other rules: twice the empty squares, and 2).
	MaxRecordMoves = 2*MaxMoves + 2
)

// ErrTooLarge is wrapped in the *ParseError of an input over one of the limits.
var ErrTooLarge = errors.New("over the size limit")

// tooManyMoves checks a game's moves against the limits: the moves that place
// a disc may not outnumber the empty squares of its start, nor all its moves
// and passes MaxRecordMoves. It returns the index of the first move too many,
// what was expected, and false if the game is within the limits.
func tooManyMoves(start Board, moves []engine.Point) (int, string, bool) {
	empties := start.Empties()
	most := 2*max(empties, MaxMoves) + 2
	discs := 0
	for i, m := range moves {
		if i >= most {
			return i, fmt.Sprintf("at most %d moves and passes in a game (a pass only between two moves)", most), true
		}
		if m != engine.PassPoint {
			discs++
			if discs > empties {
				return i, fmt.Sprintf("at most %d moves in a game: the board has %d empty squares", empties, empties), true
			}
		}
	}
	return 0, "", false
}

// Reader reads the games of a record one at a time, in memory that does not
// grow with the input: a batch of move lists, a WTHOR database or a file of
// OBF positions can be of any length; a GGF file is read record by record.
// A transcript sheet is one game (at most MaxSheet bytes).
type Reader struct {
	format Format
	br     *bufio.Reader
	names  *Names
	size   int64 // the input's size in bytes, -1 if unknown
	rules  engine.Rules
	fixed  bool  // the rules were set (SetRules): a GGF record may not say others
	games  int   // games returned
	err    error // the error Next returns from now on
	next   func() (Game, error)

	line int // lines read (text formats)

	// move lists: the game read but not returned yet (it may continue on the next line)
	pending *Game
	open    bool

	// WTHOR
	wthorN    uint64
	wthorYear int
	rec       [wthorGame]byte

	// GGF
	ggfCol int // the column after the last byte read (1-based)

	// PGN: the line that starts the next game, read with the game before
	held *heldLine
}

// NewReader returns a Reader of the games of r in format f; Auto detects
// the format from the first bytes (and, for WTHOR, from the size of a
// regular file or of a reader with a Size method; of other input, from the
// binary header). names, if not nil, supply a WTHOR database's names.
func NewReader(r io.Reader, f Format, names *Names) (*Reader, error) {
	rd := &Reader{format: f, br: bufio.NewReaderSize(r, MaxLine+1), names: names, size: sizeOf(r), rules: engine.Othello()}
	if f == Auto {
		prefix, _ := rd.br.Peek(MaxLine + 1)
		rd.format = detectPrefix(prefix, rd.size)
	}
	switch rd.format {
	case Moves:
		rd.next = rd.nextMoveList
	case SheetFormat:
		rd.next = rd.nextSheet
	case GGF:
		rd.next = rd.nextGGF
	case WTHOR:
		if err := rd.wthorHeader(); err != nil {
			return nil, err
		}
		rd.next = rd.nextWTHOR
	case OBF:
		rd.next = rd.nextOBF
	case PGN:
		rd.next = rd.nextPGN
	default:
		return nil, fmt.Errorf("%v: %w", rd.format, ErrUnknownFormat)
	}
	return rd, nil
}

// SetRules sets the rules of the games read from now on (standard Othello
// unless set). A GGF record that says its board (BO, TY) gets its rules from
// there unless they were set; if they were, a record of another board size is
// an error. WTHOR and OBF hold standard Othello only: other rules make their
// reading an error.
func (rd *Reader) SetRules(r engine.Rules) {
	rd.rules, rd.fixed = r, true
}

// SetNames supplies the player and tournament names of a WTHOR database for
// the games read from now on.
func (rd *Reader) SetNames(names *Names) { rd.names = names }

// Format is the format the Reader reads (the one detected, for Auto).
func (rd *Reader) Format() Format { return rd.format }

// Next returns the next game, io.EOF after the last one, or the error that
// stops the reading (a *ParseError for the input's own defects); every call
// after an error returns it again.
func (rd *Reader) Next() (Game, error) {
	if rd.err != nil {
		return Game{}, rd.err
	}
	if err := rd.rules.Validate(); err != nil {
		rd.err = &ParseError{Format: rd.format, Expected: "valid rules", Found: err.Error(), Err: ErrUnsupported}
		return Game{}, rd.err
	}
	if (rd.format == WTHOR || rd.format == OBF) && !rd.rules.Standard() {
		rd.err = &ParseError{Format: rd.format, Expected: "standard 8x8 Othello (the " + rd.format.String() + " format holds nothing else)", Found: "rules " + rd.rules.String(), Err: ErrUnsupported}
		return Game{}, rd.err
	}
	g, err := rd.next()
	if err != nil {
		rd.err = err
		return Game{}, err
	}
	rd.games++
	return g, nil
}

// sizeOf returns the size of r's content if it is a regular file or has a
// Size method (bytes.Reader, strings.Reader) and nothing of it was read; -1 otherwise.
func sizeOf(r io.Reader) int64 {
	type stater interface{ Stat() (fs.FileInfo, error) }
	type seeker interface {
		Seek(int64, int) (int64, error)
	}
	switch v := r.(type) {
	case interface{ Size() int64 }:
		if s, ok := r.(seeker); ok {
			if at, err := s.Seek(0, io.SeekCurrent); err != nil || at != 0 {
				return -1
			}
		}
		return v.Size()
	case stater:
		fi, err := v.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return -1
		}
		if s, ok := r.(seeker); ok {
			if at, err := s.Seek(0, io.SeekCurrent); err != nil || at != 0 {
				return -1
			}
		}
		return fi.Size()
	}
	return -1
}

// detectPrefix guesses the format from the first bytes of an input of size
// bytes (-1: unknown).
func detectPrefix(prefix []byte, size int64) Format {
	if size >= 0 {
		if len(prefix) >= wthorHeader && looksWTHORSize(prefix, uint64(size)) {
			return WTHOR
		}
	} else if len(prefix) >= wthorHeader && (prefix[12] == 8 || prefix[12] == 0) && bytes.IndexByte(prefix[:wthorHeader], 0) >= 0 {
		return WTHOR // a binary header: text formats hold no NUL byte
	}
	switch {
	case looksPGN(prefix):
		return PGN
	case bytes.Contains(prefix, []byte("(;")):
		return GGF
	case looksOBF(prefix):
		return OBF
	case looksSheet(prefix):
		return SheetFormat
	}
	return Moves
}

// readLine returns the next line without its line feed, io.EOF at the end.
func (rd *Reader) readLine() ([]byte, error) {
	line, err := rd.br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, rd.lineTooLong(rd.line + 1)
	case errors.Is(err, io.EOF) && len(line) == 0:
		return nil, io.EOF
	case err != nil && !errors.Is(err, io.EOF):
		return nil, err
	}
	rd.line++
	return bytes.TrimSuffix(line, []byte{'\n'}), nil
}

func (rd *Reader) lineTooLong(n int) error {
	return &ParseError{Format: rd.format, Line: n, Expected: fmt.Sprintf("a line of at most %d KiB", MaxLine>>10), Found: "a longer line", Err: ErrTooLarge}
}

// nextMoveList reads the games of a batch of move lists as ParseMoveLists
// describes, holding one game back until the next line shows where it ends.
func (rd *Reader) nextMoveList() (Game, error) {
	for {
		b, err := rd.readLine()
		if errors.Is(err, io.EOF) {
			if rd.pending == nil {
				return Game{}, io.EOF
			}
			g := *rd.pending
			rd.pending = nil
			return g, nil
		}
		if err != nil {
			return Game{}, err
		}
		line := string(b)
		if t := bytes.TrimSpace(b); len(t) == 0 || t[0] == '#' || t[0] == '%' {
			continue
		}
		moves, cols, res, err := parseMoveLine(line, rd.line, rd.rules)
		if err != nil {
			return Game{}, err
		}
		start, err := StartBoard(newGame("", rd.rules))
		if err != nil {
			return Game{}, err
		}
		var done *Game
		if !rd.open || len(moves) > 0 && isOpening(start, moves[0]) && !continues(*rd.pending, moves[0]) {
			done = rd.pending
			g := newGame(fmt.Sprintf("line %d", rd.line), rd.rules)
			rd.pending = &g
		}
		g := rd.pending
		before := len(g.Moves)
		g.Moves = append(g.Moves, moves...)
		if i, expected, bad := tooManyMoves(start, g.Moves); bad {
			return Game{}, &ParseError{Format: Moves, Line: rd.line, Column: cols[i-before], Expected: expected, Found: found(g.Moves[i].String()), Err: ErrTooLarge}
		}
		g.Result = res
		rd.open = res == nil
		if done != nil {
			return *done, nil
		}
	}
}

// nextOBF reads the next position of an OBF file as a game without moves.
func (rd *Reader) nextOBF() (Game, error) {
	for {
		b, err := rd.readLine()
		if err != nil {
			return Game{}, err
		}
		line := string(bytes.TrimRight(b, "\r"))
		if t := bytes.TrimSpace(b); len(t) == 0 || t[0] == '%' || t[0] == '#' {
			continue
		}
		p, err := parseOBFLine(line, rd.line)
		if err != nil {
			return Game{}, err
		}
		return Game{Name: fmt.Sprintf("line %d", p.Line), Start: p.Position}, nil
	}
}

// nextSheet reads the whole input as one transcript sheet.
func (rd *Reader) nextSheet() (Game, error) {
	if rd.games > 0 {
		return Game{}, io.EOF
	}
	data, err := io.ReadAll(io.LimitReader(rd.br, MaxSheet+1))
	if err != nil {
		return Game{}, err
	}
	if len(data) > MaxSheet {
		return Game{}, &ParseError{Format: SheetFormat, Expected: fmt.Sprintf("a transcript sheet of at most %d KiB", MaxSheet>>10), Found: "a larger file", Err: ErrTooLarge}
	}
	return ParseSheetRules(string(data), rd.rules)
}

// wthorHeader reads and checks the 16-byte header of a WTHOR database.
func (rd *Reader) wthorHeader() error {
	var h [wthorHeader]byte
	if n, err := io.ReadFull(rd.br, h[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return &ParseError{Format: WTHOR, Expected: "a 16-byte header", Found: fmt.Sprintf("%d bytes", n), Err: ErrTruncated}
		}
		return err
	}
	rd.wthorN = uint64(binary.LittleEndian.Uint32(h[4:]))
	if size := h[12]; size != 8 && size != 0 {
		return &ParseError{Format: WTHOR, Column: 13, Expected: "board size 8", Found: fmt.Sprint(size), Err: ErrUnsupported}
	}
	if want := wthorHeader + rd.wthorN*wthorGame; rd.size >= 0 && uint64(rd.size) != want {
		return &ParseError{Format: WTHOR, Expected: fmt.Sprintf("%d bytes for %d games", want, rd.wthorN), Found: fmt.Sprintf("%d bytes", rd.size), Err: ErrTruncated}
	}
	rd.wthorYear = int(binary.LittleEndian.Uint16(h[10:]))
	return nil
}

// nextWTHOR reads the next 68-byte game of a WTHOR database.
func (rd *Reader) nextWTHOR() (Game, error) {
	want := wthorHeader + rd.wthorN*wthorGame
	if uint64(rd.games) == rd.wthorN {
		if _, err := rd.br.ReadByte(); !errors.Is(err, io.EOF) {
			if err != nil {
				return Game{}, err
			}
			return Game{}, &ParseError{Format: WTHOR, Expected: fmt.Sprintf("%d bytes for %d games (the count in its header)", want, rd.wthorN), Found: "more bytes", Err: ErrTruncated}
		}
		return Game{}, io.EOF
	}
	if n, err := io.ReadFull(rd.br, rd.rec[:]); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			have := wthorHeader + uint64(rd.games)*wthorGame + uint64(n)
			return Game{}, &ParseError{Format: WTHOR, Expected: fmt.Sprintf("%d bytes for %d games", want, rd.wthorN), Found: fmt.Sprintf("%d bytes", have), Err: ErrTruncated}
		}
		return Game{}, err
	}
	return wthorGameAt(rd.rec[:], rd.games, rd.wthorYear, rd.names)
}

// wthorGameAt decodes the record of game i (0-based).
func wthorGameAt(rec []byte, i, year int, names *Names) (Game, error) {
	g := Game{Name: fmt.Sprintf("game %d", i+1), Start: engine.Start(), Year: year}
	trn := int(binary.LittleEndian.Uint16(rec[0:]))
	bl := int(binary.LittleEndian.Uint16(rec[2:]))
	wh := int(binary.LittleEndian.Uint16(rec[4:]))
	g.Event, g.Black, g.White = nameOf(names, 't', trn), nameOf(names, 'p', bl), nameOf(names, 'p', wh)
	if rec[6] > 64 {
		return Game{}, &ParseError{Format: WTHOR, Line: i + 1, Column: 7, Expected: "a black score 0-64", Found: fmt.Sprint(rec[6]), Err: ErrSyntax}
	}
	g.Result = &Result{Black: int(rec[6]), White: 64 - int(rec[6])}
	g.Moves = make([]engine.Point, 0, 60)
	for j, c := range rec[8:wthorGame] {
		if c == 0 {
			continue // WTHOR pads short games with zeros
		}
		row, col := int(c/10), int(c%10)
		if row < 1 || row > 8 || col < 1 || col > 8 {
			return Game{}, &ParseError{Format: WTHOR, Line: i + 1, Column: 9 + j, Expected: "a move 11-88 (10 x row + column) or 0", Found: fmt.Sprint(c), Err: ErrSyntax}
		}
		g.Moves = append(g.Moves, engine.Point{Col: int8(col - 1), Row: int8(row - 1)})
	}
	return g, nil
}

// nextGGF reads the next GGF record: it finds the record's end as the parser
// reads it (";)" outside property values), holding at most MaxGGFRecord bytes,
// and parses it at its place in the input.
func (rd *Reader) nextGGF() (Game, error) {
	if rd.line == 0 {
		rd.line, rd.ggfCol = 1, 1
	}
	// Skip the space before the record.
	for {
		c, err := rd.br.ReadByte()
		if errors.Is(err, io.EOF) {
			return Game{}, io.EOF
		}
		if err != nil {
			return Game{}, err
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			rd.advance(c)
			continue
		}
		rd.br.UnreadByte()
		break
	}
	line, col := rd.line, rd.ggfCol
	if head, _ := rd.br.Peek(2); string(head) != "(;" {
		rest, _ := rd.br.Peek(64)
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		return Game{}, &ParseError{Format: GGF, Line: line, Column: col, Expected: "the start of a game \"(;\"", Found: found(string(rest)), Err: ErrSyntax}
	}
	var rec []byte
	inValue, escaped := false, false
	for {
		c, err := rd.br.ReadByte()
		if errors.Is(err, io.EOF) {
			break // the parser says what is missing
		}
		if err != nil {
			return Game{}, err
		}
		rd.advance(c)
		rec = append(rec, c)
		if len(rec) > MaxGGFRecord {
			return Game{}, &ParseError{Format: GGF, Line: line, Column: col, Expected: fmt.Sprintf("a game record \"(;...;)\" of at most %d KiB", MaxGGFRecord>>10), Found: "a longer one", Err: ErrTooLarge}
		}
		switch {
		case escaped:
			escaped = false
		case inValue && c == '\\':
			escaped = true
		case inValue:
			inValue = c != ']'
		case c == '[':
			inValue = true
		case c == ')' && len(rec) > 3 && rec[len(rec)-2] == ';':
			return rd.parseGGFRecord(string(rec), line, col)
		}
	}
	return rd.parseGGFRecord(string(rec), line, col)
}

func (rd *Reader) advance(c byte) {
	if c == '\n' {
		rd.line++
		rd.ggfCol = 1
	} else {
		rd.ggfCol++
	}
}

func (rd *Reader) parseGGFRecord(rec string, line, col int) (Game, error) {
	p := ggfParser{text: rec, pos: 2, line0: line, col0: col, rules: rd.rules, fixed: rd.fixed}
	return p.game(rd.games + 1)
}
