package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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
every match; 'standings --final' the final ranking.`,
		Example: "  otd final start\n  otd result SF1 1 33-31\n  otd final next --black F=12\n  otd final show",
	}
	cmd.AddCommand(newFinalNextCmd(g, "start"), newFinalNextCmd(g, "next"), newFinalShowCmd(g))
	return cmd
}

func newFinalNextCmd(g *globals, verb string) *cobra.Command {
	var blacks []string
	cmd := &cobra.Command{
		Use:   verb + " [--black CODE=N]...",
		Short: map[string]string{"start": "Pair the final phase's first games, once the Swiss is over", "next": "Pair the next game of every match not decided yet, or the next stage"}[verb],
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			o := tournament.FinalOptions{Black: map[string]int{}}
			for _, b := range blacks {
				code, n, ok := strings.Cut(b, "=")
				x, err := strconv.Atoi(n)
				if !ok || err != nil || x < 1 {
					return usageErrorf("final %s: --black %q: write the match's code and the player who has black, e.g. SF1=12", verb, b)
				}
				o.Black[strings.TrimSpace(code)] = x
			}
			t, changes, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) {
				started := slices.ContainsFunc(t.FinalGames, func(fg tournament.FinalGame) bool { return fg.Match != "" })
				switch {
				case verb == "start" && started:
					return tournament.Change{}, fmt.Errorf("the final phase has started: 'otd final next' pairs the next games ('otd final show' shows them)")
				case verb == "next" && !started:
					return tournament.Change{}, fmt.Errorf("the final phase has not started: 'otd final start' pairs its first games")
				}
				return t.FinalNext(o)
			})
			if err != nil {
				return invalidAsUsage(err)
			}
			for _, fg := range changes[0].After.FinalGames {
				fmt.Fprintf(g.Stdout, "%s game %d: %s (black) - %s (white)\n", fg.Code(), fg.Game, name(t, fg.Black), name(t, fg.White))
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&blacks, "black", nil, "who has black in a match's next game, instead of the lot: `CODE=N` (player number), e.g. SF1=12")
	return cmd
}

// matchJSON is a match of a final phase, as --json gives it.
type matchJSON struct {
	Category string          `json:"category,omitempty" doc:"the category ('' or left out: the open)"`
	Code     string          `json:"code" doc:"PO (the play-off), QF1-QF4, SF1, SF2, F (the final), 3P (the 3rd-place match)"`
	A        int             `json:"a" doc:"the higher seed's number"`
	B        int             `json:"b" doc:"the other player's number"`
	APoints  string          `json:"a_points" doc:"a's points in the match: a win 1, a draw 0.5"`
	BPoints  string          `json:"b_points" doc:"b's points in the match"`
	BestOf   int             `json:"best_of" doc:"games of the match"`
	Winner   int             `json:"winner,omitempty" doc:"the winner's number, once decided"`
	How      string          `json:"how,omitempty" doc:"how a level match was decided"`
	Games    []finalGameJSON `json:"games" doc:"its games in order"`
}

type finalGameJSON struct {
	Game       int    `json:"game" doc:"its number in the match"`
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
	Ranking  []int       `json:"ranking,omitempty" doc:"its final ranking, once over"`
	Over     bool        `json:"over" doc:"true once every match is decided"`
}

func newPhaseJSON(ph tournament.FinalPhase) phaseJSON {
	j := phaseJSON{Category: ph.Category, Rules: ph.Rules.String(), Seeds: append([]int{}, ph.Seeds...), Tied: ph.Tied,
		Matches: []matchJSON{}, Skipped: ph.Skipped, Ranking: ph.Ranking, Over: ph.Over}
	for _, m := range ph.Matches {
		mj := matchJSON{Category: m.Category, Code: m.Code, A: m.A, B: m.B, APoints: m.APoints.String(), BPoints: m.BPoints.String(),
			BestOf: m.BestOf, Winner: m.Winner, How: m.How, Games: []finalGameJSON{}}
		for _, fg := range m.Games {
			gj := finalGameJSON{Game: fg.Game, Black: fg.Black, White: fg.White}
			if fg.Result != nil {
				gj.BlackDiscs, gj.WhiteDiscs, gj.Result = &fg.Result.Black, &fg.Result.White, fg.Result.String()
			}
			mj.Games = append(mj.Games, gj)
		}
		j.Matches = append(j.Matches, mj)
	}
	return j
}

// phases gives the open's final phase and the categories' that have one.
func phases(t *tournament.Tournament) ([]tournament.FinalPhase, error) {
	var out []tournament.FinalPhase
	for _, c := range append([]string{""}, categoryNames(t)...) {
		ph, err := t.Phase(c)
		if err != nil {
			return nil, err
		}
		if !ph.Rules.IsZero() {
			out = append(out, ph)
		}
	}
	return out, nil
}

func categoryNames(t *tournament.Tournament) []string {
	var names []string
	for _, c := range t.Categories {
		names = append(names, c.Name)
	}
	return names
}

func newFinalShowCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show the final phases: the qualifiers, every match and its games, the ranking once over",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			phs, err := phases(t)
			if err != nil {
				return err
			}
			if asJSON {
				out := []phaseJSON{}
				for _, ph := range phs {
					out = append(out, newPhaseJSON(ph))
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
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the phases as JSON")
	return cmd
}

// printPhase prints a final phase: its qualifiers, matches and ranking.
func printPhase(g *globals, t *tournament.Tournament, ph tournament.FinalPhase) {
	title := "Final phase"
	if ph.Category != "" {
		title = "Final phase of " + ph.Category
	}
	fmt.Fprintf(g.Stdout, "%s (%s)\n", title, ph.Rules)
	switch {
	case ph.Skipped != "":
		fmt.Fprintf(g.Stdout, "  not played: %s\n", ph.Skipped)
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
			if m.How != "" {
				state += " (" + m.How + ")"
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
when born in them ('--born-from 2008' for a youth category, and the players'
'--born'). A category may have its own final phase (--final single: the WOC's
single-game semi-finals, final and 3rd-place game among its top 4), which is
not played when one of its members reached the open semi-finals.`,
		Example: "  otd category add women --final single\n  otd category add youth --born-from 2008 --final single\n  otd category list\n  otd category show youth",
	}
	cmd.AddCommand(newCategoryAddCmd(g), newCategoryListCmd(g), newCategoryShowCmd(g), newCategoryRemoveCmd(g))
	return cmd
}

func newCategoryAddCmd(g *globals) *cobra.Command {
	var c tournament.Category
	var final string
	cmd := &cobra.Command{
		Use:   "add NAME [--born-from Y] [--born-to Y] [--final none|single|RULES]",
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
			t, _, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) { return t.AddCategory(c) })
			if err != nil {
				return invalidAsUsage(err)
			}
			fmt.Fprintf(g.Stdout, "Category %s: %s.\n", c.Name, tournament.Plural(len(t.Members(c.Name)), "member"))
			return nil
		},
	}
	cmd.Flags().IntVar(&c.BornFrom, "born-from", 0, "members are born in this `year` or later (youth)")
	cmd.Flags().IntVar(&c.BornTo, "born-to", 0, "members are born in this `year` or earlier (seniors)")
	cmd.Flags().StringVar(&final, "final", "none", "its final phase: none, single (single games among its top 4: semi-finals, final, 3rd place) or RULES as tournament --final takes them")
	return cmd
}

func newCategoryRemoveCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a category no player is entered in by name",
		Args:  argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if _, _, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) { return t.RemoveCategory(args[0]) }); err != nil {
				return invalidAsUsage(err)
			}
			fmt.Fprintf(g.Stdout, "Category %s removed.\n", args[0])
			return nil
		},
	}
}

func newCategoryListCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the categories and their members",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			type catJSON struct {
				Name     string `json:"name" doc:"the category's name"`
				BornFrom int    `json:"born_from,omitempty" doc:"members born in this year or later"`
				BornTo   int    `json:"born_to,omitempty" doc:"members born in this year or earlier"`
				Final    string `json:"final" doc:"its final phase's rules, none if none"`
				Members  []int  `json:"members" doc:"its members' numbers"`
			}
			out := []catJSON{}
			var rows [][]string
			for _, c := range t.Categories {
				m := t.Members(c.Name)
				out = append(out, catJSON{Name: c.Name, BornFrom: c.BornFrom, BornTo: c.BornTo, Final: c.Final.String(), Members: append([]int{}, m...)})
				rows = append(rows, []string{c.Name, strconv.Itoa(len(m)), c.Final.String()})
			}
			if asJSON {
				return writeJSON(g.Stdout, out)
			}
			if len(rows) == 0 {
				fmt.Fprintln(g.Stdout, "No category ('otd category add NAME' adds one).")
				return nil
			}
			return table(g.Stdout, []string{"Category", "Members", "Final phase"}, rows)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the categories as JSON")
	return cmd
}

func newCategoryShowCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "A category's ranking: its final phase's, then its members in Swiss order",
		Args:  argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			ranking, err := t.CategoryRanking(args[0])
			if err != nil {
				return invalidAsUsage(err)
			}
			if asJSON {
				return writeJSON(g.Stdout, ranking)
			}
			var rows [][]string
			for i, n := range ranking {
				rows = append(rows, []string{strconv.Itoa(i + 1), name(t, n), t.Players[n-1].Country})
			}
			return fitTable(g.Stdout, []string{"Rank", "Player", "Country"}, rows, 1)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the ranking (player numbers) as JSON")
	return cmd
}

// teamJSON is a team of the team ranking, as --json gives it.
type teamJSON struct {
	Rank    int    `json:"rank" doc:"its place; equal scores share it"`
	Name    string `json:"name" doc:"the team (a country's code by default)"`
	Points  string `json:"points" doc:"the sum of its best members' Swiss points"`
	Counted []int  `json:"counted" doc:"the members counted, best first"`
	Members []int  `json:"members" doc:"every member, in Swiss order"`
}

func newTeamsCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "teams",
		Short: "The team ranking: the sum of each team's best Swiss scores",
		Long: `teams ranks the teams by the sum of their best members' Swiss scores (3 by
default: 'tournament edit --teams best=3,exclude=youth' changes it). A
player's team is their country's, unless 'player edit --team NAME' (or
--team -, no team) says otherwise. Equal scores share a place.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			teams, err := t.Teams()
			if err != nil {
				return err
			}
			out := []teamJSON{}
			var rows [][]string
			for _, tm := range teams {
				out = append(out, teamJSON{Rank: tm.Rank, Name: tm.Name, Points: tm.Points.String(), Counted: tm.Counted, Members: tm.Members})
				var counted []string
				for _, n := range tm.Counted {
					counted = append(counted, name(t, n))
				}
				rows = append(rows, []string{strconv.Itoa(tm.Rank), tm.Name, tm.Points.String(), strings.Join(counted, ", ")})
			}
			if asJSON {
				return writeJSON(g.Stdout, out)
			}
			return fitTable(g.Stdout, []string{"Rank", "Team", "Points", "Counted"}, rows, 3)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the ranking as JSON")
	return cmd
}
