// Package gtp is a client for external Othello engines that speak the Go Text
// Protocol (RULES.md section 6): it starts the engine as a subprocess from an
// argv (never through a shell) in a process group of its own, keeps the
// engine's board in step with the game otd owns, asks it for moves under a
// context, and stops it (quit, then SIGINT, then SIGKILL to the group and to
// every other process it started: engine/proc).
//
// Commands carry numeric ids. Replies are read with or without a space after
// '=' or '?', with the id right after it ("=7 f6", GTP 2) or after a space
// when it is the id sent ("= 7 f6", as Edax 4.6 answers; RULES.md section 6),
// moves in any case, passes as "pass" or "PASS". The client
// remembers the moves the engine has seen; each Move sends only the new ones
// with play and asks genmove. After any disagreement (an error reply, or a
// game that no longer extends what was sent) it sends clear_board and replays
// the game. An engine that refuses "play COLOUR pass" (gtp-rhino passes by
// itself) is sent no passes from then on.
//
// The client is a proc.Client, as engine/nboard's is: the process, the name,
// Move's lock and Close are engine/proc's. Move's errors wrap one of
// engine/proc's sentinels or ErrRefused (check them with errors.Is):
// proc.ErrTimeout (no reply before ctx was done), proc.ErrCrashed (the engine
// exited or closed its output), proc.ErrProtocol (a reply that cannot be
// read, a malformed move; it also wraps player.ErrBadMove), ErrRefused (the
// engine answered '?' to a command it must accept), proc.ErrClosed (Move
// after Close). Legality is the caller's business: a move on an occupied
// square is returned as the engine gave it.
//
// On a board larger than 8x8 the columns are a, b, c... without a gap, as
// Othello names them (j10 on 10x10), not as Go's GTP does (which skips i): an
// engine that follows Go's letters plays the wrong squares, which otd refuses
// as illegal moves.
package gtp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
)

// ErrRefused is the error of an engine that answered '?' to a command it must
// accept. Check it with errors.Is.
var ErrRefused = errors.New("the engine refused a command")

const maxReply = 1 << 20 // longest reply, all lines

// Config says how to start an engine: the process and its name as
// engine/proc's (without a Name, the client asks the engine its name and
// version), and the board.
type Config struct {
	proc.Config
	// Size is the side of the board the engine is set up for (boardsize);
	// 0 is 8. GTP has no command for the other rules of a variant (the
	// Reversi opening, Anti-Othello, 8Stars): the caller refuses those.
	Size int
}

// Engine is a running GTP engine. It implements player.Player (its Name,
// Pid, Stderr, Move and Close are proc.Client's). Move must not be called
// concurrently; Close may be called at any time, from any goroutine.
type Engine struct {
	*proc.Client
	cfg  Config
	proc *proc.Conn

	nextID   int
	pending  []int          // ids sent whose replies are not read yet, oldest first
	partial  []string       // lines of a reply being read
	sent     []engine.Point // the game as the engine has it since its last clear_board
	synced   bool           // sent is the engine's board (false: clear_board first)
	noPass   bool           // the engine refuses "play COLOUR pass": send no passes
	passOK   bool           // the engine has accepted "play COLOUR pass"
	timeKind string         // the time_settings last sent ("" none)
}

var _ player.Player = (*Engine)(nil)

// Start starts the engine and sets it up for Othello on Config.Size's board
// (boardsize N, clear_board), within ctx; an engine that refuses the size is
// refused with ErrRefused. Without a Name it asks the engine's name and
// version. A failure stops the engine again.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.Size == 0 {
		cfg.Size = 8
	}
	e := &Engine{cfg: cfg}
	var err error
	if e.Client, e.proc, err = proc.StartClient("gtp", cfg.Config, e.move); err != nil {
		return nil, err
	}
	if err := e.handshake(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *Engine) handshake(ctx context.Context) error {
	if e.cfg.Name == "" {
		rs, err := e.batch(ctx, "name", "version")
		if err != nil {
			return err
		}
		name := strings.TrimSpace(rs[0].text)
		if v := strings.TrimSpace(rs[1].text); rs[1].ok && v != "" {
			name += " " + v
		}
		if rs[0].ok && name != "" {
			e.proc.SetName(name)
		}
	}
	setup := []string{"boardsize " + strconv.Itoa(e.cfg.Size), "clear_board"}
	rs, err := e.batch(ctx, setup...)
	if err != nil {
		return err
	}
	for i, c := range setup {
		if !rs[i].ok {
			return e.refused(c, rs[i])
		}
	}
	e.sent, e.synced = e.sent[:0], true
	return nil
}

// move, the protocol's part of Move, brings the engine's board up to g (the
// new moves with play, or clear_board and the whole game after a
// disagreement), sends the clock (time_settings, time_left) and asks genmove
// for the side to move. The move is returned as the engine gave it, legal or
// not; a pass is engine.PassPoint.
func (e *Engine) move(ctx context.Context, g player.Game, c player.Clock) (engine.Point, error) {
	if n := g.Position.Rules().Size; n != e.cfg.Size {
		return engine.PassPoint, e.proc.Errorf("set up for %dx%d, asked to play on %dx%d: %w", e.cfg.Size, e.cfg.Size, n, n, proc.ErrProtocol)
	}
	colour := g.Position.ToMove().String()
	for attempt := 0; ; attempt++ {
		replay := attempt > 0 || !e.synced || !extends(g.Moves, e.sent)
		from := len(e.sent)
		var plays []string
		var played []int // the index in g.Moves of each command of plays; -1 for clear_board
		if replay {
			plays, played, from = append(plays, "clear_board"), append(played, -1), 0
		}
		hasPass := false
		for i := from; i < len(g.Moves); i++ {
			if g.Moves[i].IsPass() {
				if e.noPass {
					continue
				}
				hasPass = true
			}
			plays = append(plays, "play "+colourOf(i).String()+" "+g.Moves[i].String())
			played = append(played, i)
		}
		kind, settings, left := timeCommands(c, colour)
		sendSettings := kind != e.timeKind || (replay && kind != "")
		var tail []string
		if sendSettings {
			tail = append(tail, settings)
		}
		if left != "" {
			tail = append(tail, left)
		}
		tail = append(tail, "genmove "+colour)
		// The engine's board is unknown until the replies say otherwise.
		e.synced = false
		// All at once when the engine is expected to accept the plays; after
		// a disagreement, or with a pass the engine may refuse, the plays
		// first, so that it does not think about a board it does not have.
		var rs []reply
		var err error
		if risky := replay || (hasPass && !e.passOK); risky && len(plays) > 0 {
			rs, err = e.batch(ctx, plays...)
			if err == nil && allOK(rs) {
				var more []reply
				more, err = e.batch(ctx, tail...)
				rs = append(rs, more...)
			}
		} else {
			rs, err = e.batch(ctx, append(plays, tail...)...)
		}
		if err != nil {
			return engine.PassPoint, err
		}
		if len(rs) > len(plays) && sendSettings {
			e.timeKind = kind // sent; an engine may refuse time commands
		}
		bad := -1 // the first play command the engine refused
		for k := range plays {
			if !rs[k].ok {
				bad = k
				break
			}
		}
		switch {
		case bad >= 0 && played[bad] < 0:
			return engine.PassPoint, e.refused(plays[bad], rs[bad])
		case bad >= 0 && g.Moves[played[bad]].IsPass() && !e.noPass && !e.passOK:
			e.noPass = true // gtp-rhino passes by itself
			continue
		case bad >= 0 && (replay || attempt >= 2):
			return engine.PassPoint, e.refused(plays[bad], rs[bad])
		case bad >= 0:
			continue
		}
		if hasPass {
			e.passOK = true
		}
		if replay {
			e.sent = e.sent[:0]
		}
		gen := rs[len(rs)-1]
		if !gen.ok {
			if replay || attempt >= 2 {
				return engine.PassPoint, e.refused(tail[len(tail)-1], gen)
			}
			continue
		}
		m, err := parseMove(gen.text)
		if err != nil {
			return engine.PassPoint, e.proc.Errorf("genmove %s: %w", colour, err)
		}
		e.sent = append(e.sent[:0], g.Moves...)
		e.sent = append(e.sent, m)
		e.synced = true
		return m, nil
	}
}

func allOK(rs []reply) bool {
	for _, r := range rs {
		if !r.ok {
			return false
		}
	}
	return true
}

// colourOf returns the colour of the side that made move i (from 0) of a
// game: black first, then in turn, as a game's moves list its passes
// (player.Game).
func colourOf(i int) engine.Color { return engine.Color(i % 2) }

func extends(game, sent []engine.Point) bool {
	if len(sent) > len(game) {
		return false
	}
	for i, m := range sent {
		if game[i] != m {
			return false
		}
	}
	return true
}

// timeCommands returns the kind of time control (to send time_settings only
// when it changes), its time_settings and the time_left of the side to move.
// GTP counts whole seconds: the time left is rounded down, but at least 1
// (some engines read 0 as no limit). GTP has no increment: a clock with one is
// sent as sudden death with the time left before each move.
func timeCommands(c player.Clock, colour string) (kind, settings, left string) {
	secs := func(d time.Duration) int64 { return max(1, int64(d/time.Second)) }
	switch {
	case c.PerMove > 0:
		kind = "permove " + strconv.FormatInt(secs(c.PerMove), 10)
		return kind, fmt.Sprintf("time_settings 0 %d 1", secs(c.PerMove)),
			fmt.Sprintf("time_left %s %d 1", colour, secs(c.PerMove))
	case c.Remaining > 0:
		return "clock", fmt.Sprintf("time_settings %d 0 0", secs(c.Remaining)),
			fmt.Sprintf("time_left %s %d 0", colour, secs(c.Remaining))
	}
	return "", "", ""
}

// parseMove reads a genmove reply: a square a1 to p16 in any case, whatever
// the board (a square off it is the caller's business), or pass.
func parseMove(s string) (engine.Point, error) {
	s = strings.TrimSpace(s)
	return proc.ParseMove(s, s, 16, "pass")
}

type reply struct {
	ok   bool
	text string
}

func (e *Engine) refused(cmd string, r reply) error {
	e.synced = false
	return e.proc.Errorf("%s: ? %s: %w", cmd, proc.Clip(r.text), ErrRefused)
}

// batch sends the commands at once and reads their replies in order.
// Replies to earlier commands whose wait timed out are read and dropped.
// A timeout of a read leaves the stream usable (the late replies are dropped
// later); any other failure breaks it for good (proc.Conn.Fail), a timeout of
// the write too: part of the batch may be written.
func (e *Engine) batch(ctx context.Context, cmds ...string) ([]reply, error) {
	var sb strings.Builder
	ids := make([]int, len(cmds))
	for i, c := range cmds {
		e.nextID++
		ids[i] = e.nextID
		sb.WriteString(strconv.Itoa(e.nextID))
		sb.WriteByte(' ')
		sb.WriteString(c)
		sb.WriteByte('\n')
	}
	if err := e.proc.Write(ctx, sb.String()); err != nil {
		e.synced = false
		return nil, e.proc.Fail(cmds[0], err)
	}
	e.pending = append(e.pending, ids...)
	rs := make([]reply, 0, len(cmds))
	for len(rs) < len(cmds) {
		want := ids[len(rs)]
		front := -1 // the id of the oldest command unanswered
		if len(e.pending) > 0 {
			front = e.pending[0]
		}
		ok, id, text, err := e.response(ctx, front)
		if err != nil {
			e.synced = false
			if errors.Is(err, proc.ErrTimeout) {
				return nil, e.proc.Errorf("%s: %w", cmds[len(rs)], err)
			}
			return nil, e.proc.Fail(cmds[len(rs)], err)
		}
		if front < 0 {
			return nil, e.proc.Fail(cmds[len(rs)], fmt.Errorf("a reply to no command (%q): %w", proc.Clip(text), proc.ErrProtocol))
		}
		e.pending = e.pending[1:]
		if id >= 0 && id != front {
			return nil, e.proc.Fail(cmds[len(rs)], fmt.Errorf("reply id %d to command %d: %w", id, front, proc.ErrProtocol))
		}
		if front < want {
			continue // a late reply to a command that timed out
		}
		rs = append(rs, reply{ok, text})
	}
	return rs, nil
}

// response reads one reply: '=' or '?', an optional id (splitID, want the
// id sent), the text, up to an empty line. id is -1 when the reply has none.
// A timeout keeps the lines read so far for the next call.
func (e *Engine) response(ctx context.Context, want int) (ok bool, id int, text string, err error) {
	for {
		line, err := e.proc.Line(ctx)
		if err != nil {
			if errors.Is(err, proc.ErrTimeout) && len(e.partial) > 0 {
				err = fmt.Errorf("%w (a reply begun but not ended by an empty line: %q)", err, proc.Clip(strings.Join(e.partial, "\n")))
			}
			return false, -1, "", err
		}
		if line == "" {
			if len(e.partial) == 0 {
				continue // blank lines between replies
			}
			break
		}
		if len(e.partial) == 0 && line[0] != '=' && line[0] != '?' {
			return false, -1, "", fmt.Errorf("%q is not a reply: %w", proc.Clip(line), proc.ErrProtocol)
		}
		e.partial = append(e.partial, line)
		if n := len(e.partial); n > 1024 || len(line)*n > maxReply {
			return false, -1, "", fmt.Errorf("a reply too long: %w", proc.ErrProtocol)
		}
	}
	first := e.partial[0]
	ok = first[0] == '='
	if id, e.partial[0], err = splitID(first[1:], want); err != nil {
		return false, -1, "", err
	}
	text = strings.Join(e.partial, "\n")
	e.partial = e.partial[:0]
	return ok, id, text, nil
}

// splitID splits the first line of a reply, after its '=' or '?', into its id
// (-1 when it has none) and its text. The id is the number right after the
// '=' or '?' (GTP 2: "=7 f6"), or, after spaces, the id sent (want) followed by
// a space or the end of the line, as Edax 4.6 writes it ("= 7 f6"). Another
// number after a space is the reply's text: Edax answers "? 1 wrong color"
// whatever the id sent.
func splitID(s string, want int) (int, string, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil {
			return -1, "", fmt.Errorf("reply id %q: %w", s[:i], proc.ErrProtocol)
		}
		return n, strings.TrimSpace(s[i:]), nil
	}
	s = strings.TrimSpace(s)
	if w := strconv.Itoa(want); want >= 0 && (s == w || strings.HasPrefix(s, w+" ") || strings.HasPrefix(s, w+"\t")) {
		return want, strings.TrimSpace(s[len(w):]), nil
	}
	return -1, s, nil
}
