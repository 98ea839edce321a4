package tournament

import (
	"fmt"
	"strings"
	"unicode"
)

// PlayerInput is what a director types to register or edit a player.
type PlayerInput struct {
	Name    string
	Rating  int
	Country string
}

func (in PlayerInput) check() (PlayerInput, error) {
	in.Name = strings.Join(strings.Fields(in.Name), " ")
	in.Country = strings.ToUpper(strings.TrimSpace(in.Country))
	switch {
	case in.Name == "":
		return in, fmt.Errorf("a player needs a name: %w", ErrInvalid)
	case len(in.Name) > 100:
		return in, fmt.Errorf("name %.20q...: longer than 100 characters: %w", in.Name, ErrInvalid)
	case in.Rating < 0 || in.Rating > 4000:
		return in, fmt.Errorf("rating %d: a rating is 0 (none) to 4000: %w", in.Rating, ErrInvalid)
	case in.Country != "" && (len(in.Country) < 2 || len(in.Country) > 3 || strings.IndexFunc(in.Country, func(r rune) bool { return !unicode.IsUpper(r) }) >= 0):
		return in, fmt.Errorf("country %q: a country is a 2- or 3-letter code such as FR or GBR: %w", in.Country, ErrInvalid)
	}
	return in, nil
}

// AddPlayer registers a player with the next number. A late entry, after
// round 1 is paired, plays from the next round to be paired; the rounds
// missed score nothing. Entries close when the last round is paired.
func (t *Tournament) AddPlayer(in PlayerInput) (Player, error) {
	in, err := in.check()
	if err != nil {
		return Player{}, err
	}
	next := t.Paired() + 1
	if next > t.Rounds {
		return Player{}, fmt.Errorf("%s: %w: all %d rounds are paired", in.Name, ErrLateEntry, t.Rounds)
	}
	p := Player{Number: len(t.Players) + 1, Name: in.Name, Rating: in.Rating, Country: in.Country, FirstRound: next}
	t.Players = append(t.Players, p)
	return p, nil
}

// EditPlayer changes a player's name, rating or country (nil: unchanged).
func (t *Tournament) EditPlayer(n int, name *string, rating *int, country *string) (before, after Player, err error) {
	p, err := t.Player(n)
	if err != nil {
		return before, after, err
	}
	before = *p
	in := PlayerInput{Name: p.Name, Rating: p.Rating, Country: p.Country}
	if name != nil {
		in.Name = *name
	}
	if rating != nil {
		in.Rating = *rating
	}
	if country != nil {
		in.Country = *country
	}
	if in, err = in.check(); err != nil {
		return before, after, err
	}
	p.Name, p.Rating, p.Country = in.Name, in.Rating, in.Country
	return before, *p, nil
}

// Withdraw withdraws a player from the next round to be paired on; the games
// played stand (and a game of the current round, if paired, is played or
// scored as usual).
func (t *Tournament) Withdraw(n int) (before, after Player, err error) {
	p, err := t.Player(n)
	if err != nil {
		return before, after, err
	}
	if p.Left != 0 {
		return *p, *p, fmt.Errorf("player %d (%s): %w before round %d already: nothing to do", n, p.Name, ErrWithdrawn, p.Left)
	}
	before = *p
	p.Left = t.Paired() + 1
	return before, *p, nil
}

// MarkAbsent records that a player will miss round r (not yet paired): they
// are not paired and score nothing for it.
func (t *Tournament) MarkAbsent(n, r int) (before, after Player, err error) {
	p, err := t.Player(n)
	if err != nil {
		return before, after, err
	}
	switch {
	case r <= t.Paired():
		return *p, *p, fmt.Errorf("round %d is already paired: %w (unpair it first with 'otd round unpair')", r, ErrInvalid)
	case r > t.Rounds:
		return *p, *p, fmt.Errorf("round %d: %w (the tournament has %d rounds)", r, ErrNoRound, t.Rounds)
	case p.WithdrawnBy(r):
		return *p, *p, fmt.Errorf("player %d (%s): %w before round %d: a withdrawn player is not paired, absent or not", n, p.Name, ErrWithdrawn, p.Left)
	}
	before = *p
	for _, a := range p.Absent {
		if a == r {
			return before, *p, nil
		}
	}
	p.Absent = append(append([]int(nil), p.Absent...), r)
	return before, *p, nil
}
