// Package engine implements the rules of Othello: legal moves, flips, forced
// passes, the end of the game, the final score and perft.
//
// A Position is the state of a game under any rule set of RULES.md section 1
// (a Rules value: board sizes 4 to 16, Othello 8Stars, Anti-Othello,
// historical Reversi), its squares Points (column, row). Standard 8x8 Othello
// also has a fast path on bitboards, Bitboard, whose squares are Squares
// numbered a1=0, b1=1, ..., h1=7, a2=8, ..., h8=63 (columns a-h left to right,
// rows 1-8 top to bottom; bit i of a bitboard is square i), with Pass for a
// pass. FromBitboard and Position.Bitboard convert.
package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
)

// Color is the colour of a disc or of the side to move.
type Color uint8

// The two colours. Black moves first.
const (
	Black Color = iota
	White
)

// Opponent returns the other colour.
func (c Color) Opponent() Color { return c ^ 1 }

func (c Color) String() string {
	if c == Black {
		return "black"
	}
	return "white"
}

// Square is a square of the 8x8 board, 0 (a1) to 63 (h8), or Pass: a move of
// the bitboard fast path. It is one of the package's two coordinate types,
// both needed: Square indexes the bits of the 8x8 bitboards, Point is a
// column and row on a board of any size (Position); Square.Point and
// Point.Square convert.
type Square int8

// NoSquare names no square: no best move found yet, a name that is none.
const NoSquare Square = -1

// SquareAt returns the square in column col (0=a) and row row (0=row 1).
func SquareAt(col, row int) Square { return Square(row*8 + col) }

// Col returns the column, 0 (a) to 7 (h).
func (s Square) Col() int { return int(s) & 7 }

// Row returns the row, 0 (row 1) to 7 (row 8).
func (s Square) Row() int { return int(s) >> 3 }

// Bit returns the bitboard with only this square set (none for Pass).
func (s Square) Bit() uint64 { return 1 << uint(s) }

func (s Square) String() string {
	if s == Pass {
		return "pass"
	}
	if s < 0 || s > 63 {
		return "??"
	}
	return string([]byte{'a' + byte(s.Col()), '1' + byte(s.Row())})
}

// ErrBadSquare is returned for a square name that is not a1..h8.
var ErrBadSquare = errors.New("not a square a1..h8")

// ParseSquare parses a square name such as "f5" (any case).
func ParseSquare(s string) (Square, error) {
	if len(s) == 2 {
		c, r := s[0]|0x20, s[1]
		if c >= 'a' && c <= 'h' && r >= '1' && r <= '8' {
			return SquareAt(int(c-'a'), int(r-'1')), nil
		}
	}
	return NoSquare, fmt.Errorf("%q: %w", s, ErrBadSquare)
}

// Pass is the move of a player who has no legal move on the bitboards: a
// Square past h8, with no bit (Pass.Bit() is 0).
const Pass Square = 64

// IsPass reports whether s is Pass.
func (s Square) IsPass() bool { return s == Pass }

// Board holds the discs of each colour.
type Board struct {
	Black, White uint64
}

// Discs returns the discs of colour c.
func (b Board) Discs(c Color) uint64 {
	if c == Black {
		return b.Black
	}
	return b.White
}

// At returns the colour on s and whether s holds a disc.
func (b Board) At(s Square) (Color, bool) {
	switch {
	case b.Black&s.Bit() != 0:
		return Black, true
	case b.White&s.Bit() != 0:
		return White, true
	}
	return Black, false
}

// Empty returns the empty squares.
func (b Board) Empty() uint64 { return ^(b.Black | b.White) }

// Count returns the number of black and white discs.
func (b Board) Count() (black, white int) {
	return bits.OnesCount64(b.Black), bits.OnesCount64(b.White)
}

// String returns the board as 64 characters a1..h8: X black, O white, - empty.
func (b Board) String() string {
	var sb strings.Builder
	for s := Square(0); s < 64; s++ {
		c, ok := b.At(s)
		switch {
		case !ok:
			sb.WriteByte('-')
		case c == Black:
			sb.WriteByte('X')
		default:
			sb.WriteByte('O')
		}
	}
	return sb.String()
}

// ErrBadBoard is returned for a board string that is not 64 squares of X, O and -.
var ErrBadBoard = errors.New("a board is 64 characters a1..h8 of X (black), O (white) and - (empty)")

// ParseBoard parses 64 characters a1..h8 as String writes them. It also accepts
// * or B for black, W for white and . or _ for empty (any case).
func ParseBoard(s string) (Board, error) {
	if len(s) != 64 {
		return Board{}, fmt.Errorf("%d characters: %w", len(s), ErrBadBoard)
	}
	var b Board
	for i := 0; i < 64; i++ {
		switch s[i] {
		case 'X', 'x', '*', 'B', 'b':
			b.Black |= 1 << uint(i)
		case 'O', 'o', 'W', 'w', '0':
			b.White |= 1 << uint(i)
		case '-', '.', '_':
		default:
			return Board{}, fmt.Errorf("character %d (%s) is %q: %w", i+1, Square(i), s[i], ErrBadBoard)
		}
	}
	return b, nil
}

// Diagram draws the board with coordinates: X black, O white, . empty, and *
// on the squares in marks (for example the legal moves).
func (b Board) Diagram(marks uint64) string {
	var sb strings.Builder
	sb.WriteString("  a b c d e f g h\n")
	for r := 0; r < 8; r++ {
		sb.WriteByte('1' + byte(r))
		for c := 0; c < 8; c++ {
			s := SquareAt(c, r)
			ch := byte('.')
			if col, ok := b.At(s); ok {
				ch = "XO"[col]
			} else if marks&s.Bit() != 0 {
				ch = '*'
			}
			sb.WriteByte(' ')
			sb.WriteByte(ch)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
