package app

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"

	"github.com/otd-project/otd/tournament"
)

// The director's actions, one method each: every one takes the tournament
// it acts on (its id), runs the domain's operation in one transaction (do)
// and returns what it did.

// Outcome is what an action did: the tournament after it, and its changes
// (one but for the actions that register or edit several things at once).
type Outcome struct {
	Tournament *tournament.Tournament
	Changes    []tournament.Change
}

// act runs ops on tournament id as one action (do).
func (d *Director) act(ctx context.Context, id int64, ops ...tournament.Op) (Outcome, error) {
	t, changes, err := d.do(ctx, id, ops...)
	return Outcome{t, changes}, err
}

// Register registers a player ('player add').
func (d *Director) Register(ctx context.Context, id int64, in tournament.PlayerInput) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return addPlayer(t, in) })
}

// addPlayer registers a player whose engine, if a built-in one, exists.
func addPlayer(t *tournament.Tournament, in tournament.PlayerInput) (tournament.Change, error) {
	if err := checkBuiltin(in.Engine); err != nil {
		return tournament.Change{}, err
	}
	return t.AddPlayer(in)
}

// Entrant is a player to register, and their entry in categories (its
// zero value: none).
type Entrant struct {
	tournament.PlayerInput
	Entry tournament.PlayerEntry
}

// RegisterAll registers players in order, all or none (a rating list's, the
// demo's), each entered in their categories after their registration.
func (d *Director) RegisterAll(ctx context.Context, id int64, es []Entrant) (Outcome, error) {
	var ops []tournament.Op
	for _, e := range es {
		n := 0 // the number the player is registered with
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
			c, err := addPlayer(t, e.PlayerInput)
			if err == nil {
				n = c.After.Players[0].Number
			}
			return c, err
		})
		if e.Entry != (tournament.PlayerEntry{}) {
			ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.EnterPlayer(n, e.Entry) })
		}
	}
	return d.act(ctx, id, ops...)
}

// EditPlayer changes player n's details (e) and entry (categories, birth
// year) in one action ('player edit'); an empty one is left out.
func (d *Director) EditPlayer(ctx context.Context, id int64, n int, e tournament.PlayerEdit, entry tournament.PlayerEntry) (Outcome, error) {
	var ops []tournament.Op
	if e != (tournament.PlayerEdit{}) {
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
			if e.Engine != nil {
				if err := checkBuiltin(*e.Engine); err != nil {
					return tournament.Change{}, err
				}
			}
			return t.EditPlayer(n, e)
		})
	}
	if entry != (tournament.PlayerEntry{}) {
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.EnterPlayer(n, entry) })
	}
	return d.act(ctx, id, ops...)
}

// EditRatings sets the ratings of players, by number, in one action.
func (d *Director) EditRatings(ctx context.Context, id int64, ratings map[int]int) (Outcome, error) {
	var ops []tournament.Op
	for _, n := range slices.Sorted(maps.Keys(ratings)) {
		r := ratings[n]
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
			return t.EditPlayer(n, tournament.PlayerEdit{Rating: &r})
		})
	}
	return d.act(ctx, id, ops...)
}

// Withdraw withdraws player n from the rounds not paired yet.
func (d *Director) Withdraw(ctx context.Context, id int64, n int) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.Withdraw(n) })
}

// Absent records that player n misses round r.
func (d *Director) Absent(ctx context.Context, id int64, n, r int) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.MarkAbsent(n, r) })
}

// Remove removes player n, registered by mistake.
func (d *Director) Remove(ctx context.Context, id int64, n int) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.RemovePlayer(n) })
}

// Pair pairs the next round.
func (d *Director) Pair(ctx context.Context, id int64, o tournament.PairOptions) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.Pair(o) })
}

// Unpair removes the last round's pairing.
func (d *Director) Unpair(ctx context.Context, id int64) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.Unpair() })
}

// Forbid keeps players a and b from being paired together.
func (d *Director) Forbid(ctx context.Context, id int64, a, b int, reason string) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.Forbid(a, b, reason) })
}

// Allow lets players a and b be paired together again.
func (d *Director) Allow(ctx context.Context, id int64, a, b int) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.Allow(a, b) })
}

// Record records the result of a game, a round's or a final's (ref). If
// its players reported it at the venue, the result's actor keeps their
// reports (the director entered the result over them) and they are
// dropped, as a result approved from them is (Approve).
func (d *Director) Record(ctx context.Context, id int64, ref tournament.GameRef, in tournament.ResultInput) (o Outcome, err error) {
	err = d.db.Update(ctx, func(tx tournament.Tx) error {
		dr, reported, err := d.overReports(tx, id, ref)
		if err != nil {
			return err
		}
		if o.Tournament, o.Changes, err = dr.apply(tx, id, []tournament.Op{func(t *tournament.Tournament) (tournament.Change, error) {
			return t.RecordResult(ref, in, false)
		}}); err != nil || !reported {
			return err
		}
		return tx.DeleteReports(id, ref)
	})
	if err != nil {
		return Outcome{}, err
	}
	return o, nil
}

// ErrRepairFinal: a final game's result is corrected without --repair, which
// pairs a round again.
var ErrRepairFinal = errors.New("--repair is for a round's result, not a final game's")

// Correct corrects the result of a game (ref); with repair, the rounds
// paired after it are paired again (CorrectAndRepair), a round's game only.
func (d *Director) Correct(ctx context.Context, id int64, ref tournament.GameRef, in tournament.ResultInput, repair bool) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
		switch {
		case repair && ref.Match != "":
			return tournament.Change{}, ErrRepairFinal
		case repair:
			return t.CorrectAndRepair(ref.Round, ref.Table, in)
		}
		return t.RecordResult(ref, in, true)
	})
}

// Errors of FinalStart and FinalNext.
var (
	errFinalStarted    = errors.New("the final phase has started: 'otd final next' pairs the next games ('otd final show' shows them)")
	errFinalNotStarted = errors.New("the final phase has not started: 'otd final start' pairs its first games")
)

// FinalStart pairs the first games of the final phases.
func (d *Director) FinalStart(ctx context.Context, id int64, o tournament.FinalOptions) (Outcome, error) {
	return d.finalNext(ctx, id, o, true)
}

// FinalNext pairs the next games of the final phases, once started.
func (d *Director) FinalNext(ctx context.Context, id int64, o tournament.FinalOptions) (Outcome, error) {
	return d.finalNext(ctx, id, o, false)
}

func (d *Director) finalNext(ctx context.Context, id int64, o tournament.FinalOptions, start bool) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
		started := t.FinalStarted()
		switch {
		case start && started:
			return tournament.Change{}, errFinalStarted
		case !start && !started:
			return tournament.Change{}, errFinalNotStarted
		}
		return t.FinalNext(o)
	})
}

// AddCategory adds a category of players.
func (d *Director) AddCategory(ctx context.Context, id int64, c tournament.Category) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddCategory(c) })
}

// RemoveCategory removes the category name.
func (d *Director) RemoveCategory(ctx context.Context, id int64, name string) (Outcome, error) {
	return d.act(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.RemoveCategory(name) })
}

// EditSettings changes the tournament's settings: edit changes a copy of
// them as they are when the action runs.
func (d *Director) EditSettings(ctx context.Context, id int64, edit func(*tournament.Settings) error) (o Outcome, err error) {
	err = d.db.Update(ctx, func(tx tournament.Tx) error {
		t, err := load(tx, id)
		if err != nil {
			return err
		}
		s := t.Settings
		if err := edit(&s); err != nil {
			return err
		}
		if reflect.DeepEqual(s, t.Settings) {
			o.Tournament = t // nothing changes: no entry
			return nil
		}
		o.Tournament, o.Changes, err = d.apply(tx, id, []tournament.Op{func(t *tournament.Tournament) (tournament.Change, error) {
			return t.ChangeSettings(s)
		}})
		return err
	})
	if err != nil {
		return Outcome{}, err
	}
	return o, nil
}

// Rederiving returns a Director of the same database whose actions, where
// final games paired rest on what they change, drop those games (and the
// games that rest on them) instead of being refused: the final phase is
// then derived anew, and 'final next' pairs it again.
func (d *Director) Rederiving() *Director {
	c := *d
	c.rederive = true
	return &c
}

// keepFinalFacts checks an action's changes (of tournament before, now t)
// against the final games paired (facts stay facts, DESIGN.md): it refuses
// them when a game rests on what they change (FinalFactsError), or, when
// rederiving, drops those games with the last change, which undo puts
// back. It says in a note of the last change what became of the final
// games. before is nil when no final game was paired: nothing to check.
func (d *Director) keepFinalFacts(before, t *tournament.Tournament, changes []tournament.Change) error {
	if before == nil || len(changes) == 0 {
		return nil
	}
	last := &changes[len(changes)-1]
	if !d.rederive {
		gone, err := t.Unfounded(before)
		switch {
		case err != nil:
			return err
		case len(gone) > 0:
			return &tournament.FinalFactsError{Games: gone}
		}
		if a := last.Action; a != tournament.ActFinalNext && a != tournament.ActResult {
			last.Notes = append(last.Notes, "the final games paired rest on nothing this changes: they stand")
		}
		return nil
	}
	dropped, err := t.Rederive(before)
	if err != nil {
		return err
	}
	if len(dropped) == 0 {
		last.Notes = append(last.Notes, "nothing to re-derive: the final games paired rest on nothing this changes")
		return nil
	}
	last.Before.FinalGames = append(last.Before.FinalGames, dropped...)
	next := "'otd final next'"
	if !t.FinalStarted() {
		next = "'otd final start'"
	}
	last.Notes = append(last.Notes, "the final phase is derived anew: dropped "+tournament.GameList(dropped)+"; "+next+" pairs it again")
	return nil
}
