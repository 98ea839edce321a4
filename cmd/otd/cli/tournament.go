package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"

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
	cmd.AddCommand(newTournamentNewCmd(g, nil), newTournamentRunCmd(g, nil), newTournamentListCmd(g, nil), newTournamentShowCmd(g, nil), newTournamentUseCmd(g, nil),
		newTournamentEditCmd(g, nil), newTournamentDeleteCmd(g, nil))
	return cmd
}

// settingsFlags defines the flags of the settings, each set straight into s
// through its TextUnmarshaler.
func settingsFlags(f *pflag.FlagSet, s *tournament.Settings) {
	f.IntVar(&s.Rounds, "rounds", s.Rounds, "number of rounds")
	f.TextVar(&s.System, "system", s.System, "pairing `system`: swiss or roundrobin (Berger tables; rounds beyond a cycle play it again, colours swapped: 2 players and --rounds 10 are a 10-game match)")
	f.TextVar(&s.BQ, "bq", s.BQ, "Brightwell Quotient `rule`: nearest (squares/rounds rounded: 64/rounds on 8x8), wof (Papp: 6, 0 under 8 rounds), exact (squares/rounds), or a number")
	f.TextVar(&s.TimeDefault, "time-default", s.TimeDefault, "`policy` of a time default: complete (completed game, at least 33-31), fixed (33-31) or wipeout (64-0)")
	f.TextVar(&s.ByePoints, "bye-points", s.ByePoints, "`points` for a bye: 1 or 0.5")
	f.TextVar(&s.TieBreaks, "tiebreaks", s.TieBreaks, "tie-break `chain`: points, bq, discs, h2h, wins, diff in any order, or 'japanese' (wins, disc difference, h2h)")
	f.TextVar(&s.FirstRound, "first-round", s.FirstRound, "round 1 `pairing`: rating (top half against bottom half) or random (seeded)")
	f.Uint64Var(&s.Seed, "seed", s.Seed, "seed of the pairing's random choices (colour lots, random first round)")
	f.TextVar(&s.Pairing, "pairing", s.Pairing, "Swiss cost `model`: papp (Papp's weights) or plain (no elitism, every float back compensated), then ,name=value for each weight changed, e.g. papp,elitism=none ('otd tournament show' lists them)")
	f.TextVar(&s.Start, "start", s.Start, "first `day` of the event, YYYY-MM-DD")
	f.TextVar(&s.End, "end", s.End, "last `day` of the event, YYYY-MM-DD")
	f.StringVar(&s.City, "city", s.City, "the city of the event")
	f.StringVar(&s.Country, "country", s.Country, "the country of the event, a code such as FR or FRA")
	f.StringVar(&s.Director, "director", s.Director, "the tournament director's name")
	f.TextVar(&s.Final, "final", s.Final, "the final phase after the Swiss: none, woc (top 4, a play-off for the 4th place, best-of-3 semi-finals and final, a 3rd-place game, a level match to the discs of the match, then to the higher Swiss seed, as a drawn 3rd-place game is), or woc's changed: top=2|4|8,bestof=N,third=N,playoff=0|1,level=seed|discs|game,colour=lot|seed")
	f.TextVar(&s.TeamRules, "teams", s.TeamRules, "how teams rank: best=N (the best N Swiss scores of a team, 3 by default),exclude=CATEGORY (+ between categories: who does not count, e.g. youth)")
	f.TextVar(&s.NewIDs, "new-ids", s.NewIDs, "the WOF ids for new players that your federation has from the WOF, from the first not yet given: `FROM-TO` (e.g. 50321-59999) or FROM; 'otd export elo' numbers the players without a WOF id from them, marked new (+)")
	f.IntVar(&s.YouthAge, "youth-age", s.YouthAge, "the youth's age `limit`: a youth is at most this old in the event's year, born in its year less the limit or later (1 to 30; 0 or unset: 15)")
	f.TextVar(&s.VenueApproval, "venue-approval", s.VenueApproval, "what becomes of a game whose two players report the same result from their phones ('otd serve --venue'): auto (recorded at once) or director (held for the director's approval in the console)")
	f.TextVar(&s.Time, "time", s.Time, "the engines' `time` control for 'round play' and 'tournament run': BASE+INCREMENT per side (\"5m+2s\"), BASE (\"10m\") or a time per move (\"10s/move\"); default 1m a side")
}

// rulesFlags are --rules and --size, read together into Settings.Variant.
type rulesFlags struct {
	name string
	size int
}

func (r *rulesFlags) add(f *pflag.FlagSet) {
	f.StringVar(&r.name, "rules", "othello", "the game's `rules`: othello, anti (Anti-Othello: the fewest discs win), reversi (the Reversi opening, 32 discs each), 8stars (10x10 less 3 squares at each corner), or several joined with +, e.g. anti+reversi")
	f.IntVar(&r.size, "size", 0, "the board's side, even, 4 to 16 (default 8; 10 for 8stars)")
}

// apply sets s.Variant from the flags given, keeping from s what they do not
// change (--size alone keeps the rules' names, --rules alone the size).
func (r rulesFlags) apply(s *tournament.Settings, changed func(string) bool) error {
	if !changed("rules") && !changed("size") {
		return nil
	}
	name, size, old := r.name, r.size, s.GameRules()
	if !changed("rules") {
		name, _, _ = strings.Cut(old.String(), ":")
	}
	if !changed("size") {
		size = old.Size // --rules alone keeps the board's size, unless to or from 8Stars (10x10)
		if strings.Contains(strings.ToLower(name), "8stars") != (old.Shape == engine.EightStars) {
			size = 0
		}
	}
	var v engine.Rules
	var err error
	if strings.Contains(name, ":") {
		if changed("size") {
			return usageErrorf("--rules %q and --size %d: give the size once", r.name, r.size)
		}
		v, err = engine.ParseRules(name)
	} else {
		v, err = engine.RulesFor(name, size)
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	s.Variant = v
	return nil
}

// editSettings copies into s the settings of edit whose flags were given.
// Each flag of settingsFlags, and --name, is named after its setting's key
// in the settings' record (tournament.EncodeSettings), '-' for '_': the copy
// goes through that record, so that a new setting needs no line here.
func editSettings(s *tournament.Settings, edit tournament.Settings, changed func(string) bool) error {
	var to, from map[string]json.RawMessage
	for _, r := range []struct {
		s *tournament.Settings
		m *map[string]json.RawMessage
	}{{s, &to}, {&edit, &from}} {
		b, err := tournament.EncodeSettings(*r.s)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, r.m); err != nil {
			return err
		}
	}
	keys := map[string]bool{}
	for f := range reflect.TypeFor[tournament.Settings]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys[name] = true
	}
	flags := pflag.NewFlagSet("", pflag.ContinueOnError)
	flags.String("name", "", "")
	settingsFlags(flags, &tournament.Settings{})
	var err error
	flags.VisitAll(func(f *pflag.Flag) {
		key := strings.ReplaceAll(f.Name, "-", "_")
		switch v, ok := from[key]; {
		case !keys[key]:
			err = fmt.Errorf("internal error: --%s names no setting of the settings' record", f.Name)
		case !changed(f.Name):
		case ok:
			to[key] = v
		default:
			delete(to, key) // left out of the record: not set
		}
	})
	if err != nil {
		return err
	}
	b, err := json.Marshal(to)
	if err != nil {
		return err
	}
	*s, err = tournament.DecodeSettings(tournament.SettingsVersion, b)
	return err
}

type tournamentNewOptions struct {
	Settings tournament.Settings
	JSON     bool
	List     listFlags // --ratings: the rating list --players come from
	Players  string    // --players: WOF ids, or a file of them
	Preset   string    // --preset: woc, its settings under the flags given
}

func newTournamentNewCmd(g *globals, runF func(tournamentNewOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o tournamentNewOptions) error { return runTournamentNew(g, o) }
	}
	o := tournamentNewOptions{Settings: tournament.DefaultSettings("", 0)}
	s := &o.Settings
	var rules rulesFlags
	cmd := &cobra.Command{
		Use:   "new NAME --rounds N | --preset woc",
		Short: "Create a tournament and make it the current one",
		Example: `  otd tournament new "Paris Open 2026" --rounds 7 --start 2026-05-16 --end 2026-05-17 --city Paris --country FRA
  otd tournament new "WOC 2027" --preset woc --start 2027-11-04 --first-round random --seed 2027
  otd tournament new "Euro 2027" --preset woc --rounds 11 --start 2027-08-20 --final top=2
  otd tournament new "Club night" --rounds 5 --system roundrobin --bye-points 0.5
  otd tournament new "Grand Othello" --rounds 5 --size 10
  otd tournament new "Anti night" --rounds 4 --rules anti
  otd tournament new "Paris Open 2026" --rounds 7 --start 2026-05-16 --ratings archive.db --players entries.txt`,
		Long: `new creates a tournament and makes it the current one.

The games are standard 8x8 Othello unless --rules or --size says otherwise:
any even board side from 4 to 16, 8Stars, the Reversi opening, Anti-Othello.
Scores add up to the board's playable squares; a bye and a forfeit count half
of them, a time default's minimal win is half plus one, and BQ's c is
round(squares / rounds). In Anti-Othello (the fewest discs win) a result is
entered and recorded as the discs on the board; for the standings each side
scores its opponent's discs, the empty squares going to the winner, so that
the winner scores more and BQ and disc totals rank as in Othello.

--preset woc sets the World Othello Championship's settings (RULES.md
section 7): 13 rounds, --bq wof (c = 6), --final woc, the categories women
(entered by name: 'player edit N --category women') and youth (at most
--youth-age years old in the event's year, 15 by default: born in the year
of --start less it or later), each with single-game semi-finals, final and
3rd-place game among its top 4, and --teams best=3,exclude=youth. It needs
--start. The flags given with it override it ('--preset woc --rounds 11');
'tournament show' lists what it set; 'tournament edit', 'category add' and
'category remove' change it after. --final woc alone sets the final phase
only.`,
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s.Name = args[0]
			switch {
			case o.Preset != "":
				p, err := tournament.DefaultSettings(s.Name, 0).Preset(o.Preset)
				if err != nil {
					return usageErrorf("tournament new: %w", err)
				}
				if err := editSettings(&p, *s, cmd.Flags().Changed); err != nil {
					return err
				}
				*s = p
			case !cmd.Flags().Changed("rounds"):
				return usageErrorf("tournament new: --rounds N: how many rounds (or --preset woc, 13)")
			}
			if err := rules.apply(s, cmd.Flags().Changed); err != nil {
				return err
			}
			if c, err := tournament.NormalizeCountry(s.Country); err == nil {
				s.Country = c // else Check says what is wrong
			}
			if err := s.Check(); err != nil {
				return usageErrorf("tournament new: %w", err)
			}
			switch {
			case (o.List.Ratings == "") != (o.Players == ""):
				return usageErrorf("tournament new: --ratings and --players go together: the players of these WOF ids from that rating list")
			case o.List.Ratings == "" && (cmd.Flags().Changed("at") || cmd.Flags().Changed("min-part")):
				return usageErrorf("tournament new: --at and --min-part go with --ratings")
			case o.List.Ratings != "" && s.FirstRound != pairing.ByRating:
				return usageErrorf("tournament new: --ratings seeds round 1 by the list's ratings: not with --first-round %s", s.FirstRound)
			}
			return runF(o)
		},
	}
	settingsFlags(cmd.Flags(), s)
	rules.add(cmd.Flags())
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the tournament as JSON")
	o.List.add(cmd.Flags(), "--start, else today")
	cmd.Flags().StringVar(&o.Players, "players", "", "with --ratings, register the players of these WOF `ids` (79,2357,... or a file of them, one a line) from the list, round 1 seeded by its ratings")
	cmd.Flags().StringVar(&o.Preset, "preset", "", "`woc`: the World Othello Championship's settings (13 rounds, --bq wof, --final woc, women and youth with their knockouts, --teams best=3,exclude=youth), under the flags given")
	return cmd
}

// runTournamentNew creates the tournament (and the database if need be)
// and makes it the current one.
func runTournamentNew(g *globals, o tournamentNewOptions) error {
	var list map[int]app.Listed
	var src string
	var ids []int
	if o.List.Ratings != "" { // read before the tournament is made: a wrong list or id makes none
		var err error
		if ids, err = readIDs([]string{o.Players}); err != nil {
			return err
		}
		if list, src, err = o.List.read(g, o.Settings.Start); err != nil {
			return err
		}
		var notListed *app.NotListedError
		var twice *app.RepeatedIDError
		switch err := app.CheckListed(list, ids); {
		case errors.As(err, &notListed):
			return inputError(fmt.Errorf("--players: WOF id %d is not in %s: check the id ('otd archive players NAME' finds one); no tournament was made", notListed.ID, src))
		case errors.As(err, &twice):
			return inputError(fmt.Errorf("--players: WOF id %d is given twice; no tournament was made", twice.ID))
		}
	}
	d, done, err := g.app(true)
	if err != nil {
		return err
	}
	r, err := d.CreateListed(context.Background(), o.Settings, list, ids)
	done()
	if err != nil {
		return invalidAsUsage(err)
	}
	t := r.Tournament
	if o.JSON {
		return writeJSON(g.Stdout, newTournamentJSON(t))
	}
	s := o.Settings
	fmt.Fprintf(g.Stdout, "Tournament %d: %s, %d rounds (%s). It is now the current tournament.\n", t.ID, s.Name, s.Rounds, s.System)
	if list != nil {
		printRegistered(g, r, src)
	}
	return nil
}

type tournamentEditOptions struct {
	PasswordFile string              // --director-password-file
	Edit         tournament.Settings // the settings given
	Rules        rulesFlags
	Given        []string // the flags given, by name
	Rederive     bool     // drop the final games that rest on what changes
}

// changed tells whether the flag named was given.
func (o tournamentEditOptions) changed(flag string) bool { return slices.Contains(o.Given, flag) }

func newTournamentEditCmd(g *globals, runF func(tournamentEditOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o tournamentEditOptions) error { return runTournamentEdit(g, o) }
	}
	o := tournamentEditOptions{Edit: tournament.DefaultSettings("", 0)}
	cmd := &cobra.Command{
		Use:     "edit [--name NAME] [--start DAY] [--city CITY] [--rounds N] [--bq RULE] ...",
		Aliases: []string{"set"},
		Short:   "Change the current tournament's name, dates, place, director or settings",
		Long: `edit changes what the flags name. The name, dates, city, country and
director, the new players' WOF ids, the number of rounds (not below those
paired), the BQ rule, the tie-breaks and the youth's age limit may change
at any time: the standings and the reports follow. The options that
decide pairings and the games (system, first round, seed, pairing model, bye
points, rules and board size) change only until round 1 is paired; the
time-default policy, which decides only how a time default is recorded,
until the first time default is recorded. Once a final phase has games
paired, a change of its rules, of a category's or of the rounds that would
change what they rest on (who qualified, the seeds, a match's outcome) is
refused, naming them; --rederive makes it and drops them for 'otd final
next' to pair again. The change is in 'otd log'; 'otd undo' reverts it.

--director-password-file sets the password of the venue's console ('otd
serve --venue') from the first line of FILE, 8 to 72 bytes (a longer one is
refused: bcrypt reads no more); otd keeps only its hash (bcrypt). 'otd log' says it was set; undo does not
revert it: set another.`,
		Example: `  otd tournament edit --bq wof
  otd tournament edit --name "Paris Open 2026" --city Paris --country FRA --director "Ann Archer"
  otd tournament edit --rounds 9 --tiebreaks points,bq,discs,h2h
  otd tournament edit --pairing papp,elitism=none
  otd tournament edit --new-ids 50321-59999
  otd tournament edit --youth-age 14
  otd tournament edit --venue-approval director
  otd tournament edit --director-password-file ~/otd-password.txt`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n := cmd.Flags().NFlag(); n == 0 || n == 1 && o.Rederive {
				return usageErrorf("tournament edit: nothing to change: name a setting, e.g. --bq wof")
			}
			cmd.Flags().Visit(func(f *pflag.Flag) {
				if f.Name != "director-password-file" {
					o.Given = append(o.Given, f.Name)
				}
			})
			if c, err := tournament.NormalizeCountry(o.Edit.Country); err == nil {
				o.Edit.Country = c // else the tournament says what is wrong
			}
			return runF(o)
		},
	}
	cmd.Flags().StringVar(&o.Edit.Name, "name", "", "the tournament's new name")
	settingsFlags(cmd.Flags(), &o.Edit)
	o.Rules.add(cmd.Flags())
	rederiveFlag(cmd.Flags(), &o.Rederive)
	cmd.Flags().StringVar(&o.PasswordFile, "director-password-file", "", "set the venue console's director's password to the first line of `FILE` (8 to 72 bytes; kept hashed)")
	return cmd
}

// readPassword reads the director's password: the first line of file.
func readPassword(file string) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--director-password-file: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimSuffix(line, "\r")
	if n := len(line); n < app.MinPasswordLength || n > app.MaxPasswordLength {
		return "", usageErrorf("--director-password-file %s: its first line is the password, %d to %d bytes, not %d: write another on the first line", file, app.MinPasswordLength, app.MaxPasswordLength, n)
	}
	return line, nil
}

// runTournamentEdit changes the settings given (once the engines are
// checked under new rules) and prints them.
func runTournamentEdit(g *globals, o tournamentEditOptions) error {
	if err := checkEnginesFor(g, o.Rules, o.changed); err != nil {
		return err
	}
	if o.PasswordFile != "" {
		password, err := readPassword(o.PasswordFile)
		if err != nil {
			return err
		}
		t, _, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
			if err := d.SetDirectorPassword(ctx, id, password); err != nil {
				return app.Outcome{}, err
			}
			t, err := d.Tournament(ctx, id)
			return app.Outcome{Tournament: t}, err
		})
		if err != nil {
			return invalidAsUsage(err)
		}
		if len(o.Given) == 0 {
			return printSettings(g, t)
		}
	}
	t, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return rederiving(d, o.Rederive).EditSettings(ctx, id, func(s *tournament.Settings) error {
			if err := editSettings(s, o.Edit, o.changed); err != nil {
				return err
			}
			return o.Rules.apply(s, o.changed)
		})
	})
	if err != nil {
		return invalidAsUsage(err)
	}
	printChangeNotes(g, changes)
	return printSettings(g, t)
}

type tournamentDeleteOptions struct {
	ID  int64
	Yes bool
}

func newTournamentDeleteCmd(g *globals, runF func(tournamentDeleteOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o tournamentDeleteOptions) error { return runTournamentDelete(g, o) }
	}
	var o tournamentDeleteOptions
	cmd := &cobra.Command{
		Use:   "delete ID [--yes]",
		Short: "Delete a tournament, its players, games and audit trail, for good",
		Long: `delete removes a tournament from the database with everything of it,
its audit trail included: it cannot be undone (keep a copy of the file if in
doubt). It asks for the tournament's name to confirm, or takes --yes.`,
		Example: "  otd tournament list\n  otd tournament delete 2\n  otd tournament delete 2 --yes",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) (err error) {
			if o.ID, err = tournamentID("tournament delete", args[0]); err != nil {
				return err
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.Yes, "yes", false, "delete without asking")
	return cmd
}

// runTournamentDelete deletes tournament o.ID once its name is typed (or
// with --yes).
func runTournamentDelete(g *globals, o tournamentDeleteOptions) error {
	return g.withApp(func(ctx context.Context, d *app.Director) error {
		s, err := d.Summary(ctx, o.ID)
		var nf *tournament.NotFoundError
		if errors.As(err, &nf) {
			return fmt.Errorf("tournament %d: no such tournament ('otd tournament list' shows them)", o.ID)
		}
		if err != nil {
			return err
		}
		if !o.Yes {
			fmt.Fprintf(g.Stdout, "Delete tournament %d, %s (%d players, %d of %d rounds paired), for good? Type its name to confirm: ",
				s.ID, s.Name, s.Players, s.Paired, s.Rounds)
			line, _ := bufio.NewReader(g.Stdin).ReadString('\n')
			if strings.TrimSpace(line) != s.Name {
				fmt.Fprintln(g.Stdout)
				return fmt.Errorf("tournament %d not deleted: the name was not typed (or use --yes)", o.ID)
			}
		}
		if err := d.Delete(ctx, o.ID); err != nil {
			return err
		}
		fmt.Fprintf(g.Stdout, "Tournament %d (%s) is deleted.\n", s.ID, s.Name)
		return nil
	})
}

// jsonOptions are the options of a command whose only flag is --json.
type jsonOptions struct{ JSON bool }

// newJSONCmd makes a command that takes no argument and --json alone (what
// jsonHelp says it prints), handing its options to runF.
func newJSONCmd(use, short, jsonHelp string, runF func(jsonOptions) error) *cobra.Command {
	var o jsonOptions
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  argsUsage(cobra.NoArgs),
		RunE:  func(*cobra.Command, []string) error { return runF(o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, jsonHelp)
	return cmd
}

func newTournamentListCmd(g *globals, runF func(jsonOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o jsonOptions) error { return runTournamentList(g, o) }
	}
	return newJSONCmd("list", "List the tournaments of the database", "print the list as JSON", runF)
}

func runTournamentList(g *globals, o jsonOptions) error {
	var list []tournament.Summary
	if err := g.withApp(func(ctx context.Context, d *app.Director) (err error) {
		list, err = d.Tournaments(ctx)
		return err
	}); err != nil {
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
	if o.JSON {
		return writeJSON(g.Stdout, out)
	}
	return table(g.Stdout, []string{"", "ID", "Name", "Players", "Rounds paired"}, rows)
}

func newTournamentShowCmd(g *globals, runF func(jsonOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o jsonOptions) error { return showCurrent(g, o.JSON, newTournamentJSON, printSettings) }
	}
	return newJSONCmd("show", "Show the current tournament's settings", "print the settings as JSON", runF)
}

// showCurrent reads the tournament the command acts on and prints it: as
// JSON (what toJSON makes of it) or as text.
func showCurrent[J any](g *globals, asJSON bool, toJSON func(*tournament.Tournament) J, text func(*globals, *tournament.Tournament) error) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(g.Stdout, toJSON(t))
	}
	return text(g, t)
}

func printSettings(g *globals, t *tournament.Tournament) error {
	s := t.Settings
	fmt.Fprintf(g.Stdout, "Tournament %d: %s\n", t.ID, s.Name)
	fmt.Fprintf(g.Stdout, "  rounds: %d (%d paired), system: %s, first round: %s, seed: %d\n", s.Rounds, t.Paired(), s.System, s.FirstRound, s.Seed)
	fmt.Fprintf(g.Stdout, "  players: %d\n", len(t.Players))
	if s.Time != (engine.TimeControl{}) || t.HasEngines() {
		fmt.Fprintf(g.Stdout, "  engines' time control: %s\n", s.PlayTime())
	}
	if r := s.GameRules(); !r.Standard() {
		fmt.Fprintf(g.Stdout, "  game: %s (%dx%d, %d squares)\n", r, r.Size, r.Size, r.Squares())
	}
	bye, _ := scoring.ScoreGame(scoring.Result{Kind: scoring.Bye}, s.Rules()) // the settings are valid
	fmt.Fprintf(g.Stdout, "  BQ: %s, tie-breaks: %s, time default: %s, bye: %s point, %d-%d discs\n", s.BQ, s.TieBreaks, s.TimeDefault, s.ByePoints, bye.BlackDiscs, bye.WhiteDiscs)
	if s.System == tournament.Swiss {
		fmt.Fprintf(g.Stdout, "  pairing: %s\n", s.Pairing)
		if w, err := s.Pairing.Weights(); err == nil { // checked when set and when read
			for _, x := range tournament.PairingWeightList(w) {
				fmt.Fprintf(g.Stdout, "    %-17s %-12s %s\n", x.Name, x.Value, x.Doc)
			}
		}
	}
	var event []string
	for _, f := range []struct{ what, v string }{{"from", s.Start.String()}, {"to", s.End.String()}, {"in", s.City},
		{"country", s.Country}, {"director", s.Director}, {"new players' WOF ids", s.NewIDs.String()}} {
		if f.v != "" {
			event = append(event, f.what+" "+f.v)
		}
	}
	if len(event) > 0 {
		fmt.Fprintf(g.Stdout, "  %s\n", strings.Join(event, ", "))
	}
	if s.YouthAge != 0 {
		line := fmt.Sprintf("  youth: at most %d years old in the event's year", s.Youth())
		if y := s.YouthBornFrom(); y != 0 {
			line = fmt.Sprintf("  youth: at most %d years old in %d, born %d or later", s.Youth(), s.Start.Time().Year(), y)
		}
		fmt.Fprintln(g.Stdout, line)
	}
	password := "not set"
	if err := g.withApp(func(ctx context.Context, d *app.Director) error {
		set, err := d.HasDirectorPassword(ctx, t.ID)
		if set {
			password = "set"
		}
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "  venue: approval %s, director password: %s\n", s.VenueApproval, password)
	if !s.Final.IsZero() {
		fmt.Fprintf(g.Stdout, "  final phase: %s\n", finalText(s.Final))
	}
	for _, c := range s.Categories {
		j := newCategoryJSON(t, c)
		fmt.Fprintf(g.Stdout, "  category %s: %s; final phase: %s; %s\n", c.Name, categoryRule(s, c), finalText(c.Final), tournament.Plural(len(j.Members), "member"))
	}
	if b, _ := s.TeamRules.MarshalText(); len(b) > 0 {
		line := fmt.Sprintf("  teams: the best %d Swiss scores of each team", s.TeamRules.Best)
		if len(s.TeamRules.Exclude) > 0 {
			line += ", without the " + strings.Join(s.TeamRules.Exclude, " and the ")
		}
		fmt.Fprintf(g.Stdout, "%s (--teams %s)\n", line, b)
	}
	for _, f := range t.Forbidden {
		line := fmt.Sprintf("  never paired: %s and %s", name(t, f.A), name(t, f.B))
		if f.Reason != "" {
			line += " (" + f.Reason + ")"
		}
		fmt.Fprintln(g.Stdout, line)
	}
	return nil
}

// finalText writes a final phase's rules as --final takes them, woc (and a
// category's single) with what it stands for.
func finalText(f tournament.FinalRules) string {
	switch f {
	case tournament.WOCFinal:
		return "woc (" + strings.Join(f.Parts(), ",") + ")"
	case tournament.CategoryFinal:
		return "single (" + strings.Join(f.Parts(), ",") + ")" // as 'category add --final' takes it
	}
	return f.String()
}

// categoryRule says who belongs to category c under settings s.
func categoryRule(s tournament.Settings, c tournament.Category) string {
	r := s.Resolve(c)
	var born []string
	if r.BornFrom != 0 {
		born = append(born, fmt.Sprintf("born %d or later", r.BornFrom))
	}
	if r.BornTo != 0 {
		born = append(born, fmt.Sprintf("born %d or earlier", r.BornTo))
	}
	switch {
	case c.Youth && r.BornFrom != 0:
		return fmt.Sprintf("the youth, at most %d years old in %d, %s", s.Youth(), s.Start.Time().Year(), strings.Join(born, ", "))
	case c.Youth:
		return fmt.Sprintf("the youth, at most %d years old in the event's year (no --start)", s.Youth())
	case len(born) > 0:
		return strings.Join(born, ", ")
	}
	return "entered by name ('player edit N --category " + c.Name + "')"
}

type tournamentUseOptions struct{ ID int64 }

func newTournamentUseCmd(g *globals, runF func(tournamentUseOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o tournamentUseOptions) error { return runTournamentUse(g, o) }
	}
	return &cobra.Command{
		Use:     "use ID",
		Short:   "Make a tournament the current one",
		Example: "  otd tournament list\n  otd tournament use 2",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			id, err := tournamentID("tournament use", args[0])
			if err != nil {
				return err
			}
			return runF(tournamentUseOptions{ID: id})
		},
	}
}

func runTournamentUse(g *globals, o tournamentUseOptions) error {
	if err := g.withApp(func(ctx context.Context, d *app.Director) error { return d.Use(ctx, o.ID) }); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Tournament %d is now the current tournament.\n", o.ID)
	return nil
}

// tournamentID parses a tournament id argument.
func tournamentID(cmd, arg string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil {
		return 0, usageErrorf("%s: ID is a number from 'otd tournament list', not %q", cmd, arg)
	}
	return id, nil
}

// checkEnginesFor starts each GTP entrant once under the rules the flags give,
// when they change the board: an engine checked on 8x8 may refuse boardsize
// 10.
func checkEnginesFor(g *globals, rules rulesFlags, changed func(string) bool) error {
	if !changed("rules") && !changed("size") {
		return nil
	}
	t, err := g.current()
	if err != nil {
		return err
	}
	s := t.Settings
	if err := rules.apply(&s, changed); err != nil || s.GameRules() == t.GameRules() {
		return err
	}
	for _, p := range t.Players {
		if e, err := tournament.ParseEngine(p.Engine); err == nil && e.Protocol == tournament.GTP {
			if err := checkEngineFor(p.Engine, s.GameRules()); err != nil {
				return fmt.Errorf("player %d (%s) under %s: %w", p.Number, p.Name, s.GameRules(), err)
			}
		}
	}
	return nil
}
