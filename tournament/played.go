package tournament

import (
	"fmt"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/scoring"
)

// How a game otd played ended (Result.End): normally, or lost by default by
// the side at fault, in engine/match's words (match.End).
const (
	EndNormal  = "normal"   // neither side can move
	EndTime    = "time"     // a flag fell
	EndCrash   = "crash"    // the engine failed
	EndIllegal = "illegal"  // the engine played an illegal move, or answered no move
	EndNoReply = "no reply" // the engine did not answer at all
)

// Played is a game otd played itself, as the application layer hands it over
// from engine/match, with the completion of a game lost by default when the
// tournament's time-default policy is "complete" (RULES.md section 2).
type Played struct {
	Moves     []engine.Point  // every move from the start, passes included
	Position  engine.Position // the final position; after a default, the board as it stood
	End       string          // EndNormal, or how the side at fault lost by default (EndTime...)
	Fault     engine.Color    // the side at fault, when End is not EndNormal
	Reason    string          // why the default happened, in words, when End is not EndNormal
	Completed *engine.Score   // the winner's completion of a default; nil: none (the board as it stood counts)
}

// maxNote is the longest Result.Note kept, in bytes.
const maxNote = 400

// RecordGame records a game otd played (ref: a round's or a final's): its transcript,
// how it ended, and its result scored under the tournament's rules (a
// default as a time default lost by the side at fault), with the reason of a
// default as its note (txt.Printable, cut to maxNote bytes). The moves must
// replay legally from the start to the position recorded.
func (t *Tournament) RecordGame(ref GameRef, p Played) (Change, error) {
	g, err := t.Find(ref)
	if err != nil {
		return Change{}, err
	}
	where := g.Where()
	if g.Result != nil {
		return Change{}, fmt.Errorf("%s: %w (%s)", where, ErrHasResult, g.Result)
	}
	pos, err := engine.NewPosition(t.GameRules())
	if err != nil {
		return Change{}, err
	}
	for i, m := range p.Moves {
		if pos, err = pos.Play(m); err != nil {
			return Change{}, invalidf("%s: move %d (%s) of the game played: %w", where, i+1, m, err)
		}
	}
	if !pos.Equal(p.Position) {
		return Change{}, invalidf("%s: the moves played do not lead to the final position", where)
	}
	// The discs on the board go to RecordResult, which scores them under
	// the tournament's rules (the empty squares, Anti-Othello's count).
	in := ResultInput{HasScore: true}
	switch {
	case p.End == EndNormal:
		if !pos.GameOver() {
			return Change{}, invalidf("%s: a game ended normally at %s, not at its end", where, pos.Score())
		}
		s := pos.Score()
		in.Black, in.White = s.Black, s.White
	default:
		in.TimeDefault = Black
		if p.Fault == engine.White {
			in.TimeDefault = White
		}
		s := pos.Score()
		if p.Completed != nil && t.TimeDefault == scoring.TimeComplete {
			s = *p.Completed
		}
		in.Black, in.White = s.Black, s.White
	}
	c, err := t.RecordResult(ref, in, false)
	if err != nil {
		return Change{}, err
	}
	res := g.Result // the Result c.After points to
	res.Moves, res.End = engine.FormatMoves(p.Moves), p.End
	if p.End != EndNormal {
		note := p.Reason
		if p.Completed != nil {
			note += fmt.Sprintf("; completed by the winner to %s", *p.Completed)
		}
		if note = txt.Printable(note); len(note) > maxNote {
			note = strings.ToValidUTF8(note[:maxNote], "") + "..."
		}
		res.Note = note
	}
	return c, nil
}

// DefaultTime is the time control of the games otd plays when neither the
// tournament (Settings.Time) nor app.PlayOptions gives one: a minute a side.
var DefaultTime = engine.TimeControl{Base: time.Minute}

// PlayTime returns the time control of the games otd plays: Settings.Time,
// or DefaultTime.
func (s Settings) PlayTime() engine.TimeControl {
	if s.Time == (engine.TimeControl{}) {
		return DefaultTime
	}
	return s.Time
}
