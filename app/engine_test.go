package app_test

import (
	"context"
	"errors"
	"github.com/otd-project/otd/app"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/tournament"
)

// TestCheckEngine: the engine factory starts what it is given under the
// tournament's rules and asks it for a move: built-in players play every
// rule set; GTP is told only the board's size, NBoard plays standard 8x8
// (RULES.md section 6); a program that is not there does not start;
// gtp-rhino plays 8x8 and answers "? unacceptable size" to boardsize 10.
func TestCheckEngine(t *testing.T) {
	anti, err := engine.RulesFor("anti", 8)
	if err != nil {
		t.Fatal(err)
	}
	ten := engine.Rules{Size: 10}
	rhino := "gtp:" + testenv.GTPRhino(t) + " -l 1"
	for _, tc := range []struct {
		name, spec string
		rules      engine.Rules
		invalid    bool   // refused as ErrInvalid before starting anything
		refused    string // in the error; "" plays
	}{
		{"builtin", "builtin:greedy", engine.Othello(), false, ""},
		{"builtin on 10x10", "builtin:alphabeta:2", ten, false, ""},
		{"builtin anti", "builtin:random:3", anti, false, ""},
		{"no such builtin", "builtin:deep-blue", engine.Othello(), true, "deep-blue"},
		{"no protocol", "telnet:host", engine.Othello(), true, `unknown protocol "telnet"`},
		{"gtp anti", "gtp:/usr/games/gtp-rhino", anti, true, "a GTP engine plays Othello only"},
		{"nboard 10x10", "nboard:/opt/edax/nboard", ten, true, "standard 8x8 Othello"},
		{"missing program", "gtp:/nonexistent/otd-engine -l 2", engine.Othello(), false, "/nonexistent/otd-engine"},
		{"gtp-rhino", rhino, engine.Othello(), false, ""},
		{"gtp-rhino 10x10", rhino, ten, false, "boardsize 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := app.CheckEngine(context.Background(), tc.spec, tc.rules)
			if tc.refused == "" {
				if err != nil {
					t.Fatalf("CheckEngine(%q, %v) = %v; want it to play", tc.spec, tc.rules, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.refused) || errors.Is(err, tournament.ErrInvalid) != tc.invalid {
				t.Fatalf("CheckEngine(%q, %v) = %v; want a refusal saying %q (invalid input: %v)", tc.spec, tc.rules, err, tc.refused, tc.invalid)
			}
		})
	}
}

// TestRegisterBuiltin: a built-in engine that engine/player does not have
// is refused when the player is registered or edited, with the same words
// as before the domain left the question to app.
func TestRegisterBuiltin(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm, err := d.Create(ctx, tournament.DefaultSettings("Bots", 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"builtin:alphabeta:99", "builtin:deep-blue", "builtin:", "BUILTIN: nosuch"} {
		_, err := d.Register(ctx, tm.ID, tournament.PlayerInput{Name: "Bot", Engine: spec})
		want := `engine "` + spec + `": "`
		if !errors.Is(err, tournament.ErrInvalid) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("register %q: %v; want ErrInvalid, %s...", spec, err, want)
		}
	}
	if _, err := d.Register(ctx, tm.ID, tournament.PlayerInput{Name: "Bot", Engine: "builtin:alphabeta:3"}); err != nil {
		t.Fatal(err)
	}
	bad := "builtin:alphabeta:99"
	if _, err := d.EditPlayer(ctx, tm.ID, 1, tournament.PlayerEdit{Engine: &bad}, tournament.PlayerEntry{}); !errors.Is(err, tournament.ErrInvalid) {
		t.Errorf("edit to %q: %v; want ErrInvalid", bad, err)
	}
}
