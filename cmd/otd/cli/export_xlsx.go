package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/otd-project/otd/export"
	"github.com/spf13/cobra"
)

// xlsxCommands are 'otd export xlsx' and 'otd export csv'.
func xlsxCommands(g *globals) []*cobra.Command {
	var force bool
	xlsx := &cobra.Command{
		Use:   "xlsx FILE.xlsx",
		Short: "Write the current tournament as a spreadsheet (XLSX)",
		Long: `export xlsx writes the current tournament as an XLSX workbook, the file a
federation asks for. Its sheets: Tournament (name, dates, place, director,
and the settings: BQ rule and its constant, time-default rule, pairing
model...), Standings (rank, number, name, country, rating, points, BQ, discs,
games, withdrawn), Crosstable (a row a player in standings order; for each
round the opponent, the colour, the points, the discs of both and what the
round was: normal, time-default, forfeit, bye or missed), Rounds (every game:
round, table, black, white, points before the round, discs, the result's
kind and loser, and for a game otd played how it ended, why and the moves)
and Players. The standings and the crosstable are those after the last
finished round, as 'otd standings' and 'otd crosstable' print them.

Numbers are number cells: points show one decimal (3.5, 3.0), BQ the
decimals its rule gives (none with an even constant, one with an odd one,
two with exact). Each header row is bold and frozen, with an autofilter. A
name or any other text a spreadsheet would take for a formula (starting with
=, +, -, @, a tab or a line break) is written with a single quote in front.
FILE "-" writes to standard output; an existing file is replaced only with
--force, and only a regular file.`,
		Example: "  otd export xlsx paris-open.xlsx\n  otd export xlsx paris-open.xlsx --force",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			t, err := g.current()
			if err != nil {
				return err
			}
			return writeOutput(g, args[0], force, func(w io.Writer) error { return export.WriteXLSX(w, t) })
		},
	}
	xlsx.Flags().BoolVar(&force, "force", false, "replace FILE if it exists")
	var csvForce bool
	csv := &cobra.Command{
		Use:   "csv DIR",
		Short: "Write the current tournament as CSV files, one a sheet of 'export xlsx'",
		Long: `export csv writes the sheets of 'otd export xlsx' as CSV files in the folder
DIR: tournament.csv, standings.csv, crosstable.csv, rounds.csv and
players.csv, the same cells; numbers as --json writes them (3.5, 577.86).
Text a spreadsheet would take for a formula gets a single quote in front.

A folder that does not exist is created (its parent must exist), and
removed again if a file cannot be written. In a folder that exists, if any
of the five files exists, nothing is written unless --force is given, which
replaces them; other files in the folder are left alone. Each file is
written whole and then moved into place, so that a crash never leaves half a
file (it may leave some of the five files new and some old, or missing in a
new folder: export again). A file of that name that is not a regular file
(a folder, a device, a named pipe, a symbolic link), and DIR that is a
symbolic link or not a folder, are refused before anything is written.`,
		Example: "  otd export csv paris-open\n  otd export csv paris-open --force",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			return runExportCSV(g, args[0], csvForce)
		},
	}
	csv.Flags().BoolVar(&csvForce, "force", false, "replace the files in DIR if they exist")
	return []*cobra.Command{xlsx, csv}
}

// runExportCSV writes the sheets of the current tournament as CSV files in
// dir, each through writeOutput; a missing dir is created.
func runExportCSV(g *globals, dir string, force bool) error {
	if dir == "" || dir == "-" {
		return usageErrorf("export csv writes several files: name a folder (for one table on standard output: otd standings --csv, otd crosstable --csv)")
	}
	t, err := g.current()
	if err != nil {
		return err
	}
	sheets, err := export.Sheets(t)
	if err != nil {
		return err
	}
	write := func(in string, force bool) error {
		for _, s := range sheets {
			err := writeOutput(g, filepath.Join(in, s.CSVName()), force, func(w io.Writer) error { return export.WriteCSV(w, s) })
			if err != nil {
				return err
			}
		}
		return nil
	}
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create %s: %w; name a folder in an existing folder you may write to", dir, errors.Unwrap(err))
		}
		if err := write(dir, false); err != nil {
			for _, s := range sheets {
				os.Remove(filepath.Join(dir, s.CSVName()))
			}
			os.Remove(dir)
			return err
		}
		return nil
	case err != nil:
		return fmt.Errorf("cannot write to %s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("cannot write to %s: it is a symbolic link; otd does not write through links: name the folder it leads to, or a new one", dir)
	case !fi.IsDir():
		return fmt.Errorf("cannot write to %s: not a folder; name a folder, or a new one to create", dir)
	}
	for _, s := range sheets { // refused before anything is written
		path := filepath.Join(dir, s.CSVName())
		if fi, err := os.Lstat(path); err == nil {
			if err := regularFile(path, fi); err != nil {
				return err
			}
			if !force {
				return fmt.Errorf("%s: %w; add --force to replace the files, or name another folder", path, errExists)
			}
		}
	}
	return write(dir, force)
}
