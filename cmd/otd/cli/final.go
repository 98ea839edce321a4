package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"strconv"
	"strings"

	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newFinalCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "final",
		Short: "The final phase after the Swiss: play-off, semi-finals, final, 3rd place, the categories'",
		Long: `final runs the final phase that the tournament's --final setting describes
(RULES.md section 7; 'otd tournament edit --final woc'), and those of the
categories that have one ('otd category add women --final single'), once the
last Swiss round is over.

'final start' pairs the first games: a play-off for the last place when a
tie on points crosses it, or the first knockout stage. Each game's result is
entered with 'otd result' and the match's code: 'otd result SF1 2 33-31' is
game 2 of semi-final 1 (PO the play-off, QF1-QF4, SF1, SF2, F the final, 3P
the 3rd-place match; a category's matches are CATEGORY:CODE, e.g.
'otd result women:F 1 40-24'). 'final next' then pairs the next game of each
match not decided yet, or the next stage: colours alternate within a match,
game 1 and a deciding game follow the lot (or --black). 'final show' shows
every match, and with --print writes the wall sheet of the games a 'final
next' paired; 'standings --final' the final ranking.`,
		Example: "  otd final start\n  otd result SF1 1 33-31\n  otd final next --black F=12\n  otd final show\n  otd final show --print --output final-round.html",
	}
	cmd.AddCommand(newFinalNextCmd(g, "start", nil), newFinalNextCmd(g, "next", nil), newFinalShowCmd(g, nil))
	return cmd
}

// finalNextOptions are what 'final start' (Start) and 'final next' are
// told: who has black in which match.
type finalNextOptions struct {
	Start bool
	tournament.FinalOptions
}

func newFinalNextCmd(g *globals, verb string, runF func(finalNextOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o finalNextOptions) error { return runFinalNext(g, o) }
	}
	var blacks []string
	cmd := &cobra.Command{
		Use:   verb + " [--black CODE=N]...",
		Short: map[string]string{"start": "Pair the final phase's first games, once the Swiss is over", "next": "Pair the next game of every match not decided yet, or the next stage"}[verb],
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			o := finalNextOptions{Start: verb == "start", FinalOptions: tournament.FinalOptions{Black: map[string]int{}}}
			for _, b := range blacks {
				code, n, ok := strings.Cut(b, "=")
				x, err := strconv.Atoi(n)
				if !ok || err != nil || x < 1 {
					return usageErrorf("final %s: --black %q: write the match's code and the player who has black, e.g. SF1=12", verb, b)
				}
				o.Black[strings.TrimSpace(code)] = x
			}
			return runF(o)
		},
	}
	cmd.Flags().StringArrayVar(&blacks, "black", nil, "who has black in a match's next game, instead of the lot: `CODE=N` (player number), e.g. SF1=12")
	return cmd
}

// runFinalNext pairs the final phase's first (o.Start) or next games and
// prints them.
func runFinalNext(g *globals, o finalNextOptions) error {
	t, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		if o.Start {
			return d.FinalStart(ctx, id, o.FinalOptions)
		}
		return d.FinalNext(ctx, id, o.FinalOptions)
	})
	if err != nil {
		return invalidAsUsage(err)
	}
	for _, fg := range changes[0].After.FinalGames {
		fmt.Fprintf(g.Stdout, "%s game %d: %s (black) - %s (white)\n", fg.Code(), fg.Game, name(t, fg.Black), name(t, fg.White))
	}
	return nil
}

// matchJSON is a match of a final phase, as --json gives it.
type matchJSON struct {
	Category string          `json:"category,omitempty" doc:"the category ('' or left out: the open)"`
	Code     string          `json:"code" doc:"PO (the play-off), QF1-QF4, SF1, SF2, F (the final), 3P (the 3rd-place match)"`
	A        int             `json:"a" doc:"the higher seed's number"`
	B        int             `json:"b" doc:"the other player's number"`
	APoints  json.Number     `json:"a_points" doc:"a's points in the match: a win 1, a draw 0.5"`
	BPoints  json.Number     `json:"b_points" doc:"b's points in the match"`
	BestOf   int             `json:"best_of" doc:"games of the match"`
	Winner   int             `json:"winner,omitempty" doc:"the winner's number, once decided"`
	How      string          `json:"how,omitempty" doc:"how a level match was decided"`
	Games    []finalGameJSON `json:"games" doc:"its games in order"`
}

type finalGameJSON struct {
	Game       int    `json:"game" doc:"its number in the match"`
	Seq        int    `json:"seq" doc:"its place in the order the final phases' games were paired, from 1"`
	Round      int    `json:"round" doc:"the round of the final phase it was paired in ('final show --print --round K')"`
	Black      int    `json:"black" doc:"black's number"`
	White      int    `json:"white" doc:"white's number"`
	BlackDiscs *int   `json:"black_discs,omitempty" doc:"black's discs as recorded; left out until played"`
	WhiteDiscs *int   `json:"white_discs,omitempty" doc:"white's discs"`
	Result     string `json:"result,omitempty" doc:"the result as otd shows it"`
}

// phaseJSON is a final phase, as --json gives it.
type phaseJSON struct {
	Category string      `json:"category,omitempty" doc:"the category ('' or left out: the open)"`
	Rules    string      `json:"rules" doc:"its rules, as --final takes them"`
	Seeds    []int       `json:"seeds" doc:"the qualifiers in seed order"`
	Tied     []int       `json:"tied,omitempty" doc:"the players tied on points across the last place, by tie-break"`
	Matches  []matchJSON `json:"matches" doc:"its matches"`
	Skipped  string      `json:"skipped,omitempty" doc:"why it is not played"`
	Waiting  string      `json:"waiting,omitempty" doc:"why a category's phase waits for the open's"`
	Ranking  []int       `json:"ranking,omitempty" doc:"its final ranking, once over"`
	Over     bool        `json:"over" doc:"true once every match is decided"`
}

// newPhaseJSON gives a phase as --json does; rounds numbers the final
// games by their round of the final phase (app.FinalRoundOf).
func newPhaseJSON(ph tournament.FinalPhase, rounds map[int]int) phaseJSON {
	j := phaseJSON{Category: ph.Category, Rules: ph.Rules.String(), Seeds: append([]int{}, ph.Seeds...), Tied: ph.Tied,
		Matches: []matchJSON{}, Skipped: ph.Skipped.String(), Waiting: ph.Waiting.String(), Ranking: ph.Ranking, Over: ph.Over}
	for _, m := range ph.Matches {
		mj := matchJSON{Category: m.Category, Code: m.Code, A: m.A, B: m.B, APoints: jsonPoints(m.APoints), BPoints: jsonPoints(m.BPoints),
			BestOf: m.BestOf, Winner: m.Winner, How: m.How.String(), Games: []finalGameJSON{}}
		for _, fg := range m.Games {
			gj := finalGameJSON{Game: fg.Game, Seq: fg.Seq, Round: rounds[fg.Seq], Black: fg.Black, White: fg.White}
			if fg.Result != nil {
				gj.BlackDiscs, gj.WhiteDiscs, gj.Result = &fg.Result.Black, &fg.Result.White, fg.Result.String()
			}
			mj.Games = append(mj.Games, gj)
		}
		j.Matches = append(j.Matches, mj)
	}
	return j
}

// finalShowOptions are what 'final show' is told: --json, or the wall
// sheet (Print) of a Round (0: the last) to Output.
type finalShowOptions struct {
	JSON, Print, Force bool
	Round              int
	Output             string
}

func newFinalShowCmd(g *globals, runF func(finalShowOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o finalShowOptions) error { return runFinalShow(g, o) }
	}
	o := finalShowOptions{Output: "-"}
	cmd := &cobra.Command{
		Use:   "show [--json | --print [--round K] [--output FILE]]",
		Short: "Show the final phases: the qualifiers, every match and its games, the ranking once over",
		Long: `show prints every final phase (the open's, then the categories'): its
qualifiers, each match with its score and its games, and the ranking once it
is over.

With --print it writes the wall sheet of a round of the final phase instead,
an HTML page to print on A4 and post: the games that one 'final next' (or
'final start') paired, each with its match, game number, black and white, in
large type. The rounds are numbered from 1 in the order paired; --round K
chooses one, the last by default. (A game paired early, while another
match's game was still being played, is posted with that match's next game.)
It goes to standard output (open it in a browser, or redirect it), or with
--output to FILE (an existing file is replaced only with --force).`,
		Example: "  otd final show\n  otd final show --json\n  otd final show --print --output final-round.html\n  otd final show --print --round 1 --output semi-finals-1.html",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case !o.Print && (cmd.Flags().Changed("output") || o.Force || cmd.Flags().Changed("round")):
				return usageErrorf("final show: --round, --output and --force go with --print")
			case o.Print && o.JSON:
				return usageErrorf("final show: --print or --json, not both")
			case o.Round < 0:
				return usageErrorf("final show: --round %d: a round of the final phase, from 1", o.Round)
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the phases as JSON")
	cmd.Flags().BoolVar(&o.Print, "print", false, "write the wall sheet of a round of the final phase: an HTML page of its games, for A4")
	cmd.Flags().IntVar(&o.Round, "round", 0, "with --print: the round `K` of the final phase (default: the last paired)")
	cmd.Flags().StringVar(&o.Output, "output", o.Output, "with --print: write the wall sheet to `FILE` (- standard output)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "with --output: replace FILE if it exists")
	return cmd
}

// runFinalShow prints the final phases, or writes a round's wall sheet.
func runFinalShow(g *globals, o finalShowOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	if o.Print {
		return writeFinalWallSheet(g, t, o.Round, o.Output, o.Force)
	}
	phs, err := app.Phases(t)
	if err != nil {
		return err
	}
	if o.JSON {
		out, rounds := []phaseJSON{}, app.FinalRoundOf(t)
		for _, ph := range phs {
			out = append(out, newPhaseJSON(ph, rounds))
		}
		return writeJSON(g.Stdout, out)
	}
	var loose []string // games imported in no match
	for _, fg := range t.FinalGames {
		if fg.Match == "" {
			loose = append(loose, fmt.Sprintf("  %d: %s - %s %s", fg.Seq, name(t, fg.Black), name(t, fg.White), fg.Result))
		}
	}
	if len(phs) == 0 && len(loose) == 0 {
		fmt.Fprintln(g.Stdout, "The tournament has no final phase ('otd tournament edit --final woc' sets one).")
		return nil
	}
	for _, ph := range phs {
		printPhase(g, t, ph)
	}
	if len(loose) > 0 {
		fmt.Fprintf(g.Stdout, "Games after the Swiss in no match (imported; by their order in the file):\n%s\n", strings.Join(loose, "\n"))
	}
	return nil
}

// writeFinalWallSheet writes the wall sheet of round k of the final phase
// (0: the last) to path ("-": standard output).
func writeFinalWallSheet(g *globals, t *tournament.Tournament, k int, path string, force bool) error {
	if k == 0 {
		k = max(len(t.FinalRounds()), 1)
	}
	if _, err := app.FinalRound(t, k); err != nil {
		return err
	}
	if err := writeOutput(g, path, force, func(w io.Writer) error { return export.WriteFinalWallSheet(w, t, k) }); err != nil {
		return err
	}
	wrote(g, path, "the wall sheet of round %d of the final phase to %s", k, path)
	return nil
}

// printPhase prints a final phase: its qualifiers, matches and ranking.
func printPhase(g *globals, t *tournament.Tournament, ph tournament.FinalPhase) {
	title := "Final phase"
	if ph.Category != "" {
		title = "Final phase of " + ph.Category
	}
	fmt.Fprintf(g.Stdout, "%s (%s)\n", title, ph.Rules)
	switch {
	case !ph.Skipped.IsZero():
		fmt.Fprintf(g.Stdout, "  not played: %s\n", ph.Skipped)
		return
	case !ph.Waiting.IsZero():
		fmt.Fprintf(g.Stdout, "  waits for the open final phase: %s\n", ph.Waiting)
		return
	case len(ph.Seeds) == 0 && len(ph.Matches) == 0:
		fmt.Fprintf(g.Stdout, "  after the Swiss (round %d of %d finished)\n", t.Finished(), t.Rounds)
		return
	}
	var seeds []string
	for i, n := range ph.Seeds {
		seeds = append(seeds, fmt.Sprintf("%d. %s", i+1, name(t, n)))
	}
	fmt.Fprintf(g.Stdout, "  qualified: %s\n", strings.Join(seeds, ", "))
	if len(ph.Tied) > 0 {
		var tied []string
		for _, n := range ph.Tied {
			tied = append(tied, name(t, n))
		}
		fmt.Fprintf(g.Stdout, "  tied on points across the last place: %s\n", strings.Join(tied, ", "))
	}
	var rows [][]string
	for _, m := range ph.Matches {
		var games []string
		for _, fg := range m.Games {
			r := "to play"
			if fg.Result != nil {
				r = fg.Result.String()
			}
			games = append(games, fmt.Sprintf("%d: %d-%d %s", fg.Game, fg.Black, fg.White, r))
		}
		state := fmt.Sprintf("%s-%s", m.APoints, m.BPoints)
		if m.Decided() {
			state += ", " + name(t, m.Winner) + " wins"
			if m.How.Kind != tournament.OnPoints {
				state += " (" + m.How.String() + ")"
			}
		}
		rows = append(rows, []string{m.Code, name(t, m.A), name(t, m.B), state, strings.Join(games, "; ")})
	}
	table(g.Stdout, []string{"Match", "Higher seed", "Other", "Score", "Games (black-white)"}, rows)
	if ph.Over {
		var rank []string
		for i, n := range ph.Ranking {
			if i == 4 {
				break
			}
			rank = append(rank, fmt.Sprintf("%d. %s", i+1, name(t, n)))
		}
		fmt.Fprintf(g.Stdout, "  final ranking: %s...\n", strings.Join(rank, ", "))
	}
}

func newCategoryCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "category",
		Short: "Categories with rankings and titles of their own: women, youth, seniors...",
		Long: `category defines the groups of players that rank (and may crown a champion)
of their own, by the Swiss standings: a player belongs to a category entered by
name ('otd player edit 12 --category women') or, for one with years of birth,
when born in them ('--youth' for the youth, at most --youth-age years old in
the event's year; '--born-from 2008', '--born-to 1966'; and the players'
'--born'). A category may have its own final phase (--final single: the WOC's
single-game semi-finals, final and 3rd-place game among its top 4), which is
not played when one of its members reached the open semi-finals.`,
		Example: "  otd category add women --final single\n  otd category add youth --youth --final single\n  otd category add juniors --born-from 2005 --final single\n  otd category list\n  otd category show youth",
	}
	cmd.AddCommand(newCategoryAddCmd(g, nil), newCategoryListCmd(g, nil), newCategoryShowCmd(g, nil), newCategoryRemoveCmd(g, nil))
	return cmd
}

// categoryAddOptions are what 'category add' is told: the category.
type categoryAddOptions struct {
	Category tournament.Category
}

func newCategoryAddCmd(g *globals, runF func(categoryAddOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o categoryAddOptions) error { return runCategoryAdd(g, o) }
	}
	var c tournament.Category
	var final string
	cmd := &cobra.Command{
		Use:   "add NAME [--youth | --born-from Y] [--born-to Y] [--final none|single|RULES]",
		Short: "Add a category (or change one whose final phase has not started)",
		Args:  argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			c.Name = args[0]
			switch final {
			case "single":
				c.Final = tournament.CategoryFinal
			default:
				f, err := tournament.ParseFinalRules(final)
				if err != nil {
					return invalidAsUsage(err)
				}
				c.Final = f
			}
			return runF(categoryAddOptions{c})
		},
	}
	cmd.Flags().BoolVar(&c.Youth, "youth", false, "members are the youth: born in the event's year less the youth age (tournament --youth-age, 15 by default) or later, following both")
	cmd.Flags().IntVar(&c.BornFrom, "born-from", 0, "members are born in this `year` or later")
	cmd.Flags().IntVar(&c.BornTo, "born-to", 0, "members are born in this `year` or earlier (seniors)")
	cmd.Flags().StringVar(&final, "final", "none", "its final phase: none, single (single games among its top 4: semi-finals, final, 3rd place) or RULES as tournament --final takes them")
	return cmd
}

// runCategoryAdd adds the category and says how many members it has.
func runCategoryAdd(g *globals, o categoryAddOptions) error {
	c := o.Category
	t, _, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.AddCategory(ctx, id, c)
	})
	if err != nil {
		return invalidAsUsage(err)
	}
	fmt.Fprintf(g.Stdout, "Category %s: %s.\n", c.Name, tournament.Plural(len(t.Members(c.Name)), "member"))
	return nil
}

// categoryOptions name a category ('category remove', 'category show').
type categoryOptions struct {
	Name string
	JSON bool
}

func newCategoryRemoveCmd(g *globals, runF func(categoryOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o categoryOptions) error { return runCategoryRemove(g, o) }
	}
	return &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a category no player is entered in by name",
		Args:  argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			return runF(categoryOptions{Name: args[0]})
		},
	}
}

func runCategoryRemove(g *globals, o categoryOptions) error {
	if _, _, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.RemoveCategory(ctx, id, o.Name)
	}); err != nil {
		return invalidAsUsage(err)
	}
	fmt.Fprintf(g.Stdout, "Category %s removed.\n", o.Name)
	return nil
}

// categoryJSON is a category, as 'category list --json' gives it.
type categoryJSON struct {
	Name     string `json:"name" doc:"the category's name"`
	BornFrom int    `json:"born_from,omitempty" doc:"members born in this year or later; left out if no limit"`
	BornTo   int    `json:"born_to,omitempty" doc:"members born in this year or earlier; left out if no limit"`
	Youth    bool   `json:"youth,omitempty" doc:"true if its members are the youth ('category add --youth'): born_from follows the youth age and the event's year; left out if not"`
	Final    string `json:"final" doc:"its final phase's rules, as --final takes them; none if none"`
	Members  []int  `json:"members" doc:"its members' numbers"`
}

func newCategoryJSON(t *tournament.Tournament, c tournament.Category) categoryJSON {
	c = t.Resolve(c)
	return categoryJSON{Name: c.Name, Youth: c.Youth, BornFrom: c.BornFrom, BornTo: c.BornTo, Final: c.Final.String(), Members: append([]int{}, t.Members(c.Name)...)}
}

// categoryListOptions are what 'category list' is told.
type categoryListOptions struct {
	JSON bool
}

// teamsOptions are what 'otd teams' is told.
type teamsOptions struct {
	JSON bool
}

func newCategoryListCmd(g *globals, runF func(categoryListOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o categoryListOptions) error { return runCategoryList(g, o) }
	}
	var o categoryListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the categories and their members",
		Args:  argsUsage(cobra.NoArgs),
		RunE:  func(*cobra.Command, []string) error { return runF(o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the categories as JSON")
	return cmd
}

func runCategoryList(g *globals, o categoryListOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	out := []categoryJSON{}
	var rows [][]string
	for _, c := range t.Categories {
		j := newCategoryJSON(t, c)
		out = append(out, j)
		rows = append(rows, []string{c.Name, strconv.Itoa(len(j.Members)), c.Final.String()})
	}
	if o.JSON {
		return writeJSON(g.Stdout, out)
	}
	if len(rows) == 0 {
		fmt.Fprintln(g.Stdout, "No category ('otd category add NAME' adds one).")
		return nil
	}
	return table(g.Stdout, []string{"Category", "Members", "Final phase"}, rows)
}

func newCategoryShowCmd(g *globals, runF func(categoryOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o categoryOptions) error { return runCategoryShow(g, o) }
	}
	var o categoryOptions
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "A category's ranking: its final phase's, then its members in Swiss order",
		Args:  argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Name = args[0]
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the ranking as JSON")
	return cmd
}

func runCategoryShow(g *globals, o categoryOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	return printCategory(g, t, o.Name, o.JSON)
}

// printCategory prints the ranking of category: its final phase's
// places, then its members in Swiss order.
func printCategory(g *globals, t *tournament.Tournament, category string, asJSON bool) error {
	rows, ph, err := app.CategoryRanking(t, category)
	if err != nil {
		return invalidAsUsage(err)
	}
	if asJSON {
		return writeJSON(g.Stdout, newRankJSON(t, rows))
	}
	heading := "the Swiss order"
	switch {
	case ph.Over:
		heading = "its final phase's places, then the Swiss order"
	case !ph.Skipped.IsZero():
		heading += " (its final phase is not played: " + ph.Skipped.String() + ")"
	case !ph.Waiting.IsZero():
		heading += " meanwhile (its final phase waits for the open's: " + ph.Waiting.String() + ")"
	case !ph.Rules.IsZero():
		heading += " meanwhile, provisional: its final phase is not over ('otd final show')"
	}
	fmt.Fprintf(g.Stdout, "Category %s: %s\n", ph.Category, heading)
	return printRanking(g, t, rows)
}

// teamJSON is a team of the team ranking, as --json gives it.
type teamJSON struct {
	Rank    int         `json:"rank" doc:"its place; equal scores share it"`
	Name    string      `json:"name" doc:"the team (a country's code by default)"`
	Points  json.Number `json:"points" doc:"the sum of its best members' Swiss points"`
	Counted []int       `json:"counted" doc:"the members counted, best first"`
	Members []int       `json:"members" doc:"the members who may count, in Swiss order: every member but those of the categories the team rules leave out (the youth at the WOC)"`
}

func newTeamsCmd(g *globals, runF func(teamsOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o teamsOptions) error { return runTeams(g, o) }
	}
	var o teamsOptions
	cmd := &cobra.Command{
		Use:   "teams",
		Short: "The team ranking: the sum of each team's best Swiss scores",
		Long: `teams ranks the teams by the sum of their best members' Swiss scores (3 by
default: 'tournament edit --teams best=3,exclude=youth' changes it). A
player's team is their country's, unless 'player edit --team NAME' (or
--team -, no team) says otherwise. Equal scores share a place.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error { return runF(o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the ranking as JSON")
	return cmd
}

func runTeams(g *globals, o teamsOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	return printTeams(g, t, o.JSON)
}

// printTeams prints the team ranking.
func printTeams(g *globals, t *tournament.Tournament, asJSON bool) error {
	teams, err := t.Teams()
	if err != nil {
		return err
	}
	out := []teamJSON{}
	var rows [][]string
	for _, tm := range teams {
		out = append(out, teamJSON{Rank: tm.Rank, Name: tm.Name, Points: jsonPoints(tm.Points), Counted: tm.Counted, Members: tm.Members})
		var counted []string
		for _, n := range tm.Counted {
			counted = append(counted, name(t, n))
		}
		rows = append(rows, []string{strconv.Itoa(tm.Rank), tm.Name, tm.Points.String(), strings.Join(counted, ", ")})
	}
	if asJSON {
		return writeJSON(g.Stdout, out)
	}
	if len(rows) == 0 {
		fmt.Fprintln(g.Stdout, "No team: no player has a country or a team ('otd player edit N --team NAME').")
		return nil
	}
	how := fmt.Sprintf("the sum of each team's best %d Swiss scores", cmp.Or(t.TeamRules.Best, 3))
	if len(t.TeamRules.Exclude) > 0 {
		how += " (" + strings.Join(t.TeamRules.Exclude, ", ") + " not counted)"
	}
	fmt.Fprintf(g.Stdout, "Teams: %s; equal scores share a place\n", how)
	return fitTable(g.Stdout, []string{"Rank", "Team", "Points", "Counted"}, rows, 3)
}
