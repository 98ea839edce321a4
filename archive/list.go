package archive

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/otd-project/otd/rating"
)

// Games is what a rating list is computed from: a Store, or a Folder read
// into memory.
type Games interface {
	RatingGames(ctx context.Context) ([]rating.Game, error)
	People(ctx context.Context, ids ...int) ([]Person, error)
	// Starts returns the first day of every tournament, in no order.
	Starts(ctx context.Context) ([]time.Time, error)
}

// List is the rating list at a date (package rating) with each player's
// name and country: those of their latest tournament up to the date.
type List struct {
	*rating.List
	Entries []Rated // in the order of the list's Players: the rated by rating, then the unrated
	// Later is how many tournaments of the archive start after the list's
	// day: their games are left out (a list is fitted at its day).
	Later int
}

// Rated is a player's entry in a list, with their name.
type Rated struct {
	rating.Player
	Name, Country string
	// Rank is the player's place among the listed (Listed: the players the
	// WOF publishes), from 1; 0 for the others.
	Rank int
}

// Rate computes the rating list at the date at from the games of src (the
// tournaments up to that day), by RULES.md section 8 (rating.Compute).
//
// The players' names and the tournaments' days are read while the games are
// read and fitted (on another core: a list of the whole archive is wanted
// at the desk).
func Rate(ctx context.Context, src Games, at time.Time, o rating.Options) (*List, error) {
	var (
		people         []Person
		starts         []time.Time
		errNames, errS error
		done           = make(chan struct{})
	)
	go func() {
		defer close(done)
		if people, errNames = src.People(ctx); errNames == nil {
			starts, errS = src.Starts(ctx)
		}
	}()
	games, err := src.RatingGames(ctx)
	var l *rating.List
	if err == nil {
		l, err = rating.Compute(games, at, o)
	}
	<-done
	if err := cmp.Or(err, errNames, errS); err != nil {
		return nil, err
	}
	type named struct{ name, country string }
	names := make(map[int]named, len(people))
	for _, p := range people { // a list of 2000 names players as they were then
		names[p.ID] = named{p.ListName(at), p.LatestAt(at).Country}
	}
	list := &List{List: l, Entries: make([]Rated, len(l.Players))}
	for _, s := range starts {
		if s.After(at) {
			list.Later++
		}
	}
	rank := 0
	for i, p := range l.Players {
		e := Rated{Player: p, Name: names[p.ID].name, Country: names[p.ID].country}
		if p.Listed {
			rank++
			e.Rank = rank
		}
		list.Entries[i] = e
	}
	return list, nil
}

// Change is one player of an event in a preview: their entry in the list
// without the event and with it, and their name.
type Change struct {
	rating.Change
	Name, Country string
}

// Preview computes the list at the date at from the games of src, and the
// same list with the event's games added, played on that day
// (rating.Preview): the event's players, in the order of the list with the
// event, named as the event names them.
func Preview(ctx context.Context, src Games, event *Tournament, at time.Time, o rating.Options) ([]Change, error) {
	games, err := src.RatingGames(ctx)
	if err != nil {
		return nil, err
	}
	changes, err := rating.Preview(games, event.RatingGames(), at, o)
	if err != nil {
		return nil, err
	}
	names := map[int]Entry{}
	for _, e := range event.Players {
		names[e.ID] = e
	}
	out := make([]Change, len(changes))
	for i, c := range changes {
		out[i] = Change{Change: c, Name: names[c.ID].Name(), Country: names[c.ID].Country}
	}
	return out, nil
}

// RatingGames returns the tournament's games as the rating list takes
// them, dated by its first day: those of a player without an id left out.
func (t *Tournament) RatingGames() []rating.Game {
	gs := make([]rating.Game, 0, len(t.Games))
	for _, g := range t.Games {
		if g.Black > 0 && g.White > 0 {
			gs = append(gs, rating.Game{A: g.Black, B: g.White, Result: g.Result, Date: t.Start})
		}
	}
	return gs
}

// RatingGames returns the games of every tournament of the folder.
func (f *Folder) RatingGames(context.Context) ([]rating.Game, error) {
	var gs []rating.Game
	for _, t := range f.Tournaments {
		gs = append(gs, t.RatingGames()...)
	}
	return gs, nil
}

// Starts returns the first day of every tournament of the folder.
func (f *Folder) Starts(context.Context) ([]time.Time, error) {
	s := make([]time.Time, len(f.Tournaments))
	for i, t := range f.Tournaments {
		s[i] = t.Start
	}
	return s, nil
}

// People returns the players of the folder's tournaments, as Store.People.
func (f *Folder) People(_ context.Context, ids ...int) ([]Person, error) {
	type key struct {
		id                   int
		last, first, country string
	}
	seen := map[key]*Seen{}
	in := map[int]bool{}
	for _, t := range f.Tournaments {
		for _, e := range t.Players {
			if e.ID == 0 {
				continue
			}
			k := key{e.ID, e.Last, e.First, e.Country}
			s := seen[k]
			if s == nil {
				s = &Seen{Last: e.Last, First: e.First, Country: e.Country, From: t.Start, To: t.Start}
				seen[k] = s
			}
			s.Tournaments++
			s.From, s.To = minTime(s.From, t.Start), maxTime(s.To, t.Start)
			in[e.ID] = true
		}
		for _, g := range t.Games { // a game of ?????? (0) names one player
			in[g.Black], in[g.White] = true, true
		}
		delete(in, 0)
	}
	byID := map[int][]Seen{}
	for k, s := range seen {
		byID[k.id] = append(byID[k.id], *s)
	}
	if len(ids) == 0 {
		for id := range in {
			ids = append(ids, id)
		}
	}
	var people []Person
	for _, id := range ids {
		if in[id] {
			people = append(people, Person{ID: id, Names: SortSeen(byID[id])})
		}
	}
	slices.SortFunc(people, func(a, b Person) int { return cmp.Compare(a.ID, b.ID) })
	return slices.CompactFunc(people, func(a, b Person) bool { return a.ID == b.ID }), nil
}

// SortSeen orders a player's names as Person.Names gives them: by the last
// day seen, then the first, then the name and country. A store calls it on
// what it reads.
func SortSeen(s []Seen) []Seen {
	slices.SortFunc(s, func(a, b Seen) int {
		return cmp.Or(a.To.Compare(b.To), a.From.Compare(b.From), cmp.Compare(a.Last, b.Last), cmp.Compare(a.First, b.First),
			cmp.Compare(a.Country, b.Country))
	})
	return s
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
