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

// RecordGame records a game otd played at table of round r: its transcript,
// how it ended, and its result scored under the tournament's rules (a
// default as a time default lost by the side at fault), with the reason of a
// default as its note (txt.Printable, cut to maxNote bytes). The moves must
// replay legally from the start to the position recorded.
func (t *Tournament) RecordGame(r, table int, p Played) (Change, error) {
	g, err := t.Game(r, table)
	if err != nil {
		return Change{}, err
	}
	if g.Result != nil {
		return Change{}, fmt.Errorf("round %d table %d: %w (%s)", r, table, ErrHasResult, g.Result)
	}
	pos, err := engine.NewPosition(t.GameRules())
	if err != nil {
		return Change{}, err
	}
	for i, m := range p.Moves {
		if pos, err = pos.Play(m); err != nil {
			return Change{}, invalidf("round %d table %d: move %d (%s) of the game played: %w", r, table, i+1, m, err)
		}
	}
	if !pos.Equal(p.Position) {
		return Change{}, invalidf("round %d table %d: the moves played do not lead to the final position", r, table)
	}
	// The discs on the board go to RecordResult, which scores them under
	// the tournament's rules (the empty squares, Anti-Othello's count).
	in := ResultInput{HasScore: true}
	switch {
	case p.End == match.Normal:
		if !pos.GameOver() {
			return Change{}, invalidf("round %d table %d: a game ended normally at %s, not at its end", r, table, pos.Score())
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
	c, err := t.RecordResult(r, table, in, false)
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
