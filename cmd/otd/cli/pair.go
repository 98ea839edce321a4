package cli

import (
	"context"
	"fmt"
	"github.com/otd-project/otd/app"
	"strconv"

	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newPairCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pair",
		Short: "Forbid two players to meet for the rest of the event, list and lift such rules",
		Long: `pair keeps the tournament's standing pairing rules: two players forbidden to
meet (a married couple, a parent and child, two club-mates who travelled
together) are never paired in any round paired after the rule is made, until
it is lifted. Every change is in 'otd log' and 'otd undo' reverts it.
'otd round pair --forbid A-B' forbids a pair for one round only.`,
	}
	cmd.AddCommand(newPairForbidCmd(g, nil), newPairListCmd(g, nil), newPairAllowCmd(g, nil))
	return cmd
}

// twoPlayers parses the two player numbers of a pair command.
func twoPlayers(cmd string, args []string) (int, int, error) {
	var n [2]int
	for i, a := range args {
		x, err := strconv.Atoi(a)
		if err != nil || x < 1 {
			return 0, 0, usageErrorf("%s: %q is not a player number (the numbers are in 'otd player list')", cmd, a)
		}
		n[i] = x
	}
	return n[0], n[1], nil
}

// pairOptions are what 'pair forbid' and 'pair allow' are told: players
// A and B, and for forbid the Reason.
type pairOptions struct {
	A, B   int
	Reason string
}

func newPairForbidCmd(g *globals, runF func(pairOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o pairOptions) error { return runPairForbid(g, o) }
	}
	var o pairOptions
	cmd := &cobra.Command{
		Use:   "forbid A B [--reason TEXT]",
		Short: "Forbid players A and B to meet in every round paired from now on",
		Long: `forbid makes a standing rule of the tournament: players A and B are never
paired together in a round paired from now on (the Swiss pairing goes around
them; a round robin that would pair them is refused). A round already paired
stays as it is: if they meet in it, forbid says so ('otd round unpair' and
'otd round pair' pair it again under the rule).`,
		Example: "  otd pair forbid 12 22 --reason \"married couple\"\n  otd pair list\n  otd pair allow 12 22",
		Args:    argsUsage(cobra.ExactArgs(2)),
		RunE: func(_ *cobra.Command, args []string) error {
			var err error
			if o.A, o.B, err = twoPlayers("pair forbid", args); err != nil {
				return err
			}
			return runF(o)
		},
	}
	cmd.Flags().StringVar(&o.Reason, "reason", "", "why, as the log and 'otd pair list' show it")
	return cmd
}

func runPairForbid(g *globals, o pairOptions) error {
	t, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.Forbid(ctx, id, o.A, o.B, o.Reason)
	})
	if err != nil {
		return invalidAsUsage(err)
	}
	f := changes[0].After.Forbidden[0]
	fmt.Fprintf(g.Stdout, "Players %s and %s are not paired together in any round paired from now on ('otd pair allow %d %d' lifts the rule).\n",
		name(t, f.A), name(t, f.B), f.A, f.B)
	for _, n := range changes[0].Notes {
		fmt.Fprintf(g.Stderr, "otd: note: %s\n", n)
	}
	return nil
}

func newPairAllowCmd(g *globals, runF func(pairOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o pairOptions) error { return runPairAllow(g, o) }
	}
	return &cobra.Command{
		Use:     "allow A B",
		Short:   "Lift the rule that forbids players A and B to meet",
		Example: "  otd pair allow 12 22",
		Args:    argsUsage(cobra.ExactArgs(2)),
		RunE: func(_ *cobra.Command, args []string) error {
			a, b, err := twoPlayers("pair allow", args)
			if err != nil {
				return err
			}
			return runF(pairOptions{A: a, B: b})
		},
	}
}

func runPairAllow(g *globals, o pairOptions) error {
	t, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.Allow(ctx, id, o.A, o.B)
	})
	if err != nil {
		return err
	}
	f := changes[0].Before.Forbidden[0]
	fmt.Fprintf(g.Stdout, "Players %s and %s may be paired together again from the next pairing on.\n", name(t, f.A), name(t, f.B))
	return nil
}

// forbiddenJSON is a pair forbidden to meet, as --json gives it.
type forbiddenJSON struct {
	A      int    `json:"a" doc:"a player's number"`
	AName  string `json:"a_name" doc:"their name"`
	B      int    `json:"b" doc:"the other player's number, higher than a"`
	BName  string `json:"b_name" doc:"their name"`
	Reason string `json:"reason,omitempty" doc:"why, as the director gave it; left out if not given"`
}

func newForbiddenJSON(t *tournament.Tournament) []forbiddenJSON {
	out := []forbiddenJSON{}
	for _, f := range t.Forbidden {
		out = append(out, forbiddenJSON{A: f.A, AName: t.Players[f.A-1].Name, B: f.B, BName: t.Players[f.B-1].Name, Reason: f.Reason})
	}
	return out
}

func newPairListCmd(g *globals, runF func(jsonOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o jsonOptions) error { return runPairList(g, o) }
	}
	return newJSONCmd("list", "List the pairs forbidden to meet", "print the pairs as JSON", runF)
}

func runPairList(g *globals, o jsonOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(g.Stdout, newForbiddenJSON(t))
	}
	if len(t.Forbidden) == 0 {
		fmt.Fprintln(g.Stdout, "No pair is forbidden to meet ('otd pair forbid A B' forbids one).")
		return nil
	}
	var rows [][]string
	for _, f := range t.Forbidden {
		rows = append(rows, []string{name(t, f.A), name(t, f.B), f.Reason})
	}
	return fitTable(g.Stdout, []string{"Player", "Never paired with", "Reason"}, rows, 0, 1)
}
