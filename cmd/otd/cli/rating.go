package cli

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/userfile"
	"github.com/otd-project/otd/rating"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// today is the command's day, in the computer's time zone.
func (g *globals) today() time.Time {
	y, m, d := g.now().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ratingSource opens the games that --archive names: a folder of .ELO
// files, read into memory as r says (nil: as the rating list reads them,
// archive.ListReading; the files it cannot read said on stderr, in one
// line), or an archive database (r nil: read as it was indexed); and the
// function that closes it.
func (g *globals) ratingSource(path string, r *archive.Reading) (archive.Games, func(), error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		reading := archive.ListReading
		if r != nil {
			reading = *r
		}
		f, err := archive.ReadDir(path, archive.Options{Reading: reading, Build: interchange.ArchiveGames})
		if err != nil {
			return nil, nil, inputError(err)
		}
		if copies, refused := splitCopies(f.Problems); len(f.Problems) > 0 {
			var what []string
			if n := len(refused); n > 0 {
				what = append(what, fmt.Sprintf("%d of %d .ELO files not read, their games left out", n, f.Files))
			}
			if n := len(copies); n > 0 {
				what = append(what, fmt.Sprintf("%d of %d .ELO files copies of another, their games counted once, from it", n, f.Files))
			}
			fmt.Fprintf(g.Stderr, "otd: %s: %s ('otd archive index %s' lists each with why)\n", path, strings.Join(what, "; "), path)
		}
		if n := len(f.Notes); n > 0 { // a count: a rating officer reads the list, not a line a note
			k := 0
			for _, notes := range f.Notes {
				k += len(notes)
			}
			fmt.Fprintf(g.Stderr, "otd: note: %s: %s on %s (names cleaned, files read as Windows-1252; their games kept): 'otd archive index %s' says each\n",
				path, tournament.Plural(k, "note"), tournament.Plural(n, ".ELO file"), path)
		}
		return f, func() {}, nil
	}
	if r != nil {
		return nil, nil, usageErrorf("--strict, --lenient and --bye-discs go with a folder of .ELO files (--archive DIR): the database %s has its files read as 'otd archive index' read them", path)
	}
	st, err := openArchive(path, false)
	if err != nil {
		return nil, nil, err
	}
	files, err := st.Files(context.Background())
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	other := map[string]int{} // files by reading, other than the list's
	for _, f := range files {
		if f.Reading != archive.ListReading.String() {
			other[cmp.Or(f.Reading, "strict")]++
		}
	}
	for _, r := range slices.Sorted(maps.Keys(other)) {
		fmt.Fprintf(g.Stderr, "otd: note: %s: %d of %d .ELO files were indexed under another reading than the rating list's (%s): 'otd archive index DIR' reads them as the list does\n",
			path, other[r], len(files), r)
	}
	return st, func() { st.Close() }, nil
}

// ratingList reads the rating list that --ratings names: a folder of .ELO
// files or an archive database, the list computed at the day at; or a list
// as 'otd rating --csv' writes it. It returns its players by WOF id and
// what it is, for a message.
func (g *globals) ratingList(path string, at time.Time, minPart int) (map[int]archive.Listed, string, error) {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		isDB, err := isSQLiteFile(path)
		if err != nil {
			return nil, "", inputError(err)
		}
		if !isDB {
			data, err := userfile.ReadFile(path, userfile.MaxSize)
			if err != nil {
				return nil, "", inputError(err)
			}
			list, notes, err := archive.ReadList(bytes.NewReader(data))
			if err != nil {
				return nil, "", inputError(fmt.Errorf("--ratings %s: %w", path, err))
			}
			for _, n := range notes {
				fmt.Fprintf(g.Stderr, "otd: note: --ratings %s: %s\n", path, n)
			}
			return list, path, nil
		}
	}
	src, done, err := g.ratingSource(path, nil)
	if err != nil {
		return nil, "", err
	}
	defer done()
	l, err := archive.Rate(context.Background(), src, at, rating.Options{MinPart: minPart})
	if err != nil {
		return nil, "", err
	}
	return l.Players(), fmt.Sprintf("the list at %s from %s", day(at), path), nil
}

type ratingOptions struct {
	Archive   string
	Reading   *archive.Reading // of a folder; nil: the rating list's
	At        tournament.Date
	All       bool
	Country   string // normalised (FRA); "": every country
	MinPart   int
	JSON, CSV bool
	Format    export.CSVFormat
	XLSX      string
	Force     bool
}

func newRatingCmd(g *globals, runF func(ratingOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o ratingOptions) error { return runRating(g, o) }
	}
	o := ratingOptions{Archive: defaultArchiveDB()}
	var excel string
	var rf readingFlags
	cmd := &cobra.Command{
		Use:   "rating [--at DAY] [--archive DB|DIR] [--json | --csv | --xlsx FILE]",
		Short: "The World Othello rating list at a day, from the archive",
		Long: `rating computes the World Othello rating list at a day (--at, default today)
by RULES.md section 8, from every rated game of a tournament up to that day:
not an incremental Elo but the maximum-likelihood fit of all results since
1977 (Jech's method), each game weighted by its tournament's age at the day
(under 7 months 150, 14 months 100, 26 months 60, 38 months 30, older 1).

A list is fitted at its computation day, the day its rating officer
computed it, not the day it is shown: --at is that day. The list has the
games of the tournaments that started up to DAY, and weighs each by its age
in calendar months to DAY's month; the tournaments of the archive that
start after DAY are left out (the header says how many). The WOF does not
publish that day: it is typically about two months before the list's date
(the list shipped with Papp in February 2025 fits the games up to
2024-11-30 best), and a list fitted at its nominal date instead is some
25-30 points off in median.
Only players in a part of at least 10 players linked by wins both ways are
rated; each part is centred on 1800. A rating's uncertainty is its standard
error from the curvature of the fit (see 'go doc otd/rating').

The games come from the archive database that 'otd archive index' made
(--archive, default ./archive.db, env OTD_ARCHIVE_DB; an SQLite file, not
a PostgreSQL URL), or straight from a folder of .ELO files (--archive DIR),
each read as 'otd archive index' reads it: as the rating list reads the
archive, every game counted and each contradiction of a file set aside
(--strict refuses such a file, --lenient chooses the rules; --bye-discs;
regular files only, of at most 64 MiB, lines of at most 64 KiB); the files
it cannot read are counted on standard error, and so are its notes (a name
cleaned, a file read as Windows-1252): 'otd archive index' lists them.

It lists the players the WOF publishes: the listed, rated with a tournament
in the 38 months before the day, by rating; official when their uncertainty
is under 200. --all adds every other player with a game up to the day: the
rated not listed, and the unrated with why. --country keeps the players of
one country (their latest tournament's up to the day), ranks staying the
world's. --json, --csv (--excel for Excel, see 'otd export csv --help') and
--xlsx FILE give every field: WOF id, name and country (those of the
player's latest tournament up to the day; the name as the list writes it,
SURNAME, Given: "FUKUCHI, Keisuke" where the file wrote "FUKUCHI, keisuke"),
rating and uncertainty (to 0.01), games, last tournament's day, listed,
official.`,
		Example: `  otd rating --at 2025-01-01
  otd rating --archive ~/wof-archive --at 2024-11-30   # the list shipped in February 2025, fitted at its computation day
  otd rating --archive ~/wof-archive --at 2025-01-01 --json
  otd rating --country FRA --csv > france.csv
  otd rating --xlsx ratings-2025-01.xlsx --at 2025-01-01
  otd rating --all --json`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			if o.Format, err = csvFormat(cmd.Flags().Changed("excel"), excel); err != nil {
				return err
			}
			o.CSV = o.CSV || o.Format.Excel != ""
			if n := btoi(o.JSON) + btoi(o.CSV) + btoi(o.XLSX != ""); n > 1 {
				return usageErrorf("rating: one of --json, --csv and --xlsx")
			}
			if o.Country != "" {
				if o.Country, err = tournament.NormalizeCountry(o.Country); err != nil {
					return usageErrorf("rating: --country: %v", err)
				}
			}
			if o.Reading, err = rf.readingSet(cmd.Flags()); err != nil {
				return err
			}
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Archive, "archive", o.Archive, "the archive: the database of 'otd archive index', or a folder of .ELO files (`DB|DIR`)")
	rf.add(f)
	f.TextVar(&o.At, "at", &o.At, "the list's `day`, YYYY-MM-DD (default today)")
	f.BoolVar(&o.All, "all", false, "every player with a game up to the day, not only the listed")
	f.StringVar(&o.Country, "country", "", "only the players of this country `code` (FR or FRA)")
	minPartFlag(f, &o.MinPart)
	f.BoolVar(&o.JSON, "json", false, "print the list as JSON")
	f.BoolVar(&o.CSV, "csv", false, "print the list as CSV")
	excelFlag(f, &excel)
	f.StringVar(&o.XLSX, "xlsx", "", "write the list as an XLSX workbook to `FILE` (- for standard output)")
	f.BoolVar(&o.Force, "force", false, "replace the --xlsx FILE if it exists")
	cmd.AddCommand(newRatingPreviewCmd(g, nil))
	return cmd
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// listDay is the list's day: --at, else def, else today.
func (g *globals) listDay(at tournament.Date, def tournament.Date) time.Time {
	for _, d := range []tournament.Date{at, def} {
		if !d.Time().IsZero() {
			return d.Time()
		}
	}
	return g.today()
}

func runRating(g *globals, o ratingOptions) error {
	country := o.Country
	at := g.listDay(o.At, tournament.Date{})
	src, done, err := g.ratingSource(o.Archive, o.Reading)
	if err != nil {
		return err
	}
	defer done()
	l, err := archive.Rate(context.Background(), src, at, rating.Options{MinPart: o.MinPart})
	if err != nil {
		return err
	}
	var entries []archive.Rated
	for _, e := range l.Entries {
		if (o.All || e.Listed) && (country == "" || sameCountry(e.Country, country)) {
			entries = append(entries, e)
		}
	}
	switch {
	case o.JSON:
		out := []ratingJSON{}
		for _, e := range entries {
			out = append(out, newRatingJSON(e))
		}
		return writeJSON(g.Stdout, out)
	case o.CSV:
		return export.WriteCSV(g.Stdout, ratingSheet(entries, at, o.All), o.Format)
	case o.XLSX != "":
		s := ratingSheet(entries, at, o.All)
		if err := writeOutput(g, o.XLSX, o.Force, func(w io.Writer) error { return export.WriteSheets(w, []export.Sheet{s}) }); err != nil {
			return err
		}
		wrote(g, o.XLSX, "the rating list at %s to %s (%d players)", day(at), o.XLSX, len(entries))
		return nil
	}
	rated, listed, official := 0, 0, 0
	for _, e := range l.Entries {
		rated, listed, official = rated+btoi(e.Rated), listed+btoi(e.Listed), official+btoi(e.Official)
	}
	fmt.Fprintf(g.Stdout, "Rating list at %s from %s: %d games, %d players: %d rated, %d listed (a tournament in the last 38 months), %d official (uncertainty under 200).\n",
		day(at), o.Archive, l.Games, len(l.Entries), rated, listed, official)
	start := "start"
	if l.Later == 1 {
		start = "starts"
	}
	fmt.Fprintf(g.Stdout, "Fitted at %s: the games of the tournaments started up to that day, ages in calendar months to %s; %s of the archive %s after it (left out).\n",
		day(at), at.Format("2006-01"), tournament.Plural(l.Later, "tournament"), start)
	var rows [][]string
	for _, e := range entries {
		rows = append(rows, ratingRow(e))
	}
	if len(rows) == 0 {
		return nil
	}
	return fitTable(g.Stdout, []string{"Rank", "WOF id", "Name", "Country", "Rating", "±", "Games", "Official"}, rows, 2, 3)
}

// sameCountry tells whether a country as a file writes it is the code c
// (normalised).
func sameCountry(written, c string) bool {
	n, err := tournament.NormalizeCountry(written)
	return err == nil && n == c || strings.EqualFold(written, c)
}

func ratingRow(e archive.Rated) []string {
	rank, r, u, official := "", "", "", ""
	if e.Rank > 0 {
		rank = strconv.Itoa(e.Rank)
	}
	if e.Rated {
		r, u = fmt.Sprintf("%.0f", e.Rating), fmt.Sprintf("%.0f", e.Uncertainty)
	} else {
		r = "not rated"
	}
	if e.Official {
		official = "yes"
	}
	return []string{rank, strconv.Itoa(e.ID), e.Name, e.Country, r, u, strconv.Itoa(e.Games), official}
}

// cents rounds to 0.01: the fit's accuracy.
func cents(x float64) float64 { return math.Round(x*100) / 100 }

// ratingSheet is the list as a sheet: the CSV and the XLSX workbook.
func ratingSheet(entries []archive.Rated, at time.Time, all bool) export.Sheet {
	c := archive.ListColumns
	s := export.Sheet{Name: "Rating " + day(at), Columns: []export.Column{{Title: "Rank"}, {Title: c.ID}, {Title: c.Name}, {Title: c.Country},
		{Title: c.Rating}, {Title: "Uncertainty"}, {Title: "Games"}, {Title: "Last tournament"}, {Title: "Listed"}, {Title: "Official"}}}
	if all {
		s.Columns = append(s.Columns, export.Column{Title: c.Why})
	}
	for _, e := range entries {
		var rank, r, u any
		if e.Rank > 0 {
			rank = e.Rank
		}
		if e.Rated {
			r, u = cents(e.Rating), cents(e.Uncertainty)
		}
		row := []any{rank, e.ID, e.Name, e.Country, r, u, e.Games, e.Last, e.Listed, e.Official}
		if all {
			row = append(row, e.Why)
		}
		s.Rows = append(s.Rows, row)
	}
	return s
}

// ratedJSON is a player's entry in a list: in 'otd rating', and each side
// of a preview.
type ratedJSON struct {
	Rating      *float64 `json:"rating,omitempty" doc:"the rating, to 0.01; left out for a player not rated"`
	Uncertainty *float64 `json:"uncertainty,omitempty" doc:"its standard error in rating points, to 0.01; left out for a player not rated"`
	Games       int      `json:"games" doc:"the player's rated games up to the day, against anyone"`
	Last        string   `json:"last,omitempty" doc:"the first day of the player's latest tournament up to the day, YYYY-MM-DD; left out if none"`
	Rated       bool     `json:"rated" doc:"true if rated: in a linked part of at least 10 players (--min-part)"`
	Listed      bool     `json:"listed" doc:"true if listed: rated, with a tournament in the 38 months before the day"`
	Official    bool     `json:"official" doc:"true if official: listed, with an uncertainty under 200"`
	Why         string   `json:"why,omitempty" doc:"for a player with games who is not rated: why (the size of their linked part, and the link they lack)"`
}

func newRatedJSON(p rating.Player) ratedJSON {
	j := ratedJSON{Games: p.Games, Rated: p.Rated, Listed: p.Listed, Official: p.Official, Why: p.Why}
	if !p.Last.IsZero() {
		j.Last = day(p.Last)
	}
	if p.Rated {
		r, u := cents(p.Rating), cents(p.Uncertainty)
		j.Rating, j.Uncertainty = &r, &u
	}
	return j
}

type ratingJSON struct {
	Rank    int    `json:"rank,omitempty" doc:"the place among the listed players, from 1; left out for the others (--all)"`
	WOFID   int    `json:"wof_id" doc:"the player's WOF id"`
	Name    string `json:"name" doc:"the name in the player's latest tournament up to the list's day as the list writes it, SURNAME, Given (the surname in capitals; a given name a file writes in one case as another writes it, else capitalised)"`
	Country string `json:"country" doc:"the country in the player's latest tournament up to the list's day, as its file writes it"`
	ratedJSON
}

func newRatingJSON(e archive.Rated) ratingJSON {
	return ratingJSON{Rank: e.Rank, WOFID: e.ID, Name: e.Name, Country: e.Country, ratedJSON: newRatedJSON(e.Player)}
}

// previewNewIDs are the ids that a preview gives the event's players
// without a WOF id, from previewNewIDs+1 by player number: above every WOF
// id (6 digits), so that they meet no player of the archive.
const previewNewIDs = 99_000_000

// ratingPreviewOptions are the flags of 'otd rating preview'.
type ratingPreviewOptions struct {
	Archive string
	Reading *archive.Reading // of a folder; nil: the rating list's
	At      tournament.Date
	MinPart int
	JSON    bool
}

func newRatingPreviewCmd(g *globals, runF func(ratingPreviewOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o ratingPreviewOptions) error { return runRatingPreview(g, o) }
	}
	o := ratingPreviewOptions{Archive: defaultArchiveDB()}
	var rf readingFlags
	cmd := &cobra.Command{
		Use:   "preview [--archive DB|DIR] [--at DAY]",
		Short: "What the current tournament does to its players' ratings",
		Long: `preview computes, for each player of the current tournament, their rating in
the list at the event's day (--at, default the tournament's first day, else
today) and in the same list with the event's games added (every game with a
result, of its rounds and its final phase; not the byes and forfeits),
played on that day: the games its .ELO file will send ('otd export elo').
A player without a WOF id is new to the list. The list's
games come from --archive as for 'otd rating'. Do not preview an event that
is in the archive already: its games would count twice.`,
		Example: "  otd rating preview\n  otd rating preview --archive ~/wof-archive --at 2025-01-01 --json",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			if o.Reading, err = rf.readingSet(cmd.Flags()); err != nil {
				return err
			}
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Archive, "archive", o.Archive, "the archive: the database of 'otd archive index', or a folder of .ELO files (`DB|DIR`)")
	rf.add(f)
	f.TextVar(&o.At, "at", &o.At, "the list's `day`, YYYY-MM-DD (default the tournament's first day, else today)")
	minPartFlag(f, &o.MinPart)
	f.BoolVar(&o.JSON, "json", false, "print the players as JSON")
	return cmd
}

// runRatingPreview previews the current tournament's games in the list.
func runRatingPreview(g *globals, o ratingPreviewOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	when := g.listDay(o.At, t.Start)
	event := interchange.ToArchive(t, when, func(p tournament.Player) int {
		return cmp.Or(p.WOFID, previewNewIDs+p.Number)
	})
	src, done, err := g.ratingSource(o.Archive, o.Reading)
	if err != nil {
		return err
	}
	defer done()
	changes, err := archive.Preview(context.Background(), src, event, when, rating.Options{MinPart: o.MinPart})
	if err != nil {
		return err
	}
	ownID := func(id int) int { // the player's WOF id; 0 for a preview's own
		if id >= previewNewIDs {
			return 0
		}
		return id
	}
	if o.JSON {
		out := []ratingPreviewJSON{}
		for _, ch := range changes {
			out = append(out, ratingPreviewJSON{WOFID: ownID(ch.ID), Name: ch.Name, Country: ch.Country,
				Before: newRatedJSON(ch.Before), After: newRatedJSON(ch.After)})
		}
		return writeJSON(g.Stdout, out)
	}
	fmt.Fprintf(g.Stdout, "%s: %s added to the rating list at %s from %s.\n", t.Name, tournament.Plural(len(event.Games), "game"), day(when), o.Archive)
	var rows [][]string
	for _, ch := range changes {
		id, before, after, change := "new", "", "", ""
		if n := ownID(ch.ID); n != 0 {
			id = strconv.Itoa(n)
		}
		before, after = previewRating(ch.Before), previewRating(ch.After)
		if ch.Before.Rated && ch.After.Rated {
			change = fmt.Sprintf("%+.0f", ch.After.Rating-ch.Before.Rating)
		}
		u := ""
		if ch.After.Rated {
			u = fmt.Sprintf("%.0f", ch.After.Uncertainty)
		}
		rows = append(rows, []string{id, ch.Name, before, after, change, u})
	}
	return fitTable(g.Stdout, []string{"WOF id", "Name", "List", "With event", "Change", "±"}, rows, 1)
}

// previewRating is a rating for the preview's table: "2157", "not rated",
// or "" for a player the list has not seen.
func previewRating(p rating.Player) string {
	switch {
	case p.Rated:
		return fmt.Sprintf("%.0f", p.Rating)
	case p.Games > 0:
		return "not rated"
	}
	return ""
}

type ratingPreviewJSON struct {
	WOFID   int       `json:"wof_id,omitempty" doc:"the player's WOF id; left out for a player without one"`
	Name    string    `json:"name" doc:"the player's name as the event's .ELO file writes it"`
	Country string    `json:"country" doc:"the player's country"`
	Before  ratedJSON `json:"before" doc:"the player in the list at the event's day without its games"`
	After   ratedJSON `json:"after" doc:"and with them"`
}
