package cli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/spf13/cobra"
)

type perftOptions struct {
	Depth int
	JSON  bool
}

func newPerftCmd(g *globals) *cobra.Command {
	var o perftOptions
	cmd := &cobra.Command{
		Use:   "perft DEPTH",
		Short: "Count the positions reachable from the start, to check the rules engine",
		Long: `perft counts the leaves of the game tree DEPTH plies deep from the standard
starting position. A forced pass uses one ply; a position where neither side
can move is a leaf, counted once. The published counts (RULES.md section 1)
are 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800
for depths 1 to 11. The last line of the output holds the count.`,
		Example: `  otd perft 9
  otd perft 11 --json`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			d, err := strconv.Atoi(args[0])
			if err != nil || d < 0 || d > 20 {
				return usageErrorf("perft: DEPTH must be a whole number from 0 to 20, not %q", args[0])
			}
			o.Depth = d
			return runPerft(g, o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the result as JSON")
	return cmd
}

func runPerft(g *globals, o perftOptions) error {
	start := time.Now()
	n := engine.Perft(engine.Start(), o.Depth)
	secs := time.Since(start).Seconds()
	if o.JSON {
		return writeJSON(g.Stdout, perftJSON{Depth: o.Depth, Leaves: n, Seconds: secs})
	}
	fmt.Fprintf(g.Stderr, "perft(%d) in %.3f s\n", o.Depth, secs)
	fmt.Fprintln(g.Stdout, n)
	return nil
}
