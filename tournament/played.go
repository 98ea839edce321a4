package tournament

import (
	"fmt"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/scoring"
)

// Played is a game otd played itself, as engine/match returned it, with the
// completion of a game lost by default when the tournament's time-default
// policy is "complete" (RULES.md section 2).
type Played struct {
	match.Result
	Completed *engine.Score // the winner's completion of a default; nil: none (the board as it stood counts)
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
	case p.End == match.Normal:
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
	res.Moves, res.End = transcript.FormatMoves(p.Moves), p.End.String()
	if p.End != match.Normal {
		note := p.Err.Error()
		if p.End == match.Illegal {
			note = fmt.Sprintf("%s (move %d)", note, len(p.Moves)+1)
		}
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
// tournament (Settings.Time) nor PlayOptions gives one: a minute a side.
var DefaultTime = match.TimeControl{Base: time.Minute}

// PlayTime returns the time control of the games otd plays: Settings.Time,
// or DefaultTime.
func (s Settings) PlayTime() match.TimeControl {
	if s.Time == (match.TimeControl{}) {
		return DefaultTime
	}
	return s.Time
}
