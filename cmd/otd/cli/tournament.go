package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newTournamentCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tournament",
		Short: "Create, list, choose and set up tournaments",
		Long: `A database file (--db, default ./otd.db) may hold several tournaments; the
one last created or chosen with 'otd tournament use' is the current one, which
the other commands act on.`,
	}
	cmd.AddCommand(newTournamentNewCmd(g), newTournamentListCmd(g), newTournamentShowCmd(g), newTournamentUseCmd(g), newTournamentSetCmd(g))
	return cmd
}

// settingsFlags defines the flags of the settings, each set straight into s
// through its TextUnmarshaler.
func settingsFlags(f *pflag.FlagSet, s *tournament.Settings) {
	f.IntVar(&s.Rounds, "rounds", s.Rounds, "number of rounds")
	f.TextVar(&s.System, "system", s.System, "pairing `system`: swiss or roundrobin")
	f.TextVar(&s.BQ, "bq", s.BQ, "Brightwell Quotient `rule`: nearest (64/rounds rounded), wof (Papp: 6, 0 under 8 rounds), exact (64/rounds), or a number")
	f.TextVar(&s.TimeDefault, "time-default", s.TimeDefault, "`policy` of a time default: complete (completed game, at least 33-31), fixed (33-31) or wipeout (64-0)")
	f.TextVar(&s.ByePoints, "bye-points", s.ByePoints, "`points` for a bye: 1 or 0.5")
	f.TextVar(&s.TieBreaks, "tiebreaks", s.TieBreaks, "tie-break `chain`: points, bq, discs, h2h, wins, diff in any order, or 'japanese' (wins, disc difference, h2h)")
	f.TextVar(&s.FirstRound, "first-round", s.FirstRound, "round 1 `pairing`: rating (top half against bottom half) or random (seeded)")
	f.Uint64Var(&s.Seed, "seed", s.Seed, "seed of the pairing's random choices (colour lots, random first round)")
}

func newTournamentNewCmd(g *globals) *cobra.Command {
	s := tournament.DefaultSettings("", 0)
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "new NAME --rounds N",
		Short: "Create a tournament and make it the current one",
		Example: `  otd tournament new "Paris Open 2026" --rounds 7
  otd tournament new "WOC 2027" --rounds 13 --bq wof --first-round random --seed 2027
  otd tournament new "Club night" --rounds 5 --system roundrobin --bye-points 0.5`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			s.Name = args[0]
			if err := s.Check(); err != nil {
				return usageErrorf("tournament new: %w", err)
			}
			d, done, err := g.app(true)
			if err != nil {
				return err
			}
			defer done()
			t, err := d.Create(context.Background(), s)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.Stdout, newTournamentJSON(t))
			}
			fmt.Fprintf(g.Stdout, "Tournament %d: %s, %d rounds (%s). It is now the current tournament.\n", t.ID, s.Name, s.Rounds, s.System)
			return nil
		},
	}
	settingsFlags(cmd.Flags(), &s)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the tournament as JSON")
	cmd.MarkFlagRequired("rounds")
	return cmd
}

func newTournamentSetCmd(g *globals) *cobra.Command {
	var edit tournament.Settings
	var name string
	cmd := &cobra.Command{
		Use:   "set [--name NAME] [--rounds N] [--bq RULE] [--tiebreaks CHAIN] ...",
		Short: "Change the current tournament's settings",
		Long: `set changes the settings named. The name, the number of rounds (not below
those paired), the BQ rule and the tie-breaks may change at any time: the
standings follow. The options that decide pairings and recorded scores
(system, first round, seed, time default, bye points) change only until
round 1 is paired. The change is in 'otd log'; 'otd undo' reverts it.`,
		Example: `  otd tournament set --bq wof
  otd tournament set --rounds 9 --tiebreaks points,bq,discs,h2h`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			changed := cmd.Flags().Changed
			if cmd.Flags().NFlag() == 0 {
				return usageErrorf("tournament set: nothing to change: name a setting, e.g. --bq wof")
			}
			t, _, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) {
				s := t.Settings
				for _, f := range []struct {
					flag string
					set  func()
				}{
					{"name", func() { s.Name = name }}, {"rounds", func() { s.Rounds = edit.Rounds }},
					{"system", func() { s.System = edit.System }}, {"bq", func() { s.BQ = edit.BQ }},
					{"time-default", func() { s.TimeDefault = edit.TimeDefault }}, {"bye-points", func() { s.ByePoints = edit.ByePoints }},
					{"tiebreaks", func() { s.TieBreaks = edit.TieBreaks }}, {"first-round", func() { s.FirstRound = edit.FirstRound }},
					{"seed", func() { s.Seed = edit.Seed }},
				} {
					if changed(f.flag) {
						f.set()
					}
				}
				return t.ChangeSettings(s)
			})
			if err != nil {
				return invalidAsUsage(err)
			}
			return printSettings(g, t)
		},
	}
	edit = tournament.DefaultSettings("", 0)
	cmd.Flags().StringVar(&name, "name", "", "the tournament's new name")
	settingsFlags(cmd.Flags(), &edit)
	return cmd
}

func newTournamentListCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the tournaments of the database",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			d, done, err := g.app(false)
			if err != nil {
				return err
			}
			defer done()
			list, err := d.Tournaments(context.Background())
			if err != nil {
				return err
			}
			out := []tournamentListJSON{}
			var rows [][]string
			for _, s := range list {
				out = append(out, tournamentListJSON{ID: s.ID, Name: s.Name, Rounds: s.Rounds, Players: s.Players, Paired: s.Paired, Current: s.Current})
				cur := ""
				if s.Current {
					cur = "*"
				}
				rows = append(rows, []string{cur, strconv.FormatInt(s.ID, 10), s.Name, strconv.Itoa(s.Players), fmt.Sprintf("%d/%d", s.Paired, s.Rounds)})
			}
			if asJSON {
				return writeJSON(g.Stdout, out)
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
			t, err := g.current()
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.Stdout, newTournamentJSON(t))
			}
			return printSettings(g, t)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the settings as JSON")
	return cmd
}

func printSettings(g *globals, t *tournament.Tournament) error {
	s := t.Settings
	fmt.Fprintf(g.Stdout, "Tournament %d: %s\n", t.ID, s.Name)
	fmt.Fprintf(g.Stdout, "  rounds: %d (%d paired), system: %s, first round: %s, seed: %d\n", s.Rounds, t.Paired(), s.System, s.FirstRound, s.Seed)
	fmt.Fprintf(g.Stdout, "  players: %d\n", len(t.Players))
	fmt.Fprintf(g.Stdout, "  BQ: %s, tie-breaks: %s, time default: %s, bye: %s point\n", s.BQ, s.TieBreaks, s.TimeDefault, s.ByePoints)
	return nil
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
			d, done, err := g.app(false)
			if err != nil {
				return err
			}
			defer done()
			if err := d.Use(context.Background(), id); err != nil {
				return err
			}
			fmt.Fprintf(g.Stdout, "Tournament %d is now the current tournament.\n", id)
			return nil
		},
	}
}
