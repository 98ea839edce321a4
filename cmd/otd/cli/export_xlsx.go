package cli

import (
	"errors"
	"fmt"
	"github.com/otd-project/otd/tournament"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/otd-project/otd/export"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// xlsxCommands are 'otd export xlsx' and 'otd export csv'.
func xlsxCommands(g *globals) []*cobra.Command {
	return []*cobra.Command{newExportXLSXCmd(g, nil), newExportCSVCmd(g, nil)}
}

// exportXLSXOptions are the file and the flags of 'export xlsx'.
type exportXLSXOptions struct {
	Path  string
	Force bool
}

func newExportXLSXCmd(g *globals, runF func(exportXLSXOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o exportXLSXOptions) error { return runExportXLSX(g, o) }
	}
	var o exportXLSXOptions
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

A championship (a final phase, categories or teams: 'otd final', 'otd
category', 'otd teams') has more sheets before Players: Final phase (every
game of the final phases in the order paired: its round of the final phase,
category, match, game number, black, white, the result as in Rounds, and on
the game that decided a match, its winner, the points of both and how a
level match was decided), Final ranking (the final phase's places, then the
Swiss order, as 'otd standings --final'), a sheet a category (its ranking,
as 'otd category show') and Teams (as 'otd teams'). The Tournament sheet
then lists their settings too. The Standings sheet stays the Swiss
standings: final-phase games count in neither points nor discs.

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
			o.Path = args[0]
			return runF(o)
		},
	}
	xlsx.Flags().BoolVar(&o.Force, "force", false, "replace FILE if it exists")
	return xlsx
}

// currentSheets returns the current tournament and the sheets of its
// workbook (export xlsx, export csv).
func currentSheets(g *globals) (*tournament.Tournament, []export.Sheet, error) {
	t, err := g.current()
	if err != nil {
		return nil, nil, err
	}
	sheets, err := export.Sheets(t)
	return t, sheets, err
}

// runExportXLSX writes the current tournament's workbook.
func runExportXLSX(g *globals, o exportXLSXOptions) error {
	t, sheets, err := currentSheets(g)
	if err != nil {
		return err
	}
	if err := writeOutput(g, o.Path, o.Force, func(w io.Writer) error { return export.WriteSheets(w, sheets) }); err != nil {
		return err
	}
	wrote(g, o.Path, "%s to %s (%d sheets; standings after round %d)", sheetNames(sheets), o.Path, len(sheets), t.Finished())
	return nil
}

// exportCSVOptions are the folder and the flags of 'export csv'.
type exportCSVOptions struct {
	Dir    string
	Force  bool
	Format export.CSVFormat
}

func newExportCSVCmd(g *globals, runF func(exportCSVOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o exportCSVOptions) error { return runExportCSV(g, o) }
	}
	var o exportCSVOptions
	var excel string
	csv := &cobra.Command{
		Use:   "csv DIR",
		Short: "Write the current tournament as CSV files, one a sheet of 'export xlsx'",
		Long: `export csv writes the sheets of 'otd export xlsx' as CSV files in the folder
DIR: tournament.csv, standings.csv, crosstable.csv, rounds.csv and
players.csv, and for a championship final-phase.csv, final-ranking.csv, a
file a category (women.csv) and teams.csv; the same cells; numbers as
--json writes them (3.5, 577.86).
Text a spreadsheet would take for a formula gets a single quote in front.

These files are for programs: UTF-8, commas, decimal points. For Excel, add
--excel: Excel on Windows opens a CSV file with the computer's regional
settings, and shows accents garbled ("NovÃ¡k"), every line in one column, or
3.5 as a date, in a file not written for them. --excel (or --excel=fr,
--excel=de) writes for Excel set to French, German or most languages of
continental Europe, which write 3,5: UTF-8 with a byte-order mark, ";"
between fields, decimal commas. --excel=en writes for Excel set to English or
an East Asian language, which write 3.5: UTF-8 with a byte-order mark,
commas, decimal points. Use the one whose numbers look like those of the
computer that opens the file. 'otd standings --csv' and 'otd crosstable
--csv' take --excel too.

A folder that does not exist is created (its parent must exist), and
removed again if a file cannot be written. In a folder that exists, if any
of these files exists, nothing is written unless --force is given, which
replaces them; other files in the folder are left alone. Each file is
written whole and then moved into place, so that a crash never leaves half a
file (it may leave some of the files new and some old, or missing in a
new folder: export again). A file of that name that is not a regular file
(a folder, a device, a named pipe, a symbolic link), and DIR that is a
symbolic link or not a folder, are refused before anything is written.`,
		Example: "  otd export csv paris-open\n  otd export csv paris-open --force\n  otd export csv --excel paris-open\n  otd export csv --excel=en paris-open",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := csvFormat(cmd.Flags().Changed("excel"), excel)
			if err != nil {
				return err
			}
			o.Dir, o.Format = args[0], f
			return runF(o)
		},
	}
	csv.Flags().BoolVar(&o.Force, "force", false, "replace the files in DIR if they exist")
	excelFlag(csv.Flags(), &excel)
	return csv
}

// excelFlag defines --excel[=fr|de|en] of the commands that write CSV.
func excelFlag(f *pflag.FlagSet, lang *string) {
	f.StringVar(lang, "excel", "", "write CSV for Excel, as it opens it in `fr|de|en`: fr or de (--excel alone) where Excel writes 3,5 (UTF-8 with BOM, ';', decimal comma), en where it writes 3.5 (UTF-8 with BOM, ',', decimal point); give it as --excel=en")
	f.Lookup("excel").NoOptDefVal = "fr"
}

// csvFormat is the CSV format --excel asks for (given: whether it was
// given), or the format for programs.
func csvFormat(given bool, lang string) (export.CSVFormat, error) {
	if !given {
		return export.CSVFormat{}, nil
	}
	f, err := export.ExcelCSV(lang)
	if err != nil {
		return f, usageErrorf("%v", err)
	}
	return f, nil
}

// sheetNames names the sheets in lower case: "tournament, standings, ...".
func sheetNames(sheets []export.Sheet) string {
	names := make([]string, len(sheets))
	for i, s := range sheets {
		names[i] = strings.ToLower(s.Name)
	}
	return strings.Join(names, ", ")
}

// runExportCSV writes the sheets of the current tournament as CSV files of
// format f in dir, each through writeOutput; a missing dir is created.
func runExportCSV(g *globals, o exportCSVOptions) error {
	dir, force, f := o.Dir, o.Force, o.Format
	if dir == "" || dir == "-" {
		return usageErrorf("export csv writes several files: name a folder (for one table on standard output: otd standings --csv, otd crosstable --csv)")
	}
	_, sheets, err := currentSheets(g)
	if err != nil {
		return err
	}
	write := func(in string, force bool) error {
		for _, s := range sheets {
			err := writeOutput(g, filepath.Join(in, s.CSVName()), force, func(w io.Writer) error { return export.WriteCSV(w, s, f) })
			if err != nil {
				return err
			}
		}
		detail := fmt.Sprintf("%d CSV files", len(sheets))
		if f.Excel != "" {
			detail += " " + f.String()
		}
		wrote(g, in, "%s to %s (%s)", sheetNames(sheets), filepath.Clean(in)+string(filepath.Separator), detail)
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
