package export

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

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
func Championship(t *tournament.Tournament) bool { return hasFinal(t) || hasTeams(t) }

// hasTeams reports whether t's settings make it a championship, with a
// team ranking: a final phase, categories, the teams' rules, or a player
// entered in a team.
func hasTeams(t *tournament.Tournament) bool {
	return !t.Final.IsZero() || len(t.Categories) > 0 || t.TeamRules.Best != 0 || len(t.TeamRules.Exclude) > 0 ||
		slices.ContainsFunc(t.Players, func(p tournament.Player) bool { return p.Team != "" })
}

// hasFinal reports whether t has a final phase: the open's or a category's
// rules, or final games (an imported file's).
func hasFinal(t *tournament.Tournament) bool {
	return len(t.FinalGames) > 0 || !t.Final.IsZero() ||
		slices.ContainsFunc(t.Categories, func(c tournament.Category) bool { return !c.Final.IsZero() })
}

// hasOpenFinal reports whether the open event has a final phase, and so a
// final ranking apart from the Swiss standings: its rules, or games of its
// matches.
func hasOpenFinal(t *tournament.Tournament) bool {
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
	if category != "" {
		return category + ": " + label
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

// decidedBy gives, for each final game that decided its match (the
// match's last game), the match: by Seq.
func decidedBy(phases []tournament.FinalPhase) map[int]tournament.Match {
	out := map[int]tournament.Match{}
	for _, ph := range phases {
		for _, m := range ph.Matches {
			if m.Decided() && len(m.Games) > 0 {
				out[m.Games[len(m.Games)-1].Seq] = m
			}
		}
	}
	return out
}

// FinalPhaseSheet is every game of the final phases in the order paired:
// its round of the final phase, category ("" the open), match (PO, QF1-4,
// SF1, SF2, F, 3P; empty if an imported file's game was not matched) and
// game number, the players, the result as in the Rounds sheet, and on the
// game that decided its match, the match's winner, the points of both and
// how a level match was decided.
func FinalPhaseSheet(t *tournament.Tournament) (Sheet, error) {
	s := Sheet{Name: "Final phase", Columns: columns("Round", "Category", "Match", "Game", "Black", "Black name", "White", "White name",
		"Black discs", "White discs", "Result", "Loser", "End", "Note", "Moves", "Match winner", "Winner name", "Winner points", "Loser points", "Decided by")}
	s.Columns[17].Decimals, s.Columns[18].Decimals = 1, 1
	phases, err := Phases(t)
	if err != nil {
		return Sheet{}, err
	}
	rounds, decided := FinalRoundOf(t), decidedBy(phases)
	for _, g := range t.FinalGames {
		line := []any{rounds[g.Seq], g.Category, g.Match, g.Game, g.Black, t.Players[g.Black-1].Name, g.White, t.Players[g.White-1].Name,
			nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
		if r := g.Result; r != nil {
			line[8], line[9], line[10], line[11], line[12], line[13], line[14] = r.Black, r.White, string(r.Kind), string(r.Loser), r.End, r.Note, r.Moves
		}
		if m, ok := decided[g.Seq]; ok {
			wp, lp := m.APoints, m.BPoints
			if m.Winner == m.B {
				wp, lp = lp, wp
			}
			line[15], line[16], line[17], line[18], line[19] = m.Winner, t.Players[m.Winner-1].Name, points(wp), points(lp), m.How
		}
		s.Rows = append(s.Rows, line)
	}
	return s, nil
}

// rankingSheet is a ranking after the Swiss as a sheet.
func rankingSheet(t *tournament.Tournament, name string, rows []RankRow) Sheet {
	s := Sheet{Name: name, Columns: columns("Rank", "No", "Name", "Country", "Swiss rank", "Points", "Discs", "Final phase")}
	s.Columns[5].Decimals = 1
	for _, r := range rows {
		p := t.Players[r.Player-1]
		s.Rows = append(s.Rows, []any{r.Rank, r.Player, p.Name, p.Country, r.SwissRank, points(r.Points), r.Discs, r.Final})
	}
	return s
}

// FinalRankingSheet is the final ranking, as 'otd standings --final' gives
// it: the places the final phase decides (Final phase TRUE), then the
// Swiss order, with each player's Swiss rank, points and discs.
func FinalRankingSheet(t *tournament.Tournament) (Sheet, error) {
	rows, _, err := FinalRanking(t)
	if err != nil {
		return Sheet{}, err
	}
	return rankingSheet(t, "Final ranking", rows), nil
}

// TeamsSheet is the team ranking, as 'otd teams' gives it: each team's
// rank (equal scores share it), points, the members counted with their
// Swiss points, and how many members it has.
func TeamsSheet(t *tournament.Tournament) (Sheet, error) {
	teams, err := t.Teams()
	if err != nil {
		return Sheet{}, err
	}
	s := Sheet{Name: "Teams", Columns: columns("Rank", "Team", "Points", "Counted", "Members")}
	s.Columns[2].Decimals = 1
	for _, tm := range teams {
		s.Rows = append(s.Rows, []any{tm.Rank, tm.Name, points(tm.Points), countedText(t, tm), len(tm.Members)})
	}
	return s, nil
}

// countedText gives a team's members counted: "3 Cy (1); 4 Di (0.5)".
func countedText(t *tournament.Tournament, tm tournament.Team) string {
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

// championshipSheets are the sheets of a championship, after the Rounds
// sheet: the final phase and the final ranking, a sheet a category, the
// teams; none for an event that is only a Swiss (an imported event's
// unmatched final games: the final phase only).
func championshipSheets(t *tournament.Tournament) ([]Sheet, error) {
	if !Championship(t) {
		return nil, nil
	}
	var out []Sheet
	if hasFinal(t) {
		s, err := FinalPhaseSheet(t)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if hasOpenFinal(t) {
		s, err := FinalRankingSheet(t)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if !hasTeams(t) {
		return out, nil
	}
	taken := []string{"Tournament", "Standings", "Crosstable", "Rounds", "Final phase", "Final ranking", "Teams", "Players"}
	for _, c := range t.Categories {
		rows, _, err := CategoryRanking(t, c.Name)
		if err != nil {
			return nil, err
		}
		name := sheetName(c.Name, taken)
		taken = append(taken, name)
		out = append(out, rankingSheet(t, name, rows))
	}
	s, err := TeamsSheet(t)
	if err != nil {
		return nil, err
	}
	return append(out, s), nil
}

// sheetName makes a category's name a sheet's: at most 31 characters,
// none of []:*?/\ (a spreadsheet refuses them), and not a name taken
// (spreadsheets ignore case) nor one whose CSV file's name is taken:
// "Category NAME" then, or with a number.
func sheetName(name string, taken []string) string {
	clean := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) || unicode.IsControl(r) {
			return '_'
		}
		return r
	}, name)
	cut := func(s, suffix string) string { // to 31 characters with the suffix
		if r := []rune(s); len(r) > 31-len(suffix) {
			s = string(r[:31-len(suffix)])
		}
		return s + suffix
	}
	free := func(s string) bool { // and its CSV file's name
		return !slices.ContainsFunc(taken, func(x string) bool {
			return strings.EqualFold(x, s) || Sheet{Name: x}.CSVName() == Sheet{Name: s}.CSVName()
		})
	}
	if s := cut(clean, ""); free(s) {
		return s
	}
	for i := 1; ; i++ {
		suffix := ""
		if i > 1 {
			suffix = " " + strconv.Itoa(i)
		}
		if s := cut("Category "+clean, suffix); free(s) {
			return s
		}
	}
}
