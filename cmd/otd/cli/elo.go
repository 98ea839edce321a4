package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/userfile"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

func newImportCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "import", Short: "Import a tournament from another program's file"}
	cmd.AddCommand(newImportELOCmd(g, nil), newImportFTDCmd(g, nil)) // ftd.go
	return cmd
}

// importELOOptions are the flags of 'otd import elo': the file, the
// settings the flags give, whether --bq was given (it overrides the rules of
// a file otd wrote) and how to take a file that contradicts itself.
type importELOOptions struct {
	Path     string
	Settings tournament.Settings
	BQSet    bool
	Lenient  elo.Lenient
}

func newImportELOCmd(g *globals, runF func(importELOOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o importELOOptions) error { return runImportELO(g, o) }
	}
	var name, lenient string
	s := tournament.DefaultSettings("", 1)
	eloCmd := &cobra.Command{
		Use:   "elo FILE.ELO",
		Short: "Import a tournament from a WOF rating file (.ELO)",
		Long: `import elo creates a tournament from a WOF rating-submission file: its players
(numbered in published order, keeping their WOF ids), every round's games,
and the games added after the Swiss rounds. .ELO files do not list byes: a
player without a game in a round gets the bye there when the published score
needs it; a player whose games stop early withdrew. A file written by
'otd export elo' also brings its forfeits, byes, absences, withdrawals and
rules (--bq still wins), and so the same standings, and its championship:
the final phase's matches as played, the categories and their members, the
teams' rules, each player's number, birth year and team, the city and the
new-player ids (nothing below is inferred for it). The days, host country
and director are the file's %%Date, %%Country and %%Sender lines.

The games after the Swiss rounds (%%Added results, or the "%Round SF1",
"%Round F" blocks of converted files) become the final phase, their matches
inferred from who played whom and the Swiss standings (--bq matters: the
seeds are by tie-break): a game between the two players tied across the
last qualifying place is the play-off, the top 4 pair 1 v 4 and 2 v 3, the
winners meet in the final, the losers for 3rd place. The rules (top N, best
of K, a 3rd-place match) are those the games fit. Games among other players
are a category's knockout (women's or youth: the file does not say which):
each group of players who played among themselves becomes a category named
"other" (other1, other2...). Every player counts for their country's team
(the file does not say who is youth). What could not be inferred for
certain, with the file's lines, is noted on standard error: games in no
match, rules the games do not show, byes guessed where games are missing.

Every layout of the WOF archive is read (1977 on: Papp's, FlipTheDisc's,
converted and hand-made files). What a file does not say stays unsaid: a
result without discs ("11 > 22") counts its points only, and the standings
say how many games have no discs; a player without a published score or
disc total is not checked against one. A file without standings has the
players of its games, named by their WOF ids. Games the file gives no round
are placed in rounds after the file's. A bye counts the discs the published
totals show (Papp counts a bye 40-24), or --bye-discs.

FILE is a regular file (a link to one is followed) of at most 64 MiB, with
lines of at most 64 KiB: a 100,000-player file is about 5 MB. A file that
contradicts itself is refused, with the line: a game line whose
sign contradicts its discs, a player paired twice in a round or with
themselves, listed twice, a game of a player not in the standings,
published scores or disc totals its games do not give. So is a name that
'otd player add' refuses (a control character such as ESC, more than 200
characters): a name is a player's identity. A file that is not UTF-8 is
read as Windows-1252 (Papp's and other Windows programs' files; noted), a
byte-order mark at its start left out. --lenient says how
to take it instead (comma-separated; each one taken is noted):
` + lenientHelp,
		Example: "  otd import elo 20191009_WOC_2019.ELO --bq wof\n  otd standings\n" +
			"  otd import elo 19930828_PARIS.ELO --lenient rounds=split\n" +
			"  otd import elo 20040125_Niigata.ELO --lenient sign=discs,totals=games\n" +
			"  otd import elo 20091121_Open.ELO --bye-discs 40",
		Args: argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			s.Name = name
			l, err := elo.ParseLenient(lenient)
			if err != nil {
				return usageErrorf("%w", err)
			}
			if cmd.Flags().Changed("bye-discs") {
				if s.ByeDiscs, err = byeDiscs(s.ByeDiscs); err != nil {
					return err
				}
			}
			return runF(importELOOptions{Path: args[0], Settings: s, BQSet: cmd.Flags().Changed("bq"), Lenient: l})
		},
	}
	eloCmd.Flags().StringVar(&lenient, "lenient", "", "how to take a file that contradicts itself: `WHAT=HOW`,... (see above)")
	eloCmd.Flags().IntVar(&s.ByeDiscs, "bye-discs", 0, "the discs a bye counts, 32 to 64, or 0 for its point alone (default: what the published totals show, else 32)")
	eloCmd.Flags().TextVar(&s.BQ, "bq", s.BQ, "BQ `rule`: nearest, wof, exact or a number")
	eloCmd.Flags().StringVar(&name, "name", "", "the tournament's name (default: the file's %%Tournament line)")
	return eloCmd
}

// byeDiscs is the settings' ByeDiscs of --bye-discs n: 32 to 64, or 0 for
// a bye's point alone (scoring.NoByeDiscs).
func byeDiscs(n int) (int, error) {
	switch {
	case n == 0:
		return scoring.NoByeDiscs, nil
	case n < 32 || n > 64:
		return 0, usageErrorf("--bye-discs %d: a bye counts 32 to 64 discs (Papp's is 40), or 0 (its point alone)", n)
	}
	return n, nil
}

// runImportELO imports an .ELO file; a file written by otd brings its rules,
// which --bq (bqSet) overrides.
func runImportELO(g *globals, o importELOOptions) error {
	path, s, bqSet, l := o.Path, o.Settings, o.BQSet, o.Lenient
	fh, err := userfile.Open(path, elo.MaxSize)
	if err != nil {
		return inputError(err)
	}
	defer fh.Close()
	f, err := elo.ReadWith(fh, elo.Options{Sign: l.Sign})
	if err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	bq := s.BQ
	s = interchange.ELOSettings(f, s)
	if bqSet {
		s.BQ = bq
	}
	t, notes, err := interchange.FromELOWith(f, s, l)
	if err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	if t.Name == "" {
		t.Name = filepath.Base(path)
	}
	if err := t.Validate(); err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	d, done, err := g.app(true)
	if err != nil {
		return err
	}
	defer done()
	if err := d.Import(context.Background(), t, "elo "+filepath.Base(path)); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Tournament %d: %s, %d players, %d rounds imported. It is now the current tournament.\n", t.ID, t.Name, len(t.Players), t.Rounds)
	if n := len(t.FinalGames); n > 0 {
		fmt.Fprintf(g.Stdout, "The final phase: %s after the Swiss ('otd final show', 'otd standings --final').\n", tournament.Plural(n, "game"))
	}
	for _, n := range notes {
		fmt.Fprintf(g.Stderr, "otd: note: %s: %s\n", filepath.Base(path), n)
	}
	return nil
}

func newExportCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "export", Short: "Write the current tournament to a file for another program"}
	cmd.AddCommand(newExportELOCmd(g, nil))
	cmd.AddCommand(exportCommands(g)...) // export_reports.go
	return cmd
}

func newExportELOCmd(g *globals, runF func(exportELOOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o exportELOOptions) error { return runExportELO(g, o) }
	}
	var o exportELOOptions
	eloCmd := &cobra.Command{
		Use:   "elo FILE.ELO",
		Short: "Write the WOF rating file (.ELO) of the current tournament",
		Long: `export elo writes the WOF rating-submission file of the current tournament:
the header (tournament, country, date, sender), the standings after the last
finished round with each player's WOF id, name and three-letter country, and
every game played on the board.

Every player needs a WOF id, the rating list's ('otd player add --wof-id',
'otd player edit N --wof-id ID'). A player new to the list gets one from the
ids for new players that your federation has from the WOF, the tournament's
--new-ids ('otd tournament edit --new-ids 50321-59999', from the first not
yet given, as Papp's zone-insertion): the first free ones, in the order of
registration, marked new ("+"). Without --new-ids, a player without an id is
refused: a number of otd's own would be another player's id.

Names are written FAMILY, Given, the family name in capitals: "Leader, Imre"
is LEADER, Imre; a name without a comma is a family name alone ("Nakamura Tō"
is NAKAMURA TŌ, with no given name). A name with more than one comma
("SMITH, John, Jr.") is written SMITH, John Jr. and, as it is, in an otd line.

A forfeit and a bye are not games for the rating list: they are left out of
the game lines, and written in "% otd:" comment lines with the entries,
absences and withdrawals, and the championship (the final phase's matches,
the categories and their members, the teams' rules, the players' numbers,
birth years and teams, the city), so that 'otd import elo' of the file
rebuilds the same event. FILE "-" writes to standard output; an existing
file is replaced only with --force, and only a regular file: a folder, a
device, a named pipe or a symbolic link (never followed) is refused. A
header value with a line break or a control character is refused.`,
		Example: "  otd tournament edit --new-ids 50321-59999\n  otd export elo 20261121_Paris_Open.ELO --sender \"Ann Archer\" --country FRA --start 2026-11-21 --end 2026-11-22",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Path = args[0]
			return runF(o)
		},
	}
	eloCmd.Flags().BoolVar(&o.Force, "force", false, "replace FILE if it exists")
	eloCmd.Flags().StringVar(&o.Sender, "sender", "", "who sends the file (the %%Sender line)")
	eloCmd.Flags().StringVar(&o.Country, "country", "", "the host country (the %%Country line)")
	eloCmd.Flags().StringVar(&o.Start, "start", "", "the first day of the event, YYYY-MM-DD (the %%Date line)")
	eloCmd.Flags().StringVar(&o.End, "end", "", "the last day of the event, YYYY-MM-DD")
	return eloCmd
}

// exportELOOptions are the file and the flags of 'export elo'.
type exportELOOptions struct {
	Path                        string
	Force                       bool
	Sender, Country, Start, End string
}

func runExportELO(g *globals, o exportELOOptions) error {
	path := o.Path
	t, err := g.current()
	if err != nil {
		return err
	}
	if r := t.GameRules(); !r.Standard() {
		return fmt.Errorf("export elo: the WOF rating file is for standard 8x8 Othello, and %q is played under %s: export it with 'otd export xlsx' or 'otd export csv'", t.Name, r)
	}
	meta := export.ELOMeta(t)
	for _, d := range []struct {
		flag, v string
		to      *time.Time
	}{{"--start", o.Start, &meta.Start}, {"--end", o.End, &meta.End}} {
		if d.v == "" {
			continue
		}
		if *d.to, err = time.Parse(time.DateOnly, d.v); err != nil {
			return usageErrorf("%s %q: write the date YYYY-MM-DD, e.g. 2026-11-21", d.flag, d.v)
		}
	}
	if !meta.End.IsZero() && meta.Start.IsZero() {
		return usageErrorf("--end %s needs --start, the first day", o.End)
	}
	if !meta.End.IsZero() && meta.End.Before(meta.Start) {
		return usageErrorf("--end %s is before --start %s", o.End, o.Start)
	}
	for _, v := range []struct{ flag, v string }{{"--country", o.Country}, {"--sender", o.Sender}} {
		if err := elo.CheckText(v.v); err != nil {
			return usageErrorf("%s %s: %w", v.flag, elo.QuoteCut(v.v), err)
		}
	}
	if o.Country != "" {
		meta.Country = o.Country
	}
	if o.Sender != "" {
		meta.Sender = o.Sender
	}
	meta.Creator = "otd " + buildVersion()
	meta.Created = time.Now()
	if g.Now != nil {
		meta.Created = g.Now()
	}
	f, err := export.ToELO(t, meta)
	if err != nil {
		return fmt.Errorf("export elo: %w", err)
	}
	if err := f.Check(); err != nil {
		return fmt.Errorf("export elo: %w", err)
	}
	if err := writeOutput(g, path, o.Force, f.Write); err != nil {
		return err
	}
	games := len(f.Added)
	for _, r := range f.Rounds {
		games += len(r)
	}
	var newIDs []int
	for _, p := range f.Standings {
		if p.New {
			newIDs = append(newIDs, p.ID)
		}
	}
	slices.Sort(newIDs)
	added := make([]string, len(newIDs))
	for i, id := range newIDs {
		added[i] = strconv.Itoa(id)
	}
	what := fmt.Sprintf("the rating file of %s to %s (%s, %s, %s", t.Name, path, tournament.Plural(len(f.Standings), "player"), tournament.Plural(len(f.Rounds), "round"), tournament.Plural(games, "game"))
	if len(added) > 0 {
		what += fmt.Sprintf("; %d new to the rating list, marked +: %s", len(added), strings.Join(added, ", "))
	}
	wrote(g, path, "%s)", what)
	var missing []string
	for _, m := range []struct {
		flag  string
		unset bool
	}{{"--country", meta.Country == ""}, {"--start", meta.Start.IsZero()}, {"--sender", meta.Sender == ""}} {
		if m.unset {
			missing = append(missing, m.flag)
		}
	}
	if path != "-" && len(missing) > 0 {
		fmt.Fprintf(g.Stderr, "otd: note: the header says ?? where the rating list wants a value: give %s\n", strings.Join(missing, ", "))
	}
	if done := t.Finished(); done < t.Paired() {
		fmt.Fprintf(g.Stderr, "otd: note: round %d has results missing: the file has rounds 1 to %d\n", done+1, done)
	}
	return nil
}

// lenientHelp lists the values of elo.ParseLenient, for --help.
const lenientHelp = `sign=discs   a game line whose sign contradicts its discs ("11 (25)>(39) 22"): the discs say who won
sign=sign    ... the sign says who won, and the game has no discs (also discs adding up to over 64)
rounds=split a player paired twice in a round: the later game moves to the next round where both are free
totals=games published scores or disc totals the games do not give: the games count, the figures are noted
listed=first a player id listed twice in the standings: the first line counts
games=list   a game against oneself, or of ?????? where several players have no id: dropped; a player not in the standings: added from the games
names=clean  a name otd refuses (a control character, over 200 characters): its control characters dropped, cut
dates=first  a %%Date range whose last day is before its first ("25/03/2007 - 24/03/2007"): the tournament is dated by its first day`
