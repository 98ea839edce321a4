package transcript

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/otd-project/otd/engine"
)

// WTHOR is the FFO's game database format: a 16-byte header (creation date,
// uint32 game count at 4, uint16 game year at 10, board size at 12) and
// 68-byte games: uint16 tournament, black and white player numbers, black's
// score (empty squares to the winner), the theoretical score, and 60 moves
// coded 10 x row + column (11 = a1, 56 = f5; 0 = no move; passes implicit).
// Names live in WTHOR.JOU (players, 20-byte records) and WTHOR.TRN
// (tournaments, 26-byte records), each with a 16-byte header holding the
// record count as a uint16 at offset 8.
const (
	wthorHeader = 16
	wthorGame   = 68
)

// Names are the player and tournament names of a WTHOR database.
type Names struct {
	Players     []string
	Tournaments []string
}

// ParseNames reads a WTHOR.JOU (recordSize 20) or WTHOR.TRN (recordSize 26) file.
func ParseNames(data []byte, recordSize int) ([]string, error) {
	if recordSize < 1 {
		return nil, &ParseError{Format: WTHOR, Expected: "a record size of 20 (WTHOR.JOU) or 26 (WTHOR.TRN)", Found: fmt.Sprint(recordSize), Err: ErrUnsupported}
	}
	if len(data) < wthorHeader {
		return nil, &ParseError{Format: WTHOR, Expected: "a 16-byte header", Found: fmt.Sprintf("%d bytes", len(data)), Err: ErrTruncated}
	}
	n := int(binary.LittleEndian.Uint16(data[8:]))
	if len(data) < wthorHeader+n*recordSize {
		return nil, &ParseError{Format: WTHOR, Expected: fmt.Sprintf("%d names of %d bytes", n, recordSize), Found: fmt.Sprintf("%d bytes", len(data)), Err: ErrTruncated}
	}
	names := make([]string, n)
	for i := range names {
		rec := data[wthorHeader+i*recordSize : wthorHeader+(i+1)*recordSize]
		if j := strings.IndexByte(string(rec), 0); j >= 0 {
			rec = rec[:j]
		}
		names[i] = latin1(rec)
	}
	return names, nil
}

func latin1(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return strings.TrimSpace(string(r))
}

func looksWTHOR(data []byte) bool {
	if len(data) < wthorHeader {
		return false
	}
	n := uint64(binary.LittleEndian.Uint32(data[4:]))
	return uint64(len(data)) == wthorHeader+n*wthorGame && (data[12] == 8 || data[12] == 0)
}

// ParseWTHOR reads the games of a .wtb file; names, if not nil, supply the
// player and tournament names.
func ParseWTHOR(data []byte, names *Names) ([]Game, error) {
	if len(data) < wthorHeader {
		return nil, &ParseError{Format: WTHOR, Expected: "a 16-byte header", Found: fmt.Sprintf("%d bytes", len(data)), Err: ErrTruncated}
	}
	n := uint64(binary.LittleEndian.Uint32(data[4:]))
	if size := data[12]; size != 8 && size != 0 {
		return nil, &ParseError{Format: WTHOR, Column: 13, Expected: "board size 8", Found: fmt.Sprint(size), Err: ErrUnsupported}
	}
	if want := wthorHeader + n*wthorGame; uint64(len(data)) != want {
		return nil, &ParseError{Format: WTHOR, Expected: fmt.Sprintf("%d bytes for %d games", want, n), Found: fmt.Sprintf("%d bytes", len(data)), Err: ErrTruncated}
	}
	year := int(binary.LittleEndian.Uint16(data[10:]))
	games := make([]Game, n)
	for i := range games {
		rec := data[wthorHeader+i*wthorGame : wthorHeader+(i+1)*wthorGame]
		g := &games[i]
		*g = Game{Name: fmt.Sprintf("game %d", i+1), Start: engine.Start(), Year: year}
		trn := int(binary.LittleEndian.Uint16(rec[0:]))
		bl := int(binary.LittleEndian.Uint16(rec[2:]))
		wh := int(binary.LittleEndian.Uint16(rec[4:]))
		g.Event, g.Black, g.White = nameOf(names, 't', trn), nameOf(names, 'p', bl), nameOf(names, 'p', wh)
		if rec[6] > 64 {
			return nil, &ParseError{Format: WTHOR, Line: i + 1, Column: 7, Expected: "a black score 0-64", Found: fmt.Sprint(rec[6]), Err: ErrSyntax}
		}
		g.Result = &Result{Black: int(rec[6]), White: 64 - int(rec[6])}
		g.Moves = make([]engine.Move, 0, 60)
		for j, c := range rec[8:] {
			if c == 0 {
				continue // WTHOR pads short games with zeros
			}
			row, col := int(c/10), int(c%10)
			if row < 1 || row > 8 || col < 1 || col > 8 {
				return nil, &ParseError{Format: WTHOR, Line: i + 1, Column: 9 + j, Expected: "a move 11-88 (10 x row + column) or 0", Found: fmt.Sprint(c), Err: ErrSyntax}
			}
			g.Moves = append(g.Moves, engine.MoveAt(engine.SquareAt(col-1, row-1)))
		}
	}
	return games, nil
}

func nameOf(names *Names, kind byte, i int) string {
	var list []string
	if names != nil {
		list = names.Players
		if kind == 't' {
			list = names.Tournaments
		}
	}
	if i < len(list) {
		return list[i]
	}
	if kind == 't' {
		return fmt.Sprintf("tournament #%d", i)
	}
	return fmt.Sprintf("player #%d", i)
}

// AppendWTHOR appends the 68-byte WTHOR record of g (numbers of its
// tournament and players given) to b. The score is black's discs in the
// recorded result (from the disc difference if that is all it has), or else
// in the game's own final score, empty squares to the winner. Passes are
// dropped (WTHOR keeps them implicit); a game of more than 60 moves is cut.
func AppendWTHOR(b []byte, g Game, tournament, black, white uint16) []byte {
	b = binary.LittleEndian.AppendUint16(b, tournament)
	b = binary.LittleEndian.AppendUint16(b, black)
	b = binary.LittleEndian.AppendUint16(b, white)
	var score int
	switch r := g.Result; {
	case r == nil:
		score = engine.WithEmpties(Replay(g).Score).Black
	case r.DiffOnly:
		score = (64 + r.Black - r.White) / 2
	default:
		score = r.Black
	}
	score = min(max(score, 0), 64)
	b = append(b, byte(score), byte(score))
	n := 0
	for _, m := range g.Moves {
		if !m.IsPass() && n < 60 {
			s := m.Square()
			b = append(b, byte(10*(s.Row()+1)+s.Col()+1))
			n++
		}
	}
	return append(b, make([]byte, 60-n)...)
}
