package export

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

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
	phases, err := app.Phases(t)
	if err != nil {
		return Sheet{}, err
	}
	rounds, decided := app.FinalRoundOf(t), decidedBy(phases)
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
			line[15], line[16], line[17], line[18], line[19] = m.Winner, t.Players[m.Winner-1].Name, points(wp), points(lp), m.How.String()
		}
		s.Rows = append(s.Rows, line)
	}
	return s, nil
}

// rankingSheet is a ranking after the Swiss as a sheet.
func rankingSheet(t *tournament.Tournament, name string, rows []app.RankRow) Sheet {
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
	rows, _, err := app.FinalRanking(t)
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
		s.Rows = append(s.Rows, []any{tm.Rank, tm.Name, points(tm.Points), app.CountedText(t, tm), len(tm.Members)})
	}
	return s, nil
}

// championshipSheets are the sheets of a championship, after the Rounds
// sheet: the final phase and the final ranking, a sheet a category, the
// teams; none for an event that is only a Swiss (an imported event's
// unmatched final games: the final phase only).
func championshipSheets(t *tournament.Tournament) ([]Sheet, error) {
	if !app.Championship(t) {
		return nil, nil
	}
	var out []Sheet
	if app.HasFinal(t) {
		s, err := FinalPhaseSheet(t)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if app.HasOpenFinal(t) {
		s, err := FinalRankingSheet(t)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if !app.HasTeams(t) {
		return out, nil
	}
	taken := []string{"Tournament", "Standings", "Crosstable", "Rounds", "Final phase", "Final ranking", "Teams", "Players"}
	for _, c := range t.Categories {
		rows, _, err := app.CategoryRanking(t, c.Name)
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
