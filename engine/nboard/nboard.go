// Package nboard is a client for external Othello engines that speak the
// NBoard protocol (RULES.md section 6): it starts the engine as a subprocess
// from an argv (never through a shell) in a process group of its own, tells it
// the game otd owns, asks it for moves under a context, and stops it (quit,
// then SIGINT, then SIGKILL to the group), as engine/gtp does.
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
// Move's errors wrap one of the sentinels below (check them with errors.Is):
// ErrTimeout (no reply before ctx was done; the next Move resynchronizes),
// ErrCrashed (the engine exited or closed its output), ErrProtocol (a reply
// that is not a move, or an overlong line; it also wraps player.ErrBadMove),
// ErrClosed (Move after Close). They are engine/proc's, the same values as
// engine/gtp's. Legality is the caller's business: a move on an occupied
// square is returned as the engine gave it.
package nboard

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
)

// The errors of an NBoard engine. Check them with errors.Is.
var (
	ErrTimeout  = proc.ErrTimeout
	ErrCrashed  = proc.ErrCrashed
	ErrProtocol = proc.ErrProtocol
	ErrClosed   = proc.ErrClosed
)

// Defaults of Config.
const (
	DefaultStderrLimit = proc.DefaultStderrLimit
	DefaultGrace       = proc.DefaultGrace
)

// Config says how to start an engine.
type Config struct {
	Argv        []string        // the program and its arguments; never run through a shell
	Name        string          // the name the event shows; "" the engine's "set myname", else Argv[0]
	Depth       int             // sent as "set depth N" at the start when > 0
	Dir         string          // working directory; "" the current one
	Env         []string        // environment; nil inherits otd's
	StderrLimit int             // bytes of stderr kept (the last ones); 0 DefaultStderrLimit
	Grace       time.Duration   // wait of each step of Close (quit, SIGINT, SIGKILL); 0 DefaultGrace
	Hurry       <-chan struct{} // once closed (Ctrl-C), each wait of Close is proc.HurryGrace; nil never
}

// Engine is a running NBoard engine. It implements player.Player. Move must
// not be called concurrently; Close may be called at any time, from any
// goroutine.
type Engine struct {
	cfg  Config
	name string
	proc *proc.Process

	mu     sync.Mutex // held by Move and the handshake
	ping   int        // the last ping sent
	broken error      // a failure after which the stream cannot be trusted
}

var _ player.Player = (*Engine)(nil)

// Start starts the engine and sets it up (nboard 1, set depth, ping 1),
// within ctx. A failure stops the engine again.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.StderrLimit <= 0 {
		cfg.StderrLimit = DefaultStderrLimit
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	p, err := proc.Start(proc.Config{Argv: cfg.Argv, Dir: cfg.Dir, Env: cfg.Env, StderrLimit: cfg.StderrLimit, Grace: cfg.Grace, Hurry: cfg.Hurry})
	if err != nil {
		return nil, fmt.Errorf("nboard: %w", err)
	}
	e := &Engine{cfg: cfg, name: cfg.Name, proc: p}
	if e.name == "" {
		e.name = cfg.Argv[0]
	}
	cmds := "nboard 1\n"
	if cfg.Depth > 0 {
		cmds += "set depth " + strconv.Itoa(cfg.Depth) + "\n"
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := e.exchange(ctx, "nboard", cmds, false); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Name returns the configured name, or the engine's.
func (e *Engine) Name() string { return e.name }

// Pid returns the engine's process id, which is also its process group id.
func (e *Engine) Pid() int { return e.proc.Pid() }

// Stderr returns the end of what the engine wrote to its standard error (at
// most Config.StderrLimit bytes, the last ones).
func (e *Engine) Stderr() string { return e.proc.Stderr() }

// Move sends g with set game (and the clock c), pings the engine and asks go.
// The move is returned as the engine gave it, legal or not; a pass is
// engine.PassPoint. NBoard plays standard 8x8 Othello only: a game under
// other rules is refused with ErrProtocol.
func (e *Engine) Move(ctx context.Context, g player.Game, c player.Clock) (engine.Point, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	select {
	case <-e.proc.Stopped():
		return engine.PassPoint, fmt.Errorf("nboard: %s: %w", e.name, ErrClosed)
	default:
	}
	if e.broken != nil {
		return engine.PassPoint, e.broken
	}
	if r := g.Board.Rules(); !r.Standard() {
		return engine.PassPoint, fmt.Errorf("nboard: %s: the NBoard protocol plays standard 8x8 Othello, not %s: %w", e.name, r, ErrProtocol)
	}
	game, err := ggf(g.Moves, c)
	if err != nil {
		return engine.PassPoint, fmt.Errorf("nboard: %s: %w", e.name, err)
	}
	m, err := e.exchange(ctx, "go", "set game "+game+"\n", true)
	return m.Point(), err
}

// exchange sends cmds, "ping N" and, with move, "go"; it reads up to "pong N"
// (at the start, taking the engine's name from "set myname" unless one is
// configured)
// and then, with move, up to the first "=== MOVE".
func (e *Engine) exchange(ctx context.Context, what, cmds string, move bool) (engine.Move, error) {
	e.ping++
	pong := "pong " + strconv.Itoa(e.ping)
	cmds += "ping " + strconv.Itoa(e.ping) + "\n"
	if move {
		cmds += "go\n"
	}
	if err := e.proc.Write(ctx, cmds); err != nil {
		return engine.Pass, e.fail(what, err, false)
	}
	synced := false
	for {
		line, err := e.proc.Line(ctx)
		if err != nil {
			return engine.Pass, e.fail(what, err, true)
		}
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "set myname "); ok && !move && e.cfg.Name == "" && strings.TrimSpace(name) != "" {
			e.name = strings.TrimSpace(name)
		}
		if !synced {
			synced = strings.Join(strings.Fields(line), " ") == pong
			if synced && !move {
				return engine.Pass, nil
			}
			continue // what came before the pong answers earlier commands
		}
		if reply, ok := strings.CutPrefix(line, "==="); ok {
			m, err := parseMove(reply)
			if err != nil {
				return engine.Pass, fmt.Errorf("nboard: %s: go: %w", e.name, err)
			}
			return m, nil
		}
	}
}

// fail returns err as the failure of command what; an unreadable line is
// also player.ErrBadMove. After anything but a timeout of a read (which the
// next ping resynchronizes) the stream is broken for good.
func (e *Engine) fail(what string, err error, read bool) error {
	if errors.Is(err, ErrProtocol) {
		err = fmt.Errorf("%w (%w)", err, player.ErrBadMove)
	}
	err = fmt.Errorf("nboard: %s: %s: %w", e.name, what, err)
	if !read || !errors.Is(err, ErrTimeout) {
		e.broken = err // a write that timed out may have written part of the commands
	}
	return err
}

// parseMove reads the reply to go after "===": a square in any case, PA or
// pass, each with an optional /EVAL/TIME, then optional words.
func parseMove(s string) (engine.Move, error) {
	f := strings.Fields(s)
	mv := ""
	if len(f) > 0 {
		mv, _, _ = strings.Cut(f[0], "/")
	}
	if strings.EqualFold(mv, "pa") || strings.EqualFold(mv, "pass") {
		return engine.Pass, nil
	}
	sq, err := engine.ParseSquare(mv)
	if err != nil {
		return engine.Pass, fmt.Errorf("reply %q is not a move: %w (%w)", proc.Clip(s), ErrProtocol, player.ErrBadMove)
	}
	return engine.MoveAt(sq), nil
}

// ggf writes the game from the start position as a GGF record, with the
// clock of the side to move as the time control of both (TI): the remaining
// time (and the increment) or the time per move, in whole seconds, at least 1.
func ggf(moves []engine.Point, c player.Clock) (string, error) {
	var b strings.Builder
	b.WriteString("(;GM[Othello]PC[otd]PB[?]PW[?]RE[?]")
	clock := func(d time.Duration) string {
		s := max(1, int64(d/time.Second))
		return fmt.Sprintf("%02d:%02d", s/60, s%60)
	}
	switch {
	case c.PerMove > 0:
		b.WriteString("TI[" + clock(c.PerMove) + "]")
	case c.Remaining > 0 && c.Increment > 0:
		b.WriteString("TI[" + clock(c.Remaining) + "/" + clock(c.Increment) + "]")
	case c.Remaining > 0:
		b.WriteString("TI[" + clock(c.Remaining) + "]")
	}
	b.WriteString("TY[8]BO[8 ")
	p := engine.Start()
	for s := engine.Square(0); s < 64; s++ {
		switch c, ok := p.At(s); {
		case !ok:
			b.WriteByte('-')
		case c == engine.Black:
			b.WriteByte('*')
		default:
			b.WriteByte('O')
		}
	}
	b.WriteString(" *]")
	for i, pt := range moves {
		m, _ := pt.Move() // a square off the board is a pass, which Play refuses
		colour, mv := "B", "PA"
		if p.ToMove == engine.White {
			colour = "W"
		}
		if !m.IsPass() {
			mv = strings.ToUpper(m.String())
		}
		b.WriteString(colour + "[" + mv + "]")
		q, err := p.Play(m)
		if err != nil {
			return "", fmt.Errorf("move %d (%s) of the game: %w", i+1, m, err)
		}
		p = q
	}
	b.WriteString(";)")
	return b.String(), nil
}

// Close tells the engine to quit and waits for it; then sends SIGINT to its
// process group, then SIGKILL, each after Config.Grace, until no process of
// the group is left running, then SIGKILL to every other process the engine
// started (proc.Process.Stop). It is safe to call more than once.
func (e *Engine) Close() error {
	if err := e.proc.Stop("quit"); err != nil {
		return fmt.Errorf("nboard: %s: %w", e.name, err)
	}
	return nil
}
