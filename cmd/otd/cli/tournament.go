package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newTournamentCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tournament",
		Short: "Create, list and choose tournaments",
		Long: `A database file (--db, default ./otd.db) may hold several tournaments; the
one last created or chosen with 'otd tournament use' is the current one, which
the other commands act on.`,
	}
	cmd.AddCommand(newTournamentNewCmd(g), newTournamentListCmd(g), newTournamentShowCmd(g), newTournamentUseCmd(g))
	return cmd
}

type tournamentNewOptions struct {
	Settings tournament.Settings
	ByePts   string
	JSON     bool
}

func newTournamentNewCmd(g *globals) *cobra.Command {
	o := tournamentNewOptions{Settings: tournament.DefaultSettings("", 0)}
	s := &o.Settings
	cmd := &cobra.Command{
		Use:   "new NAME --rounds N",
		Short: "Create a tournament and make it the current one",
		Example: `  otd tournament new "Paris Open 2026" --rounds 7
  otd tournament new "WOC 2027" --rounds 13 --bq wof --first-round random --seed 2027
  otd tournament new "Club night" --rounds 5 --system roundrobin --bye-points 0.5`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			s.Name = args[0]
			switch o.ByePts {
			case "1":
				s.ByeHalfPoints = 2
			case "0.5", ".5", "1/2":
				s.ByeHalfPoints = 1
			default:
				return usageErrorf("tournament new: --bye-points is 1 or 0.5, not %q", o.ByePts)
			}
			if err := tournament.CheckSettings(*s); err != nil {
				return usageErrorf("tournament new: %w", err)
			}
			return runTournamentNew(g, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&s.Rounds, "rounds", 0, "number of rounds (required)")
	f.StringVar(&s.System, "system", s.System, "pairing system: swiss or roundrobin")
	f.StringVar(&s.BQ, "bq", s.BQ, "Brightwell Quotient constant: nearest (64/rounds rounded), wof (Papp: 6, 0 under 8 rounds), exact (64/rounds), or a number")
	f.StringVar(&s.TimeDefault, "time-default", s.TimeDefault, "score of a time default: complete (completed game, at least 33-31), fixed (33-31) or wipeout (64-0)")
	f.StringVar(&o.ByePts, "bye-points", "1", "points for a bye: 1 or 0.5")
	f.StringVar(&s.Tiebreaks, "tiebreaks", s.Tiebreaks, "tie-break chain: points, bq, discs, h2h, wins, diff in any order, or 'japanese' (wins, disc difference, h2h)")
	f.StringVar(&s.FirstRound, "first-round", s.FirstRound, "round 1 pairing: rating (top half against bottom half) or random (seeded)")
	f.Uint64Var(&s.Seed, "seed", s.Seed, "seed of the pairing's random choices (colour lots, random first round)")
	f.BoolVar(&o.JSON, "json", false, "print the tournament as JSON")
	cmd.MarkFlagRequired("rounds")
	return cmd
}

func runTournamentNew(g *globals, o tournamentNewOptions) error {
	st, err := openStore(g, true)
	if err != nil {
		return err
	}
	defer st.Close()
	var id int64
	err = st.Update(context.Background(), func(tx *store.Tx) error {
		if id, err = tx.CreateTournament(o.Settings); err != nil {
			return err
		}
		_, err := tx.Audit(id, "tournament new", o.Settings.Name, nil, o.Settings)
		return err
	})
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(g.Stdout, settingsJSON(id, o.Settings))
	}
	fmt.Fprintf(g.Stdout, "Tournament %d: %s, %d rounds (%s). It is now the current tournament.\n", id, o.Settings.Name, o.Settings.Rounds, o.Settings.System)
	return nil
}

func settingsJSON(id int64, s tournament.Settings) map[string]any {
	return map[string]any{"id": id, "name": s.Name, "rounds": s.Rounds, "system": s.System, "bq": s.BQ,
		"time_default": s.TimeDefault, "bye_points": float64(s.ByeHalfPoints) / 2, "tiebreaks": s.Tiebreaks,
		"first_round": s.FirstRound, "seed": s.Seed}
}

func newTournamentListCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the tournaments of the database",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			st, err := openStore(g, false)
			if err != nil {
				return err
			}
			defer st.Close()
			var list []store.Summary
			if err := st.View(context.Background(), func(tx *store.Tx) (err error) {
				list, err = tx.Tournaments()
				return err
			}); err != nil {
				return err
			}
			if asJSON {
				out := []map[string]any{}
				for _, s := range list {
					out = append(out, map[string]any{"id": s.ID, "name": s.Name, "rounds": s.Rounds, "players": s.Players, "paired": s.Paired, "current": s.Current})
				}
				return writeJSON(g.Stdout, out)
			}
			var rows [][]string
			for _, s := range list {
				cur := ""
				if s.Current {
					cur = "*"
				}
				rows = append(rows, []string{cur, strconv.FormatInt(s.ID, 10), s.Name, strconv.Itoa(s.Players), fmt.Sprintf("%d/%d", s.Paired, s.Rounds)})
			}
			return table(g.Stdout, []string{"", "ID", "Name", "Players", "Rounds paired"}, rows)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func newTournamentShowCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show the current tournament's settings",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			return inTournament(g, false, func(_ *store.Tx, t *tournament.Tournament) error {
				if asJSON {
					m := settingsJSON(t.ID, t.Settings)
					m["players"], m["paired"] = len(t.Players), t.Paired()
					return writeJSON(g.Stdout, m)
				}
				s := t.Settings
				bye := "1"
				if s.ByeHalfPoints == 1 {
					bye = "0.5"
				}
				fmt.Fprintf(g.Stdout, "Tournament %d: %s\n", t.ID, s.Name)
				fmt.Fprintf(g.Stdout, "  rounds: %d (%d paired), system: %s, first round: %s, seed: %d\n", s.Rounds, t.Paired(), s.System, s.FirstRound, s.Seed)
				fmt.Fprintf(g.Stdout, "  players: %d\n", len(t.Players))
				fmt.Fprintf(g.Stdout, "  BQ: %s, tie-breaks: %s, time default: %s, bye: %s point\n", s.BQ, strings.ReplaceAll(s.Tiebreaks, ",", ", "), s.TimeDefault, bye)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the settings as JSON")
	return cmd
}

func newTournamentUseCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:     "use ID",
		Short:   "Make a tournament the current one",
		Example: "  otd tournament list\n  otd tournament use 2",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil {
				return usageErrorf("tournament use: ID is a number from 'otd tournament list', not %q", args[0])
			}
			st, err := openStore(g, false)
			if err != nil {
				return err
			}
			defer st.Close()
			if err := st.Update(context.Background(), func(tx *store.Tx) error { return tx.Use(id) }); err != nil {
				return err
			}
			fmt.Fprintf(g.Stdout, "Tournament %d is now the current tournament.\n", id)
			return nil
		},
	}
}
