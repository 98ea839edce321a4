package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/spf13/cobra"
)

type perftOptions struct {
	Depth int
	Rules string // a rules name (engine.ParseRules)
	Size  int    // the board side; 0: the rules' default
	JSON  bool
}

func newPerftCmd(g *globals, runF func(perftOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o perftOptions) error { return runPerft(g, o) }
	}
	var o perftOptions
	cmd := &cobra.Command{
		Use:   "perft DEPTH",
		Short: "Count the positions reachable from the start, to check the rules engine",
		Long: `perft counts the leaves of the game tree DEPTH plies deep from the starting
position. A forced pass uses one ply; a position where neither side can move
is a leaf, counted once. The published counts of standard Othello (RULES.md
section 1) are 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284,
212258800 for depths 1 to 11. The last line of the output holds the count.

--rules names a variant (RULES.md section 1): othello (the default), anti
(fewest discs win), reversi (historical Reversi: the first four moves fill the
centre, half the squares as each player's supply), 8stars (10x10 less three
squares at each corner), joined by + (anti+reversi), and supply=N for N discs
each. --size N (even, 4 to 16), or NAME:N, sets the board side. Standard 8x8
Othello runs on the bitboard engine, every other rule set on the general one.`,
		Example: `  otd perft 9
  otd perft 11 --json
  otd perft --rules othello --size 6 8
  otd perft --rules anti+reversi:10 6`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			d, err := strconv.Atoi(args[0])
			if err != nil || d < 0 || d > 20 {
				return usageErrorf("perft: DEPTH must be a whole number from 0 to 20, not %q", args[0])
			}
			o.Depth = d
			return runF(o)
		},
	}
	cmd.Flags().StringVar(&o.Rules, "rules", "othello", "the rule set: othello, anti, reversi, 8stars, joined by +, [:SIZE]")
	cmd.Flags().IntVar(&o.Size, "size", 0, "the board side, even 4 to 16 (default: the rule set's, 8 or 10 for 8stars)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the result as JSON")
	return cmd
}

func runPerft(g *globals, o perftOptions) error {
	r, err := engine.ParseRules(o.Rules)
	if err == nil && o.Size != 0 {
		if strings.Contains(o.Rules, ":") {
			return usageErrorf("perft: give the board size once: --rules %s or --size %d", o.Rules, o.Size)
		}
		r, err = engine.RulesFor(o.Rules, o.Size)
	}
	if err != nil {
		return usageErrorf("perft: %w", err)
	}
	start := time.Now()
	n, err := engine.PerftRules(r, o.Depth)
	if err != nil {
		return err
	}
	secs := time.Since(start).Seconds()
	if o.JSON {
		return writeJSON(g.Stdout, perftJSON{Depth: o.Depth, Leaves: n, Seconds: secs})
	}
	of := ""
	if !r.Standard() {
		of = " of " + r.String()
	}
	fmt.Fprintf(g.Stderr, "perft(%d)%s in %.3f s\n", o.Depth, of, secs)
	fmt.Fprintln(g.Stdout, n)
	return nil
}
