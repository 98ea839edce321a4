package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newRoundCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "round",
		Short: "Pair, show, check and unpair rounds",
	}
	cmd.AddCommand(newRoundPairCmd(g), newRoundShowCmd(g), newRoundUnpairCmd(g), newRoundCheckCmd(g))
	return cmd
}

// parsePair parses "A-B" (player numbers).
func parsePair(flag, s string) ([2]int, error) {
	a, b, ok := strings.Cut(s, "-")
	x, err1 := strconv.Atoi(strings.TrimSpace(a))
	y, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || x < 1 || y < 1 {
		return [2]int{}, usageErrorf("round pair: %s %q: expected two player numbers such as 3-7", flag, s)
	}
	return [2]int{x, y}, nil
}

type roundPairOptions struct {
	tournament.PairOptions
	JSON bool
}

func newRoundPairCmd(g *globals) *cobra.Command {
	var o roundPairOptions
	var forced, forbidden []string
	cmd := &cobra.Command{
		Use:   "pair",
		Short: "Pair the next round",
		Long: `pair pairs the next round with the Swiss minimum-cost matching (or the round
robin table if the tournament is one), keeping the forced pairs (black first)
and completing the rest. With --manual it takes only the forced pairs and the
bye, which must then cover every active player. A forced pair keeps the
colours given: one that would repeat the colours of an earlier game between
the two is refused (force it the other way round). The round before must have
all its results.`,
		Example: `  otd round pair
  otd round pair --force 3-8 --forbid 1-2 --bye 17
  otd round pair --manual --force 1-2 --force 4-3 --bye 5`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			for _, f := range forced {
				p, err := parsePair("--force", f)
				if err != nil {
					return err
				}
				o.Forced = append(o.Forced, p)
			}
			for _, f := range forbidden {
				p, err := parsePair("--forbid", f)
				if err != nil {
					return err
				}
				o.Forbidden = append(o.Forbidden, p)
			}
			t, _, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) { return t.Pair(o.PairOptions) })
			if err != nil {
				return err
			}
			return printRound(g, t, t.Paired(), o.JSON)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&forced, "force", nil, "keep this pair, black first: B-W (repeatable)")
	f.StringArrayVar(&forbidden, "forbid", nil, "these two must not meet: A-B (repeatable)")
	f.IntVar(&o.Bye, "bye", 0, "give the bye to this player")
	f.BoolVar(&o.Manual, "manual", false, "pair only the forced pairs and the bye")
	f.Uint64Var(&o.Seed, "seed", 0, "seed of the colour lots (default: the tournament's)")
	f.BoolVar(&o.JSON, "json", false, "print the pairing as JSON")
	return cmd
}

// printRound prints the pairing sheet of round r: table, black, white, points before the round.
func printRound(g *globals, t *tournament.Tournament, r int, asJSON bool) error {
	games := t.Round(r)
	points, err := t.PointsAfter(r - 1)
	if err != nil {
		return err
	}
	if asJSON {
		out := []gameJSON{}
		for _, gm := range games {
			j := gameJSON{Round: r, Table: gm.Table, Black: gm.Black, White: gm.White, Bye: gm.IsBye(), BlackPoints: jsonPoints(points[gm.Black])}
			if !gm.IsBye() {
				j.WhitePoints = jsonPoints(points[gm.White])
			}
			if res := gm.Result; res != nil {
				j.BlackDiscs, j.WhiteDiscs = &res.Black, &res.White
				if res.Kind != tournament.Normal {
					j.Kind, j.Loser = string(res.Kind), string(res.Loser)
				}
			}
			out = append(out, j)
		}
		return writeJSON(g.Stdout, out)
	}
	fmt.Fprintf(g.Stdout, "Round %d\n", r)
	var rows [][]string
	for _, gm := range games {
		white, wp, res := "BYE", "", ""
		if !gm.IsBye() {
			white, wp = name(t, gm.White), points[gm.White].String()
		}
		if gm.Result != nil {
			res = gm.Result.String()
		}
		rows = append(rows, []string{strconv.Itoa(gm.Table), name(t, gm.Black), points[gm.Black].String(), white, wp, res})
	}
	return table(g.Stdout, []string{"Table", "Black", "Pts", "White", "Pts", "Result"}, rows)
}

func jsonPoints(h scoring.HalfPoints) json.Number { return json.Number(h.String()) }

func newRoundShowCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "show [R]",
		Short:   "Show a round's pairing and results (default: the last paired)",
		Example: "  otd round show\n  otd round show 3 --json",
		Args:    argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			r, err := roundArg("round show", args, t)
			if err != nil {
				return err
			}
			if err := t.CheckPaired(r); err != nil {
				return err
			}
			return printRound(g, t, r, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the round as JSON")
	return cmd
}

func newRoundUnpairCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "unpair",
		Short: "Remove the last round's pairing (only while it has no results)",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			t, _, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) { return t.Unpair() })
			if err != nil {
				return err
			}
			fmt.Fprintf(g.Stdout, "Round %d is unpaired; pair it again with 'otd round pair'.\n", t.Paired()+1)
			return nil
		},
	}
}

func newRoundCheckCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [R]",
		Short: "Check a round's pairing against the pairing rules (default: the last paired)",
		Long: `check lists every rule the round's pairing breaks (rematches, a second bye,
a withdrawn or absent player paired, ...) and its total cost under the
tournament's pairing weights, and says whether a cheaper valid pairing exists.
A pairing that breaks an absolute rule (a rematch with the same colours, a
second bye, an inactive player paired, ...) is not valid at any cost: check
names the rules it breaks and gives the best valid pairing and its cost
instead. Use it on manual and imported pairings. Exit status 1 if an absolute
rule is broken.`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			r, err := roundArg("round check", args, t)
			if err != nil {
				return err
			}
			rep, err := t.CheckRound(r)
			if err != nil {
				return err
			}
			if asJSON {
				if err := writeJSON(g.Stdout, rep); err != nil {
					return err
				}
			} else {
				printCheck(g, rep)
				for _, v := range rep.Violations {
					fmt.Fprintf(g.Stdout, "  %s\n", v)
				}
			}
			if rep.Broken {
				return &exitError{code: exitFailure}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// printCheck prints the verdict on a round's pairing. An invalid pairing is
// not compared with the best valid one by cost (its cost leaves the broken
// rule out): it is said to be invalid, with the rules broken, and the best
// valid pairing is given to use instead.
func printCheck(g *globals, rep tournament.CheckReport) {
	switch {
	case rep.Broken && rep.BestCost != nil:
		fmt.Fprintf(g.Stdout, "Round %d: invalid pairing (%s); the best valid pairing costs %d: %s\n",
			rep.Round, strings.Join(rep.BrokenRules, ", "), *rep.BestCost, rep.Best)
	case rep.Broken:
		fmt.Fprintf(g.Stdout, "Round %d: invalid pairing (%s); no valid pairing exists\n", rep.Round, strings.Join(rep.BrokenRules, ", "))
	case rep.Cheaper:
		fmt.Fprintf(g.Stdout, "Round %d: cost %d; a cheaper valid pairing exists (cost %d): %s\n", rep.Round, rep.Cost, *rep.BestCost, rep.Best)
	default:
		fmt.Fprintf(g.Stdout, "Round %d: cost %d; no valid pairing is cheaper\n", rep.Round, rep.Cost)
	}
}

// roundArg reads the optional round argument R; without it, the last round paired.
func roundArg(cmd string, args []string, t *tournament.Tournament) (int, error) {
	if len(args) == 0 {
		return t.Paired(), nil
	}
	r, err := strconv.Atoi(args[0])
	if err != nil {
		return 0, usageErrorf("%s: R is a round number, not %q", cmd, args[0])
	}
	return r, nil
}
