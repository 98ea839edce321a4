package fakeengine

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/otd-project/otd/engine"
)

// startBO is the BO property of a game from the standard start position,
// black to move, as NBoard writes it.
const startBO = "8 ---------------------------O*------*O--------------------------- *"

// nboard returns the handler of an NBoard fake: it keeps its board from set
// game and move, answers ping with pong and go with "=== MOVE", and reports
// the exit status when it is done.
func (f *fake) nboard() func(line string) (int, bool) {
	p := engine.Start()
	gos := 0
	say := func(format string, a ...any) {
		f.flood()
		nl := "\n"
		if f.style == "tight" {
			nl = "\r\n"
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		fmt.Fprintf(f.out, format+nl, a...)
		f.out.Flush()
	}
	bad := func(format string, a ...any) (int, bool) {
		fmt.Fprintf(os.Stderr, "fake: "+format+"\n", a...)
		return 4, true
	}
	return func(line string) (int, bool) {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "quit":
			return 0, f.mode != "ignorequit" && f.mode != "noeof"
		case "nboard":
			if arg != "1" && arg != "2" || f.version != "" && arg != f.version {
				return bad("nboard %q: not a version of the protocol this engine speaks", arg)
			}
			if f.style != "tight" {
				say("set myname %s", f.name())
			}
		case "set":
			if what, game, _ := strings.Cut(arg, " "); what == "game" {
				q, err := parseGGF(game)
				if err != nil {
					return bad("set game: %v", err)
				}
				p = q
			}
		case "move":
			m, err := parseMove(arg)
			if err == nil {
				p, err = p.Play(m)
			}
			if err != nil {
				return bad("move %s: %v", arg, err)
			}
		case "ping":
			say("pong %s", arg)
		case "go":
			gos++
			answer := func(m string) {
				if f.style == "tight" {
					say("=== %s", strings.ToLower(m))
					return
				}
				say("status thinking")
				say("nodestats 1234 0.01")
				say("search %s 0.00 0 1 fake", strings.ToUpper(m))
				say("=== %s/0.00/0.01", strings.ToUpper(m))
				say("status waiting")
			}
			if gos == max(f.n, 1) {
				switch f.mode {
				case "garbage":
					say("=== thinking... best line d3 c5")
					return 0, false
				case "longline":
					say("=== %s", strings.Repeat("x", 100<<10))
					return 0, false
				}
			}
			if f.strike(gos, engine.FromBitboard(p), answer) {
				break
			}
			if ms := p.Moves(); len(ms) > 0 {
				answer(ms[0].String())
			} else {
				answer("PA")
			}
		}
		return 0, false // other commands are ignored, as the protocol says
	}
}

// parseGGF reads an NBoard game, (;GM[Othello]...BO[...]B[F5]W[D6]...;),
// and returns the position at its end.
func parseGGF(s string) (engine.Bitboard, error) {
	p := engine.Start()
	body, ok1 := strings.CutPrefix(strings.TrimSpace(s), "(;")
	body, ok2 := strings.CutSuffix(body, ";)")
	if !ok1 || !ok2 {
		return p, errors.New("not a game (;...;)")
	}
	props := map[string]bool{}
	for n := 1; strings.TrimSpace(body) != ""; {
		name, rest, ok1 := strings.Cut(body, "[")
		value, rest, ok2 := strings.Cut(rest, "]")
		if !ok1 || !ok2 {
			return p, fmt.Errorf("a property is not NAME[VALUE]: %q", body)
		}
		name, body = strings.TrimSpace(name), rest
		props[name] = true
		switch name {
		case "GM", "TY", "BO":
			if want := map[string]string{"GM": "Othello", "TY": "8", "BO": startBO}[name]; value != want {
				return p, fmt.Errorf("%s[%s]; want %s[%s]", name, value, name, want)
			}
		case "B", "W":
			if colour := map[string]engine.Color{"B": engine.Black, "W": engine.White}[name]; p.ToMove != colour {
				return p, fmt.Errorf("move %d: %s[%s] with %s to move", n, name, value, p.ToMove)
			}
			m, err := parseMove(value)
			if err == nil {
				p, err = p.Play(m)
			}
			if err != nil {
				return p, fmt.Errorf("move %d: %s[%s]: %w", n, name, value, err)
			}
			n++
		}
	}
	if !props["GM"] || !props["BO"] {
		return p, errors.New("no GM or BO")
	}
	return p, nil
}

// parseMove reads an NBoard move, F5 or PA, with optional /EVAL/TIME.
func parseMove(s string) (engine.Square, error) {
	s, _, _ = strings.Cut(s, "/")
	if s == "PA" {
		return engine.Pass, nil
	}
	sq, err := engine.ParseSquare(s)
	return sq, err
}
