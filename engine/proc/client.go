package proc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// Client is the part of an engine client that its protocol does not decide
// (engine/gtp and engine/nboard embed it): the engine's name, process id
// and stderr, Move's lock and its refusal of a closed or broken engine, and
// Close. It is the player.Player face of an engine; the protocol speaks to
// the engine through the Conn that StartClient returns with it.
type Client struct {
	conn *Conn
	play func(context.Context, player.Game, player.Clock) (engine.Point, error)
	mu   sync.Mutex // held by Move
}

// Conn is a protocol's conversation with its engine: the process (Write,
// Line), the engine's name, and the failure that broke the conversation for
// good. Its errors begin with the protocol and the engine's name: "gtp:
// Edax 4.6: genmove black: ...".
type Conn struct {
	*Process
	proto  string
	name   string
	broken error
}

// StartClient starts the engine of cfg for a client of protocol proto (the
// first word of its errors: "gtp"), named cfg.Name or, until the protocol
// learns the engine's own name (Conn.SetName), Argv[0]. The client's Move
// asks play for each move, with the lock held, once the engine is known to
// be neither closed nor broken.
func StartClient(proto string, cfg Config, play func(context.Context, player.Game, player.Clock) (engine.Point, error)) (*Client, *Conn, error) {
	p, err := Start(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", proto, err)
	}
	c := &Conn{Process: p, proto: proto, name: cfg.Name}
	if c.name == "" {
		c.name = cfg.Argv[0]
	}
	return &Client{conn: c, play: play}, c, nil
}

// Name returns the configured name, or the engine's own.
func (c *Client) Name() string { return c.conn.name }

// Pid returns the process id of the engine (on Linux, of its init), which
// is also its process group id.
func (c *Client) Pid() int { return c.conn.Pid() }

// Stderr returns the end of what the engine wrote to its standard error (at
// most Config.StderrLimit bytes, the last ones).
func (c *Client) Stderr() string { return c.conn.Stderr() }

// Move asks the engine for its move in g under the clock, as its protocol
// does. The move is returned as the engine gave it, legal or not; a pass is
// engine.PassPoint. After Close it is ErrClosed; after a failure that broke
// the conversation, that failure again.
func (c *Client) Move(ctx context.Context, g player.Game, clk player.Clock) (engine.Point, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.conn.Stopped():
		return engine.PassPoint, c.conn.Errorf("%w", ErrClosed)
	default:
	}
	if c.conn.broken != nil {
		return engine.PassPoint, c.conn.broken
	}
	return c.play(ctx, g, clk)
}

// Close tells the engine to quit and waits for it; then sends SIGINT to its
// process group, then SIGKILL to every process the engine started, each
// after Config.Grace, until none is left running (Process.Stop). It is safe
// to call more than once.
func (c *Client) Close() error {
	if err := c.conn.Stop("quit"); err != nil {
		return c.conn.Errorf("%w", err)
	}
	return nil
}

// Name returns the engine's name, as its errors give it.
func (c *Conn) Name() string { return c.name }

// SetName names the engine as it names itself, when Config.Name does not.
// Only the protocol's start may call it.
func (c *Conn) SetName(name string) { c.name = name }

// Errorf returns an error of the engine: the protocol and the engine's name,
// then the message.
func (c *Conn) Errorf(format string, a ...any) error {
	return fmt.Errorf("%s: %s: "+format, append([]any{c.proto, c.name}, a...)...)
}

// Fail breaks the conversation for good with err, the failure of command
// cmd: the client's Move returns it from then on. A reply that cannot be
// read (ErrProtocol) is also player.ErrBadMove.
func (c *Conn) Fail(cmd string, err error) error {
	if errors.Is(err, ErrProtocol) {
		err = fmt.Errorf("%w (%w)", err, player.ErrBadMove)
	}
	c.broken = c.Errorf("%s: %w", cmd, err)
	return c.broken
}

// ParseMove reads move, the move an engine gave in reply: a square of a
// board of side size in any case ("d3", "D3"), or a pass written as one of
// passes in any case. Anything else is an error that quotes reply, both
// ErrProtocol and player.ErrBadMove.
func ParseMove(reply, move string, size int, passes ...string) (engine.Point, error) {
	for _, pass := range passes {
		if strings.EqualFold(move, pass) {
			return engine.PassPoint, nil
		}
	}
	if p, err := engine.ParsePoint(move); err == nil && int(p.Col) < size && int(p.Row) < size {
		return p, nil
	}
	return engine.PassPoint, fmt.Errorf("reply %q is not a move: %w (%w)", Clip(reply), ErrProtocol, player.ErrBadMove)
}
