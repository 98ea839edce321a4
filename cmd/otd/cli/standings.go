package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/store"
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
			return inTournament(g, false, func(_ *store.Tx, t *tournament.Tournament) error {
				return runStandings(g, t, o)
			})
		},
	}
	cmd.Flags().IntVar(&o.Round, "round", -1, "standings after round `R` (default: the last finished round)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON: rank, number, name, points, bq, discs, ...")
	cmd.Flags().BoolVar(&o.CSV, "csv", false, "print CSV")
	return cmd
}

type standingJSON struct {
	Rank      int         `json:"rank"`
	Number    int         `json:"number"`
	Name      string      `json:"name"`
	Country   string      `json:"country,omitempty"`
	Points    json.Number `json:"points"`
	BQ        json.Number `json:"bq"`
	BQRounded int         `json:"bq_rounded"`
	Discs     int         `json:"discs"`
	Games     int         `json:"games"`
	Withdrawn bool        `json:"withdrawn,omitempty"`
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
			return inTournament(g, false, func(_ *store.Tx, t *tournament.Tournament) error {
				r := round
				if r < 0 {
					r = t.Finished()
				}
				rows, err := t.Standings(r)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(g.Stdout, crosstableJSON(t, rows))
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
			})
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

func crosstableJSON(t *tournament.Tournament, rows []scoring.Row) []map[string]any {
	out := []map[string]any{}
	for _, row := range rows {
		var rounds []map[string]any
		for k, c := range row.Rounds {
			rounds = append(rounds, map[string]any{"round": k + 1, "kind": c.Kind.String(), "opponent": c.Opponent,
				"colour": c.Colour.String(), "points": json.Number(c.Points.String()), "discs": c.Discs, "opponent_discs": c.OpponentDiscs})
		}
		out = append(out, map[string]any{"rank": row.Rank, "number": row.Player, "name": t.Players[row.Player-1].Name,
			"points": json.Number(row.Points.String()), "rounds": rounds})
	}
	return out
}
