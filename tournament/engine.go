package tournament

import (
	"fmt"
	"slices"
	"strings"

	"github.com/otd-project/otd/engine"
)

// Engine says how otd starts an engine entrant: a program speaking GTP or
// NBoard, started from its argv (never through a shell), or a built-in
// player.
type Engine struct {
	Protocol string   // "gtp", "nboard" or "builtin"
	Argv     []string // the program and its arguments; for "builtin", the player's spec (engine/player.New)
}

// Engine protocols.
const (
	GTP     = "gtp"
	NBoard  = "nboard"
	Builtin = "builtin"
)

// ParseEngine reads an engine as `otd player add --engine` takes it:
// "gtp:/usr/games/gtp-rhino -l 2", "nboard:/opt/edax/nboard", or
// "builtin:alphabeta:4" (also random, random:SEED, greedy). The argv is split
// at spaces; single or double quotes keep spaces in an argument, and a
// backslash outside single quotes takes the next character as it is.
func ParseEngine(s string) (Engine, error) {
	proto, rest, ok := strings.Cut(strings.TrimSpace(s), ":")
	e := Engine{Protocol: strings.ToLower(proto)}
	bad := func(why string) (Engine, error) {
		return Engine{}, invalidf(`engine %q: %s: write gtp:PROGRAM ARGS..., nboard:PROGRAM ARGS... or builtin:NAME (e.g. "gtp:/usr/games/gtp-rhino -l 2", "builtin:alphabeta:4")`, s, why)
	}
	if !ok {
		return bad("no protocol")
	}
	switch e.Protocol {
	case GTP, NBoard:
		argv, err := SplitArgs(rest)
		if err != nil {
			return bad(err.Error())
		}
		if len(argv) == 0 {
			return bad("no program")
		}
		e.Argv = argv
	case Builtin:
		// Which built-in players there are is engine/player's to say:
		// app asks it (before the domain) when a player is registered.
		name := strings.ToLower(strings.TrimSpace(rest))
		if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789:") != "" {
			return bad("a built-in player's name is letters, digits and colons")
		}
		e.Argv = []string{name}
	default:
		return bad(fmt.Sprintf("unknown protocol %q", proto))
	}
	return e, nil
}

// String writes the engine as ParseEngine reads it, arguments with spaces,
// quotes or backslashes in single quotes.
func (e Engine) String() string {
	args := make([]string, len(e.Argv))
	for i, a := range e.Argv {
		args[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\") {
			args[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return e.Protocol + ":" + strings.Join(args, " ")
}

// SplitArgs splits a command line into arguments as a POSIX shell would for
// words without expansions: spaces separate, quotes group, a backslash
// escapes (not inside single quotes).
func SplitArgs(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inArg = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inArg = r, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	switch {
	case quote != 0:
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	case escaped:
		return nil, fmt.Errorf("a backslash ends it")
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}

// Plays reports whether the engine can play games under r. A built-in player
// plays every rule set. GTP sets only the board's size (boardsize N), so a GTP
// engine plays Othello of any size but not the Reversi opening, Anti-Othello,
// 8Stars or a disc supply; NBoard plays standard 8x8 Othello only.
func (e Engine) Plays(r engine.Rules) error {
	plain := engine.Othello()
	plain.Size = r.Size
	switch {
	case e.Protocol == GTP && r != plain:
		return invalidf("engine %q: GTP tells an engine the board's size (boardsize N), not the rules of %s: a GTP engine plays Othello only, of any size", e, r)
	case e.Protocol == NBoard && !r.Standard():
		return invalidf("engine %q: the NBoard protocol plays standard 8x8 Othello, not %s", e, r)
	}
	return nil
}

// HasEngines reports whether an engine entrant is registered.
func (t *Tournament) HasEngines() bool {
	return slices.ContainsFunc(t.Players, func(p Player) bool { return p.Engine != "" })
}
