package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/rating"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// defaultArchiveDB is the archive database of 'otd archive' and 'otd
// rating' when none is named: OTD_ARCHIVE_DB, else ./archive.db.
func defaultArchiveDB() string {
	if p := os.Getenv("OTD_ARCHIVE_DB"); p != "" {
		return p
	}
	return "archive.db"
}

// withArchive opens the archive database of --archive-db, runs fn on it
// and closes it.
func withArchive(path string, fn func(context.Context, archive.Store) error) error {
	st, err := openArchive(path, false)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(context.Background(), st)
}

func newArchiveCmd(g *globals) *cobra.Command {
	db := defaultArchiveDB()
	cmd := &cobra.Command{
		Use:   "archive",
		Short: "Index a folder of .ELO files (the WOF archive) and look up players, tournaments, head to head",
		Long: `archive keeps a rating officer's archive: every .ELO file of a folder (the
WOF's archive since 1977, or a federation's own) indexed into one database
(--archive-db, default ./archive.db, env OTD_ARCHIVE_DB; an SQLite file,
not the tournament database of --db, and not a PostgreSQL URL): each
file's tournament (its name, place and days), the players of its
standings by WOF id with the names and countries each file gives them,
and its games. 'otd rating' computes the rating list from it.

Index the folder again after adding, changing or removing files: only the
new and changed files are read (a file whose content changed replaces its
tournament), a file gone is dropped, and each file otd cannot read is
listed with the reason, and read again at the next index.`,
		Example: `  otd archive index ~/wof-archive
  otd archive players leader
  otd archive player 79
  otd archive h2h 79 5577
  otd archive tournaments --player 79 --from 2020-01-01
  otd archive tournament 2024/20240106_Shinagawa_open_2024.ELO
  otd archive problems`,
	}
	cmd.PersistentFlags().StringVar(&db, "archive-db", db, "the archive database `FILE` (env OTD_ARCHIVE_DB)")
	cmd.AddCommand(newArchiveIndexCmd(g, &db, nil), newArchivePlayersCmd(g, &db, nil), newArchivePlayerCmd(g, &db, nil), newArchiveH2HCmd(g, &db, nil),
		newArchiveTournamentsCmd(g, &db, nil), newArchiveTournamentCmd(g, &db, nil), newArchiveProblemsCmd(g, &db, nil))
	return cmd
}

// readingFlags are how the files of a folder are read: by default as the
// rating list reads them (archive.ListReading), else as 'otd import elo'
// reads one (--strict, --lenient), and --bye-discs.
type readingFlags struct {
	lenient  string
	strict   bool
	byeDiscs int
}

func (r *readingFlags) add(f *pflag.FlagSet) {
	f.BoolVar(&r.strict, "strict", false, "refuse a file that contradicts itself, as 'otd import elo' does (default: read it as the rating list does, "+elo.ListReading.String()+")")
	f.StringVar(&r.lenient, "lenient", "", "how to take a file that contradicts itself: `WHAT=HOW`,... as 'otd import elo' (see its --help), in place of the rating list's reading")
	f.IntVar(&r.byeDiscs, "bye-discs", 0, "the discs a bye counts, 32 to 64 or 0 for its point alone, to check the published disc totals (default: what they show, else 32)")
}

// reading is the reading the flags say, and whether they say one (a flag
// given).
func (r *readingFlags) reading(f *pflag.FlagSet) (archive.Reading, bool, error) {
	n := r.byeDiscs
	if f.Changed("bye-discs") {
		var err error
		if n, err = byeDiscs(n); err != nil {
			return archive.Reading{}, false, err
		}
	}
	lenient := r.lenient
	switch {
	case r.strict && f.Changed("lenient"):
		return archive.Reading{}, false, usageErrorf("one of --strict and --lenient")
	case !r.strict && !f.Changed("lenient"):
		lenient = elo.ListReading.String()
	}
	reading, err := archive.ParseReading(lenient, n)
	if err != nil {
		return archive.Reading{}, false, usageErrorf("%w", err)
	}
	return reading, r.strict || f.Changed("lenient") || f.Changed("bye-discs"), nil
}

// readingSet is the reading the flags say, nil if they say none.
func (r *readingFlags) readingSet(f *pflag.FlagSet) (*archive.Reading, error) {
	reading, set, err := r.reading(f)
	if err != nil || !set {
		return nil, err
	}
	return &reading, nil
}

// archiveIndexOptions are the flags of 'otd archive index': the archive
// database (DB), the folder and how its files are read.
type archiveIndexOptions struct {
	DB, Dir string
	Options archive.Options
	JSON    bool
}

func newArchiveIndexCmd(g *globals, db *string, runF func(archiveIndexOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o archiveIndexOptions) error { return runArchiveIndex(g, o) }
	}
	var o archiveIndexOptions
	var rf readingFlags
	cmd := &cobra.Command{
		Use:   "index DIR",
		Short: "Index the .ELO files of a folder and its subfolders into the archive database",
		Long: `index reads every file named *.ELO (any case) in the folder DIR and its
subfolders into the archive database (created if need be): a new file adds
its tournament, a file whose content changed (its SHA-256) replaces its
tournament, a file no longer there is dropped with its tournament, and an
unchanged file is not read again (unless --again, after an upgrade of otd).
The changes are saved at once, at the end: an index stopped half way changes
nothing.

Each file is read as the rating list reads the archive (RULES.md section
8), every layout of the WOF archive: every game counts, also in a file
that contradicts itself, whose contradictions are set aside, each listed
with its line by 'otd archive problems': the sign says the result where
the discs disagree (or add up to over 64), a player paired twice in a
round keeps both games, published scores and disc totals the games do not
give are set aside, a player listed twice is taken from the first line, a
player of the games not in the standings is added from them, a %%Date
range whose last day is before its first is read as its first day; only a
game against oneself, or of ?????? where several players have no id (it
cannot be attributed), is dropped, never the file (--lenient ` + elo.ListReading.String() + `).
--strict reads each file as 'otd import elo' does instead, refusing a file
that contradicts itself with the line and what is wrong; --lenient chooses
the rules (those of 'otd import elo --lenient'). The archive records how
each file was read: the files are read again when the reading (--strict,
--lenient, --bye-discs) changes. A file without a day (the rating list
weighs a game by its tournament's age) is refused, and so is a copy of a
file indexed already (its games would count twice): listed apart, as a
copy, its games counting once, from the file it names. Only regular
files are read (a link to one is followed), each of at most 64 MiB (the
largest of the WOF archive is 28 KB) with lines of at most 64 KiB: a named
pipe, a device such as /dev/zero, or a larger file is listed as not read,
with why. The index
goes on with the others, and each is read again at the next index. A
player the file gives no id ("??????") is kept with their games, which the
rating list cannot take. A folder without an .ELO file is refused, so that
a mistyped folder does not empty the archive, and so is an index that
would drop more than half of the tournaments (a subfolder, another
folder), unless --drop. Paths are kept relative to DIR: index the same
folder each time.

The archive database is an SQLite file (a postgres:// URL is refused: the
archive is one file a rating officer keeps beside the folder).`,
		Example: "  otd archive index ~/wof-archive\n  otd archive index ~/wof-archive --archive-db wof.db --json\n" +
			"  otd archive index ~/wof-archive --strict\n  otd archive index ~/wof-archive --lenient sign=discs,rounds=split,totals=games,listed=first",
		Args: argsUsage(cobra.ExactArgs(1)),
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) (err error) {
		if o.Options.Reading, _, err = rf.reading(cmd.Flags()); err != nil {
			return err
		}
		o.DB, o.Dir = *db, args[0]
		return runF(o)
	}
	rf.add(cmd.Flags())
	cmd.Flags().BoolVar(&o.Options.Again, "again", false, "read every file again, the unchanged ones too")
	cmd.Flags().BoolVar(&o.Options.Drop, "drop", false, "drop the tournaments whose files are not in DIR even when they are most of the archive")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print what was done as JSON")
	return cmd
}

// runArchiveIndex indexes a folder into the archive database.
func runArchiveIndex(g *globals, o archiveIndexOptions) error {
	st, err := openArchive(o.DB, true)
	if err != nil {
		return err
	}
	defer st.Close()
	opts := o.Options
	opts.Build = interchange.ArchiveGames // a file is in the archive exactly when it imports
	rep, err := archive.Index(context.Background(), st, o.Dir, opts)
	if errors.Is(err, archive.ErrNoFiles) || errors.Is(err, archive.ErrDropMost) {
		return inputError(err)
	}
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(g.Stdout, newArchiveIndexJSON(rep))
	}
	copies, refused := splitCopies(rep.Problems)
	copied := ""
	if len(copies) > 0 {
		copied = ", 1 copy of another file"
		if len(copies) > 1 {
			copied = fmt.Sprintf(", %d copies of other files", len(copies))
		}
	}
	fmt.Fprintf(g.Stdout, "%s: %d .ELO files: %d added, %d replaced, %d removed, %d unchanged%s, %d not read. %d games added to %s.\n",
		o.Dir, rep.Files, len(rep.Added), len(rep.Replaced), len(rep.Removed), rep.Unchanged, copied, len(refused), rep.Games, o.DB)
	for _, what := range []struct {
		verb  string
		paths []string
	}{{"Added", rep.Added}, {"Replaced", rep.Replaced}, {"Removed", rep.Removed}} {
		if n := len(what.paths); n > 0 && n <= 20 {
			fmt.Fprintf(g.Stdout, "%s: %s\n", what.verb, strings.Join(what.paths, ", "))
		}
	}
	printNotes(g, rep.Notes)
	printProblems(g, rep.Problems)
	return nil
}

// printNotes says, on standard error, what reading each file noted, by path.
func printNotes(g *globals, notes map[string][]string) {
	for _, path := range slices.Sorted(maps.Keys(notes)) {
		for _, n := range notes[path] {
			fmt.Fprintf(g.Stderr, "otd: note: %s: %s\n", path, n)
		}
	}
}

// printProblems lists the files not read, one a line, with why: the
// copies of another file (their games count once, from it), then the files
// refused (their games are not in the archive).
func printProblems(g *globals, problems []archive.File) {
	copies, refused := splitCopies(problems)
	for _, l := range []struct {
		head  string
		files []archive.File
	}{{"Copies (%d; their games count once, from the file named):\n", copies}, {"Not read (%d; their games are not in the archive):\n", refused}} {
		if len(l.files) > 0 {
			fmt.Fprintf(g.Stdout, l.head, len(l.files))
		}
		for _, p := range l.files {
			fmt.Fprintf(g.Stdout, "  %s: %s\n", p.Path, p.Problem)
		}
	}
}

// splitCopies splits the files not read into the copies of another file
// and the files refused.
func splitCopies(problems []archive.File) (copies, refused []archive.File) {
	for _, p := range problems {
		if p.CopyOf != "" {
			copies = append(copies, p)
		} else {
			refused = append(refused, p)
		}
	}
	return copies, refused
}

// The options of the archive's queries: the archive database (DB), what is
// asked and --json.
type (
	archiveProblemsOptions struct {
		DB   string
		JSON bool
	}
	archivePlayersOptions struct {
		DB, Name string
		JSON     bool
	}
	archivePlayerOptions struct {
		DB   string
		ID   int
		JSON bool
	}
	archiveH2HOptions struct {
		DB   string
		IDs  [2]int
		JSON bool
	}
	archiveTournamentsOptions struct {
		DB     string
		Filter archive.Filter
		JSON   bool
	}
	archiveTournamentOptions struct {
		DB, Tournament string
		JSON           bool
	}
)

func newArchiveProblemsCmd(g *globals, db *string, runF func(archiveProblemsOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o archiveProblemsOptions) error { return runArchiveProblems(g, o) }
	}
	var o archiveProblemsOptions
	cmd := &cobra.Command{
		Use:   "problems",
		Short: "List the files of the last index that could not be read, with why, and the contradictions set aside",
		Long: `problems lists the files of the last index that were not read, with why:
first the copies of another file (the same content, or the same games under
another name or header: their games count once, from the file named), then
the files refused (their games are not in the archive); then each
contradiction of a file
read that its reading set aside rather than refuse the file, with the
file's line: a sign against the discs, a player paired twice in a round or
listed twice, a published score or disc total the games do not give, a game
against oneself or of ?????? dropped (the rating list's reading, RULES.md
section 8; 'otd archive index --strict' refuses those files instead).`,
		Example: "  otd archive problems\n  otd archive problems --json",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			o.DB = *db
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the files as JSON")
	return cmd
}

// runArchiveProblems runs the command on the archive o.DB.
func runArchiveProblems(g *globals, o archiveProblemsOptions) error {
	return withArchive(o.DB, func(ctx context.Context, st archive.Store) error {
		files, err := st.Files(ctx)
		if err != nil {
			return err
		}
		var problems, setAside []archive.File
		for _, f := range files {
			if f.Problem != "" {
				problems = append(problems, f)
			} else if len(f.SetAside) > 0 {
				setAside = append(setAside, f)
			}
		}
		if o.JSON {
			out := []archiveProblemJSON{}
			for _, p := range slices.Concat(problems, setAside) {
				out = append(out, archiveProblemJSON{File: p.Path, Problem: p.Problem, CopyOf: p.CopyOf, SetAside: p.SetAside})
			}
			return writeJSON(g.Stdout, out)
		}
		aside := ""
		if len(setAside) > 0 {
			aside = fmt.Sprintf(" (%d with contradictions set aside)", len(setAside))
		}
		fmt.Fprintf(g.Stdout, "%d files, %d indexed%s.\n", len(files), len(files)-len(problems), aside)
		printProblems(g, problems)
		if len(setAside) > 0 {
			fmt.Fprintf(g.Stdout, "Contradictions set aside (%d files; their games are counted):\n", len(setAside))
			for _, f := range setAside {
				for _, c := range f.SetAside {
					fmt.Fprintf(g.Stdout, "  %s: %s\n", f.Path, c)
				}
			}
		}
		return nil
	})
}

// wofID parses a WOF id argument.
func wofID(cmd, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, usageErrorf("%s: %q is not a WOF id (a number from 1; 'otd archive players NAME' finds a player's)", cmd, s)
	}
	return n, nil
}

func newArchivePlayersCmd(g *globals, db *string, runF func(archivePlayersOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o archivePlayersOptions) error { return runArchivePlayers(g, o) }
	}
	var o archivePlayersOptions
	cmd := &cobra.Command{
		Use:   "players NAME|ID",
		Short: "Find players by a part of a name (case and accents aside), or by WOF id",
		Long: `players lists the players one of whose names in the archive holds NAME,
case, spacing and accents aside ("muller" finds MÜLLER), or whose WOF id is
ID: their id, each name and country the files give them, and when.`,
		Example: "  otd archive players leader\n  otd archive players \"imre\" --json",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			o.DB, o.Name = *db, args[0]
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the players as JSON")
	return cmd
}

// runArchivePlayers runs the command on the archive o.DB.
func runArchivePlayers(g *globals, o archivePlayersOptions) error {
	return withArchive(o.DB, func(ctx context.Context, st archive.Store) error {
		people, err := archive.FindPlayers(ctx, st, o.Name)
		if err != nil {
			return usageErrorf("archive players: %v", err)
		}
		if o.JSON {
			out := []archivePersonJSON{}
			for _, p := range people {
				out = append(out, newArchivePersonJSON(p))
			}
			return writeJSON(g.Stdout, out)
		}
		if len(people) == 0 {
			fmt.Fprintf(g.Stdout, "No player of the archive is named %q.\n", o.Name)
			return nil
		}
		var rows [][]string
		for _, p := range people {
			for i, s := range p.Names {
				id := ""
				if i == len(p.Names)-1 {
					id = strconv.Itoa(p.ID)
				}
				rows = append(rows, []string{id, s.Name(), s.Country, span(s), strconv.Itoa(s.Tournaments)})
			}
			if len(p.Names) == 0 {
				rows = append(rows, []string{strconv.Itoa(p.ID), "(in games only)", "", "", ""})
			}
		}
		return table(g.Stdout, []string{"WOF id", "Name", "Country", "Seen", "Tournaments"}, reverseGroups(rows))
	})
}

// reverseGroups puts each player's rows latest name first: the id is on
// the last row of each player's group.
func reverseGroups(rows [][]string) [][]string {
	var out, group [][]string
	for _, r := range rows {
		group = append([][]string{r}, group...)
		if r[0] != "" {
			out, group = append(out, group...), nil
		}
	}
	return out
}

// span is when a name was seen: "2010-11-11 to 2024-10-26", or one day.
func span(s archive.Seen) string {
	if s.From.Equal(s.To) {
		return s.From.Format(time.DateOnly)
	}
	return s.From.Format(time.DateOnly) + " to " + s.To.Format(time.DateOnly)
}

func newArchivePlayerCmd(g *globals, db *string, runF func(archivePlayerOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o archivePlayerOptions) error { return runArchivePlayer(g, o) }
	}
	var o archivePlayerOptions
	cmd := &cobra.Command{
		Use:   "player ID",
		Short: "A player's history: names, tournaments, results",
		Long: `player gives the history of the player of WOF id ID in the archive: each
name and country the files give them, then each tournament (its day, name,
place, the player's rank, score and discs in its standings, and their wins,
draws and losses in its games), and the totals.`,
		Example: "  otd archive player 79\n  otd archive player 79 --json",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			id, err := wofID("archive player", args[0])
			if err != nil {
				return err
			}
			o.DB, o.ID = *db, id
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the history as JSON")
	return cmd
}

// runArchivePlayer runs the command on the archive o.DB.
func runArchivePlayer(g *globals, o archivePlayerOptions) error {
	return withArchive(o.DB, func(ctx context.Context, st archive.Store) error {
		h, err := archive.PlayerHistory(ctx, st, o.ID)
		if err != nil {
			return err
		}
		if o.JSON {
			return writeJSON(g.Stdout, newArchiveHistoryJSON(h))
		}
		latest := h.Latest()
		fmt.Fprintf(g.Stdout, "%d %s (%s): %s, %s: %d won, %d drawn, %d lost.\n", h.ID, latest.Name(), latest.Country,
			tournament.Plural(len(h.Tournaments), "tournament"), tournament.Plural(h.Total(), "game"), h.Won, h.Drawn, h.Lost)
		if len(h.Names) > 1 {
			fmt.Fprintln(g.Stdout, "Names seen:")
			for _, s := range h.Names {
				fmt.Fprintf(g.Stdout, "  %s (%s): %s, %s\n", s.Name(), s.Country, span(s), tournament.Plural(s.Tournaments, "tournament"))
			}
		}
		var rows [][]string
		for _, a := range h.Tournaments {
			rank, score, rated := "", "", ""
			if e := a.Entry; e != nil {
				rank, score = fmt.Sprintf("%d/%d", e.Rank, a.Players), e.Score.String()
				rated = ratingText(e.Rating)
			}
			rows = append(rows, []string{a.Start.Format(time.DateOnly), a.Name, a.Place, rank, score,
				fmt.Sprintf("%d-%d-%d", a.Won, a.Drawn, a.Lost), rated, strconv.FormatInt(a.ID, 10)})
		}
		return table(g.Stdout, []string{"Day", "Tournament", "Place", "Rank", "Score", "W-D-L", "Rating", "Id"}, rows)
	})
}

func newArchiveH2HCmd(g *globals, db *string, runF func(archiveH2HOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o archiveH2HOptions) error { return runArchiveH2H(g, o) }
	}
	var o archiveH2HOptions
	cmd := &cobra.Command{
		Use:     "h2h ID ID",
		Aliases: []string{"head-to-head"},
		Short:   "Every game between two players, and the score",
		Example: "  otd archive h2h 79 5577\n  otd archive head-to-head 79 5577 --json",
		Args:    argsUsage(cobra.ExactArgs(2)),
		RunE: func(_ *cobra.Command, args []string) error {
			for i, s := range args {
				id, err := wofID("archive h2h", s)
				if err != nil {
					return err
				}
				o.IDs[i] = id
			}
			o.DB = *db
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the games as JSON")
	return cmd
}

// runArchiveH2H runs the command on the archive o.DB.
func runArchiveH2H(g *globals, o archiveH2HOptions) error {
	return withArchive(o.DB, func(ctx context.Context, st archive.Store) error {
		m, err := archive.HeadToHead(ctx, st, o.IDs[0], o.IDs[1])
		if err != nil {
			return err
		}
		if o.JSON {
			return writeJSON(g.Stdout, newArchiveH2HJSON(m))
		}
		a, b := m.A.Latest().Name(), m.B.Latest().Name()
		fmt.Fprintf(g.Stdout, "%s (%d) against %s (%d): %s, %d won, %d drawn, %d lost.\n", a, m.A.ID, b, m.B.ID,
			tournament.Plural(m.Total(), "game"), m.Won, m.Drawn, m.Lost)
		name := map[int]string{m.A.ID: a, m.B.ID: b}
		var rows [][]string
		for _, p := range m.Games {
			rows = append(rows, []string{p.Start.Format(time.DateOnly), p.Name, roundText(p.Round), name[p.Black], discsText(p.Game), name[p.White]})
		}
		if len(rows) == 0 {
			return nil
		}
		return table(g.Stdout, []string{"Day", "Tournament", "Round", "Black", "Result", "White"}, rows)
	})
}

// roundText is a game's round: its number, or "final" for a game after the
// Swiss rounds.
func roundText(r int) string {
	if r == 0 {
		return "final"
	}
	return strconv.Itoa(r)
}

// discsText is a game's result for a table: "40-24", or "1-0", "½-½",
// "0-1" (black's first) for a game without discs.
func discsText(g archive.Game) string {
	if g.HasDiscs {
		return fmt.Sprintf("%d-%d", g.BlackDiscs, g.WhiteDiscs)
	}
	return map[rating.Result]string{rating.Win: "1-0", rating.Draw: "½-½", rating.Loss: "0-1"}[g.Result]
}

func newArchiveTournamentsCmd(g *globals, db *string, runF func(archiveTournamentsOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o archiveTournamentsOptions) error { return runArchiveTournaments(g, o) }
	}
	var o archiveTournamentsOptions
	var from, to tournament.Date
	cmd := &cobra.Command{
		Use:     "tournaments [--player ID] [--from DAY] [--to DAY]",
		Short:   "List the archive's tournaments, by day",
		Example: "  otd archive tournaments --from 2024-01-01\n  otd archive tournaments --player 79 --json",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			o.Filter.From, o.Filter.To = from.Time(), to.Time()
			o.DB = *db
			return runF(o)
		},
	}
	cmd.Flags().IntVar(&o.Filter.Player, "player", 0, "only the tournaments of the player of this WOF `id`")
	cmd.Flags().TextVar(&from, "from", &from, "only the tournaments from this `day` on, YYYY-MM-DD")
	cmd.Flags().TextVar(&to, "to", &to, "only the tournaments up to this `day`, YYYY-MM-DD")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the tournaments as JSON")
	return cmd
}

// runArchiveTournaments runs the command on the archive o.DB.
func runArchiveTournaments(g *globals, o archiveTournamentsOptions) error {
	return withArchive(o.DB, func(ctx context.Context, st archive.Store) error {
		list, err := st.Tournaments(ctx, o.Filter)
		if err != nil {
			return err
		}
		if o.JSON {
			out := []archiveTournamentJSON{}
			for _, s := range list {
				out = append(out, newArchiveTournamentJSON(s))
			}
			return writeJSON(g.Stdout, out)
		}
		var rows [][]string
		for _, s := range list {
			rows = append(rows, []string{strconv.FormatInt(s.ID, 10), s.Start.Format(time.DateOnly), s.Name, s.Place,
				strconv.Itoa(s.Players), strconv.Itoa(s.Games), s.File})
		}
		return table(g.Stdout, []string{"Id", "Day", "Tournament", "Place", "Players", "Games", "File"}, rows)
	})
}

func newArchiveTournamentCmd(g *globals, db *string, runF func(archiveTournamentOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o archiveTournamentOptions) error { return runArchiveTournament(g, o) }
	}
	var o archiveTournamentOptions
	cmd := &cobra.Command{
		Use:   "tournament ID|FILE|NAME",
		Short: "Show a tournament of the archive: its standings and games",
		Long: `tournament shows a tournament of the archive, given by its id ('otd archive
tournaments'), its file's path below the folder indexed (or the end of it),
or its name: its standings as the file publishes them, then its games.`,
		Example: "  otd archive tournament 812\n  otd archive tournament 2024/20240106_Shinagawa_open_2024.ELO\n  otd archive tournament 'WOC 2024' --json",
		Args:    argsUsage(cobra.ExactArgs(1)),
		RunE: func(_ *cobra.Command, args []string) error {
			o.DB, o.Tournament = *db, args[0]
			return runF(o)
		},
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the tournament as JSON")
	return cmd
}

// runArchiveTournament runs the command on the archive o.DB.
func runArchiveTournament(g *globals, o archiveTournamentOptions) error {
	return withArchive(o.DB, func(ctx context.Context, st archive.Store) error {
		t, err := archive.FindTournament(ctx, st, o.Tournament)
		if err != nil {
			return err
		}
		if o.JSON {
			return writeJSON(g.Stdout, newArchiveTournamentShowJSON(t))
		}
		days := t.Start.Format(time.DateOnly)
		if !t.End.Equal(t.Start) {
			days += " to " + t.End.Format(time.DateOnly)
		}
		fmt.Fprintf(g.Stdout, "%s, %s, %s: %s, %s, %s (file %s, id %d).\n", t.Name, t.Place, days,
			tournament.Plural(len(t.Players), "player"), tournament.Plural(t.Rounds, "round"), tournament.Plural(len(t.Games), "game"), t.File, t.ID)
		name := map[int]string{}
		var rows [][]string
		for _, e := range t.Players {
			name[e.ID] = e.Name()
			rows = append(rows, []string{strconv.Itoa(e.Rank), strconv.Itoa(e.ID), e.Name(), e.Country, e.Score.String(),
				strconv.Itoa(e.Discs), ratingText(e.Rating)})
		}
		if err := table(g.Stdout, []string{"Rank", "WOF id", "Name", "Country", "Score", "Discs", "Rating"}, rows); err != nil {
			return err
		}
		rows = nil
		for _, gm := range t.Games {
			rows = append(rows, []string{roundText(gm.Round), strconv.Itoa(gm.Black), name[gm.Black], discsText(gm), strconv.Itoa(gm.White), name[gm.White]})
		}
		return table(g.Stdout, []string{"Round", "Black", "", "Result", "White", ""}, rows)
	})
}
