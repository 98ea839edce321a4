package export

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// Sheet is one table of a tournament's report: a sheet of the XLSX file and
// a file of the CSV export, the same cells in both.
type Sheet struct {
	Name    string // "Standings"; the CSV file is named after it in lower case
	Columns []Column
	// Rows holds the cells: nil (empty), int, float64, bool, time.Time (a
	// day) or string. Every string is written through TextCell.
	Rows [][]any
}

// Column is a sheet's column: its header, and the decimals a spreadsheet
// shows of its float64 cells (points 1: "3.5", "3.0").
type Column struct {
	Title    string
	Decimals int
}

// columns makes the columns of the titles, without decimals.
func columns(titles ...string) []Column {
	cs := make([]Column, len(titles))
	for i, s := range titles {
		cs[i].Title = s
	}
	return cs
}

// Sheets returns the report of a tournament, as 'otd standings',
// 'otd crosstable', 'otd round show' and 'otd player list' give it: the
// tournament and its settings, the standings and the crosstable after the
// last finished round, every game of every paired round, the players. A
// championship has more after the rounds (championshipSheets): its final
// phase, final ranking, categories and teams.
func Sheets(t *tournament.Tournament) ([]Sheet, error) {
	v, err := t.View(t.Finished())
	if err != nil {
		return nil, err
	}
	rounds, err := roundsSheet(t)
	if err != nil {
		return nil, err
	}
	settings, err := championshipRows(t)
	if err != nil {
		return nil, err
	}
	more, err := championshipSheets(t)
	if err != nil {
		return nil, err
	}
	about := tournamentSheet(t, v)
	about.Rows = append(about.Rows, settings...)
	sheets := []Sheet{about, StandingsSheet(t, v), CrosstableSheet(t, v), rounds}
	return append(append(sheets, more...), playersSheet(t)), nil
}

// points gives half-points as a number: 3.5.
func points(h scoring.HalfPoints) float64 { return float64(h) / 2 }

// optional gives 0 as an empty cell, and any other number as it is.
func optional(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

// bqDecimals is the number of decimals a BQ has under the tournament's rule:
// 0 with an even constant, 1 with an odd one (points come in halves), 2
// with a fraction (exact: 64/13), as BQ.String writes it.
func bqDecimals(t *tournament.Tournament) int {
	num, den := t.Rules().Constant(t.Rounds)
	switch {
	case num%den != 0:
		return 2
	case num/den%2 != 0:
		return 1
	}
	return 0
}

// tournamentSheet is the tournament: its name, dates, place, director and
// settings, an item a row.
func tournamentSheet(t *tournament.Tournament, v tournament.View) Sheet {
	date := func(d tournament.Date) any {
		if d.IsZero() {
			return nil
		}
		return d.Time()
	}
	num, den := t.Rules().Constant(t.Rounds)
	c := strconv.Itoa(num / den)
	if num%den != 0 {
		c = fmt.Sprintf("%d/%d", num, den)
	}
	s := Sheet{Name: "Tournament", Columns: []Column{{Title: "Item"}, {Title: "Value", Decimals: 1}}}
	s.Rows = [][]any{
		{"Name", t.Name},
		{"Start", date(t.Start)},
		{"End", date(t.End)},
		{"City", t.City},
		{"Country", t.Country},
		{"Director", t.Director},
		{"Players", len(t.Players)},
		{"Rounds", t.Rounds},
		{"Rounds paired", t.Paired()},
		{"Standings after round", v.Round},
		{"System", string(t.System)},
		{"Game", fmt.Sprintf("%s (%dx%d, %d squares)", t.GameRules(), t.GameRules().Size, t.GameRules().Size, t.GameRules().Squares())},
		{"BQ rule", fmt.Sprintf("%s (c = %s)", t.BQ, c)},
		{"Time default", t.TimeDefault.String()},
		{"Bye points", points(t.ByePoints)},
		{"Tie-breaks", t.TieBreaks.String()},
		{"First round", t.FirstRound.String()},
		{"Pairing model", t.Pairing.String()},
		{"Seed", strconv.FormatUint(t.Seed, 10)}, // an id, not a quantity: it may not fit a spreadsheet's number
	}
	return s
}

// championshipRows are the Tournament sheet's rows of a championship's
// settings: the final phases (and why one is not played), the categories,
// the teams' rule; none for an event that is only a Swiss.
func championshipRows(t *tournament.Tournament) ([][]any, error) {
	if !app.Championship(t) {
		return nil, nil
	}
	var out [][]any
	if app.HasOpenFinal(t) {
		out = append(out, []any{"Final phase", t.Final.String()})
	}
	for _, c := range t.Categories {
		c = t.Resolve(c)
		about := []string{tournament.Plural(len(t.Members(c.Name)), "member")}
		if c.BornFrom != 0 {
			about = append(about, fmt.Sprintf("born in %d or later", c.BornFrom))
		}
		if c.BornTo != 0 {
			about = append(about, fmt.Sprintf("born in %d or earlier", c.BornTo))
		}
		ph, err := t.Phase(c.Name)
		if err != nil {
			return nil, err
		}
		if !c.Final.IsZero() {
			about = append(about, "final phase "+c.Final.String())
		}
		if !ph.Skipped.IsZero() {
			about = append(about, "not played: "+ph.Skipped.String())
		}
		out = append(out, []any{"Category " + c.Name, strings.Join(about, "; ")})
	}
	if !app.HasTeams(t) {
		return out, nil
	}
	teams := fmt.Sprintf("the best %d Swiss scores of each", cmp.Or(t.TeamRules.Best, 3))
	if len(t.TeamRules.Exclude) > 0 {
		teams += ", not counting " + strings.Join(t.TeamRules.Exclude, ", ")
	}
	return append(out, []any{"Teams", teams}), nil
}

// StandingsSheet is the standings of the view, as 'otd standings' gives
// them, with each player's rating; BQ with the decimals of the tournament's
// rule.
func StandingsSheet(t *tournament.Tournament, v tournament.View) Sheet {
	s := Sheet{Name: "Standings", Columns: columns("Rank", "No", "Name", "Country", "Rating", "Points", "BQ", "Discs", "Games", "Withdrawn")}
	s.Columns[5].Decimals, s.Columns[6].Decimals = 1, bqDecimals(t)
	for _, row := range v.Rows {
		p := t.Players[row.Player-1]
		bq, _ := strconv.ParseFloat(row.BQ.String(), 64) // as --json gives it
		s.Rows = append(s.Rows, []any{row.Rank, p.Number, p.Name, p.Country, optional(p.Rating), points(row.Points), bq,
			row.Discs, row.Games, row.Withdrawn})
	}
	return s
}

// CrosstableSheet is the crosstable of the view, as 'otd crosstable --json'
// gives it: a row a player in standings order, and for each round the
// opponent's number, the player's colour, points and discs, the opponent's
// discs and what the round was: normal, time-default, forfeit (not played:
// the discs are the bye's convention), bye or missed. A bye and a missed
// round have no opponent and no colour.
func CrosstableSheet(t *tournament.Tournament, v tournament.View) Sheet {
	s := Sheet{Name: "Crosstable", Columns: columns("Rank", "No", "Name", "Points", "Withdrawn")}
	s.Columns[3].Decimals = 1
	if len(v.Rows) > 0 {
		for k := range v.Rows[0].Rounds {
			r := fmt.Sprintf("R%d ", k+1)
			s.Columns = append(s.Columns, Column{Title: r + "opp"}, Column{Title: r + "colour"}, Column{Title: r + "points", Decimals: 1},
				Column{Title: r + "discs"}, Column{Title: r + "opp discs"}, Column{Title: r + "kind"})
		}
	}
	for _, row := range v.Rows {
		line := []any{row.Rank, row.Player, t.Players[row.Player-1].Name, points(row.Points), row.Withdrawn}
		for _, c := range row.Rounds {
			var colour any
			if c.Opponent != 0 {
				colour = c.Colour.String()
			}
			line = append(line, optional(c.Opponent), colour, points(c.Points), c.Discs, c.OpponentDiscs, c.Kind.String())
		}
		s.Rows = append(s.Rows, line)
	}
	return s
}

// roundsSheet is every game of every paired round, as 'otd round show
// --json' gives them, with the players' names: the points before the round,
// the discs as recorded and how the game ended (normal, time-default,
// forfeit or bye; empty without a result), the loser of a default, and for a
// game otd played the end (normal, time, crash, illegal, no reply), why in
// words, and the moves.
func roundsSheet(t *tournament.Tournament) (Sheet, error) {
	s := Sheet{Name: "Rounds", Columns: columns("Round", "Table", "Black", "Black name", "Black points", "White", "White name", "White points",
		"Black discs", "White discs", "Result", "Loser", "End", "Note", "Moves")}
	s.Columns[4].Decimals, s.Columns[7].Decimals = 1, 1
	var pts map[int]scoring.HalfPoints
	for i, g := range t.Games {
		if i == 0 || g.Round != t.Games[i-1].Round {
			var err error
			if pts, err = t.PointsAfter(g.Round - 1); err != nil {
				return Sheet{}, err
			}
		}
		line := []any{g.Round, g.Table, g.Black, t.Players[g.Black-1].Name, points(pts[g.Black]), nil, nil, nil, nil, nil, "bye", nil, nil, nil, nil}
		if !g.IsBye() {
			line[5], line[6], line[7], line[10] = g.White, t.Players[g.White-1].Name, points(pts[g.White]), nil
		}
		if r := g.Result; r != nil {
			line[8], line[9], line[10], line[11], line[12], line[13], line[14] = r.Black, r.White, string(r.Kind), string(r.Loser), r.End, r.Note, r.Moves
		}
		s.Rows = append(s.Rows, line)
	}
	return s, nil
}

// playersSheet is the players, as 'otd player list --json' gives them.
func playersSheet(t *tournament.Tournament) Sheet {
	s := Sheet{Name: "Players", Columns: columns("No", "Name", "WOF id", "Rating", "Country", "First round", "Withdrawn before round", "Absent", "Engine")}
	for _, p := range t.Players {
		absent := make([]string, len(p.Absent))
		for i, r := range p.Absent {
			absent[i] = strconv.Itoa(r)
		}
		s.Rows = append(s.Rows, []any{p.Number, p.Name, optional(p.WOFID), optional(p.Rating), p.Country, p.FirstRound, optional(p.Left),
			strings.Join(absent, ", "), p.Engine})
	}
	return s
}

// cellText is a cell as a CSV file writes it: numbers as --json writes
// them, a day YYYY-MM-DD, strings through TextCell.
func cellText(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case time.Time:
		return v.Format(time.DateOnly)
	case string:
		return TextCell(v)
	}
	panic(fmt.Sprintf("export: a cell of type %T", v))
}
