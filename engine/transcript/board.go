package transcript

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
)

// Board is a position of a game record under its rules: on the 8x8 bitboard
// engine (engine.Position) for standard Othello, on the general engine
// (engine.Position) for every other rule set. The zero value is an empty 8x8
// board, black to move.
type Board struct {
	pos  engine.Bitboard
	game *engine.Position // nil for standard Othello
}

// BoardOf returns the 8x8 position p as a Board of standard Othello.
func BoardOf(p engine.Bitboard) Board { return Board{pos: p} }

// StartBoard returns the starting position of g: g.Start for standard
// Othello, the start of g's rules (engine.NewPosition) for any other rule set.
func StartBoard(g Game) (Board, error) {
	r := g.RuleSet()
	if r.Standard() {
		return Board{pos: g.Start}, nil
	}
	eg, err := engine.NewPosition(r)
	if err != nil {
		return Board{}, err
	}
	return Board{game: &eg}, nil
}

// Rules returns the rules of the board.
func (b Board) Rules() engine.Rules {
	if b.game == nil {
		return engine.Othello()
	}
	return b.game.Rules()
}

// Position returns the board as a Position of the 8x8 engine, and false
// unless it is standard Othello.
func (b Board) Position() (engine.Bitboard, bool) { return b.pos, b.game == nil }

// ToMove returns the side to move.
func (b Board) ToMove() engine.Color {
	if b.game == nil {
		return b.pos.ToMove
	}
	return b.game.ToMove()
}

// At returns the colour on p and whether p holds a disc.
func (b Board) At(p engine.Point) (engine.Color, bool) {
	if b.game != nil {
		return b.game.At(p)
	}
	m, ok := p.Square()
	if !ok || m.IsPass() {
		return engine.Black, false
	}
	return b.pos.At(m)
}

// Play returns the board after p (engine.PassPoint for a pass), or the
// engine's error saying why p is illegal.
func (b Board) Play(p engine.Point) (Board, error) {
	if b.game != nil {
		g, err := b.game.Play(p)
		if err != nil {
			return b, err
		}
		return Board{game: &g}, nil
	}
	m, ok := p.Square()
	if !ok {
		return b, fmt.Errorf("%s on %s: %w", p, engine.Othello(), engine.ErrOffBoard)
	}
	pos, err := b.pos.Play(m)
	return Board{pos: pos}, err
}

// Moves returns the legal moves in square order (row by row): [PassPoint]
// when the side to move must pass, none when the game is over.
func (b Board) Moves() []engine.Point {
	if b.game != nil {
		return b.game.Moves()
	}
	var ps []engine.Point
	for _, m := range b.pos.Moves() {
		ps = append(ps, m.Point())
	}
	return ps
}

// MustPass reports whether the side to move has no legal move but the opponent has.
func (b Board) MustPass() bool {
	if b.game != nil {
		return b.game.MustPass()
	}
	return b.pos.MustPass()
}

// GameOver reports whether neither side can move.
func (b Board) GameOver() bool {
	if b.game != nil {
		return b.game.GameOver()
	}
	return b.pos.GameOver()
}

// Score returns the disc count as it stands.
func (b Board) Score() engine.Score {
	if b.game != nil {
		return b.game.Score()
	}
	return b.pos.Board.Score()
}

// FinalScore returns the score of a finished game: the empty squares to
// the winner under the rules (split for a tie).
func (b Board) FinalScore() engine.Score {
	if b.game != nil {
		return b.game.FinalScore()
	}
	return b.pos.Board.FinalScore()
}

// Empties returns the number of playable squares without a disc.
func (b Board) Empties() int {
	if b.game != nil {
		return b.game.Empties()
	}
	s := b.pos.Board.Score()
	return 64 - s.Black - s.White
}

// String returns the board row by row from a1, Size x Size characters: X
// black, O white, - empty, # a square the board's shape cuts.
func (b Board) String() string {
	if b.game != nil {
		return b.game.String()
	}
	return b.pos.Board.String()
}

// Diagram draws the board with coordinates: X black, O white, . empty, a
// space for a square the shape cuts, and * on the legal moves if marked.
func (b Board) Diagram(marked bool) string {
	r := b.Rules()
	legal := map[engine.Point]bool{}
	if marked {
		for _, p := range b.Moves() {
			legal[p] = true
		}
	}
	w := len(strconv.Itoa(r.Size)) // the width of the row numbers
	var sb strings.Builder
	sb.WriteString(strings.Repeat(" ", w))
	for c := range r.Size {
		fmt.Fprintf(&sb, " %c", 'a'+c)
	}
	sb.WriteByte('\n')
	for row := range r.Size {
		fmt.Fprintf(&sb, "%*d", w, row+1)
		for col := range r.Size {
			p := engine.Point{Col: int8(col), Row: int8(row)}
			ch := byte('.')
			if c, ok := b.At(p); ok {
				ch = "XO"[c]
			} else if !r.Playable(col, row) {
				ch = ' '
			} else if legal[p] {
				ch = '*'
			}
			sb.WriteByte(' ')
			sb.WriteByte(ch)
		}
		sb.WriteString("\n")
	}
	return sb.String()
}
