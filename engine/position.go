package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Bitboard is a position of standard 8x8 Othello: its discs as two
// bitboards (Board) and the side to move, the fast path of Position.
type Bitboard struct {
	Board
	ToMove Color
}

// Start returns the standard starting position: white on d4 and e5, black on
// d5 and e4, black to move.
func Start() Bitboard {
	return Bitboard{Board: Board{
		Black: SquareAt(3, 4).Bit() | SquareAt(4, 3).Bit(),
		White: SquareAt(3, 3).Bit() | SquareAt(4, 4).Bit(),
	}}
}

func (p Bitboard) own() (uint64, uint64) {
	if p.ToMove == Black {
		return p.Black, p.White
	}
	return p.White, p.Black
}

// LegalMoves returns the squares where the side to move may play.
func (p Bitboard) LegalMoves() uint64 { return MovesOf(p.own()) }

// Moves returns the legal moves in square order: [Pass] when the side to move
// must pass, none when the game is over.
func (p Bitboard) Moves() []Square {
	m := p.LegalMoves()
	if m == 0 {
		if p.GameOver() {
			return nil
		}
		return []Square{Pass}
	}
	ms := make([]Square, 0, bits.OnesCount64(m))
	for ; m != 0; m &= m - 1 {
		ms = append(ms, Square(bits.TrailingZeros64(m)))
	}
	return ms
}

// MustPass reports whether the side to move has no legal move but the opponent has.
func (p Bitboard) MustPass() bool {
	own, opp := p.own()
	return MovesOf(own, opp) == 0 && MovesOf(opp, own) != 0
}

// GameOver reports whether neither side can move.
func (p Bitboard) GameOver() bool {
	own, opp := p.own()
	return MovesOf(own, opp) == 0 && MovesOf(opp, own) == 0
}

// Errors of Play. Check them with errors.Is.
var (
	ErrGameOver  = errors.New("the game is over")
	ErrOccupied  = errors.New("the square is occupied")
	ErrNoFlip    = errors.New("the move flips no disc")
	ErrMustPass  = errors.New("the player has no legal move and must pass")
	ErrPassWrong = errors.New("a pass is allowed only without a legal move")
)

// Play returns the position after m, or an error saying why m is illegal.
func (p Bitboard) Play(m Square) (Bitboard, error) {
	own, opp := p.own()
	legal := MovesOf(own, opp)
	if m == Pass {
		switch {
		case legal != 0:
			return p, ErrPassWrong
		case MovesOf(opp, own) == 0:
			return p, ErrGameOver
		}
		p.ToMove = p.ToMove.Opponent()
		return p, nil
	}
	s := m
	if s < 0 || s > 63 {
		return p, fmt.Errorf("move %d: %w", m, ErrBadSquare)
	}
	if legal&s.Bit() == 0 {
		switch {
		case legal == 0 && MovesOf(opp, own) == 0:
			return p, ErrGameOver
		case (own|opp)&s.Bit() != 0:
			return p, ErrOccupied
		case legal == 0:
			return p, ErrMustPass
		}
		return p, ErrNoFlip
	}
	f := FlipsOf(own, opp, s)
	own |= f | s.Bit()
	opp &^= f
	if p.ToMove == Black {
		p.Black, p.White = own, opp
	} else {
		p.White, p.Black = own, opp
	}
	p.ToMove = p.ToMove.Opponent()
	return p, nil
}

// Flips returns the discs that m would flip (0 for a pass or an illegal move).
func (p Bitboard) Flips(m Square) uint64 {
	if m == Pass || p.LegalMoves()&m.Bit() == 0 {
		return 0
	}
	own, opp := p.own()
	return FlipsOf(own, opp, m)
}

// Score is a game's result in discs, black first.
type Score struct {
	Black, White int
}

func (s Score) String() string { return fmt.Sprintf("%d-%d", s.Black, s.White) }

// Winner returns the winning colour, and false for a tie.
func (s Score) Winner() (Color, bool) {
	switch {
	case s.Black > s.White:
		return Black, true
	case s.White > s.Black:
		return White, true
	}
	return Black, false
}

// ErrBadScore is returned for a score that is not B-W with B+W at most
// MaxSquares.
var ErrBadScore = errors.New("a score is black discs, a dash, white discs (e.g. 40-24), together at most the board's squares")

// MaxSquares is the number of squares of the largest board, 16x16.
const MaxSquares = 256

// ParseScore parses "B-W", black discs first (also "B:W"), e.g. "40-24", on a
// board of any size (B+W at most MaxSquares): the caller checks it against
// its board's squares.
func ParseScore(s string) (Score, error) {
	b, w, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		b, w, ok = strings.Cut(s, ":")
	}
	bl, err1 := strconv.Atoi(strings.TrimSpace(b))
	wh, err2 := strconv.Atoi(strings.TrimSpace(w))
	if !ok || err1 != nil || err2 != nil || bl < 0 || wh < 0 || bl+wh > MaxSquares {
		return Score{}, fmt.Errorf("%q: %w", s, ErrBadScore)
	}
	return Score{bl, wh}, nil
}

// Score returns the disc count as it stands.
func (b Board) Score() Score {
	bl, wh := b.Count()
	return Score{bl, wh}
}

// FinalScore returns the score of a finished game under the tournament rule:
// the empty squares go to the winner, and a tie with empties is 32-32.
func (b Board) FinalScore() Score {
	return WithEmpties(b.Score())
}

// WithEmpties gives the squares left empty to the winner (split for a tie).
func WithEmpties(s Score) Score {
	e := 64 - s.Black - s.White
	switch {
	case s.Black > s.White:
		s.Black += e
	case s.White > s.Black:
		s.White += e
	default:
		s.Black, s.White = 32, 32
	}
	return s
}

// Perft counts the leaves of the game tree of the given depth below p (see PerftOf).
func Perft(p Bitboard, depth int) uint64 {
	own, opp := p.own()
	return PerftOf(own, opp, depth)
}
