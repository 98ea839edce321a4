package app

import (
	"context"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/gtp"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/nboard"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"

	"github.com/otd-project/otd/tournament"
)

// engineStartTimeout bounds an engine's start (and its handshake).
const engineStartTimeout = 10 * time.Second

// engineCheckMove is the time per move of the move CheckEngine asks for.
const engineCheckMove = 5 * time.Second

// StartEngine starts the program of engine entrant p for a game under the
// rules r: a GTP or NBoard engine as a subprocess, or a built-in player. It
// is PlayOptions.Start unless a test gives another. Cancelling ctx (Ctrl-C)
// stops the engine at once; its start and handshake have engineStartTimeout.
func StartEngine(ctx context.Context, p tournament.Player, r engine.Rules) (player.Player, error) {
	if err := checkBuiltin(p.Engine); err != nil {
		return nil, err
	}
	e, err := tournament.ParseEngine(p.Engine)
	if err != nil {
		return nil, err
	}
	if err := e.Plays(r); err != nil {
		return nil, err
	}
	hurry := ctx.Done() // Ctrl-C: the engine is stopped at once
	ctx, cancel := context.WithTimeout(ctx, engineStartTimeout)
	defer cancel()
	// A nil *gtp.Engine is not a nil player.Player: return nil itself.
	switch e.Protocol {
	case tournament.GTP:
		eng, err := gtp.Start(ctx, gtp.Config{Config: proc.Config{Argv: e.Argv, Name: p.Name, Hurry: hurry}, Size: r.Size})
		if err != nil {
			return nil, err
		}
		return eng, nil
	case tournament.NBoard:
		eng, err := nboard.Start(ctx, nboard.Config{Config: proc.Config{Argv: e.Argv, Name: p.Name, Hurry: hurry}})
		if err != nil {
			return nil, err
		}
		return eng, nil
	}
	return player.New(e.Argv[0])
}

// checkBuiltin refuses a player's engine "builtin:NAME" whose NAME is no
// built-in player (player.New): the domain checks an engine's form
// (tournament.ParseEngine), engine/player knows its players. Any other
// engine passes.
func checkBuiltin(spec string) error {
	proto, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if !strings.EqualFold(proto, tournament.Builtin) {
		return nil
	}
	p, err := player.New(rest)
	if err != nil {
		return invalidf("engine %q: %w", spec, err)
	}
	return p.Close()
}

// CheckEngine starts engine spec once under the rules r, asks it for a move
// from the start position (match.Probe) and stops it: a program that is not
// there, does not speak its protocol, refuses the board's size or answers no
// legal move is refused at registration, before it has a game to lose.
func CheckEngine(ctx context.Context, spec string, r engine.Rules) error {
	p, err := StartEngine(ctx, tournament.Player{Name: "the engine", Engine: spec}, r)
	if err != nil {
		return err
	}
	err = match.Probe(ctx, r, p, engineCheckMove)
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	return err
}
