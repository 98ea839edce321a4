package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

type standingsOptions struct {
	Round     int // -1: the last finished round
	JSON, CSV bool
}

func newStandingsCmd(g *globals) *cobra.Command {
	o := standingsOptions{Round: -1}
	cmd := &cobra.Command{
		Use:   "standings",
		Short: "Print the standings: points, then the tournament's tie-breaks",
		Long: `standings ranks the players by points, then by the tournament's tie-breaks
(by default the Brightwell Quotient, then the disc count). Points show a half
as .5; withdrawn players are marked. Without --round it gives the standings
after the last round whose results are all in.`,
		Example: "  otd standings\n  otd standings --round 3\n  otd standings --json\n  otd standings --csv > standings.csv",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			if o.JSON && o.CSV {
				return usageErrorf("standings: --json or --csv, not both")
			}
			t, err := g.current()
			if err != nil {
				return err
			}
			return runStandings(g, t, o)
		},
	}
	cmd.Flags().IntVar(&o.Round, "round", -1, "standings after round `R` (default: the last finished round)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON: rank, number, name, points, bq, discs, ...")
	cmd.Flags().BoolVar(&o.CSV, "csv", false, "print CSV")
	return cmd
}

func runStandings(g *globals, t *tournament.Tournament, o standingsOptions) error {
	r := o.Round
	if r < 0 {
		r = t.Finished()
	}
	rows, err := t.Standings(r)
	if err != nil {
		return err
	}
	out := make([]standingJSON, len(rows))
	for i, row := range rows {
		p := t.Players[row.Player-1]
		out[i] = standingJSON{Rank: row.Rank, Number: p.Number, Name: p.Name, Country: p.Country,
			Points: json.Number(row.Points.String()), BQ: json.Number(row.BQ.String()), BQRounded: row.BQ.Round(),
			Discs: row.Discs, Games: row.Games, Withdrawn: row.Withdrawn}
	}
	switch {
	case o.JSON:
		return writeJSON(g.Stdout, out)
	case o.CSV:
		w := csv.NewWriter(g.Stdout)
		w.Write([]string{"rank", "number", "name", "country", "points", "bq", "discs", "games", "withdrawn"})
		for _, s := range out {
			w.Write([]string{strconv.Itoa(s.Rank), strconv.Itoa(s.Number), s.Name, s.Country, string(s.Points), string(s.BQ),
				strconv.Itoa(s.Discs), strconv.Itoa(s.Games), strconv.FormatBool(s.Withdrawn)})
		}
		w.Flush()
		return w.Error()
	}
	fmt.Fprintf(g.Stdout, "%s: standings after round %d of %d (BQ %s)\n", t.Name, r, t.Rounds, t.BQ)
	var tab [][]string
	for _, s := range out {
		name := s.Name
		if s.Withdrawn {
			name += " (withdrawn)"
		}
		tab = append(tab, []string{strconv.Itoa(s.Rank), strconv.Itoa(s.Number), name, s.Country, string(s.Points), string(s.BQ), strconv.Itoa(s.Discs), strconv.Itoa(s.Games)})
	}
	return table(g.Stdout, []string{"Rank", "No", "Name", "Country", "Points", "BQ", "Discs", "Games"}, tab)
}

func newCrosstableCmd(g *globals) *cobra.Command {
	var asJSON bool
	var round int
	cmd := &cobra.Command{
		Use:   "crosstable",
		Short: "Print the crosstable: each player's opponent, colour and result in every round",
		Long: `crosstable prints, in standings order, each player's rounds as
opponent-number, colour (b/w) and discs, e.g. "12w40" for 40 discs as white
against player 12; "bye" and "-" for a round not played; "+"/"=" mark a win or draw.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			r := round
			if r < 0 {
				r = t.Finished()
			}
			rows, err := t.Standings(r)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.Stdout, newCrosstableJSON(t, rows))
			}
			header := []string{"Rank", "No", "Name", "Points"}
			if len(rows) > 0 { // the rounds counted: none after the last with a result
				for k := 1; k <= len(rows[0].Rounds); k++ {
					header = append(header, fmt.Sprintf("R%d", k))
				}
			}
			var tab [][]string
			for _, row := range rows {
				line := []string{strconv.Itoa(row.Rank), strconv.Itoa(row.Player), t.Players[row.Player-1].Name, row.Points.String()}
				for _, c := range row.Rounds {
					line = append(line, cellText(c))
				}
				tab = append(tab, line)
			}
			return table(g.Stdout, header, tab)
		},
	}
	cmd.Flags().IntVar(&round, "round", -1, "crosstable after round `R` (default: the last finished round)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the crosstable as JSON")
	return cmd
}

func cellText(c scoring.Cell) string {
	switch c.Kind {
	case scoring.Missed:
		return "-"
	case scoring.Bye:
		return "bye"
	}
	mark := "-"
	switch c.Points {
	case scoring.Point:
		mark = "+"
	case scoring.Half:
		mark = "="
	}
	return fmt.Sprintf("%s%d%s%d", mark, c.Opponent, c.Colour.String()[:1], c.Discs)
}

func newCrosstableJSON(t *tournament.Tournament, rows []scoring.Row) []crosstableJSON {
	out := []crosstableJSON{}
	for _, row := range rows {
		x := crosstableJSON{Rank: row.Rank, Number: row.Player, Name: t.Players[row.Player-1].Name, Points: json.Number(row.Points.String())}
		for k, c := range row.Rounds {
			x.Rounds = append(x.Rounds, cellJSON{Round: k + 1, Kind: c.Kind.String(), Opponent: c.Opponent, Colour: c.Colour.String(),
				Points: json.Number(c.Points.String()), Discs: c.Discs, OpponentDiscs: c.OpponentDiscs})
		}
		out = append(out, x)
	}
	return out
}
