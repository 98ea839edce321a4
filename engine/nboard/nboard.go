// Package nboard is a client for external Othello engines that speak the
// NBoard protocol (RULES.md section 6): it starts the engine as a subprocess
// from an argv (never through a shell) in a process group of its own, tells it
// the game otd owns, asks it for moves under a context, and stops it (quit,
// then SIGINT, then SIGKILL to the group and to every other process it
// started: engine/proc), as engine/gtp does.
//
// It announces version 1 of the protocol ("nboard 1"), the version of every
// command it sends (set game, set depth, ping, go, quit; the clock goes in set
// game's TI). Edax speaks version 1 only: its nboard.c (4.3 to 4.6) logs
// "Edax expected "nboard 1" protocol" to any other. Ntest, by the protocol's
// author, reads the version and plays the same under both. Version 2 adds
// commands otd does not send (move, set contempt, analyze) and nodestats
// lines, which are ignored like status lines.
//
// Start sends "nboard 1", "set depth N" (Config.Depth, when set; engines such
// as Ntest need it before go) and "ping 1", and waits for "pong 1"; the name
// is the engine's "set myname" unless Config.Name gives one. Each Move sends
// the whole game so far as a GGF record with "set game" (8x8, the start
// position, the moves with passes as PA, and the clock of the side to move in
// TI), then "ping N" and "go", and takes the first "=== MOVE" after "pong N":
// a late answer to an earlier go comes before the pong and is dropped. The
// engine's board is thus never out of step with otd's, so "move" is never
// sent. Lines other than pong and === (status, nodestats, search, set myname
// and the like) are ignored, as NBoard ignores them. A move is read in any
// case, with or without /EVAL/TIME, a pass as PA or pass.
//
// The client is a proc.Client, as engine/gtp's is: the process, the name,
// Move's lock and Close are engine/proc's. Move's errors wrap one of
// engine/proc's sentinels (check them with errors.Is): proc.ErrTimeout (no
// reply before ctx was done; the next Move resynchronizes), proc.ErrCrashed
// (the engine exited or closed its output), proc.ErrProtocol (a reply that is
// not a move, or an overlong line; it also wraps player.ErrBadMove),
// proc.ErrClosed (Move after Close). Legality is the caller's business: a
// move on an occupied square is returned as the engine gave it.
package nboard

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/engine/transcript"
)

// Config says how to start an engine: the process and its name as
// engine/proc's (without a Name, the engine's "set myname"), and the depth.
type Config struct {
	proc.Config
	Depth int // sent as "set depth N" at the start when > 0
}

// Engine is a running NBoard engine. It implements player.Player (its Name,
// Pid, Stderr, Move and Close are proc.Client's). Move must not be called
// concurrently; Close may be called at any time, from any goroutine.
type Engine struct {
	*proc.Client
	cfg  Config
	proc *proc.Conn
	ping int // the last ping sent
}

var _ player.Player = (*Engine)(nil)

// Start starts the engine and sets it up (nboard 1, set depth, ping 1),
// within ctx. A failure stops the engine again.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	e := &Engine{cfg: cfg}
	var err error
	if e.Client, e.proc, err = proc.StartClient("nboard", cfg.Config, e.move); err != nil {
		return nil, err
	}
	cmds := "nboard 1\n"
	if cfg.Depth > 0 {
		cmds += "set depth " + strconv.Itoa(cfg.Depth) + "\n"
	}
	if _, err := e.exchange(ctx, "nboard", cmds, false); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// move, the protocol's part of Move, sends g with set game (and the clock
// c), pings the engine and asks go. NBoard plays standard 8x8 Othello only:
// a game under other rules is refused with proc.ErrProtocol.
func (e *Engine) move(ctx context.Context, g player.Game, c player.Clock) (engine.Point, error) {
	if r := g.Position.Rules(); !r.Standard() {
		return engine.PassPoint, e.proc.Errorf("the NBoard protocol plays standard 8x8 Othello, not %s: %w", r, proc.ErrProtocol)
	}
	game, err := ggf(g.Moves, c)
	if err != nil {
		return engine.PassPoint, e.proc.Errorf("%w", err)
	}
	return e.exchange(ctx, "go", "set game "+game+"\n", true)
}

// exchange sends cmds, "ping N" and, with move, "go"; it reads up to "pong N"
// (at the start, taking the engine's name from "set myname" unless one is
// configured)
// and then, with move, up to the first "=== MOVE".
func (e *Engine) exchange(ctx context.Context, what, cmds string, move bool) (engine.Point, error) {
	e.ping++
	pong := "pong " + strconv.Itoa(e.ping)
	cmds += "ping " + strconv.Itoa(e.ping) + "\n"
	if move {
		cmds += "go\n"
	}
	if err := e.proc.Write(ctx, cmds); err != nil {
		return engine.PassPoint, e.fail(what, err, false)
	}
	synced := false
	for {
		line, err := e.proc.Line(ctx)
		if err != nil {
			return engine.PassPoint, e.fail(what, err, true)
		}
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "set myname "); ok && !move && e.cfg.Name == "" && strings.TrimSpace(name) != "" {
			e.proc.SetName(strings.TrimSpace(name))
		}
		if !synced {
			synced = strings.Join(strings.Fields(line), " ") == pong
			if synced && !move {
				return engine.PassPoint, nil
			}
			continue // what came before the pong answers earlier commands
		}
		if reply, ok := strings.CutPrefix(line, "==="); ok {
			m, err := parseMove(reply)
			if err != nil {
				return engine.PassPoint, e.proc.Errorf("go: %w", err)
			}
			return m, nil
		}
	}
}

// fail returns err as the failure of command what. After anything but a
// timeout of a read (which the next ping resynchronizes) the stream is
// broken for good (proc.Conn.Fail): a write that timed out may have written
// part of the commands.
func (e *Engine) fail(what string, err error, read bool) error {
	if read && errors.Is(err, proc.ErrTimeout) {
		return e.proc.Errorf("%s: %w", what, err)
	}
	return e.proc.Fail(what, err)
}

// parseMove reads the reply to go after "===": a square of the 8x8 board in
// any case, PA or pass, each with an optional /EVAL/TIME, then optional words.
func parseMove(s string) (engine.Point, error) {
	mv := ""
	if f := strings.Fields(s); len(f) > 0 {
		mv, _, _ = strings.Cut(f[0], "/")
	}
	return proc.ParseMove(s, mv, 8, "pa", "pass")
}

// ggf writes the game from the start position as a GGF record
// (transcript.FormatGGF), with the clock of the side to move as the time
// control of both (TI, transcript.GGFTime): the remaining time (and the
// increment) or the time per move. The players are unknown (PB[?]).
func ggf(moves []engine.Point, c player.Clock) (string, error) {
	g := transcript.Game{Start: engine.Start(), Moves: moves, Black: "?", White: "?", Event: "otd"}
	switch {
	case c.PerMove > 0:
		g.Time = transcript.GGFTime(c.PerMove, 0)
	case c.Remaining > 0:
		g.Time = transcript.GGFTime(c.Remaining, c.Increment)
	}
	if r := transcript.Replay(g); r.Illegal != nil {
		return "", fmt.Errorf("move %d (%s) of the game: %w", len(r.Moves)+1, r.Illegal.Move, r.Illegal.Reason)
	}
	return transcript.FormatGGF(g), nil
}
