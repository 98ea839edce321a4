// Package match plays one game between two Players under a time control.
//
// otd owns the board: every move a player returns is checked with
// engine.Position.Play under the game's rules. A player that has no legal move is
// asked nothing: Play passes for it automatically (records engine.PassPoint in
// the transcript, without touching its clock), which is what GTP engines
// expect; the pass reaches the player in the next Game it is given.
//
// The clock runs from sending the request to receiving the move. Each
// request's context has a deadline of the player's remaining time (or the
// fixed time per move) plus Grace for transport; on a clock, time used
// beyond the remaining time is carried over (the clock may show up to -Grace),
// so Grace is a tolerance over the whole game, not an allowance per move. A move that arrives after
// that, or a player that gives up with an error at its deadline, is a flag
// fall (Time). A player that does not return at all within StopGrace after
// its deadline is abandoned (NoReply): its Move call keeps running in the
// background and the caller must Close it. Before its deadline, an error
// that wraps player.ErrBadMove (an engine's reply that is not a move:
// garbage, a bad square, an overlong line) is an illegal move (Illegal, Bad
// engine.PassPoint); any other error is a crash (Crash).
//
// A game that ends other than normally (Time, Crash, Illegal, NoReply) is
// lost by the side at fault. Scoring it as a time default is the
// tournament's job (RULES.md section 2): Result carries the board as it
// stood and the loser.
package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// Grace is added to each move's deadline for transport (pipes, scheduling).
const Grace = 100 * time.Millisecond

// StopGrace is how long Play waits, after a move's deadline, for a player
// to return before it abandons the request (NoReply).
const StopGrace = 200 * time.Millisecond

// End says how a game ended.
type End int

// The ways a game ends. All but Normal are lost by Result.Fault.
const (
	Normal  End = iota // neither side can move
	Time               // a flag fell: the move came too late, or the player gave up at its deadline
	Crash              // the player returned an error before its deadline (other than player.ErrBadMove)
	Illegal            // the player returned an illegal move, or a reply that is not a move (player.ErrBadMove) before its deadline
	NoReply            // the player did not return at all, even after its deadline
)

func (e End) String() string {
	switch e {
	case Normal:
		return "normal"
	case Time:
		return "time"
	case Crash:
		return "crash"
	case Illegal:
		return "illegal"
	case NoReply:
		return "no reply"
	}
	return fmt.Sprintf("End(%d)", int(e))
}

// Result is a played game.
type Result struct {
	Moves    []engine.Point  // every move from the start, passes included; an illegal move is not in it
	Position engine.Position // the final position; after a default, the board as it stood, the faulty side to move
	// Score is the disc count: for a Normal end, engine.Position.FinalScore
	// (empties to the winner); after a default, the discs as they stood
	// (the tournament scores the time default).
	Score engine.Score
	End   End
	Fault engine.Color     // the side at fault (it loses) when End is not Normal
	Err   error            // the reason for a default: the player's error, or why the move was refused
	Bad   engine.Point     // the move refused, for Illegal; engine.PassPoint for a reply that is not a move
	Used  [2]time.Duration // clock time each side used, by engine.Color
}

// Winner returns the winner, and false for a tie. A default is lost by the
// side at fault, whatever the discs.
func (r Result) Winner() (engine.Color, bool) {
	if r.End != Normal {
		return r.Fault.Opponent(), true
	}
	return r.Position.Winner()
}

// Play plays one game under rules, black first, with the time control tc,
// and returns how it went. Its
// error is non-nil only when ctx ends before the game does (the game was
// interrupted: nobody is at fault, and the Result holds the moves so far) or
// when tc or rules are not valid. Play does not Close the players.
func Play(ctx context.Context, rules engine.Rules, black, white player.Player, tc engine.TimeControl) (Result, error) {
	if err := tc.Valid(); err != nil {
		return Result{}, err
	}
	pos, err := engine.NewPosition(rules)
	if err != nil {
		return Result{}, err
	}
	players := [2]player.Player{black, white}
	remaining := [2]time.Duration{tc.Base, tc.Base}
	var r Result
	for !pos.GameOver() {
		if err := ctx.Err(); err != nil {
			r.Position, r.Score = pos, pos.Score()
			return r, fmt.Errorf("match interrupted after %d moves: %w", len(r.Moves), err)
		}
		side := pos.ToMove()
		if pos.MustPass() {
			pos, _ = pos.Play(engine.PassPoint)
			r.Moves = append(r.Moves, engine.PassPoint)
			continue
		}
		// Remaining 0 means "no clock" to a player: a clock run down into
		// the grace shows as 1ns.
		clock := player.Clock{Remaining: max(remaining[side], time.Nanosecond), Increment: tc.Increment, PerMove: tc.PerMove}
		limit := remaining[side]
		if tc.PerMove > 0 {
			limit = tc.PerMove
			clock.Remaining = 0
		}
		g := player.Game{Moves: append([]engine.Point(nil), r.Moves...), Position: pos}
		m, used, end, err := ask(ctx, players[side], g, clock, limit)
		r.Used[side] += used
		if ctx.Err() != nil { // whatever the player did, the game was stopped from outside
			r.Position, r.Score = pos, pos.Score()
			return r, fmt.Errorf("match interrupted after %d moves: %w", len(r.Moves), ctx.Err())
		}
		if end == Normal {
			next, perr := pos.Play(m)
			if perr != nil {
				end, r.Bad = Illegal, m
				err = fmt.Errorf("%s played %s: %w", players[side].Name(), m, perr)
			} else {
				pos = next
				r.Moves = append(r.Moves, m)
				if tc.PerMove == 0 {
					// Not clamped at 0: Grace is a tolerance over the whole
					// game, not a gift on every move.
					remaining[side] += tc.Increment - used
				}
				continue
			}
		}
		r.End, r.Fault, r.Err = end, side, err
		if end == Illegal {
			r.Bad = m // engine.PassPoint for a reply that is not a move
		}
		r.Position, r.Score = pos, pos.Score()
		return r, nil
	}
	r.Position, r.Score = pos, pos.FinalScore()
	return r, nil
}

type reply struct {
	m   engine.Point
	err error
}

// ask requests one move under limit and classifies what came back: Normal
// (a move, legal or not, in time), Time, Illegal (an error wrapping
// player.ErrBadMove in time: a reply that is not a move), Crash (any other
// error in time) or NoReply.
func ask(ctx context.Context, p player.Player, g player.Game, c player.Clock, limit time.Duration) (engine.Point, time.Duration, End, error) {
	deadline := limit + Grace
	if deadline <= 0 {
		return engine.PassPoint, 0, Time, fmt.Errorf("%s: flag fell: %v over its time before its move", p.Name(), -limit)
	}
	mctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	ch := make(chan reply, 1) // buffered: an abandoned call does not block
	start := time.Now()
	go func() {
		m, err := p.Move(mctx, g, c)
		ch <- reply{m, err}
	}()
	var rep reply
	select {
	case rep = <-ch:
	case <-mctx.Done():
		t := time.NewTimer(StopGrace)
		defer t.Stop()
		select {
		case rep = <-ch:
		case <-t.C:
			used := time.Since(start)
			return engine.PassPoint, used, NoReply, fmt.Errorf("%s: no reply %v after its deadline of %v", p.Name(), (used - deadline).Round(time.Millisecond), deadline)
		}
	}
	used := time.Since(start)
	late := used > deadline || errors.Is(mctx.Err(), context.DeadlineExceeded)
	switch {
	case late && rep.err != nil:
		return engine.PassPoint, used, Time, fmt.Errorf("%s: flag fell after %v (limit %v): %w", p.Name(), used.Round(time.Millisecond), limit, rep.err)
	case late:
		return engine.PassPoint, used, Time, fmt.Errorf("%s: flag fell: %s came after %v (limit %v)", p.Name(), rep.m, used.Round(time.Millisecond), limit)
	case errors.Is(rep.err, player.ErrBadMove):
		return engine.PassPoint, used, Illegal, fmt.Errorf("%s: %w", p.Name(), rep.err)
	case rep.err != nil:
		return engine.PassPoint, used, Crash, fmt.Errorf("%s: %w", p.Name(), rep.err)
	}
	return rep.m, used, Normal, nil
}
