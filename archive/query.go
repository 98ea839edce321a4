package archive

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/rating"
)

// Record is a count of results: won, drawn and lost.
type Record struct{ Won, Drawn, Lost int }

// Total is the games counted.
func (r Record) Total() int { return r.Won + r.Drawn + r.Lost }

// add counts a result of the player's.
func (r *Record) add(res rating.Result) {
	switch res {
	case rating.Win:
		r.Won++
	case rating.Draw:
		r.Drawn++
	case rating.Loss:
		r.Lost++
	}
}

// resultOf is a game's result for the player.
func resultOf(g Game, player int) rating.Result {
	if g.Black == player {
		return g.Result
	}
	return rating.Loss - g.Result + rating.Win // win <-> loss
}

// History is a player's tournaments and results.
type History struct {
	Person
	Tournaments []Appearance // by day
	Record                   // every game
}

// Appearance is a tournament of a player's and their results in it.
type Appearance struct {
	Summary // with the player's Entry
	Record
}

// PlayerHistory returns the tournaments and results of the player with
// this WOF id; an error wrapping ErrNotFound if the archive has none.
func PlayerHistory(ctx context.Context, st Store, id int) (*History, error) {
	people, err := st.People(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(people) == 0 {
		return nil, notFound(id)
	}
	ts, err := st.Tournaments(ctx, Filter{Player: id})
	if err != nil {
		return nil, err
	}
	games, err := st.Games(ctx, id, 0)
	if err != nil {
		return nil, err
	}
	h := &History{Person: people[0]}
	at := map[int64]int{}
	for _, t := range ts {
		at[t.ID] = len(h.Tournaments)
		h.Tournaments = append(h.Tournaments, Appearance{Summary: t})
	}
	for _, g := range games {
		r := resultOf(g.Game, id)
		h.add(r)
		if i, ok := at[g.Tournament]; ok {
			h.Tournaments[i].add(r)
		}
	}
	return h, nil
}

// Meetings are the games between two players.
type Meetings struct {
	A, B   Person
	Games  []Played // by day
	Record          // A's results
}

// HeadToHead returns the games between the players of WOF ids a and b.
func HeadToHead(ctx context.Context, st Store, a, b int) (*Meetings, error) {
	if a == b {
		return nil, fmt.Errorf("WOF id %d twice: head to head is of two players", a)
	}
	people, err := st.People(ctx, a, b)
	if err != nil {
		return nil, err
	}
	m := &Meetings{A: Person{ID: a}, B: Person{ID: b}}
	for _, p := range people {
		if p.ID == a {
			m.A = p
		} else {
			m.B = p
		}
	}
	for _, p := range []Person{m.A, m.B} {
		if !containsID(people, p.ID) {
			return nil, notFound(p.ID)
		}
	}
	if m.Games, err = st.Games(ctx, a, b); err != nil {
		return nil, err
	}
	for _, g := range m.Games {
		m.add(resultOf(g.Game, a))
	}
	return m, nil
}

// notFound is the error of a WOF id that no tournament of the archive has.
func notFound(id int) error {
	return fmt.Errorf("WOF id %d: %w: no standings or game of its files has the player ('otd archive players NAME' finds a player's id)", id, ErrNotFound)
}

func containsID(people []Person, id int) bool {
	for _, p := range people {
		if p.ID == id {
			return true
		}
	}
	return false
}

// FindPlayers returns the players whose WOF id is text, or one of whose
// names holds it, case, spacing and accents aside (txt.FoldName:
// "muller" finds MÜLLER), by id.
func FindPlayers(ctx context.Context, st Store, text string) ([]Person, error) {
	if id, err := strconv.Atoi(strings.TrimSpace(text)); err == nil {
		return st.People(ctx, id)
	}
	want := txt.FoldName(text)
	if want == "" {
		return nil, fmt.Errorf("%q: give a part of a name, or a WOF id", text)
	}
	all, err := st.People(ctx)
	if err != nil {
		return nil, err
	}
	var found []Person
	for _, p := range all {
		for _, s := range p.Names {
			if strings.Contains(txt.FoldName(s.Name()), want) || strings.Contains(txt.FoldName(s.First+" "+s.Last), want) {
				found = append(found, p)
				break
			}
		}
	}
	return found, nil
}

// FindTournament returns the tournament of an id, or of a file's path
// below the folder (or the end of it: "2024/x.ELO", "x.ELO"), or whose
// name is text, case aside; several matching a name or path is an error
// that lists them.
func FindTournament(ctx context.Context, st Store, text string) (*Tournament, error) {
	if id, err := strconv.ParseInt(text, 10, 64); err == nil {
		return st.Tournament(ctx, id)
	}
	all, err := st.Tournaments(ctx, Filter{})
	if err != nil {
		return nil, err
	}
	want := strings.TrimPrefix(strings.ReplaceAll(text, "\\", "/"), "./")
	var found []Summary
	for _, t := range all {
		if t.File == want || strings.HasSuffix(t.File, "/"+want) || strings.EqualFold(t.Name, text) {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		files, err := st.Files(ctx)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if f.Problem != "" && (f.Path == want || strings.HasSuffix(f.Path, "/"+want)) {
				return nil, fmt.Errorf("%s: %w: the file could not be read: %s", f.Path, ErrNotFound, f.Problem)
			}
		}
		return nil, fmt.Errorf("tournament %q: %w: no tournament has that id, file or name ('otd archive tournaments' lists them)", text, ErrNotFound)
	case 1:
		return st.Tournament(ctx, found[0].ID)
	}
	var which []string
	for i, t := range found {
		if i == 5 {
			which = append(which, fmt.Sprintf("and %d more", len(found)-5))
			break
		}
		which = append(which, fmt.Sprintf("%d (%s, %s)", t.ID, t.File, t.Start.Format("2006-01-02")))
	}
	return nil, fmt.Errorf("tournament %q: %d tournaments match: %s; give the id", text, len(found), strings.Join(which, ", "))
}
