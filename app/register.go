package app

import (
	"context"
	"fmt"
	"github.com/otd-project/otd/archive"
	"math"
	"slices"
	"strings"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/roster"
	"github.com/otd-project/otd/tournament"
)

// Registering players from a file or a rating list: which players, with
// what, and what the director should know of it.

// LineError is a line of a file that an action refuses: the line, and why.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// RegisterRoster registers the players of a players file (package roster)
// in its order, all or none ('player import'), each entered in their team,
// year of birth and categories (the women's if Women) after their
// registration, as RegisterAll. Unless allowDup, a player
// whose name is registered already (tournament.FoldName) is refused with
// roster's error for that line (a *roster.ParseError, roster.ErrDuplicate);
// a player the tournament refuses, with a *LineError.
func (d *Director) RegisterRoster(ctx context.Context, id int64, players []roster.Player, allowDup bool) (Outcome, error) {
	var ops []tournament.Op
	// The names registered before the file, folded, by the first op: the
	// check of each name against every player would fold n²/2 names
	// (BenchmarkPlayerImport); the file's own are checked by roster.
	var registered map[string]tournament.Player
	for i, in := range players {
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
			if i == 0 && !allowDup {
				registered = make(map[string]tournament.Player, len(t.Players))
				for _, p := range t.Players {
					registered[tournament.FoldName(p.Name)] = p
				}
			}
			if p, ok := registered[tournament.FoldName(in.Name)]; ok {
				return tournament.Change{}, in.AlreadyRegistered(p.Number, p.Name)
			}
			c, err := t.AddPlayer(tournament.PlayerInput{Name: in.Name, WOFID: in.WOFID, Rating: in.Rating, Country: in.Country, AllowDuplicate: true})
			if err != nil {
				return c, &LineError{Line: in.Line, Err: err}
			}
			return c, nil
		})
		if in.Team != "" || in.Born != "" || in.Women || len(in.Categories) > 0 {
			ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
				e, err := rosterEntry(in)
				if err == nil {
					var c tournament.Change
					if c, err = t.EnterPlayer(len(t.Players), e); err == nil { // the player just registered
						return c, nil
					}
				}
				return tournament.Change{}, &LineError{Line: in.Line, Err: err}
			})
		}
	}
	return d.act(ctx, id, ops...)
}

// rosterEntry is the entry in a championship of a player of a players file:
// team, year of birth, categories (the women's if women).
func rosterEntry(p roster.Player) (tournament.PlayerEntry, error) {
	var e tournament.PlayerEntry
	if p.Team != "" {
		e.Team = &p.Team
	}
	if p.Born != "" {
		b, err := tournament.ParseBorn(p.Born)
		if err != nil {
			return e, err
		}
		e.Born = &b
	}
	if p.Women || len(p.Categories) > 0 {
		cats := slices.Clone(p.Categories)
		if p.Women {
			cats = append(cats, "women")
		}
		e.Categories = &cats
	}
	return e, nil
}

// Listed is a player of a rating list, as registering from it takes them.
type Listed = archive.Listed

// NotListedError is a WOF id that a rating list does not have.
type NotListedError struct{ ID int }

func (e *NotListedError) Error() string { return fmt.Sprintf("WOF id %d is not in the list", e.ID) }

// RepeatedIDError is a WOF id given twice.
type RepeatedIDError struct{ ID int }

func (e *RepeatedIDError) Error() string { return fmt.Sprintf("WOF id %d is given twice", e.ID) }

// CheckListed checks that the players of ids can be registered from list:
// each is in it (else a *NotListedError), once (else a *RepeatedIDError).
func CheckListed(list map[int]Listed, ids []int) error {
	for i, id := range ids {
		if _, ok := list[id]; !ok {
			return &NotListedError{ID: id}
		}
		if slices.Contains(ids[:i], id) {
			return &RepeatedIDError{ID: id}
		}
	}
	return nil
}

// Registered is what RegisterListed did: the players registered (one
// change each) and what the director should know of them.
type Registered struct {
	Outcome
	Notes []string
}

// RegisterListed registers the players of these WOF ids from a rating
// list, all or none, in the order given, with the list's name, country and
// rating (ListedInput); a WOF id that is not in the list is refused (a
// *NotListedError) before anything is registered.
func (d *Director) RegisterListed(ctx context.Context, id int64, list map[int]Listed, ids []int, allowDup bool) (Registered, error) {
	var es []Entrant
	var notes []string
	for _, wofID := range ids {
		p, ok := list[wofID]
		if !ok {
			return Registered{}, &NotListedError{ID: wofID}
		}
		in, note := ListedInput(p)
		in.AllowDuplicate = allowDup
		if note != "" {
			notes = append(notes, note)
		}
		es = append(es, Entrant{PlayerInput: in})
	}
	o, err := d.RegisterAll(ctx, id, es)
	if err != nil {
		return Registered{}, err
	}
	return Registered{o, notes}, nil
}

// ListedInput is the registration of a player of a rating list: the list's
// name, WOF id, country (none if otd does not know the code) and rating
// (none if not rated, or not on the published list), and what the director
// should know of it ("" if nothing).
func ListedInput(p Listed) (tournament.PlayerInput, string) {
	in := tournament.PlayerInput{Name: p.Name, WOFID: p.ID}
	var notes []string
	switch {
	case p.Rated && p.Unlisted:
		notes = append(notes, fmt.Sprintf("rated %.0f but not on the published list (no rated tournament in its last 38 months): registered without a rating", p.Rating))
	case p.Rated:
		in.Rating = ratingOf(p)
	default:
		why := ""
		if p.Why != "" {
			why = " (" + p.Why + ")"
		}
		notes = append(notes, "not rated"+why+": registered without a rating")
	}
	if c, err := tournament.NormalizeCountry(p.Country); err == nil {
		in.Country = c
	} else {
		notes = append(notes, fmt.Sprintf("country %q is no code otd knows: registered without one ('otd player edit N --country CC')", p.Country))
	}
	if err := txt.CheckName(in.Name); err != nil && in.Name != "" {
		clean := txt.CleanName(in.Name)
		notes = append(notes, fmt.Sprintf("the list's name %s is not one otd keeps (%v): registered as %q", elo.QuoteCut(in.Name), err, clean))
		in.Name = clean
	}
	if in.Name == "" {
		in.Name = fmt.Sprintf("WOF %d", p.ID)
		notes = append(notes, "no name in the list: registered as "+in.Name)
	}
	if len(notes) == 0 {
		return in, ""
	}
	return in, fmt.Sprintf("WOF id %d (%s): %s", p.ID, in.Name, strings.Join(notes, "; "))
}

// ratingOf is a rated player's rating as a player's: rounded, within what
// a player's rating may be.
func ratingOf(p Listed) int { return min(max(int(math.Round(p.Rating)), 1), 4000) }

// Rated is what RateFromList did: how many ratings changed (none: no
// action ran) and, for each player who has no rating from the list, why.
type Rated struct {
	Outcome
	Changed int
	Notes   []string
}

// RateFromList sets the rating of every registered player whose WOF id is
// rated in list, in one action, and says who has no rating from it.
func (d *Director) RateFromList(ctx context.Context, id int64, list map[int]Listed) (Rated, error) {
	t, err := d.Tournament(ctx, id)
	if err != nil {
		return Rated{}, err
	}
	ratings := map[int]int{}
	var notes []string
	for _, p := range t.Players {
		l, ok := list[p.WOFID]
		switch {
		case p.WOFID == 0:
			notes = append(notes, fmt.Sprintf("player %d (%s): no WOF id, rating left as it is", p.Number, p.Name))
		case !ok || !l.Rated:
			notes = append(notes, fmt.Sprintf("player %d (%s): WOF id %d not rated in the list, rating left as it is", p.Number, p.Name, p.WOFID))
		case l.Unlisted:
			notes = append(notes, fmt.Sprintf("player %d (%s): WOF id %d rated %.0f but not on the published list (no rated tournament in its last 38 months), rating left as it is", p.Number, p.Name, p.WOFID, l.Rating))
		case ratingOf(l) != p.Rating:
			ratings[p.Number] = ratingOf(l)
		}
	}
	r := Rated{Outcome: Outcome{Tournament: t}, Changed: len(ratings), Notes: notes}
	if len(ratings) > 0 {
		if r.Outcome, err = d.EditRatings(ctx, id, ratings); err != nil {
			return Rated{}, err
		}
	}
	return r, nil
}

// Summary returns the summary of tournament id as the list of the
// database's tournaments gives it; a *tournament.NotFoundError if there is
// none.
func (d *Director) Summary(ctx context.Context, id int64) (tournament.Summary, error) {
	list, err := d.Tournaments(ctx)
	if err != nil {
		return tournament.Summary{}, err
	}
	i := slices.IndexFunc(list, func(s tournament.Summary) bool { return s.ID == id })
	if i < 0 {
		return tournament.Summary{}, &tournament.NotFoundError{ID: id}
	}
	return list[i], nil
}

// CreateListed creates a tournament with settings s, makes it the current
// one (Create), and registers the players of these WOF ids, if any, from a
// rating list (RegisterListed; check them with CheckListed first, so that a
// wrong id makes no tournament). If the registration fails, the tournament
// stays, without players, and the error says so.
func (d *Director) CreateListed(ctx context.Context, s tournament.Settings, list map[int]Listed, ids []int) (Registered, error) {
	t, err := d.Create(ctx, s)
	if err != nil || len(ids) == 0 {
		return Registered{Outcome: Outcome{Tournament: t}}, err
	}
	r, err := d.RegisterListed(ctx, t.ID, list, ids, true)
	if err != nil {
		return Registered{}, fmt.Errorf("tournament %d (%s) was made, without players: %w", t.ID, t.Name, err)
	}
	return r, nil
}
