package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/otd-project/otd/tournament"
)

// PageSlips are the result slips of a round ('otd round slips'): one a
// game to be played, PerPage (2 or 4) to a sheet of A4.
type PageSlips struct {
	Round   string // "Round 3", "Final phase, round 2"
	PerPage int
	Sheets  [][]PageSlip
}

// Count is the number of slips.
func (s *PageSlips) Count() int {
	n := 0
	for _, sheet := range s.Sheets {
		n += len(sheet)
	}
	return n
}

// PageSlip is a game's result slip: where it is played, the players
// ("12 Ann Archer") and the address of its page on 'otd serve'.
type PageSlip struct {
	Game         string // "Round 3", "Semi-final 1, game 2", "women: Final, game 1"
	Table        int
	Black, White string
	URL          string
	Stubs        []PageStub // black's and white's, to tear off; none without the game's tokens
}

// PageStub is a side's tear-off stub of a slip: the address of its report
// page on 'otd serve --venue', by the long token (URL, the QR code's) and
// the short one (ShortURL, and Code printed as XXXX-XXXX-XXXXX to type).
type PageStub struct {
	Side, Player        string // "Black", "12 Ann Archer"
	URL, ShortURL, Code string
}

// SlipsOptions name the slips: round Round of the Swiss, or round Final of
// the final phase (as 'final show --print --round' numbers them); neither:
// the last paired, the final phase's once it has started. Table, if not 0,
// is the one slip (a final round's games are its tables 1, 2, ... in the
// order paired). URL is where 'otd serve' answers ("http://10.0.0.2:8080/").
// Links are the games' report tokens (Director.ReportLinks): each game
// that has them gets a stub per side.
type SlipsOptions struct {
	Round, Final, Table, PerPage int
	URL                          string
	Links                        []ReportLink
}

// SlipsRound is the round SlipsOptions name, as ReportLinks numbers it: the
// Swiss round, or 0 for the final phase.
func SlipsRound(t *tournament.Tournament, o SlipsOptions) int {
	if o.Final > 0 || o.Round == 0 && len(t.FinalRounds()) > 0 {
		return 0
	}
	if o.Round == 0 {
		return t.Paired()
	}
	return o.Round
}

// Slips is the page of the slips o names in tournament id, each game that
// is to be played with its players' report stubs (ReportLinks): 'otd round
// slips' and the console's.
func (d *Director) Slips(ctx context.Context, id int64, o SlipsOptions) (Page, error) {
	t, err := d.Tournament(ctx, id)
	if err != nil {
		return Page{}, err
	}
	if r := SlipsRound(t, o); r <= t.Paired() {
		if o.Links, err = d.ReportLinks(ctx, id, r); err != nil {
			return Page{}, err
		}
	}
	return SlipsPage(t, o)
}

// stubs are game g's stubs from links, with the slips' base URL.
func stubs(t *tournament.Tournament, g tournament.Game, links []ReportLink, base string) []PageStub {
	i := slices.IndexFunc(links, func(l ReportLink) bool {
		return l.Game.Ref() == g.Ref() && l.Game.Black == g.Black && l.Game.White == g.White
	})
	if i < 0 {
		return nil
	}
	stub := func(side string, player int, k Token) PageStub {
		return PageStub{Side: side, Player: numbered(t, player), URL: base + "/r/" + k.Long, ShortURL: base + "/r/" + k.Short, Code: k.Printed()}
	}
	return []PageStub{stub("Black", g.Black, links[i].Black), stub("White", g.White, links[i].White)}
}

// SlipsPage gives the result slips of a round: a slip for every game but a
// bye, a forfeit and a game of a player absent from the round.
func SlipsPage(t *tournament.Tournament, o SlipsOptions) (Page, error) {
	if o.Round == 0 && o.Final == 0 {
		if o.Final = len(t.FinalRounds()); o.Final == 0 {
			o.Round = t.Paired()
		}
	}
	base := strings.TrimSuffix(o.URL, "/")
	s := &PageSlips{PerPage: o.PerPage}
	var slips []PageSlip
	played := func(g tournament.Game) bool {
		absent := func(n int) bool { return o.Final == 0 && slices.Contains(t.Players[n-1].Absent, g.Round) }
		return !g.IsBye() && (g.Result == nil || g.Result.Kind != tournament.Forfeit) && !absent(g.Black) && !absent(g.White)
	}
	if o.Final > 0 {
		if _, err := FinalRound(t, o.Final); err != nil {
			return Page{}, err
		}
		s.Round = fmt.Sprintf("Final phase, round %d", o.Final)
		for i, g := range t.FinalRounds()[o.Final-1] {
			if played(g) {
				slips = append(slips, PageSlip{Game: fmt.Sprintf("%s, game %d", MatchLabel(g.Category, g.Match), g.Game), Table: i + 1,
					Black: numbered(t, g.Black), White: numbered(t, g.White), URL: base + GamePath(g), Stubs: stubs(t, g, o.Links, base)})
			}
		}
	} else {
		if err := t.CheckPaired(o.Round); err != nil {
			return Page{}, err
		}
		s.Round = fmt.Sprintf("Round %d", o.Round)
		for _, g := range t.Round(o.Round) {
			if played(g) {
				slips = append(slips, PageSlip{Game: s.Round, Table: g.Table,
					Black: numbered(t, g.Black), White: numbered(t, g.White), URL: base + GamePath(g), Stubs: stubs(t, g, o.Links, base)})
			}
		}
	}
	if o.Table > 0 {
		i := slices.IndexFunc(slips, func(sl PageSlip) bool { return sl.Table == o.Table })
		if i < 0 {
			return Page{}, fmt.Errorf("%s has no slip for table %d: %w (its slips: %s; a bye, a forfeit and an absent player have none)", strings.ToLower(s.Round[:1])+s.Round[1:], o.Table, tournament.ErrNoGame, slipTables(slips))
		}
		slips = slips[i : i+1]
	}
	for sheet := range slices.Chunk(slips, max(o.PerPage, 1)) {
		s.Sheets = append(s.Sheets, sheet)
	}
	return Page{Name: t.Name, Slips: s}, nil
}

// slipTables lists the tables of slips: "tables 1, 2, 4", "table 2", "none".
func slipTables(slips []PageSlip) string {
	var ts []string
	for _, sl := range slips {
		ts = append(ts, fmt.Sprint(sl.Table))
	}
	if len(ts) == 0 {
		return "none"
	}
	if len(ts) == 1 {
		return "table " + ts[0]
	}
	return "tables " + strings.Join(ts, ", ")
}
