package transcript

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
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
	return looksWTHORSize(data, uint64(len(data)))
}

// looksWTHORSize reports whether a header (16 bytes or more) fits a WTHOR file of size bytes.
func looksWTHORSize(header []byte, size uint64) bool {
	n := uint64(binary.LittleEndian.Uint32(header[4:]))
	return size == wthorHeader+n*wthorGame && (header[12] == 8 || header[12] == 0)
}

// ParseWTHOR reads the games of a .wtb file; names, if not nil, supply the
// player and tournament names.
func ParseWTHOR(data []byte, names *Names) ([]Game, error) {
	rd, err := NewReader(bytes.NewReader(data), WTHOR, names)
	if err != nil {
		return nil, err
	}
	games := make([]Game, 0, rd.wthorN)
	for {
		g, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return games, nil
		}
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
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
// WTHOR holds standard Othello only: a game under other rules is an error
// wrapping ErrUnsupported.
func AppendWTHOR(b []byte, g Game, tournament, black, white uint16) ([]byte, error) {
	if r := g.RuleSet(); !r.Standard() {
		return b, fmt.Errorf("wthor: a game of %s: the format holds standard 8x8 Othello only: %w", r, ErrUnsupported)
	}
	b = binary.LittleEndian.AppendUint16(b, tournament)
	b = binary.LittleEndian.AppendUint16(b, black)
	b = binary.LittleEndian.AppendUint16(b, white)
	var score int
	switch r := g.Result; {
	case r == nil || r.WinnerOnly:
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
		if mv, ok := m.Square(); ok && !mv.IsPass() && n < 60 {
			s := mv
			b = append(b, byte(10*(s.Row()+1)+s.Col()+1))
			n++
		}
	}
	return append(b, make([]byte, 60-n)...), nil
}
