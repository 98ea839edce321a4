package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/otd-project/otd/app"
	"strconv"
	"strings"

	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newRoundCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "round",
		Short: "Pair, show, check and unpair rounds",
	}
	cmd.AddCommand(newRoundSlipsCmd(g, nil), newRoundPairCmd(g, nil), newRoundShowCmd(g, nil), newRoundUnpairCmd(g, nil), newRoundCheckCmd(g, nil), newRoundExplainCmd(g, nil),
		newRoundPlayCmd(g, nil))
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

func newRoundPairCmd(g *globals, runF func(roundPairOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o roundPairOptions) error { return runRoundPair(g, o) }
	}
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
			return runF(o)
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

// runRoundPair pairs the next round and prints it, and the last resorts
// the pairing took.
func runRoundPair(g *globals, o roundPairOptions) error {
	t, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.Pair(ctx, id, o.PairOptions)
	})
	if err != nil {
		return err
	}
	if err := printRound(g, t, t.Paired(), o.JSON); err != nil {
		return err
	}
	for _, n := range tournament.PairNotes(changes[0]) {
		fmt.Fprintf(g.Stderr, "otd: note: %s\n", n)
	}
	return nil
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
				j.Moves, j.End, j.Note = res.Moves, res.End, res.Note
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
	return fitTable(g.Stdout, []string{"Table", "Black", "Pts", "White", "Pts", "Result"}, rows, 1, 3)
}

func jsonPoints(h scoring.HalfPoints) json.Number { return json.Number(h.String()) }

// roundShowOptions are what 'round show' is told: the round, and --json or
// the wall sheet (Print) to Output.
type roundShowOptions struct {
	roundOptions
	Print, Force bool
	Output       string
}

func newRoundShowCmd(g *globals, runF func(roundShowOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o roundShowOptions) error { return runRoundShow(g, o) }
	}
	o := roundShowOptions{Output: "-"}
	cmd := &cobra.Command{
		Use:   "show [R]",
		Short: "Show a round's pairing and results (default: the last paired)",
		Long: `show prints a round's tables: black and white with their points before the
round, and the result.

With --print it writes the round's wall sheet instead, an HTML page to print
on A4 and post: every player by name with table, colour and opponent (the
list players look for their name in), then the same by table, in large
type. It goes to standard output (open it in a browser, or redirect it), or
with --output to FILE (an existing file is replaced only with --force). 'otd
export html --pairings R FILE' writes the same page.`,
		Example: "  otd round show\n  otd round show 3 --json\n  otd round show --print --output round3.html",
		Args:    argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !o.Print && (cmd.Flags().Changed("output") || o.Force) {
				return usageErrorf("round show: --output and --force go with --print")
			}
			if o.Print && o.JSON {
				return usageErrorf("round show: --print or --json, not both")
			}
			if err := o.parse("round show", args); err != nil {
				return err
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the round as JSON")
	cmd.Flags().BoolVar(&o.Print, "print", false, "write the wall sheet: an HTML page of the pairings by name and by table, for A4")
	cmd.Flags().StringVar(&o.Output, "output", o.Output, "with --print: write the wall sheet to `FILE` (- standard output)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "with --output: replace FILE if it exists")
	return cmd
}

// runRoundShow prints the round, or writes its wall sheet.
func runRoundShow(g *globals, o roundShowOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	r := o.round(t)
	if o.Print {
		return writeWallSheet(g, t, r, o.Output, o.Force) // export_html.go
	}
	if err := t.CheckPaired(r); err != nil {
		return err
	}
	return printRound(g, t, r, o.JSON)
}

// roundUnpairOptions: 'round unpair' is told nothing.
type roundUnpairOptions struct{}

func newRoundUnpairCmd(g *globals, runF func(roundUnpairOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o roundUnpairOptions) error { return runRoundUnpair(g, o) }
	}
	return &cobra.Command{
		Use:   "unpair",
		Short: "Remove the last round's pairing (only while it has no results)",
		Args:  argsUsage(cobra.NoArgs),
		RunE:  func(*cobra.Command, []string) error { return runF(roundUnpairOptions{}) },
	}
}

func runRoundUnpair(g *globals, _ roundUnpairOptions) error {
	t, _, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) { return d.Unpair(ctx, id) })
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Round %d is unpaired; pair it again with 'otd round pair'.\n", t.Paired()+1)
	return nil
}

// roundOptions are what 'round check' and 'round explain' are told: the
// round R (Last without it: the last paired), --json.
type roundOptions struct {
	Round int
	Last  bool
	JSON  bool
}

// parse reads the optional round argument R of the command cmd.
func (o *roundOptions) parse(cmd string, args []string) error {
	if len(args) == 0 {
		o.Last = true
		return nil
	}
	r, err := strconv.Atoi(args[0])
	if err != nil {
		return usageErrorf("%s: R is a round number, not %q", cmd, args[0])
	}
	o.Round = r
	return nil
}

// round is the round of t the options name.
func (o roundOptions) round(t *tournament.Tournament) int {
	if o.Last {
		return t.Paired()
	}
	return o.Round
}

func newRoundCheckCmd(g *globals, runF func(roundOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o roundOptions) error { return runRoundCheck(g, o) }
	}
	var o roundOptions
	cmd := &cobra.Command{
		Use:   "check [R]",
		Short: "Check a round's pairing against the pairing rules (default: the last paired)",
		Long: `check lists every rule the round's pairing breaks (rematches, a second bye,
a withdrawn or absent player paired, ...) and its total cost under the
tournament's pairing weights, and says whether a cheaper valid pairing exists.
A pairing that breaks an absolute rule (a rematch with the same colours, a
second bye, an inactive player paired, ...) is not valid at any cost: check
names the rules it breaks and gives the best valid pairing and its cost
instead. A round is checked under the director's rules it was paired with
(pairs forced or forbidden for it, the standing forbidden pairs then in
force, a bye given by hand, a pairing by hand): a pairing that obeys them is
never called dearer than one that would break them. A bye given by hand
costs what it would had the pairing chosen it. Use it on manual and
imported pairings. Exit status 1 if an absolute rule is broken.`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := o.parse("round check", args); err != nil {
				return err
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the report as JSON")
	return cmd
}

// runRoundCheck prints the check of a round's pairing; exit status 1 if it
// breaks an absolute rule.
func runRoundCheck(g *globals, o roundOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	rep, err := t.CheckRound(o.round(t))
	if err != nil {
		return err
	}
	if o.JSON {
		if err := writeJSON(g.Stdout, checkJSON(rep)); err != nil {
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
}

// checkJSON is 'otd round check --json': the checker's report
// (tournament.CheckReport), field for field, converted from it (a field
// added there is one to add and document here, or the conversion fails).
type checkJSON struct {
	Round       int      `json:"round" doc:"the round checked"`
	Broken      bool     `json:"broken" doc:"true if the pairing breaks an absolute rule: it is not valid"`
	BrokenRules []string `json:"broken_rules,omitempty" doc:"the absolute rules it breaks (see violations for the players)"`
	Violations  []string `json:"violations" doc:"every rule broken, with the players and what it costs"`
	Cost        int64    `json:"cost" doc:"the pairing's cost; of its allowed parts only when broken"`
	Cheaper     bool     `json:"cheaper" doc:"true if the pairing is valid and a valid pairing costs less"`
	BestCost    *int64   `json:"best_cost,omitempty" doc:"the cost of the best valid pairing, when cheaper or broken"`
	Best        string   `json:"best,omitempty" doc:"its pairs, black first, and the bye"`
	Rules       string   `json:"rules,omitempty" doc:"the director's rules the round was paired under, which it is checked with: pairs forced, pairs forbidden (for the round or the event), the bye given by hand, or a pairing by hand"`
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
	if rep.Rules != "" {
		fmt.Fprintf(g.Stdout, "Checked under the director's %s\n", strings.TrimPrefix(rep.Rules, fmt.Sprintf("round %d ", rep.Round)))
	}
}

func newRoundExplainCmd(g *globals, runF func(roundOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o roundOptions) error { return runRoundExplain(g, o) }
	}
	var o roundOptions
	cmd := &cobra.Command{
		Use:   "explain [R]",
		Short: "Why each pair of a round was paired: its cost, term by term (default: the last paired)",
		Long: `explain answers "why do I play X and not Y?" after the pairings are posted.
For each table of the round it gives the cost of the pair under the
tournament's pairing weights (RULES.md section 4), as the pairing saw it after
the round before, term by term: Gap (the score gap), Colour (both players'
|blacks - whites| after the game; for the bye, the current one), Same (the
colour of the previous round again), Float (floating the same way as last
time), Comp (floating back: negative), Elitism, Rematch (earlier meetings, a
second bye) and Country. The Swiss pairing is the cheapest sum of these.

For the ` + strconv.Itoa(tournament.ExplainDearest) + ` dearest pairs it then gives the cheapest alternative: the
swap of partners with another table (or the bye) that would cost least, and
what it would add to the round's cost, by term: why it lost. A swap that
costs less means the pairing is not the cheapest (forced, manual or imported
pairs); one that costs the same, a tie the pairing's tie-breaks decided.`,
		Example: "  otd round explain\n  otd round explain 3 --json",
		Args:    argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := o.parse("round explain", args); err != nil {
				return err
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the explanation as JSON")
	return cmd
}

// runRoundExplain prints why each pair of a round was paired.
func runRoundExplain(g *globals, o roundOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	r := o.round(t)
	rep, err := t.Explain(r)
	if err != nil {
		return err
	}
	points, err := t.PointsAfter(r - 1)
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(g.Stdout, newExplainJSON(rep, points))
	}
	return printExplain(g, t, rep, points)
}

// printExplain prints a round's pairs with their cost terms, then the
// cheapest alternative to each of the dearest pairs.
func printExplain(g *globals, t *tournament.Tournament, rep tournament.ExplainReport, points map[int]scoring.HalfPoints) error {
	fmt.Fprintf(g.Stdout, "Round %d: cost %d\n", rep.Round, rep.Cost)
	if !rep.Rules.IsZero() {
		fmt.Fprintf(g.Stdout, "Priced under the director's %s (no swap breaks them or moves a bye given by hand)\n",
			strings.TrimPrefix(rep.Rules.String(), fmt.Sprintf("round %d ", rep.Round)))
	}
	if rep.RoundRobin {
		fmt.Fprintln(g.Stdout, "The round robin pairs by its table, not by cost: these are the costs the Swiss pairing would see.")
	}
	var rows [][]string
	for _, p := range rep.Pairs {
		white, wp := "BYE", ""
		if !p.IsBye() {
			white, wp = name(t, p.White), points[p.White].String()
		}
		row := []string{strconv.Itoa(p.Table), name(t, p.Black), points[p.Black].String(), white, wp}
		if p.Broken != "" {
			row = append(row, "", "", "", "", "", "", "", "", p.Broken)
		} else {
			for _, x := range termValues(p.Terms) {
				row = append(row, strconv.FormatInt(x, 10))
			}
			row = append(row, strconv.FormatInt(p.Cost, 10))
		}
		rows = append(rows, row)
	}
	header := append([]string{"Table", "Black", "Pts", "White", "Pts"}, append(termNames[:], "Cost")...)
	if err := table(g.Stdout, header, rows); err != nil {
		return err
	}
	if len(rep.Alternatives) == 0 && len(rep.NoAlternative) == 0 {
		return nil
	}
	fmt.Fprintln(g.Stdout, "The dearest pairs and their cheapest alternative, a swap of partners with another table:")
	tables := map[int]int{} // black (or the bye's player) -> table
	for _, p := range rep.Pairs {
		tables[p.Black] = p.Table
	}
	board := func(p pairing.PairCost) string {
		if p.IsBye() {
			return name(t, p.Black) + " the bye"
		}
		return name(t, p.Black) + " - " + name(t, p.White)
	}
	for _, a := range rep.Alternatives {
		var verdict string
		switch {
		case a.Delta > 0:
			verdict = fmt.Sprintf("%d more", a.Delta)
		case a.Delta == 0:
			verdict = "the same cost: a tie, decided by the pairing's tie-breaks"
		default:
			verdict = fmt.Sprintf("%d less: this pairing is not the cheapest", -a.Delta)
		}
		fmt.Fprintf(g.Stdout, "  table %d, %s (%d): swapping with table %d gives %s and %s (%d + %d), %s",
			tables[a.Pair.Black], board(a.Pair), a.Pair.Cost, tables[a.Other.Black],
			board(a.Instead[0]), board(a.Instead[1]), a.Instead[0].Cost, a.Instead[1].Cost, verdict)
		var why []string
		for i, x := range termValues(a.DeltaTerms) {
			if x != 0 {
				why = append(why, fmt.Sprintf("%s %+d", termWords[i], x))
			}
		}
		if len(why) > 0 {
			fmt.Fprintf(g.Stdout, ": %s", strings.Join(why, ", "))
		}
		fmt.Fprintln(g.Stdout)
	}
	for _, p := range rep.NoAlternative {
		fmt.Fprintf(g.Stdout, "  table %d, %s (%d): no swap with another table is allowed\n", tables[p.Black], board(p), p.Cost)
	}
	return nil
}

// termNames are the columns of the cost terms, in termValues' order.
var termNames = [...]string{"Gap", "Colour", "Same", "Float", "Comp", "Elitism", "Rematch", "Country"}

// termWords name the terms in sentences.
var termWords = [len(termNames)]string{"gap", "colour", "same colour", "float", "compensation", "elitism", "rematch", "country"}

func termValues(x pairing.Terms) [len(termNames)]int64 {
	return [...]int64{x.Gap, x.Colour, x.SameColour, x.Repeat, x.Compensation, x.Elitism, x.Rematch, x.Country}
}
