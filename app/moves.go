package app

import (
	"context"
	"fmt"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/tournament"
)

// MovesError refuses a result that the game's moves contradict: Report is
// the replay (the first illegal move, or the score the moves give).
type MovesError struct {
	Where   string
	Entered string             // the result as entered ("28-36", "--time-default white")
	Gives   *tournament.Result // the result the moves give, if they give one
	Report  transcript.Report
	Squares int // of the board, for the empty squares left
}

func (e *MovesError) Error() string {
	return e.report() + "; correct the moves or the result, or record the result as entered with --override REASON"
}

// report says how the moves contradict the result.
func (e *MovesError) report() string {
	s := fmt.Sprintf("%s: the moves contradict the result entered (%s): they ", e.Where, e.Entered)
	if e.Entered == "" {
		s = fmt.Sprintf("%s: the moves give no result: they ", e.Where)
	}
	s += e.fact()
	if e.Fault() == MovesUnfinished && e.Gives == nil {
		s += " (a game lost on time: --time-default COLOUR)"
	}
	if e.Gives != nil {
		s += fmt.Sprintf(", recorded %s", e.Gives)
	}
	return s
}

// MovesFault is how moves contradict a result.
type MovesFault int

const (
	MovesIllegal    MovesFault = iota // they do not replay
	MovesOver                         // they end the game, with another score
	MovesUnfinished                   // they stop before the end
)

// Fault is how the moves contradict the result.
func (e *MovesError) Fault() MovesFault {
	switch r := e.Report; {
	case !r.Legal():
		return MovesIllegal
	case r.Over:
		return MovesOver
	}
	return MovesUnfinished
}

// Score is the discs of the board the moves leave ("8-56"; "" if they do
// not replay).
func (e *MovesError) Score() string {
	if !e.Report.Legal() {
		return ""
	}
	return e.Report.Score.String()
}

// fact is what the replay found: "end the game at move 60, 8-56".
func (e *MovesError) fact() string {
	r := e.Report
	switch e.Fault() {
	case MovesIllegal:
		return "do not replay: " + r.Illegal.String()
	case MovesOver:
		return fmt.Sprintf("end the game at move %d, %s", lastMove(r), r.Score)
	}
	return fmt.Sprintf("stop at move %d, %s with %d empty squares, before the end", lastMove(r), r.Score, e.Squares-r.Score.Black-r.Score.White)
}

// lastMove is the number of the last move a replay played.
func lastMove(r transcript.Report) int {
	if len(r.Moves) == 0 {
		return 0
	}
	return r.Moves[len(r.Moves)-1].Number
}

// Moves are a game's moves as the director gives them: a move list
// ("f5d6c3...", read under the tournament's rules), or a game read from a
// transcript (its moves; its rules are the tournament's).
type Moves struct {
	List   string
	Record *transcript.Game
}

// RecordMoves records the result of a game (ref) with its moves ('otd result
// --moves'; with correct, as Correct without repair): the moves are replayed
// at once, and a result they contradict is refused with a *MovesError unless
// override gives the director's reason, kept as the result's note. Moves that
// stop before the end need a time default: the board they leave is then the
// board as it stood (RULES.md section 2, under the tournament's policy).
// Without a score (in.HasScore false) the moves give it. The legal moves
// are kept with the result (Result.Moves), as otd's own games keep theirs.
func (d *Director) RecordMoves(ctx context.Context, id int64, ref tournament.GameRef, in tournament.ResultInput, correct bool, moves Moves, override string) (Outcome, error) {
	return d.act(ctx, id, recordMoves(ref, in, correct, moves, override))
}

// recordMoves is RecordMoves' operation.
func recordMoves(ref tournament.GameRef, in tournament.ResultInput, correct bool, moves Moves, override string) tournament.Op {
	return func(t *tournament.Tournament) (tournament.Change, error) {
		g, err := t.Find(ref)
		if err != nil {
			return tournament.Change{}, err
		}
		game := moves.Record
		if game == nil {
			parsed, err := transcript.ParseMovesRules(moves.List, t.GameRules())
			if err != nil {
				return tournament.Change{}, &MovesTextError{Where: g.Where(), Err: err}
			}
			game = &parsed
		}
		if in.Forfeit != "" {
			return tournament.Change{}, fmt.Errorf("%s: a forfeit has no moves, the game was not played: drop --moves or --forfeit", g.Where())
		}
		played := *game
		played.Rules = t.GameRules()
		rep := transcript.Replay(played)
		given := moveInput(rep, in.TimeDefault)
		given.Moves = true
		entered := in
		entered.Moves = true
		if !in.HasScore { // the moves give the score
			entered.Black, entered.White, entered.HasScore = given.Black, given.White, true
		}
		old := g.Result
		c, err := t.RecordResult(ref, entered, correct)
		if err != nil {
			return c, err
		}
		rec := g.Result // the Result c.After points to
		var want *tournament.Result
		agrees := rep.Legal() && (rep.Over || in.TimeDefault != "")
		if agrees && in.HasScore { // the moves' own record, to compare
			g.Result = old
			if _, err := t.RecordResult(ref, given, correct); err != nil {
				return tournament.Change{}, fmt.Errorf("%s: the result the moves give: %w", g.Where(), err)
			}
			want = g.Result
			g.Result = rec
			agrees = want.Kind == rec.Kind && want.Black == rec.Black && want.White == rec.White && want.Loser == rec.Loser
		}
		refusal := &MovesError{Where: g.Where(), Entered: in.String(), Gives: want, Report: rep, Squares: t.GameRules().Squares()}
		if !agrees && override == "" {
			return tournament.Change{}, refusal
		}
		var kept []engine.Point
		for _, p := range rep.Moves {
			kept = append(kept, p.Move)
		}
		rec.Moves, rec.End = engine.FormatMoves(kept), tournament.EndNormal
		if in.TimeDefault != "" {
			rec.End = tournament.EndTime
		}
		if !agrees {
			rec.Note = "recorded over its moves: " + override
			c.Notes = append(c.Notes, refusal.report()+"; recorded as entered: "+override)
		}
		return c, nil
	}
}

// MovesTextError refuses a move list that cannot be read (Err, the
// reader's: where and what it found).
type MovesTextError struct {
	Where string
	Err   error
}

func (e *MovesTextError) Error() string { return e.Where + ": --moves: " + e.Err.Error() }
func (e *MovesTextError) Unwrap() error { return e.Err }

// moveInput is the result the moves give: the discs of the board they leave,
// lost on time by timeDefault if given.
func moveInput(rep transcript.Report, timeDefault tournament.Color) tournament.ResultInput {
	s := rep.Final.Score()
	return tournament.ResultInput{Black: s.Black, White: s.White, HasScore: true, TimeDefault: timeDefault}
}

// Fact is what the replay found, in the verifier's words and none of the
// command line's: "the moves end the game at move 60, 8-56" (a phone's
// page shows it under its own words for Fault).
func (e *MovesError) Fact() string { return "the moves " + e.fact() }
