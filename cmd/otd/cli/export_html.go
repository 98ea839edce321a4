package cli

import (
	"fmt"
	"io"

	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// htmlCommands are 'otd export html' and 'otd export svg'.
func htmlCommands(g *globals) []*cobra.Command {
	return []*cobra.Command{newExportHTMLCmd(g, nil), newExportSVGCmd(g, nil)}
}

// exportHTMLOptions are the file and the flags of 'export html': Pairings,
// a round's wall sheet instead of the results page (0: the page).
type exportHTMLOptions struct {
	Path     string
	Force    bool
	Pairings int
}

func newExportHTMLCmd(g *globals, runF func(exportHTMLOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o exportHTMLOptions) error { return runExportHTML(g, o) }
	}
	var o exportHTMLOptions
	cmd := &cobra.Command{
		Use:   "html FILE",
		Short: "Write the results page (standings, crosstable, rounds), or a round's wall sheet, as HTML",
		Long: `export html writes the results page of the current tournament: one
self-contained HTML file (its style inside, no script, nothing fetched from
the network) with the standings after the last finished round (as 'otd
standings' gives them), the crosstable and every paired round's games. A
championship's page has its final phase first (the qualifiers, each match
with its score and winner, every game), then the final ranking (as 'otd
standings --final'), the Swiss standings as they were, each category's
ranking and the teams. It reads on a phone, and prints on A4: each part on
its own pages, the crosstable in small type across the width. Every name is
shown as text.

With --pairings R it writes the wall sheet of round R instead (as 'otd round
show R --print'): every player by name with table, colour and opponent, then
the same by table, in large type for A4, to post on the wall. The wall
sheet of a round of the final phase is 'otd final show --print'.

FILE "-" writes to standard output; an existing file is replaced only with
--force, and only a regular file.`,
		Example: "  otd export html results.html\n  otd export html --pairings 3 round3.html\n  otd export html - | less",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if o.Pairings < 0 {
				return usageErrorf("export html: --pairings %d: a round number, from 1", o.Pairings)
			}
			o.Path = args[0]
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace FILE if it exists")
	cmd.Flags().IntVar(&o.Pairings, "pairings", 0, "write the wall sheet of round `R` instead")
	return cmd
}

// runExportHTML writes the results page, or a round's wall sheet.
func runExportHTML(g *globals, o exportHTMLOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	if o.Pairings > 0 {
		return writeWallSheet(g, t, o.Pairings, o.Path, o.Force)
	}
	if err := writeOutput(g, o.Path, o.Force, func(w io.Writer) error { return export.WriteHTML(w, t) }); err != nil {
		return err
	}
	wrote(g, o.Path, "the results page of %s (standings and crosstable after round %d, %s paired) to %s", t.Name, t.Finished(), tournament.Plural(t.Paired(), "round"), o.Path)
	return nil
}

// writeWallSheet writes the wall sheet of round r to path ("-": standard
// output): 'otd round show --print' and 'otd export html --pairings'.
func writeWallSheet(g *globals, t *tournament.Tournament, r int, path string, force bool) error {
	if err := t.CheckPaired(r); err != nil {
		return err
	}
	if err := writeOutput(g, path, force, func(w io.Writer) error { return export.WriteWallSheet(w, t, r) }); err != nil {
		return err
	}
	wrote(g, path, "the wall sheet of round %d to %s", r, path)
	return nil
}

// exportSVGOptions are the file and the flags of 'export svg': the game
// drawn.
type exportSVGOptions struct {
	Path         string
	Force        bool
	Round, Table int
}

func newExportSVGCmd(g *globals, runF func(exportSVGOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o exportSVGOptions) error { return runExportSVG(g, o) }
	}
	var o exportSVGOptions
	cmd := &cobra.Command{
		Use:   "svg --round R --table T FILE",
		Short: "Draw the final position of a game otd played, with its move numbers, as SVG",
		Long: `export svg draws the board at the end of a recorded game as an SVG picture:
the discs with the number of the move that placed each (as on a transcript
sheet), coordinates, the legal moves of the side to move if the game is not
over (a time default, an engine that failed), and the players and the
result under the board.

otd has the moves only of the games it played itself (engine rounds, 'otd
round play'); a game played on the board has only its result. Draw such a
game from its transcript sheet with 'otd verify SHEET --svg FILE'.

FILE "-" writes to standard output; an existing file is replaced only with
--force, and only a regular file.`,
		Example: "  otd export svg --round 3 --table 1 r3t1.svg",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			if o.Round < 1 || o.Table < 1 {
				return usageErrorf("export svg: name the game with --round R and --table T (both from 1)")
			}
			o.Path = args[0]
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace FILE if it exists")
	cmd.Flags().IntVar(&o.Round, "round", 0, "the game's round `R`")
	cmd.Flags().IntVar(&o.Table, "table", 0, "the game's table `T`")
	return cmd
}

// runExportSVG draws the board at the end of a recorded game.
func runExportSVG(g *globals, o exportSVGOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	gm, err := t.Game(o.Round, o.Table)
	if err != nil {
		return err
	}
	where := fmt.Sprintf("round %d table %d", o.Round, o.Table)
	res := gm.Result
	switch {
	case gm.IsBye():
		return fmt.Errorf("%s is %s's bye: there is no game to draw", where, name(t, gm.Black))
	case res == nil:
		return fmt.Errorf("%s (%s - %s) has no result yet: there is no game to draw", where, name(t, gm.Black), name(t, gm.White))
	case res.Moves == "":
		return fmt.Errorf("%s (%s - %s, %s): no moves are recorded: otd has the moves only of the games it played itself (engine rounds); draw a game played on the board from its sheet with 'otd verify SHEET --svg FILE'",
			where, name(t, gm.Black), name(t, gm.White), res)
	}
	game, err := transcript.ParseMovesRules(res.Moves, t.GameRules())
	if err != nil {
		return fmt.Errorf("%s: the recorded moves: %w", where, err)
	}
	rep := transcript.Replay(game)
	pic, _ := rep.Picture(-1)
	pic.Caption = fmt.Sprintf("%s, round %d, table %d: %s (black) - %s (white), %s. %s",
		t.Name, o.Round, o.Table, name(t, gm.Black), name(t, gm.White), res, pic.Caption)
	if err := writeOutput(g, o.Path, o.Force, pic.WriteSVG); err != nil {
		return err
	}
	wrote(g, o.Path, "the board of round %d table %d to %s", o.Round, o.Table, o.Path)
	return nil
}
