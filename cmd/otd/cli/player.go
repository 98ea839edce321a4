package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/internal/userfile"
	"github.com/otd-project/otd/roster"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newPlayerCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "player",
		Short: "Register, list, edit, withdraw and remove players",
		Long: `Players of the current tournament are numbered 1, 2, ... in order of
registration. Late entries are accepted until their first round is paired.`,
	}
	cmd.AddCommand(newPlayerAddCmd(g, nil), newPlayerImportCmd(g, nil), newPlayerListCmd(g, nil), newPlayerEditCmd(g, nil),
		newPlayerWithdrawCmd(g, nil), newPlayerAbsentCmd(g, nil), newPlayerRemoveCmd(g, nil))
	return cmd
}

// playerNumber parses a player number argument.
func playerNumber(cmd, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, usageErrorf("%s: NUMBER is a player's number (see 'otd player list'), not %q", cmd, s)
	}
	return n, nil
}

type playerAddOptions struct {
	In            tournament.PlayerInput
	Entry         tournament.PlayerEntry // team, birth, categories given
	JSON, NoCheck bool
}

func newPlayerAddCmd(g *globals, runF func(playerAddOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o playerAddOptions) error { return runPlayerAdd(g, o) }
	}
	var o playerAddOptions
	var team, born, cats string
	var women bool
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Register a player (a person, or an engine with --engine); prints the player's number",
		Long: `add registers a player and prints the number otd gives it.

A player's name is written "FAMILY, Given" by convention ("Leader, Imre"),
as the WOF's rating list and its .ELO files write it (LEADER, Imre; 'otd
export elo' writes the family name in capitals). A name without a comma is a
family name alone, kept whole and in its order ("Nakamura Tō" is written
NAKAMURA TŌ, with no given name).

With --engine the player is a computer program whose games otd plays itself
('otd round play'): "gtp:PROGRAM ARGS..." for a GTP engine,
"nboard:PROGRAM ARGS..." for an NBoard engine (the program is started from its
arguments, never through a shell; quote an argument with spaces), or
"builtin:NAME" for one of otd's own players: random, random:SEED, greedy,
alphabeta:1 (weakest) to alphabeta:` + fmt.Sprint(player.MaxLevel) + ` (strongest). The program is started
once to check that it runs, speaks its protocol and answers a legal move from
the start position (within 5s); one that does not is refused, with what it
answered (--no-check: not started).

A name that a player has already, case, spacing and accents aside ("DUPONT,
Marie" and "Dupont, Marie", "Muller" and "Müller"), is refused, naming that
player; --allow-duplicate registers two people of one name.

What a championship needs of a player is given once, here as with 'otd
player edit': --team, --born (a year or a date, kept as given; the
categories by age go by the year), --women and --category (the tournament's categories).`,
		Example: "  otd player add \"Leader, Imre\" --rating 2150 --country GB --wof-id 79\n  otd player add \"Comer, Late\" --json\n" +
			"  otd player add \"DE JONG, Anna\" --wof-id 5012 --rating 1850 --country NED --women --born 2009-05-01\n" +
			"  otd player add GRhino --engine 'gtp:/usr/games/gtp-rhino -l 2'\n  otd player add \"otd level 4\" --engine builtin:alphabeta:4",
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			o.In.Name = args[0]
			if o.Entry, err = playerEntry(cmd.Flags(), team, born, cats); err != nil {
				return usageErrorf("player add: %v", err)
			}
			if women {
				cs := []string{"women"}
				if o.Entry.Categories != nil {
					cs = append(*o.Entry.Categories, cs...)
				}
				o.Entry.Categories = &cs
			}
			return runF(o)
		},
	}
	addEntryFlags(cmd.Flags(), &team, &born, &cats)
	cmd.Flags().BoolVar(&women, "women", false, "enter the player in the women's category (--category women)")
	cmd.Flags().IntVar(&o.In.Rating, "rating", 0, "rating (0: none)")
	cmd.Flags().IntVar(&o.In.WOFID, "wof-id", 0, "the player's WOF id (0: none), written in the .ELO file")
	cmd.Flags().StringVar(&o.In.Country, "country", "", "country code, FR, FRA or NED, GER, ... (stored as ISO alpha-3: FRA, NLD, DEU)")
	cmd.Flags().StringVar(&o.In.Engine, "engine", "", "an engine entrant: gtp:ARGV, nboard:ARGV or builtin:NAME")
	cmd.Flags().BoolVar(&o.NoCheck, "no-check", false, "register the engine without starting it (e.g. a program not installed yet)")
	cmd.Flags().BoolVar(&o.In.AllowDuplicate, "allow-duplicate", false, "register a name that a player has already (two people of one name)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the new player as JSON (with its number)")
	return cmd
}

// runPlayerAdd registers a player, an engine once it has answered a move
// (checkEngine), and prints its number.
func runPlayerAdd(g *globals, o playerAddOptions) error {
	if !o.NoCheck {
		if err := checkEngine(o.In.Engine, g); err != nil {
			return err
		}
	}
	out, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.RegisterAll(ctx, id, []app.Entrant{{PlayerInput: o.In, Entry: o.Entry}})
	})
	if err != nil {
		return invalidAsUsage(err)
	}
	p := out.Players[changes[0].After.Players[0].Number-1]
	if o.JSON {
		return writeJSON(g.Stdout, newPlayerJSON(p))
	}
	fmt.Fprintln(g.Stdout, p.Number)
	return nil
}

type playerImportOptions struct {
	File           string    // the players file; "" with --ratings
	List           listFlags // --ratings: the rating list the players come from
	Args           []string  // with --ratings: WOF ids, or files of them
	AllowDuplicate bool
}

func newPlayerImportCmd(g *globals, runF func(playerImportOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o playerImportOptions) error { return runPlayerImport(g, o) }
	}
	var o playerImportOptions
	cmd := &cobra.Command{
		Use:   "import FILE.csv | --ratings LIST [WOF-ID|FILE...]",
		Short: "Register every player of a CSV file (name, rating, country), or players of a rating list by WOF id",
		Long: `import registers the players of a CSV file in its order, one player a line.
A first row naming the columns gives them, in any order: name, rating,
country, wof_id, women (yes or no; or gender, F or W for a woman, M), born
(a year or a date, kept as given), team and categories
(separated by ";", in quotes if the file's separator is one); a column
otd does not read is refused, with its name. Without such a row the
columns are name, then optionally rating and country. The file may come straight
from a spreadsheet: columns separated by commas, semicolons or tabs (found
from the file), UTF-8 with or without a byte order mark or UTF-16 ("Unicode
text"), else Windows-1252 (Excel's "CSV" on Windows; noted), empty trailing
cells, blank lines. A first row that names the columns (in any
language: then name, rating, country) is skipped, and said so. A name with a comma goes in double
quotes ("LEADER, Imre"). The file is a regular file (a link to one is
followed) of at most 16 MiB, 64 KiB a line and 100,000 players; so is a file
of ids or a list with --ratings (64 MiB).

A line that does not fit (too many columns, a rating that is not a number, a
name already in the file or already registered, case, spacing and accents
aside) is refused with its line: the whole file is registered or, on any
error, none of it. --allow-duplicate takes a name twice: two people of one
name.

With --ratings LIST, the players are given by WOF id (79, 79,2357, or a
file of ids, one a line first) and registered with the list's name,
country and rating, which round 1 is then seeded by (--first-round rating,
the default); a player not rated in the list is registered without a
rating, and said so. The list is a file written by 'otd rating --csv', or
the list computed at --at (default the tournament's first day, else today)
from an archive: the database of 'otd archive index', or a folder of .ELO
files. An id that is not in the list is refused, and nothing is registered.
--ratings with no id sets the rating of every registered player with a WOF
id from the list (players registered by hand with --wof-id).`,
		Example: "  otd player import players.csv\n  otd player import examples/players.csv\n" +
			"  otd player import entries.csv   # name,wof_id,rating,country,women,born,team,categories\n" +
			"  otd player import --ratings archive.db 79 2357 4120\n  otd player import --ratings ratings-2026-05.csv entries.txt\n" +
			"  otd player import --ratings ~/wof-archive --at 2026-05-01 79,2357\n  otd player import --ratings archive.db",
		Args: argsUsage(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case o.List.Ratings != "":
				o.Args = args
			case cmd.Flags().Changed("at") || cmd.Flags().Changed("min-part"):
				return usageErrorf("player import: --at and --min-part go with --ratings")
			case len(args) != 1:
				return usageErrorf("player import: name one players file (or give --ratings LIST and WOF ids)")
			default:
				o.File = args[0]
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.AllowDuplicate, "allow-duplicate", false, "register a name that is in the file twice or registered already (two people of one name)")
	o.List.add(cmd.Flags(), "the tournament's first day, else today")
	return cmd
}

// runPlayerImport registers the players of the file o.File, all or none;
// with --ratings, those of a rating list (runPlayerImportRatings).
func runPlayerImport(g *globals, o playerImportOptions) error {
	if o.List.Ratings != "" {
		return runPlayerImportRatings(g, o)
	}
	path := o.File
	pf, err := readRoster(path, roster.Options{AllowDuplicates: o.AllowDuplicate})
	if err != nil {
		return inputError(err)
	}
	_, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.RegisterRoster(ctx, id, pf.Players, o.AllowDuplicate)
	})
	var registered *roster.ParseError // a name registered already
	var line *app.LineError
	switch {
	case errors.As(err, &registered):
		return inputError(fmt.Errorf("%s: %w", path, err))
	case errors.As(err, &line):
		err = fmt.Errorf("%s: %w", path, err)
	}
	if err != nil {
		return invalidAsUsage(err)
	}
	seps := map[rune]string{',': "commas", ';': "semicolons", '\t': "tabs"}
	fmt.Fprintf(g.Stdout, "%s: %d players, columns separated by %s", path, len(pf.Players), seps[pf.Sep])
	if pf.Header != 0 {
		fmt.Fprintf(g.Stdout, "; line %d skipped as the header (%s)", pf.Header, pf.Heading)
	}
	fmt.Fprintln(g.Stdout, ".")
	if pf.Windows1252 {
		fmt.Fprintf(g.Stderr, "otd: note: %s: %s\n", path, txt.Windows1252Note)
	}
	fmt.Fprintf(g.Stdout, "Registered %d players", len(pf.Players))
	if len(changes) > 0 { // the last change is the last player's: registered, or entered in a category
		fmt.Fprintf(g.Stdout, ", numbers %d to %d", changes[0].After.Players[0].Number, changes[len(changes)-1].After.Players[0].Number)
	}
	fmt.Fprintln(g.Stdout, ".")
	return nil
}

func newPlayerListCmd(g *globals, runF func(jsonOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o jsonOptions) error {
			return showCurrent(g, o.JSON, newPlayersJSON, func(g *globals, t *tournament.Tournament) error { return printPlayers(g, t, false) })
		}
	}
	return newJSONCmd("list", "List the players of the current tournament", "print the players as JSON", runF)
}

// printPlayers prints the players of t, with their engines if any play.
func printPlayers(g *globals, t *tournament.Tournament, asJSON bool) error {
	if asJSON {
		return writeJSON(g.Stdout, newPlayersJSON(t))
	}
	header := []string{"No", "Name", "Rating", "Country", "Status"}
	engines, categories := t.HasEngines(), len(t.Categories) > 0
	if categories {
		header = append(header, "Categories")
	}
	if engines {
		header = append(header, "Engine")
	}
	var rows [][]string
	for _, p := range t.Players {
		row := []string{strconv.Itoa(p.Number), p.Name, ratingText(p.Rating), p.Country, playerStatus(p)}
		if categories {
			var in []string
			for _, c := range t.Categories {
				if t.Resolve(c).Member(p) {
					in = append(in, c.Name)
				}
			}
			row = append(row, strings.Join(in, ", "))
		}
		if engines {
			row = append(row, p.Engine)
		}
		rows = append(rows, row)
	}
	return table(g.Stdout, header, rows)
}

// newPlayersJSON is the players of t as --json gives them.
func newPlayersJSON(t *tournament.Tournament) []playerJSON {
	out := []playerJSON{}
	for _, p := range t.Players {
		out = append(out, newPlayerJSON(p))
	}
	return out
}

func ratingText(r int) string {
	if r == 0 {
		return ""
	}
	return strconv.Itoa(r)
}

func playerStatus(p tournament.Player) string {
	var s []string
	if p.FirstRound > 1 {
		s = append(s, fmt.Sprintf("from round %d", p.FirstRound))
	}
	if p.Left != 0 {
		s = append(s, fmt.Sprintf("withdrawn before round %d", p.Left))
	}
	for _, r := range p.Absent {
		s = append(s, fmt.Sprintf("absent round %d", r))
	}
	return strings.Join(s, ", ")
}

type playerEditOptions struct {
	Number   int
	Edit     tournament.PlayerEdit  // the details given
	Entry    tournament.PlayerEntry // team, birth, categories given
	NoCheck  bool                   // a new engine is not started
	Rederive bool                   // drop the final games that rest on what changes
}

func newPlayerEditCmd(g *globals, runF func(playerEditOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o playerEditOptions) error { return runPlayerEdit(g, o) }
	}
	var o playerEditOptions
	var name, country, eng, team, cats string
	var rating, wofID int
	var born string
	cmd := &cobra.Command{
		Use:   "edit NUMBER [--name NAME [--allow-duplicate]] [--rating R] [--country CC] [--wof-id N] [--engine SPEC [--no-check]] [--team T] [--born Y] [--category C,...]",
		Short: "Correct a player's name, rating, country, WOF id or engine; set their team, birth (a year or a date), categories",
		Long: `edit corrects the details given; the others stay as they are. A player whose
name an older otd stored and otd no longer keeps (a control character, more
than 200 characters; 'otd player list' shows it escaped) gets a new --name
with any correction of rating, country, WOF id or engine.

Once a final phase has games paired, a change of team, year of birth or
categories that would change what they rest on (who qualified, the seeds, a
category's final played or not) is refused, naming them; --rederive makes
it and drops them for 'otd final next' to pair again.`,
		Example: "  otd player edit 12 --name \"SMITH, Ben\" --country GB --wof-id 2357\n  otd player edit 3 --engine 'gtp:/usr/games/gtp-rhino -l 3'\n  otd player edit 7 --category women --born 2011 --team -",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if o.Number, err = playerNumber("player edit", args[0]); err != nil {
				return err
			}
			f := cmd.Flags()
			o.Edit.Name, o.Edit.Country, o.Edit.Rating = given(f, "name", name), given(f, "country", country), given(f, "rating", rating)
			o.Edit.WOFID, o.Edit.Engine = given(f, "wof-id", wofID), given(f, "engine", eng)
			if o.Entry, err = playerEntry(f, team, born, cats); err != nil {
				return usageErrorf("player edit: %v", err)
			}
			if o.Edit == (tournament.PlayerEdit{AllowDuplicate: o.Edit.AllowDuplicate}) && o.Entry == (tournament.PlayerEntry{}) {
				return usageErrorf("player edit: nothing to change: give --name, --rating, --country, --wof-id, --engine, --team, --born or --category")
			}
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.NoCheck, "no-check", false, "change the engine without starting it (e.g. a program not installed yet)")
	addEntryFlags(cmd.Flags(), &team, &born, &cats)
	cmd.Flags().StringVar(&name, "name", "", "new name")
	cmd.Flags().BoolVar(&o.Edit.AllowDuplicate, "allow-duplicate", false, "take a name that another player has (two people of one name)")
	cmd.Flags().IntVar(&rating, "rating", 0, "new rating")
	cmd.Flags().StringVar(&country, "country", "", "new country code, FR, FRA or NED, GER, ... (stored as ISO alpha-3: FRA, NLD, DEU)")
	cmd.Flags().IntVar(&wofID, "wof-id", 0, "new WOF id (0: none)")
	cmd.Flags().StringVar(&eng, "engine", "", `new engine (gtp:ARGV, nboard:ARGV, builtin:NAME; "" for a person)`)
	rederiveFlag(cmd.Flags(), &o.Rederive)
	return cmd
}

// addEntryFlags adds the flags of a player's entry in a championship
// (tournament.PlayerEntry): --team, --born and --category.
func addEntryFlags(f *pflag.FlagSet, team, born, cats *string) {
	f.StringVar(team, "team", "", `the player's team ("": their country's; "-": none), for 'otd teams'`)
	f.StringVar(born, "born", "", "the `year` of birth, or the date (2009 or 2009-05-01, kept as given; 0: not given); a category by age goes by the year")
	f.StringVar(cats, "category", "", `the categories the player is entered in, comma-separated (women,...; "": none)`)
}

// playerEntry is the entry that the flags of addEntryFlags give.
func playerEntry(f *pflag.FlagSet, team, born, cats string) (tournament.PlayerEntry, error) {
	e := tournament.PlayerEntry{Team: given(f, "team", team)}
	e.Categories = given(f, "category", strings.FieldsFunc(cats, func(r rune) bool { return r == ',' }))
	if f.Changed("born") {
		var b tournament.Born
		if born != "0" {
			var err error
			if b, err = tournament.ParseBorn(born); err != nil {
				return e, fmt.Errorf("--born: %w", err)
			}
		}
		e.Born = &b
	}
	return e, nil
}

// given is a pointer to v if the flag name was given, else nil: an edit's
// field.
func given[T any](f *pflag.FlagSet, name string, v T) *T {
	if !f.Changed(name) {
		return nil
	}
	return &v
}

// runPlayerEdit changes player o.Number's details (a new engine once it
// has answered a move, checkEngine) and prints the player.
func runPlayerEdit(g *globals, o playerEditOptions) error {
	if o.Edit.Engine != nil && !o.NoCheck {
		if err := checkEngine(*o.Edit.Engine, g); err != nil {
			return err
		}
	}
	p, err := g.playerAction(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return rederiving(d, o.Rederive).EditPlayer(ctx, id, o.Number, o.Edit, o.Entry)
	})
	if err != nil {
		return invalidAsUsage(err)
	}
	fmt.Fprintf(g.Stdout, "Player %s\n", p)
	return nil
}

type playerWithdrawOptions struct {
	Number   int
	Rederive bool // drop the final games that rest on the withdrawal
}

func newPlayerWithdrawCmd(g *globals, runF func(playerWithdrawOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o playerWithdrawOptions) error { return runPlayerWithdraw(g, o) }
	}
	var o playerWithdrawOptions
	cmd := &cobra.Command{
		Use:   "withdraw NUMBER",
		Short: "Withdraw a player from the next round on (games played stand)",
		Long: `withdraw takes a player out of the rounds not paired yet; the games played
stand. Once the Swiss is over, a withdrawn player is out of the final
phases: a withdrawal that final games paired rest on is refused, naming
them; --rederive makes it and drops them for 'otd final next' to pair again.`,
		Example: "  otd player withdraw 12\n  otd player withdraw 4 --rederive",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) (err error) {
			if o.Number, err = playerNumber("player withdraw", args[0]); err != nil {
				return err
			}
			return runF(o)
		},
	}
	rederiveFlag(cmd.Flags(), &o.Rederive)
	return cmd
}

func runPlayerWithdraw(g *globals, o playerWithdrawOptions) error {
	p, err := g.playerAction(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return rederiving(d, o.Rederive).Withdraw(ctx, id, o.Number)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Player %d (%s) is withdrawn from round %d on.\n", p.Number, p.Name, p.Left)
	return nil
}

type playerAbsentOptions struct{ Number, Round int }

func newPlayerAbsentCmd(g *globals, runF func(playerAbsentOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o playerAbsentOptions) error { return runPlayerAbsent(g, o) }
	}
	var o playerAbsentOptions
	cmd := &cobra.Command{
		Use:     "absent NUMBER --round R",
		Short:   "Record that a player will miss a round (not yet paired)",
		Example: "  otd player absent 7 --round 4",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) (err error) {
			if o.Number, err = playerNumber("player absent", args[0]); err != nil {
				return err
			}
			return runF(o)
		},
	}
	cmd.Flags().IntVar(&o.Round, "round", 0, "the round missed (required)")
	cmd.MarkFlagRequired("round")
	return cmd
}

func runPlayerAbsent(g *globals, o playerAbsentOptions) error {
	p, err := g.playerAction(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.Absent(ctx, id, o.Number, o.Round)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Player %d (%s) is absent from round %d.\n", p.Number, p.Name, o.Round)
	return nil
}

// playerAction runs an action on one player and returns the player after it.
func (g *globals) playerAction(action func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error)) (tournament.Player, error) {
	_, changes, err := g.act(action)
	if err != nil {
		return tournament.Player{}, err
	}
	printChangeNotes(g, changes)
	return changes[len(changes)-1].After.Players[0], nil
}

type playerRemoveOptions struct{ Number int }

func newPlayerRemoveCmd(g *globals, runF func(playerRemoveOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o playerRemoveOptions) error { return runPlayerRemove(g, o) }
	}
	return &cobra.Command{
		Use:   "remove NUMBER",
		Short: "Remove a player registered by mistake (until their first round is paired)",
		Long: `remove takes a player out of the tournament as if never registered; the
players registered after them move up one number. Only until the player's
first round is paired: after that, withdraw them ('otd player withdraw').
'otd undo' puts them back.`,
		Example: "  otd player remove 12",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			n, err := playerNumber("player remove", args[0])
			if err != nil {
				return err
			}
			return runF(playerRemoveOptions{Number: n})
		},
	}
}

// runPlayerRemove removes player o.Number and says who is renumbered.
func runPlayerRemove(g *globals, o playerRemoveOptions) error {
	n := o.Number
	t, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) { return d.Remove(ctx, id, n) })
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Removed %s.", changes[0].Subject)
	switch moved := len(t.Players) - n + 1; {
	case moved == 1:
		fmt.Fprintf(g.Stdout, " Player %d (%s) is now player %d.", n+1, t.Players[n-1].Name, n)
	case moved > 1:
		to := map[bool]string{true: "and", false: "to"}[moved == 2]
		fmt.Fprintf(g.Stdout, " Players %d %s %d are now numbered %d %s %d.", n+1, to, len(t.Players)+1, n, to, len(t.Players))
	}
	fmt.Fprintln(g.Stdout)
	return nil
}

// readRoster reads the players file at path (package roster); its errors
// name the file.
func readRoster(path string, o roster.Options) (*roster.File, error) {
	f, err := userfile.Open(path, roster.MaxSize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pf, err := roster.Read(f, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pf, nil
}
