package app

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// PagePhase is a final phase as the page shows it: its qualifiers, matches
// and games.
type PagePhase struct {
	Title string // "" for the open's, the category's name
	// Rules are the phase's (nil: games played after the Swiss whose
	// matches are not known); Qualified its seeds, in order, and Tied the
	// players tied on points across the last place; Skipped why it is not
	// played; Waiting, that the Swiss is not over (Finished of Rounds).
	Rules            *tournament.FinalRules
	Qualified, Tied  []PageQualifier
	Skipped          tournament.PhaseNote
	Waiting          bool
	Finished, Rounds int
	Matches          []PageMatch
	Games            []PageFinalGame
}

// PageQualifier is a player of a final phase: Seed their place among its
// qualifiers (0 for a player tied across the last place), Number their
// player number.
type PageQualifier struct {
	Seed, Number int
	Name         string
}

// PageMatch is a match of a final phase (Category, Code as
// tournament.Match's; Match its MatchLabel): A the higher seed, the score in
// points A-B ("1.5-1.5"), the winner once decided ("3 Cy Cole") and how,
// when not on points.
type PageMatch struct {
	Category, Code             string
	Match, A, B, Score, Winner string
	How                        tournament.Decision
}

// PageFinalGame is a game of a final phase: Black and White are "12 Ann
// Archer"; Moves tells whether otd played it (its moves are recorded).
type PageFinalGame struct {
	Seq, Round, Game             int
	Category                     string // "" the open
	Code                         string // the match's code: SF1, F, 3P...
	Match                        string // the match in the event: "Semi-final 1", "women: Final"
	Link                         string // a page of the game, if any (otd serve's viewer)
	BlackNumber, WhiteNumber     int
	Black, White                 string
	BlackName, WhiteName, Result string
	Moves                        bool
}

// PageRanking is a ranking after the Swiss: the final ranking or a
// category's.
type PageRanking struct {
	Class, Title string // Class: the table's, final-ranking or category
	// Note says what the ranking is, for the templates to word: final (the
	// final phase's places, then the Swiss order), provisional (the final
	// phase is not over), swiss (a category without a final phase), skipped
	// (its final phase is not played: Skipped says why), pending (until
	// its final phase is over).
	Note    string
	Skipped tournament.PhaseNote
	Rows    []PageRankRow
}

// PageTeamRule is how teams rank: the sum of the Best members' Swiss
// points, none of the categories Exclude counted.
type PageTeamRule struct {
	Best    int
	Exclude []string
}

// PageRankRow is a place of an PageRanking.
type PageRankRow struct {
	Rank, Number, SwissRank int
	Name, Country, Points   string
	Final, Withdrawn        bool
}

// PageTeam is a team of the team ranking: Counted is its members counted,
// "3 Cy Cole (9); 4 Di Dane (8.5)".
type PageTeam struct {
	Rank, Members         int
	Name, Points, Counted string
}

// PageFinalWall is the wall sheet of a round of the final phase.
type PageFinalWall struct {
	Round int
	Games []PageFinalGame
}

// championshipPage adds a championship's parts to the results page: the
// final phases, the final ranking, the categories, the teams.
func championshipPage(t *tournament.Tournament, page *Page) error {
	if !Championship(t) {
		return nil
	}
	phases, err := Phases(t)
	if err != nil {
		return err
	}
	games := FinalGames(t, t.FinalGames)
	for _, ph := range phases {
		hp := phasePage(t, ph)
		for _, m := range ph.Matches {
			hm := PageMatch{Category: ph.Category, Code: m.Code, Match: MatchLabel(ph.Category, m.Code), A: numbered(t, m.A), B: numbered(t, m.B), Score: m.APoints.String() + "-" + m.BPoints.String(), How: m.How}
			if m.Decided() {
				hm.Winner = numbered(t, m.Winner)
			}
			hp.Matches = append(hp.Matches, hm)
		}
		for _, g := range games {
			if g.Category == ph.Category {
				hp.Games = append(hp.Games, g)
			}
		}
		page.Final = append(page.Final, hp)
	}
	if HasOpenFinal(t) {
		rows, over, err := FinalRanking(t)
		if err != nil {
			return err
		}
		r := PageRanking{Class: "final-ranking", Title: "Final ranking", Rows: pageRankRows(t, rows), Note: "final"}
		if !over {
			r.Note = "provisional"
		}
		page.FinalRanking = &r
	}
	if !HasTeams(t) {
		return nil
	}
	for _, c := range t.Categories {
		rows, ph, err := CategoryRanking(t, c.Name)
		if err != nil {
			return err
		}
		r := PageRanking{Class: "category", Title: c.Name, Rows: pageRankRows(t, rows), Note: "swiss"}
		switch {
		case ph.Over:
			r.Note = "final"
		case !ph.Skipped.IsZero():
			r.Note, r.Skipped = "skipped", ph.Skipped
		case !ph.Rules.IsZero():
			r.Note = "pending"
		}
		page.Categories = append(page.Categories, r)
	}
	teams, err := t.Teams()
	if err != nil {
		return err
	}
	for _, tm := range teams {
		page.Teams = append(page.Teams, PageTeam{Rank: tm.Rank, Members: len(tm.Members), Name: tm.Name, Points: tm.Points.String(), Counted: CountedText(t, tm)})
	}
	page.TeamRule = PageTeamRule{Best: cmp.Or(t.TeamRules.Best, 3), Exclude: t.TeamRules.Exclude}
	return nil
}

// phasePage gives what a final phase is: its rules, its qualifiers, a tie
// across the last place, why it is not played or when it begins.
func phasePage(t *tournament.Tournament, ph tournament.FinalPhase) PagePhase {
	hp := PagePhase{Title: ph.Category}
	if ph.Rules.IsZero() {
		return hp
	}
	hp.Rules = &ph.Rules
	for i, n := range ph.Seeds {
		hp.Qualified = append(hp.Qualified, PageQualifier{Seed: i + 1, Number: n, Name: t.Players[n-1].Name})
	}
	for _, n := range ph.Tied {
		hp.Tied = append(hp.Tied, PageQualifier{Number: n, Name: t.Players[n-1].Name})
	}
	hp.Skipped = ph.Skipped
	hp.Waiting = ph.Skipped.IsZero() && len(ph.Matches) == 0 && len(ph.Seeds) == 0
	hp.Finished, hp.Rounds = t.Finished(), t.Rounds
	return hp
}

// numbered writes a player "12 Ann Archer".
func numbered(t *tournament.Tournament, n int) string {
	return strconv.Itoa(n) + " " + t.Players[n-1].Name
}

func pageRankRows(t *tournament.Tournament, rows []RankRow) []PageRankRow {
	out := make([]PageRankRow, len(rows))
	for i, r := range rows {
		p := t.Players[r.Player-1]
		out[i] = PageRankRow{Rank: r.Rank, Number: r.Player, SwissRank: r.SwissRank, Name: p.Name, Country: p.Country, Points: r.Points.String(),
			Final: r.Final, Withdrawn: r.Withdrawn}
	}
	return out
}

// FinalGames gives final games as the pages show them, each with its
// round of the final phase.
func FinalGames(t *tournament.Tournament, games []tournament.Game) []PageFinalGame {
	rounds := FinalRoundOf(t)
	out := make([]PageFinalGame, len(games))
	for i, g := range games {
		h := PageFinalGame{Seq: g.Seq, Round: rounds[g.Seq], Game: g.Game, Category: g.Category, Code: g.Match,
			Match:       MatchLabel(g.Category, g.Match),
			BlackNumber: g.Black, WhiteNumber: g.White, Black: numbered(t, g.Black), White: numbered(t, g.White),
			BlackName: t.Players[g.Black-1].Name, WhiteName: t.Players[g.White-1].Name}
		if g.Result != nil {
			h.Result, h.Moves = g.Result.String(), g.Result.Moves != ""
		}
		out[i] = h
	}
	return out
}

// FinalRound gives round k (from 1) of the final phase
// (tournament.FinalRounds): its games in the order paired.
func FinalRound(t *tournament.Tournament, k int) (PageFinalWall, error) {
	rounds := t.FinalRounds()
	if k < 1 || k > len(rounds) {
		if len(rounds) == 0 {
			return PageFinalWall{}, fmt.Errorf("final round %d: %w: no final game is paired ('otd final start' pairs the first)", k, tournament.ErrNoRound)
		}
		return PageFinalWall{}, fmt.Errorf("final round %d: %w (the final phase has rounds 1 to %d)", k, tournament.ErrNoRound, len(rounds))
	}
	return PageFinalWall{Round: k, Games: FinalGames(t, rounds[k-1])}, nil
}

// FinalWallPage gives what the wall sheet of round k of the final phase
// (FinalRound) shows: each game's match and game number, black and white.
func FinalWallPage(t *tournament.Tournament, k int) (Page, error) {
	wall, err := FinalRound(t, k)
	if err != nil {
		return Page{}, err
	}
	return Page{Name: t.Name, About: about(t), FinalWall: &wall}, nil
}

// A championship's reports (RULES.md section 7): the final phase, the final
// ranking, each category's ranking and the teams, beside the Swiss
// standings, which stay as they are. An event that is only a Swiss (no
// final phase, no category, no team setting, no player in a team of their
// own) has none of them: its reports are as they always were. One imported
// from a file whose games after the Swiss (its added results) were not
// matched has those games, and no more.

// Championship reports whether t is more than a Swiss: a final phase (its
// rules or its games), categories, the teams' rules, or a player entered in
// a team.
func Championship(t *tournament.Tournament) bool { return HasFinal(t) || HasTeams(t) }

// HasTeams reports whether t's settings make it a championship, with a
// team ranking: a final phase, categories, the teams' rules, or a player
// entered in a team.
func HasTeams(t *tournament.Tournament) bool {
	return !t.Final.IsZero() || len(t.Categories) > 0 || t.TeamRules.Best != 0 || len(t.TeamRules.Exclude) > 0 ||
		slices.ContainsFunc(t.Players, func(p tournament.Player) bool { return p.Team != "" })
}

// HasFinal reports whether t has a final phase: the open's or a category's
// rules, or final games (an imported file's).
func HasFinal(t *tournament.Tournament) bool {
	return len(t.FinalGames) > 0 || !t.Final.IsZero() ||
		slices.ContainsFunc(t.Categories, func(c tournament.Category) bool { return !c.Final.IsZero() })
}

// HasOpenFinal reports whether the open event has a final phase, and so a
// final ranking apart from the Swiss standings: its rules, or games of its
// matches.
func HasOpenFinal(t *tournament.Tournament) bool {
	return !t.Final.IsZero() || slices.ContainsFunc(t.FinalGames, func(g tournament.Game) bool { return g.Category == "" && g.Match != "" })
}

// Phases gives the final phases that have rules or games: the open's, then
// the categories' in their order.
func Phases(t *tournament.Tournament) ([]tournament.FinalPhase, error) {
	var out []tournament.FinalPhase
	names := []string{""}
	for _, c := range t.Categories {
		names = append(names, c.Name)
	}
	for _, name := range names {
		ph, err := t.Phase(name)
		if err != nil {
			return nil, err
		}
		if !ph.Rules.IsZero() || slices.ContainsFunc(t.FinalGames, func(g tournament.Game) bool { return g.Category == name }) {
			out = append(out, ph)
		}
	}
	return out, nil
}

// RankRow is a place of a ranking after the Swiss: the final ranking, or a
// category's.
type RankRow struct {
	Rank, Player int
	SwissRank    int // the rank in the Swiss standings
	Points       scoring.HalfPoints
	Discs        int
	Final        bool // the place is the final phase's, not the Swiss order's
	Withdrawn    bool
}

// FinalPlaces is how many places of a phase's ranking its matches decide:
// 2 from the final, 2 more from a 3rd-place match; none until it is over.
func FinalPlaces(ph tournament.FinalPhase) int {
	if !ph.Over {
		return 0
	}
	n := 0
	for _, m := range ph.Matches {
		if m.Code == "F" || m.Code == "3P" {
			n += 2
		}
	}
	return n
}

// rankRows gives the places of order (player numbers), the first places
// of them decided by a final phase: then the Swiss order, where players
// equal in the Swiss standings share a place. The Swiss standings are those
// after the rounds paired so far.
func rankRows(t *tournament.Tournament, order []int, places int) ([]RankRow, error) {
	rows, err := t.Standings(t.Paired())
	if err != nil {
		return nil, err
	}
	swiss := map[int]scoring.Row{}
	for _, r := range rows {
		swiss[r.Player] = r
	}
	out := make([]RankRow, len(order))
	for i, n := range order {
		r := swiss[n]
		out[i] = RankRow{Rank: i + 1, Player: n, SwissRank: r.Rank, Points: r.Points, Discs: r.Discs, Final: i < places, Withdrawn: r.Withdrawn}
		if i > places && out[i-1].SwissRank == r.Rank {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out, nil
}

// FinalRanking gives the final ranking of t (tournament.FinalRanking):
// the places the final phase decides, then the Swiss order; over tells
// whether the final phase is over.
func FinalRanking(t *tournament.Tournament) (rows []RankRow, over bool, err error) {
	order, over, err := t.FinalRanking()
	if err != nil {
		return nil, false, err
	}
	ph, err := t.Phase("")
	if err != nil {
		return nil, false, err
	}
	rows, err = rankRows(t, order, FinalPlaces(ph))
	return rows, over, err
}

// CategoryRanking gives the ranking of category name
// (tournament.CategoryRanking), with its final phase.
func CategoryRanking(t *tournament.Tournament, name string) ([]RankRow, tournament.FinalPhase, error) {
	order, err := t.CategoryRanking(name)
	if err != nil {
		return nil, tournament.FinalPhase{}, err
	}
	ph, err := t.Phase(name)
	if err != nil {
		return nil, ph, err
	}
	rows, err := rankRows(t, order, FinalPlaces(ph))
	return rows, ph, err
}

// MatchLabel names a match for people: "Semi-final 1" for SF1, "Final",
// "3rd place", "Play-off", "Quarter-final 2"; a category's after its name:
// "women: Final".
func MatchLabel(category, code string) string {
	label := code
	switch {
	case code == "":
		label = "(not known)"
	case code == "PO":
		label = "Play-off"
	case code == "F":
		label = "Final"
	case code == "3P":
		label = "3rd place"
	case strings.HasPrefix(code, "SF"):
		label = "Semi-final " + code[2:]
	case strings.HasPrefix(code, "QF"):
		label = "Quarter-final " + code[2:]
	}
	if category != "" { // "Youth semi-final 1", "Women final"
		return strings.ToUpper(category[:1]) + category[1:] + " " + strings.ToLower(label[:1]) + label[1:]
	}
	return label
}

// FinalRoundOf numbers the final games by their round of the final phase
// (tournament.FinalRounds), by Seq.
func FinalRoundOf(t *tournament.Tournament) map[int]int {
	out := map[int]int{}
	for k, r := range t.FinalRounds() {
		for _, g := range r {
			out[g.Seq] = k + 1
		}
	}
	return out
}

// CountedText gives a team's members counted: "3 Cy (1); 4 Di (0.5)".
func CountedText(t *tournament.Tournament, tm tournament.Team) string {
	rows, _ := t.Standings(t.Paired()) // Teams read them already
	pts := map[int]scoring.HalfPoints{}
	for _, r := range rows {
		pts[r.Player] = r.Points
	}
	var out []string
	for _, n := range tm.Counted {
		out = append(out, fmt.Sprintf("%d %s (%s)", n, t.Players[n-1].Name, pts[n]))
	}
	return strings.Join(out, "; ")
}
