package transcript

import (
	"errors"
	"fmt"

	"github.com/otd-project/otd/engine"
)

// Played is one move of a replayed game.
type Played struct {
	Number int // the move's number: discs placed so far, passes included in none
	Move   engine.Point
	Color  engine.Color
	Forced bool // a pass the record leaves implicit
}

// Illegal describes the first illegal move of a record.
type Illegal struct {
	Number int          // the move's number (from 1; for a pass, the number of the move before it)
	Move   engine.Point // what the record says
	Color  engine.Color // who had to move
	Reason error        // an engine error (engine.ErrNoFlip, ...), ErrSheetNumbering or engine.ErrBadRules
	Detail string       // more words on the reason, if any
	Before Board
}

// ErrSheetNumbering is the reason for a missing or doubled number on a sheet.
var ErrSheetNumbering = errors.New("the sheet's numbering is broken")

func (il *Illegal) String() string {
	switch {
	case errors.Is(il.Reason, ErrSheetNumbering):
		return il.Detail
	case errors.Is(il.Reason, engine.ErrBadRules):
		return il.Reason.Error()
	}
	what := fmt.Sprintf("move %d, %s by %s", il.Number, il.Move, il.Color)
	if il.Move == engine.PassPoint {
		what = fmt.Sprintf("the pass by %s after move %d", il.Color, il.Number)
	}
	s := what + ": " + il.Reason.Error()
	if il.Detail != "" {
		s += " (" + il.Detail + ")"
	}
	return s
}

// Report is the outcome of replaying a record.
type Report struct {
	Name    string
	Start   Board
	Moves   []Played // the legal moves, in order, forced passes included
	Illegal *Illegal // the first illegal move, if any
	Final   Board
	Over    bool         // the game is over: neither side can move
	Score   engine.Score // the final score (empties to the winner) if Over, else the disc count
	Claimed *Result      // the result checked against
	// Corrections are, for a transcript sheet that does not replay, the
	// smallest changes that make it legal (and agree with Claimed, first),
	// most plausible first.
	Corrections []Correction
}

// Legal reports whether every move of the record was legal.
func (r *Report) Legal() bool { return r.Illegal == nil }

// Agrees reports whether the record is legal and finished and its score is the
// claimed result (false without a claimed result or when the claimed result
// ended by time, resignation or agreement, which the board cannot confirm).
func (r *Report) Agrees() bool {
	return r.Legal() && r.Over && r.Claimed != nil && r.Claimed.Ending == Normal && r.Claimed.Agrees(r.Score)
}

// PositionAfter returns the board after move number n (1 = after the
// first disc), and false if the record has no legal move n.
func (r *Report) PositionAfter(n int) (Board, bool) {
	p := r.Start
	if n == 0 {
		return p, true
	}
	for _, m := range r.Moves {
		p, _ = p.Play(m.Move)
		if m.Number == n && m.Move != engine.PassPoint {
			return p, true
		}
	}
	return p, false
}

// Replay plays a record's moves from its start under its rules, inserting
// the passes the rules force, and stops at the first illegal move.
func Replay(g Game) Report {
	p, err := StartBoard(g)
	r := Report{Name: g.Name, Start: p, Moves: make([]Played, 0, len(g.Moves)+2)}
	if err != nil {
		r.Illegal = &Illegal{Move: engine.PassPoint, Reason: err, Before: p}
	}
	n := 0
	for _, m := range g.Moves {
		if r.Illegal != nil {
			break
		}
		pass := m == engine.PassPoint
		if !pass && p.MustPass() {
			r.Moves = append(r.Moves, Played{Number: n, Move: engine.PassPoint, Color: p.ToMove(), Forced: true})
			p, _ = p.Play(engine.PassPoint)
		}
		next, err := p.Play(m)
		if err != nil {
			num := n
			if !pass {
				num = n + 1
			}
			r.Illegal = &Illegal{Number: num, Move: m, Color: p.ToMove(), Reason: err, Before: p, Detail: detail(p, m, err)}
			break
		}
		if !pass {
			n++
		}
		r.Moves = append(r.Moves, Played{Number: n, Move: m, Color: p.ToMove()})
		p = next
	}
	if r.Illegal == nil && g.Problem != nil {
		r.Illegal = &Illegal{Number: g.Problem.Number, Color: p.ToMove(), Reason: ErrSheetNumbering, Detail: g.Problem.String(), Before: p}
	}
	r.Final = p
	r.Over = p.GameOver()
	if r.Over {
		r.Score = p.FinalScore()
	} else {
		r.Score = p.Score()
	}
	return r
}

// detail explains an illegal move further where the board tells more (on
// the 8x8 engine, which can look at the board from the other side).
func detail(b Board, m engine.Point, err error) string {
	p, ok := b.Position()
	mv, on := m.Square()
	if !ok || !on || mv.IsPass() || !errors.Is(err, engine.ErrNoFlip) {
		return ""
	}
	q := p
	q.ToMove = p.ToMove.Opponent()
	if q.LegalMoves()&mv.Bit() != 0 {
		return fmt.Sprintf("it would be legal for %s, but %s has a legal move and may not pass", q.ToMove, p.ToMove)
	}
	return ""
}

// Verify replays g and checks its result against claimed, or against the
// result the record holds when claimed is nil. For a transcript sheet that
// does not replay it searches for corrections.
func Verify(g Game, claimed *Result) Report {
	r := Replay(g)
	r.Claimed = claimed
	if r.Claimed == nil {
		r.Claimed = g.Result
	}
	if g.Sheet != nil && !r.Legal() && !errors.Is(r.Illegal.Reason, engine.ErrBadRules) {
		r.Corrections = Corrections(*g.Sheet, r.Illegal.Number, r.Claimed)
	}
	return r
}
