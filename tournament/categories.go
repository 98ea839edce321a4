package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
)

// PlayerEntry changes what a championship knows of a player: nil fields
// stay as they are.
type PlayerEntry struct {
	Team       *string   // "" their country's team, NoTeam none, else a team's name
	Born       *Born     // as given, the zero Born for not given
	Categories *[]string // the categories entered by name (women, ...), replacing the earlier ones
}

// EnterPlayer sets player n's team, year of birth or categories.
func (t *Tournament) EnterPlayer(n int, e PlayerEntry) (Change, error) {
	p, err := t.Player(n)
	if err != nil {
		return Change{}, err
	}
	after := *p
	if e.Team != nil {
		team := strings.Join(strings.Fields(*e.Team), " ")
		if team != "" && team != NoTeam {
			if err := checkName("team", team); err != nil {
				return Change{}, err
			}
		}
		after.Team = team
	}
	if e.Born != nil {
		if b := *e.Born; !b.IsZero() {
			if err := b.check(b.String()); err != nil {
				return Change{}, err
			}
		}
		after.Born = *e.Born
	}
	if e.Categories != nil {
		after.Categories = nil
		for _, name := range *e.Categories {
			c, ok := t.category(strings.TrimSpace(name))
			if !ok {
				return Change{}, invalidf("category %q: %w", name, t.noCategory())
			}
			if c.BornFrom != 0 || c.BornTo != 0 || c.Youth {
				return Change{}, invalidf("category %q goes by the year of birth: give --born instead", c.Name)
			}
			if !slices.Contains(after.Categories, c.Name) {
				after.Categories = append(after.Categories, c.Name)
			}
		}
	}
	if samePlayer(*p, after) {
		return Change{}, invalidf("player %d (%s): nothing changes", n, p.Name)
	}
	before := *p
	*p = after
	return t.playerChange(ActPlayerEdit, before, after), nil
}

// noCategory lists the categories, for an error.
func (t *Tournament) noCategory() error {
	if len(t.Categories) == 0 {
		return fmt.Errorf("%w: %w", ErrInvalid, ErrNoCategory)
	}
	var names []string
	for _, c := range t.Categories {
		names = append(names, c.Name)
	}
	return fmt.Errorf("%w: the categories are %s", ErrInvalid, strings.Join(names, ", "))
}

// AddCategory adds category c (or replaces the one of its name, while its
// final phase has not started).
func (t *Tournament) AddCategory(c Category) (Change, error) {
	s := t.Settings
	s.Categories = slices.Clone(s.Categories)
	c.Name = strings.Join(strings.Fields(c.Name), " ")
	if i := slices.IndexFunc(s.Categories, func(d Category) bool { return strings.EqualFold(d.Name, c.Name) }); i >= 0 {
		s.Categories[i] = c
	} else {
		s.Categories = append(s.Categories, c)
	}
	return t.ChangeSettings(s)
}

// RemoveCategory removes category name, which no player was entered in by
// name and whose final phase has not started.
func (t *Tournament) RemoveCategory(name string) (Change, error) {
	c, ok := t.category(name)
	if !ok {
		return Change{}, fmt.Errorf("category %q: %w", name, t.noCategory())
	}
	for _, p := range t.Players {
		if slices.Contains(p.Categories, c.Name) {
			return Change{}, &CategoryInUseError{Category: c.Name, Player: p.Number, Name: p.Name}
		}
	}
	s := t.Settings
	s.Categories = slices.DeleteFunc(slices.Clone(s.Categories), func(d Category) bool { return d.Name == c.Name })
	return t.ChangeSettings(s)
}

// checkChampionship checks the championship's settings: categories named
// once, each with sound years and final rules; the teams' rules.
func (s Settings) checkChampionship() error {
	seen := map[string]bool{}
	for _, c := range s.Categories {
		if err := checkName("category", c.Name); err != nil {
			return err
		}
		if strings.ContainsAny(c.Name, ":,") {
			return invalidf("category %q: a name without ':' or ','", c.Name)
		}
		if seen[strings.ToLower(c.Name)] {
			return invalidf("category %q: two categories of that name", c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		switch r := s.Resolve(c); {
		case c.Youth && c.BornFrom != 0:
			return invalidf("category %q: its members are the youth (by the youth age) or born from %d, not both", c.Name, c.BornFrom)
		case c.Youth && s.Start.IsZero():
			return invalidf("category %q: the youth are at most %d years old in the event's year: give the event's first day (--start)", c.Name, s.Youth())
		case r.BornFrom != 0 && r.BornTo != 0 && r.BornTo < r.BornFrom:
			return invalidf("category %q: born from %d to %d", c.Name, r.BornFrom, r.BornTo)
		}
	}
	if s.YouthAge < 0 || s.YouthAge > 30 {
		return invalidf("--youth-age %d: a youth is at most 1 to 30 years old in the event's year (0: the default, %d)", s.YouthAge, DefaultYouthAge)
	}
	if s.TeamRules.Best < 0 || s.TeamRules.Best > 9 {
		return invalidf("--teams best=%d: 1 to 9 members count", s.TeamRules.Best)
	}
	for _, e := range s.TeamRules.Exclude {
		if !seen[strings.ToLower(e)] {
			return &TeamsExcludeError{Category: e}
		}
	}
	return nil
}

// DefaultYouthAge is the youth's age limit where none is set: at most 15
// years old in the event's year (the WOC's "under 16" since 2023, RULES.md
// section 7).
const DefaultYouthAge = 15

// Youth gives the youth's age limit: YouthAge, or DefaultYouthAge.
func (s Settings) Youth() int { return cmp.Or(s.YouthAge, DefaultYouthAge) }

// YouthBornFrom gives the first year of birth of the youth: the event's
// year (its start) less the age limit; 0 if the event has no start date.
func (s Settings) YouthBornFrom() int {
	if s.Start.IsZero() {
		return 0
	}
	return s.Start.Time().Year() - s.Youth()
}

// Resolve gives category c with its years of birth as they stand: a youth
// category's first year is the youth's (YouthBornFrom), which follow the
// youth age and the event's start.
func (s Settings) Resolve(c Category) Category {
	if c.Youth {
		c.BornFrom = s.YouthBornFrom()
	}
	return c
}

// Preset gives s with the settings of a preset (tournament new --preset):
// woc, the World Othello Championship's (RULES.md section 7): 13 rounds,
// BQ by the WOF's rule (c = 6), the woc final phase, women and youth (by
// the youth age) with single-game knockouts among their top 4, teams of the
// best 3 without the youth.
func (s Settings) Preset(name string) (Settings, error) {
	if name != "woc" {
		return s, invalidf("--preset %q: woc (the World Othello Championship's settings) is the one preset", name)
	}
	s.Rounds = 13
	s.BQ = scoring.BQRule{Kind: scoring.WOF}
	s.Final = WOCFinal
	s.Categories = []Category{{Name: "women", Final: CategoryFinal}, {Name: "youth", Youth: true, Final: CategoryFinal}}
	s.TeamRules = TeamRules{Best: 3, Exclude: []string{"youth"}}
	return s, nil
}

// finalText, categoriesText and teamsText write the championship's
// settings for the log ("" for none).
func finalText(f FinalRules) string {
	if f.IsZero() {
		return ""
	}
	return f.String()
}

func categoriesText(cs []Category) string {
	var out []string
	for _, c := range cs {
		s := c.Name
		if c.BornFrom != 0 {
			s += fmt.Sprintf(" born>=%d", c.BornFrom)
		}
		if c.Youth {
			s += " by the youth age"
		}
		if c.BornTo != 0 {
			s += fmt.Sprintf(" born<=%d", c.BornTo)
		}
		if !c.Final.IsZero() {
			s += " final " + c.Final.String()
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

func teamsText(r TeamRules) string {
	if r.Best == 0 && len(r.Exclude) == 0 {
		return ""
	}
	s := fmt.Sprintf("best %d", r.Best)
	if len(r.Exclude) > 0 {
		s += " without " + strings.Join(r.Exclude, ", ")
	}
	return s
}

// MarshalText writes the teams' rules as --teams takes them:
// "best=3,exclude=youth" ("" for the default).
func (r TeamRules) MarshalText() ([]byte, error) {
	s := teamsText(r)
	if s == "" {
		return nil, nil
	}
	out := fmt.Sprintf("best=%d", r.Best)
	if len(r.Exclude) > 0 {
		out += ",exclude=" + strings.Join(r.Exclude, "+")
	}
	return []byte(out), nil
}

// UnmarshalText reads "best=3,exclude=youth+juniors" (either part may be
// left out; best is 3 by default).
func (r *TeamRules) UnmarshalText(b []byte) error {
	out := TeamRules{Best: 3}
	s := strings.TrimSpace(string(b))
	if s == "" {
		*r = TeamRules{}
		return nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		switch {
		case ok && k == "best":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 9 {
				return invalidf("--teams %q: best=%s: 1 to 9 members count", s, v)
			}
			out.Best = n
		case ok && k == "exclude":
			out.Exclude = strings.Split(v, "+")
		default:
			return invalidf("--teams %q: write best=N,exclude=CATEGORY (+ between categories)", s)
		}
	}
	*r = out
	return nil
}

// CategoryRanking ranks the members of category name: its final phase's
// ranking once over, else the Swiss standings' order (withdrawn players
// last).
func (t *Tournament) CategoryRanking(name string) ([]int, error) {
	c, ok := t.category(name)
	if !ok {
		return nil, fmt.Errorf("category %q: %w", name, t.noCategory())
	}
	ph, err := t.Phase(c.Name)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(ph.Ranking)
	rows, err := t.Standings(t.Paired())
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if c.Member(t.Players[r.Player-1]) && !slices.Contains(out, r.Player) {
			out = append(out, r.Player)
		}
	}
	return out, nil
}
