package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/otd-project/otd/tournament"
	"github.com/otd-project/otd/tournament/export"
	"github.com/spf13/cobra"
)

func newImportCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "import", Short: "Import a tournament from another program's file"}
	var name string
	s := tournament.DefaultSettings("", 1)
	elo := &cobra.Command{
		Use:   "elo FILE.ELO",
		Short: "Import a tournament from a WOF rating file (.ELO)",
		Long: `import elo creates a tournament from a WOF rating-submission file: its players
(numbered in published order, keeping their WOF ids), every round's games,
and the games added after the Swiss rounds. .ELO files do not list byes: a
player without a game in a round gets the bye there when the published score
needs it; a player whose games stop early withdrew.`,
		Example: "  otd import elo 20191009_WOC_2019.ELO --bq wof\n  otd standings",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			s.Name = name
			return runImportELO(g, args[0], s)
		},
	}
	elo.Flags().TextVar(&s.BQ, "bq", s.BQ, "BQ `rule`: nearest, wof, exact or a number")
	elo.Flags().StringVar(&name, "name", "", "the tournament's name (default: the file's %%Tournament line)")
	cmd.AddCommand(elo)
	return cmd
}

func runImportELO(g *globals, path string, s tournament.Settings) error {
	fh, err := os.Open(path)
	if err != nil {
		return inputError(err)
	}
	defer fh.Close()
	f, err := export.ReadELO(fh)
	if err != nil {
		return inputError(fmt.Errorf("%s: %w", path, err))
	}
	t, err := f.Tournament(s)
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
	return nil
}

func newExportCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "export", Short: "Write the current tournament to a file for another program"}
	cmd.AddCommand(&cobra.Command{
		Use:     "elo FILE.ELO",
		Short:   "Write the WOF rating file (.ELO) of the current tournament",
		Example: "  otd export elo paris2026.ELO",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			rows, err := t.Standings(t.Finished())
			if err != nil {
				return err
			}
			return writeFileAtomic(args[0], func(w *bufio.Writer) error {
				return export.FromTournament(t, rows, "otd "+buildVersion()).Write(w)
			})
		},
	})
	return cmd
}

// writeFileAtomic writes a file through a temporary file renamed into place,
// so that a crash never leaves half a file.
func writeFileAtomic(path string, write func(*bufio.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name would only confuse
		}
		return fmt.Errorf("cannot write %s: %w; name a file in an existing folder you may write to", path, err)
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	if err := write(w); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
