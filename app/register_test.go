package app_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/roster"
	"github.com/otd-project/otd/tournament"
)

// TestListedInputUnlisted: a player rated but not on the published list (a
// rating from games long ago, as 'otd rating --all' shows one) is
// registered without it, saying so; a listed one with it.
func TestListedInputUnlisted(t *testing.T) {
	in, note := app.ListedInput(app.Listed{ID: 960, Name: "OLD, Timer", Country: "FRA", Rated: true, Rating: 3173.2, Unlisted: true})
	if in.Rating != 0 || !strings.Contains(note, "not on the published list") {
		t.Errorf("unlisted: %+v, %q; want no rating and why", in, note)
	}
	in, note = app.ListedInput(app.Listed{ID: 79, Name: "LEADER, Imre", Country: "GBR", Rated: true, Rating: 2157.43})
	if in.Rating != 2157 || note != "" {
		t.Errorf("listed: %+v, %q; want rating 2157", in, note)
	}
}

// TestRegisterRosterErrors: a players file is registered all or none; a
// name registered already is refused with roster's error for its line, a
// player the tournament refuses with a *LineError naming the line.
func TestRegisterRosterErrors(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm, err := d.Create(ctx, tournament.DefaultSettings("Open", 5))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Register(ctx, tm.ID, tournament.PlayerInput{Name: "Leader, Imre"}); err != nil {
		t.Fatal(err)
	}
	_, err = d.RegisterRoster(ctx, tm.ID, []roster.Player{{Name: "Archer, Ann", Line: 2}, {Name: "LEADER,  Imre", Line: 3}}, false)
	var pe *roster.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || !errors.Is(err, roster.ErrDuplicate) {
		t.Errorf("a name registered already: %v; want roster's error of line 3", err)
	}
	_, err = d.RegisterRoster(ctx, tm.ID, []roster.Player{{Name: "Archer, Ann", Line: 2}, {Name: "Bad", Rating: -5, Line: 4}}, false)
	var le *app.LineError
	if !errors.As(err, &le) || le.Line != 4 || !errors.Is(err, tournament.ErrInvalid) || !strings.HasPrefix(err.Error(), "line 4: ") {
		t.Errorf("a rating the tournament refuses: %v; want a *LineError of line 4", err)
	}
	if got, err := d.Tournament(ctx, tm.ID); err != nil || len(got.Players) != 1 {
		t.Errorf("after the refusals: %v, %v; want Leader alone (all or none)", got, err)
	}
	o, err := d.RegisterRoster(ctx, tm.ID, []roster.Player{{Name: "LEADER, Imre", Line: 1}}, true)
	if err != nil || len(o.Tournament.Players) != 2 {
		t.Errorf("--allow-duplicate: %v; want two of one name", err)
	}
}

// TestRegisterListed: the players of a rating list are registered in the
// order given, all or none; an id not in the list is refused, naming it.
func TestRegisterListed(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	list := map[int]app.Listed{
		79:   {ID: 79, Name: "LEADER, Imre", Country: "GBR", Rated: true, Rating: 2157.43},
		2357: {ID: 2357, Name: "NEW, Comer", Country: "FRA"},
	}
	if err := app.CheckListed(list, []int{79, 5, 2357}); !errors.As(err, new(*app.NotListedError)) {
		t.Errorf("CheckListed of an id not in the list: %v", err)
	}
	if err := app.CheckListed(list, []int{79, 2357, 79}); !errors.As(err, new(*app.RepeatedIDError)) {
		t.Errorf("CheckListed of an id twice: %v", err)
	}
	r, err := d.CreateListed(ctx, tournament.DefaultSettings("Open", 5), list, []int{2357, 79})
	if err != nil {
		t.Fatal(err)
	}
	ps := r.Tournament.Players
	if len(ps) != 2 || ps[0].WOFID != 2357 || ps[0].Rating != 0 || ps[1].Name != "LEADER, Imre" || ps[1].Rating != 2157 || ps[1].Country != "GBR" {
		t.Errorf("registered %+v", ps)
	}
	if len(r.Notes) != 1 || !strings.HasPrefix(r.Notes[0], "WOF id 2357 (NEW, Comer): not rated") {
		t.Errorf("notes %q; want that 2357 is not rated", r.Notes)
	}
	var nl *app.NotListedError
	if _, err := d.RegisterListed(ctx, r.Tournament.ID, list, []int{79, 4120}, true); !errors.As(err, &nl) || nl.ID != 4120 {
		t.Errorf("an id not in the list: %v; want *NotListedError 4120", err)
	}
	if s, err := d.Summary(ctx, r.Tournament.ID); err != nil || s.Players != 2 {
		t.Errorf("Summary: %+v, %v", s, err)
	}
	if _, err := d.Summary(ctx, 99); !errors.Is(err, tournament.ErrNoTournament) {
		t.Errorf("Summary of no tournament: %v", err)
	}
}
