package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/otd-project/otd/ftd"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/userfile"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// importFTDOptions are the flags of 'otd import ftd': the file, its
// tournament's name (Name; "": the file's), the settings the flags give
// and whether --bq was given (it overrides the file's tie-break).
type importFTDOptions struct {
	Path, Name string
	Settings   tournament.Settings
	BQSet      bool
}

// newImportFTDCmd is 'otd import ftd FILE'.
func newImportFTDCmd(g *globals, runF func(importFTDOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o importFTDOptions) error { return runImportFTD(g, o) }
	}
	var name string
	s := tournament.DefaultSettings("", 1)
	cmd := &cobra.Command{
		Use:   "ftd FILE.json",
		Short: "Import a tournament from a FlipTheDisc tournament file (JSON)",
		Long: `import ftd creates a tournament from the JSON of a FlipTheDisc tournament
(flipthedisc.com, the live-results site of the WOF and national federations;
the file its live page https://flipthedisc.com/live/<id> is built from): its
players in the file's order (with their WOF ids, ratings and countries),
every Swiss round with its games (the first-listed player is Black), byes,
the withdrawals the file records and the absences it shows, and the event's
name, city, country and dates. FILE is a regular file (a link to one is
followed) of at most 16 MiB.

The tie-break is FlipTheDisc's mbq: BQ with c = 64 / rounds unrounded
(--bq exact), or the constant the file sets; --bq overrides it. The file's
published points must be those of its games and byes (otherwise nothing is
imported, and the error says whose); where otd's Swiss order is not the
published one, a note says so. A name that 'otd player add' refuses (a
control character, more than 200 characters) is refused with its line. A
file that is not UTF-8 is read as Windows-1252 (noted).

The final phase (FlipTheDisc's rounds 108 SF, 109 3/4 and 110 F) is read as
'otd import elo' reads the games after the Swiss: each game is given its
match from who played whom and the Swiss standings, with the rules the
games fit; a category's games take the file's label ("women", "division 1"),
the open's stay the open's. FlipTheDisc's standings, like otd's, are the
Swiss's: final-phase games count in neither points nor discs. What could
not be read for certain is noted on standard error.

'otd verify FILE.json' checks the file's transcripts against its results.`,
		Example: "  otd import ftd tournament_579.json\n  otd standings\n  otd import ftd tournament_489.json --name \"APOC 2026\" && otd final show",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runF(importFTDOptions{Path: args[0], Name: name, Settings: s, BQSet: cmd.Flags().Changed("bq")})
		},
	}
	cmd.Flags().TextVar(&s.BQ, "bq", s.BQ, "BQ `rule`: nearest, wof, exact or a number (default: the file's, exact)")
	cmd.Flags().StringVar(&name, "name", "", "the tournament's name (default: the file's)")
	return cmd
}

// runImportFTD imports a FlipTheDisc file; --bq (bqSet) overrides the file's tie-break.
func runImportFTD(g *globals, o importFTDOptions) error {
	path, name, s, bqSet := o.Path, o.Name, o.Settings, o.BQSet
	fh, err := userfile.Open(path, ftd.MaxSize)
	if err != nil {
		return inputError(err)
	}
	defer fh.Close()
	f, err := ftd.Read(fh)
	if err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	bq := s.BQ
	s.Name = name
	s = interchange.FTDSettings(f, s)
	if bqSet {
		s.BQ = bq
	}
	if s.Name == "" {
		s.Name = filepath.Base(path)
	}
	t, notes, err := interchange.FromFTD(f, s)
	if err == nil {
		err = t.Validate()
	}
	if err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	d, done, err := g.app(true)
	if err != nil {
		return err
	}
	defer done()
	if err := d.Import(context.Background(), t, "ftd "+filepath.Base(path)); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Tournament %d: %s, %d players, %d rounds imported (BQ %s). It is now the current tournament.\n", t.ID, t.Name, len(t.Players), t.Rounds, t.BQ)
	if n := len(t.FinalGames); n > 0 {
		fmt.Fprintf(g.Stdout, "The final phase: %s after the Swiss ('otd final show', 'otd standings --final').\n", tournament.Plural(n, "game"))
	}
	for _, n := range notes {
		fmt.Fprintf(g.Stderr, "otd: note: %s: %s\n", filepath.Base(path), n)
	}
	return nil
}
