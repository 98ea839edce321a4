package cli

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/otd-project/otd/pairing"
)

func newPairingCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pairing",
		Short: "Tools of the pairing engine",
		Long: `The pairing engine pairs each Swiss round as one minimum-cost perfect matching
over all players (Edmonds' blossom algorithm, Papp's cost model). 'pairing
simulate' shows how it fares over a whole random tournament.`,
	}
	cmd.AddCommand(newPairingSimulateCmd(g, nil))
	return cmd
}

type simulateOptions struct {
	Players, Rounds int
	Seed            uint64
	System          string
	JSON            bool
}

func newPairingSimulateCmd(g *globals, runF func(simulateOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o simulateOptions) error { return runSimulate(g, o) }
	}
	var o simulateOptions
	cmd := &cobra.Command{
		Use:   "simulate --players N --rounds R [--seed S] [--system swiss|roundrobin] [--json]",
		Short: "Pair a seeded random tournament and report on every round",
		Long: `Simulate generates a random tournament from a seed (ratings, results drawn from
the ratings: P(win) = 1/(1+3^(-diff/200)), plausible disc counts, some ties),
pairs every round with the pairing engine, checks every pairing, and reports:
rematches, second byes, the score gaps of pairs across score groups (and
whether any round's largest gap is larger than the field forces), the worst
colour imbalance |blacks - whites| of any player, the players with the same
colour three times running, and the time each round's pairing took.

Score gaps are in points. The forced gap of a round is the least largest gap of
any pairing that keeps the absolute rules without a rematch.`,
		Example: `  otd pairing simulate --players 1000 --rounds 13 --seed 1
  otd pairing simulate --players 12 --system roundrobin
  otd pairing simulate --players 40 --rounds 7 --json`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error { return runF(o) },
	}
	f := cmd.Flags()
	f.IntVar(&o.Players, "players", 0, "number of players (2 to 100000; 1000 for a round robin)")
	f.IntVar(&o.Rounds, "rounds", 0, "number of rounds (1 to 1000; a round robin plays one cycle by default, and its table again, colours swapped, for more rounds)")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the random tournament")
	f.StringVar(&o.System, "system", "swiss", "pairing system: swiss or roundrobin")
	f.BoolVar(&o.JSON, "json", false, "print the report as JSON")
	return cmd
}

func runSimulate(g *globals, o simulateOptions) error {
	rep, err := simulate(o)
	if errors.Is(err, pairing.ErrInvalidInput) {
		return usageErrorf("pairing simulate: %v", err)
	}
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(g.Stdout, rep)
	}
	fmt.Fprintf(g.Stdout, "%s, %d players, %d rounds, seed %d\n", rep.System, rep.Players, rep.Rounds, rep.Seed)
	var rows [][]string
	for _, r := range rep.PerRound {
		forced := "-"
		if r.ForcedGap >= 0 {
			forced = points(r.ForcedGap)
		}
		rows = append(rows, []string{strconv.Itoa(r.Round), fmt.Sprintf("%.3f", r.Seconds), strconv.Itoa(r.Pairs),
			byeName(r.Bye), strconv.Itoa(r.Rematches), strconv.Itoa(r.Floats), points(r.MaxGap), forced,
			strconv.FormatInt(r.Cost, 10), strconv.Itoa(r.Violations)})
	}
	if err := table(g.Stdout, []string{"round", "seconds", "pairs", "bye", "rematches", "floats", "largest gap",
		"forced gap", "cost", "violations"}, rows); err != nil {
		return err
	}
	fmt.Fprintln(g.Stdout, "\nPairs across score groups, by score gap:")
	rows = rows[:0]
	for _, gc := range rep.Gaps {
		rows = append(rows, []string{points(gc.Gap), strconv.Itoa(gc.Pairs)})
	}
	if err := table(g.Stdout, []string{"gap", "pairs"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, `
rematches: %d
double byes: %d
rounds with a larger gap than the field forces: %d
worst colour imbalance |B-W|: %d
players with the same colour three times running: %d
absolute rules broken: %d
pairing time per round: median %.3f s, max %.3f s
`, rep.Rematches, rep.DoubleByes, rep.ExcessGaps, rep.WorstColour, rep.ColourRuns, rep.Violations,
		rep.MedianSeconds, rep.MaxSeconds)
	return nil
}

func simulate(o simulateOptions) (pairing.SimReport, error) {
	sys, err := pairing.ParseSystem(o.System)
	if err != nil {
		return pairing.SimReport{}, err
	}
	return pairing.Simulate(pairing.SimConfig{Players: o.Players, Rounds: o.Rounds, Seed: o.Seed, System: sys})
}

// points formats half-points as points.
func points(half int) string {
	s := strconv.Itoa(half / 2)
	if half%2 != 0 {
		s += ".5"
	}
	return s
}

func byeName(id int) string {
	if id == 0 {
		return "-"
	}
	return strconv.Itoa(id)
}
