package tournament

import (
	"fmt"
	"slices"
	"strings"

	"github.com/otd-project/otd/engine"
)

// PlayerInput is what a director types to register a player.
type PlayerInput struct {
	Name    string
	WOFID   int // the federation's id, 0 if none
	Rating  int
	Country string
	Engine  string // "" for a person; else how otd starts the program (ParseEngine)
	// AllowDuplicate registers a name that a registered player has, case,
	// spacing and accents aside (FoldName): two people of one name.
	AllowDuplicate bool
}

// PlayerEdit is a correction of a player's details: nil fields stay as they are.
type PlayerEdit struct {
	Name    *string
	WOFID   *int // the federation's id, 0 for none
	Rating  *int
	Country *string
	Engine  *string // "" makes the player a person
	// AllowDuplicate accepts a new name that another player has (FoldName).
	AllowDuplicate bool
}

// maxFedID is the largest federation id accepted (WOF ids have up to 6 digits today).
const maxFedID = 99_999_999

func (in PlayerInput) check(rules engine.Rules) (PlayerInput, error) {
	in.Name = strings.Join(strings.Fields(in.Name), " ")
	if err := checkName("player", in.Name); err != nil {
		return in, err
	}
	switch {
	case in.Rating < 0 || in.Rating > 4000:
		return in, invalidf("rating %d: a rating is 0 (none) to 4000", in.Rating)
	case in.WOFID < 0 || in.WOFID > maxFedID:
		return in, invalidf("WOF id %d: a whole number up to %d, 0 for none", in.WOFID, maxFedID)
	}
	c, err := NormalizeCountry(in.Country)
	if err != nil {
		return in, err
	}
	in.Country = c
	if in.Engine != "" {
		e, err := ParseEngine(in.Engine)
		if err != nil {
			return in, err
		}
		if err := e.Plays(rules); err != nil {
			return in, err
		}
		in.Engine = e.String()
	}
	return in, nil
}

// checkFedID refuses a federation id that another player than n already has:
// the id is the player's name in the WOF rating file.
func (t *Tournament) checkFedID(n, id int) error {
	if id == 0 {
		return nil
	}
	for _, p := range t.Players {
		if p.WOFID == id && p.Number != n {
			return invalidf("WOF id %d: player %d (%s) has it already", id, p.Number, p.Name)
		}
	}
	return nil
}

// DuplicateNameError is a player's name that a registered player has
// already, case, spacing and accents aside (FoldName): ErrInvalid and
// ErrDuplicate for errors.Is. PlayerInput.AllowDuplicate and
// PlayerEdit.AllowDuplicate accept it.
type DuplicateNameError struct {
	Name  string // the name given, its spaces collapsed
	Other Player // the player who has it
}

func (e *DuplicateNameError) Error() string {
	aside := ""
	if e.Name != e.Other.Name {
		aside = ", case, spacing and accents aside"
	}
	return fmt.Sprintf("name %q: %s has it already%s", e.Name, playerSubject(e.Other), aside)
}

func (e *DuplicateNameError) Is(target error) bool {
	return target == ErrInvalid || target == ErrDuplicate
}

// checkNewName refuses a name that another player than n has (FoldName).
func (t *Tournament) checkNewName(n int, name string) error {
	key := FoldName(name)
	for _, p := range t.Players {
		if p.Number != n && FoldName(p.Name) == key {
			return &DuplicateNameError{Name: name, Other: p}
		}
	}
	return nil
}

func playerSubject(p Player) string { return fmt.Sprintf("player %d (%s)", p.Number, p.Name) }

// AddPlayer registers a player with the next number. A late entry, after
// round 1 is paired, plays from the next round to be paired; the rounds
// missed score nothing. Entries close when the last round is paired.
func (t *Tournament) AddPlayer(in PlayerInput) (Change, error) {
	in, err := in.check(t.GameRules())
	if err != nil {
		return Change{}, err
	}
	if err := t.checkFedID(0, in.WOFID); err != nil {
		return Change{}, err
	}
	if !in.AllowDuplicate {
		if err := t.checkNewName(0, in.Name); err != nil {
			return Change{}, err
		}
	}
	next := t.Paired() + 1
	if next > t.Rounds {
		return Change{}, fmt.Errorf("%s: %w: all %d rounds are paired", in.Name, ErrLateEntry, t.Rounds)
	}
	p := Player{Number: len(t.Players) + 1, Name: in.Name, WOFID: in.WOFID, Rating: in.Rating, Country: in.Country, FirstRound: next, Engine: in.Engine}
	t.Players = append(t.Players, p)
	return t.change(ActPlayerAdd, playerSubject(p), State{}, State{Players: []Player{p}}), nil
}

// EditPlayer corrects a player's name, WOF id, rating, country or engine.
func (t *Tournament) EditPlayer(n int, e PlayerEdit) (Change, error) {
	p, err := t.Player(n)
	if err != nil {
		return Change{}, err
	}
	in := PlayerInput{Name: p.Name, WOFID: p.WOFID, Rating: p.Rating, Country: p.Country, Engine: p.Engine}
	if e.Name != nil {
		in.Name = *e.Name
	} else if err := checkName("player", p.Name); err != nil {
		return Change{}, &StoredNameError{Number: n, Err: err}
	}
	if e.WOFID != nil {
		in.WOFID = *e.WOFID
	}
	if e.Rating != nil {
		in.Rating = *e.Rating
	}
	if e.Country != nil {
		in.Country = *e.Country
	}
	if e.Engine != nil {
		in.Engine = *e.Engine
	}
	if in, err = in.check(t.GameRules()); err != nil {
		return Change{}, err
	}
	if err := t.checkFedID(n, in.WOFID); err != nil {
		return Change{}, err
	}
	if e.Name != nil && !e.AllowDuplicate {
		if err := t.checkNewName(n, in.Name); err != nil {
			return Change{}, err
		}
	}
	before := *p
	p.NewID = p.NewID && in.WOFID == p.WOFID // an id the director types is the rating list's
	p.Name, p.WOFID, p.Rating, p.Country, p.Engine = in.Name, in.WOFID, in.Rating, in.Country, in.Engine
	return t.playerChange(ActPlayerEdit, before, *p), nil
}

// StoredNameError refuses a correction of a player whose name, stored by
// an older otd (an import that took any name), is not one otd keeps now
// (checkName), and that gives no new one: the correction goes through with
// a new name. ErrInvalid for errors.Is.
type StoredNameError struct {
	Number int
	Err    error // what is wrong with the name, from checkName
}

func (e *StoredNameError) Error() string {
	return fmt.Sprintf("player %d: the name an older otd stored is not one otd keeps now (%v): correct it too, in the same change", e.Number, e.Err)
}

func (e *StoredNameError) Unwrap() error { return e.Err }

func (t *Tournament) playerChange(a Action, before, after Player) Change {
	return t.change(a, playerSubject(after), State{Players: []Player{before}}, State{Players: []Player{after}})
}

// Withdraw withdraws a player from the next round to be paired on; the games
// played stand (and a game of the current round, if paired, is played or
// scored as usual).
func (t *Tournament) Withdraw(n int) (Change, error) {
	p, err := t.Player(n)
	if err != nil {
		return Change{}, err
	}
	if p.Left != 0 {
		return Change{}, fmt.Errorf("player %d (%s): %w before round %d already: nothing to do", n, p.Name, ErrWithdrawn, p.Left)
	}
	before := *p
	p.Left = t.Paired() + 1
	return t.playerChange(ActPlayerWithdraw, before, *p), nil
}

// MarkAbsent records that a player will miss round r (not yet paired): they
// are not paired and score nothing for it.
func (t *Tournament) MarkAbsent(n, r int) (Change, error) {
	p, err := t.Player(n)
	if err != nil {
		return Change{}, err
	}
	switch {
	case r <= t.Paired():
		return Change{}, t.pairedAlready(n, r)
	case r > t.Rounds:
		return Change{}, fmt.Errorf("round %d: %w (the tournament has %d rounds)", r, ErrNoRound, t.Rounds)
	case p.WithdrawnBy(r):
		return Change{}, fmt.Errorf("player %d (%s): %w before round %d: a withdrawn player is not paired, absent or not", n, p.Name, ErrWithdrawn, p.Left)
	case slices.Contains(p.Absent, r):
		return Change{}, invalidf("player %d (%s) is already absent from round %d: nothing to do", n, p.Name, r)
	}
	before := *p
	p.Absent = append(slices.Clone(p.Absent), r)
	slices.Sort(p.Absent)
	return t.playerChange(ActPlayerAbsent, before, *p), nil
}

// pairedAlready says why player n cannot be marked absent from round r,
// which is paired, and what the director can do instead.
func (t *Tournament) pairedAlready(n, r int) error {
	p := t.Players[n-1]
	seat := "is not in it"
	var game *Game
	for _, g := range t.Round(r) {
		if g.Black == n || g.White == n {
			game = &g
			seat = fmt.Sprintf("plays at table %d", g.Table)
			if g.IsBye() {
				seat = "has the bye"
			}
		}
	}
	started := slices.ContainsFunc(t.Round(r), func(g Game) bool { return g.Result != nil })
	switch {
	case r == t.Paired() && !started:
		return &AbsenceError{Round: r, Player: n, Name: p.Name, Seat: seat, Unpairable: true}
	case game != nil && !game.IsBye():
		colour := Black
		if game.White == n {
			colour = White
		}
		return &AbsenceError{Round: r, Player: n, Name: p.Name, Seat: seat, Table: game.Table, Colour: colour}
	}
	return &AbsenceError{Round: r, Player: n, Name: p.Name, Seat: seat}
}

// RemovePlayer removes a player registered by mistake, until their first
// round is paired; the players registered after them move up one number.
// A player who has been paired is withdrawn instead.
func (t *Tournament) RemovePlayer(n int) (Change, error) {
	p, err := t.Player(n)
	if err != nil {
		return Change{}, err
	}
	if p.FirstRound <= t.Paired() {
		return Change{}, &HasGamesError{Player: n, Name: p.Name, Round: p.FirstRound}
	}
	for _, g := range t.Games {
		if g.Black >= n || g.White >= n {
			return Change{}, &HasGamesError{Player: n, Name: p.Name, Round: g.Round, Later: max(g.Black, g.White)}
		}
	}
	removed := *p
	before := State{Players: slices.Clone(t.Players[n-1:])}
	t.Players = slices.Delete(t.Players, n-1, n)
	for i := n - 1; i < len(t.Players); i++ {
		t.Players[i].Number = i + 1
	}
	after := State{Players: slices.Clone(t.Players[n-1:])}
	// The forbidden pairs follow the numbers; those of the player removed go.
	var kept []ForbiddenPair
	for _, f := range t.Forbidden {
		if f.A < n && f.B < n {
			kept = append(kept, f)
			continue
		}
		before.Forbidden = append(before.Forbidden, f)
		if f.A != n && f.B != n {
			g := f
			if g.A > n {
				g.A--
			}
			if g.B > n {
				g.B--
			}
			after.Forbidden = append(after.Forbidden, g)
			kept = append(kept, g)
		}
	}
	sortForbidden(kept)
	t.Forbidden = kept
	return t.change(ActPlayerRemove, playerSubject(removed), before, after), nil
}
