package cli

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// viewOptions are the options of a table after a round (standings,
// crosstable).
type viewOptions struct {
	Round      int  // -1: the last finished round
	RoundGiven bool // --round given: a round of the tournament
	JSON, CSV  bool
	Format     export.CSVFormat // of --csv: --excel's, or for programs
}

type standingsOptions struct {
	viewOptions
	Final bool // the final ranking: the final phase's places, then the Swiss order
}

func newStandingsCmd(g *globals, runF func(standingsOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o standingsOptions) error { return runStandingsCmd(g, o) }
	}
	o := standingsOptions{viewOptions: lastRound}
	cmd := &cobra.Command{
		Use:   "standings",
		Short: "Print the standings: points, then the tournament's tie-breaks",
		Long: `standings ranks the players by points, then by the tournament's tie-breaks
(by default the Brightwell Quotient, then the disc count). Points show a half
as .5; withdrawn players are marked, and one withdrawn before playing ranks
below every player who played. Without --round it gives the standings after
the last round whose results are all in. With --round R, a round with some
results missing gives provisional standings, and a round with no result yet
the standings after the round before; a late entry is listed from their first
round on. With --csv, a name or country that a spreadsheet would take for a
formula (starting with =, +, -, @, a tab or a line break) is written with a
single quote in front, so that it shows as text. --excel writes the CSV for
Excel (--excel or --excel=fr|de where Excel writes 3,5; --excel=en where it
writes 3.5: see 'otd export csv --help'). The table fits in 80 columns: long
names are cut with an ellipsis, only as far as needed (the headers shortened
first: Ctry, Pts, Gms).`,
		Example: "  otd standings\n  otd standings --round 3\n  otd standings --json\n  otd standings --csv > standings.csv\n  otd standings --excel > standings.csv",
		Args:    argsUsage(cobra.NoArgs),
	}
	v := viewFlags{&o.viewOptions, new(string)}
	cmd.RunE = v.then(func() error { return runF(o) })
	cmd.Flags().BoolVar(&o.Final, "final", false, "the final ranking: 1-2 from the final, 3-4 from the 3rd-place match, then the Swiss order ('otd final'); with --json or --csv too")
	v.add(cmd, "standings", "print JSON: rank, number, name, points, bq, discs, ...", "print CSV")
	return cmd
}

// viewFlags are the flags of a table after a round (standings,
// crosstable), bound to the command's options.
type viewFlags struct {
	*viewOptions
	excel *string
}

// lastRound is a table after the last finished round.
var lastRound = viewOptions{Round: -1}

// add defines --round, --json, --csv and --excel on cmd; their help says
// what is printed (what, jsonHelp, csvHelp).
func (v viewFlags) add(cmd *cobra.Command, what, jsonHelp, csvHelp string) {
	cmd.Flags().IntVar(&v.Round, "round", -1, what+" after round `R` (default: the last finished round)")
	cmd.Flags().BoolVar(&v.JSON, "json", false, jsonHelp)
	cmd.Flags().BoolVar(&v.CSV, "csv", false, csvHelp)
	excelFlag(cmd.Flags(), v.excel)
}

// then is the RunE of a command with these flags: read them, then run.
func (v viewFlags) then(run func() error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		if err := v.read(cmd); err != nil {
			return err
		}
		return run()
	}
}

// read completes the options from the flags of cmd: --excel's format, and
// whether --round was given; --json with --csv is wrong usage.
func (v viewFlags) read(cmd *cobra.Command) (err error) {
	if v.Format, err = csvFormat(cmd.Flags().Changed("excel"), *v.excel); err != nil {
		return err
	}
	v.CSV = v.CSV || v.Format.Excel != ""
	if v.JSON && v.CSV {
		return usageErrorf("%s: --json or --csv, not both", cmd.Name())
	}
	v.RoundGiven = cmd.Flags().Changed("round")
	return nil
}

// runStandingsCmd prints the standings of the tournament the command acts
// on, or its final ranking.
func runStandingsCmd(g *globals, o standingsOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	if o.Final {
		return runFinalStandings(g, t, o)
	}
	if err := checkRoundFlag("standings", t, o.Round, o.RoundGiven); err != nil {
		return err
	}
	return runStandings(g, t, o)
}

// rankJSON is a place of a ranking after the Swiss (standings --final,
// category show), as --json gives it.
type rankJSON struct {
	Rank      int         `json:"rank" doc:"the place in the ranking; players equal in the Swiss standings, after the final phase's places, share it"`
	Number    int         `json:"number" doc:"the player's number"`
	Name      string      `json:"name" doc:"the player's name"`
	Country   string      `json:"country,omitempty" doc:"country code; left out if none"`
	SwissRank int         `json:"swiss_rank" doc:"the rank in the Swiss standings"`
	Points    json.Number `json:"points" doc:"Swiss points (final-phase games count in neither points nor discs)"`
	Discs     int         `json:"discs" doc:"Swiss discs"`
	Final     bool        `json:"final_phase" doc:"true if the place is the final phase's (1-4), false if the Swiss order's"`
	Withdrawn bool        `json:"withdrawn,omitempty" doc:"true if the player has withdrawn; left out if not"`
}

func newRankJSON(t *tournament.Tournament, rows []app.RankRow) []rankJSON {
	out := make([]rankJSON, len(rows))
	for i, r := range rows {
		p := t.Players[r.Player-1]
		out[i] = rankJSON{Rank: r.Rank, Number: r.Player, Name: p.Name, Country: p.Country, SwissRank: r.SwissRank, Points: jsonPoints(r.Points),
			Discs: r.Discs, Final: r.Final, Withdrawn: r.Withdrawn}
	}
	return out
}

// printRanking prints a ranking after the Swiss as a table.
func printRanking(g *globals, t *tournament.Tournament, rows []app.RankRow) error {
	var tab [][]string
	for _, r := range rows {
		n := name(t, r.Player)
		if r.Withdrawn {
			n += " (withdrawn)"
		}
		tab = append(tab, []string{strconv.Itoa(r.Rank), n, t.Players[r.Player-1].Country, r.Points.String(), strconv.Itoa(r.Discs), strconv.Itoa(r.SwissRank)})
	}
	return fitTable(g.Stdout, []string{"Rank", "Player", "Country", "Points", "Discs", "Swiss rank"}, tab, 1)
}

// runFinalStandings prints the final ranking: the final phase's places,
// then the Swiss standings' order; with --csv, the Final ranking sheet of
// 'otd export xlsx'.
func runFinalStandings(g *globals, t *tournament.Tournament, o standingsOptions) error {
	if o.Round != -1 {
		return usageErrorf("standings: --final is the ranking after everything, not after --round")
	}
	rows, over, err := app.FinalRanking(t)
	if err != nil {
		return err
	}
	switch {
	case o.JSON:
		return writeJSON(g.Stdout, newRankJSON(t, rows))
	case o.CSV:
		s, err := export.FinalRankingSheet(t)
		if err != nil {
			return err
		}
		return export.WriteCSV(g.Stdout, s, o.Format)
	case t.Final.IsZero():
		fmt.Fprintln(g.Stdout, "Final ranking: the Swiss standings (the tournament has no final phase)")
	case !over:
		fmt.Fprintln(g.Stdout, "Final ranking, provisional: the final phase is not over ('otd final show'); the Swiss order meanwhile")
	default:
		fmt.Fprintln(g.Stdout, "Final ranking: the final phase's places, then the Swiss order")
	}
	return printRanking(g, t, rows)
}

func runStandings(g *globals, t *tournament.Tournament, o standingsOptions) error {
	v, err := lastView(t, o.Round)
	if err != nil {
		return err
	}
	out := make([]standingJSON, len(v.Rows))
	for i, row := range v.Rows {
		p := t.Players[row.Player-1]
		out[i] = standingJSON{Rank: row.Rank, Number: p.Number, Name: p.Name, Country: p.Country,
			Points: json.Number(row.Points.String()), BQ: json.Number(row.BQ.String()), BQRounded: row.BQ.Round(),
			Discs: row.Discs, Games: row.Games, NoDiscs: row.NoDiscs, Withdrawn: row.Withdrawn, Round: v.Round, Provisional: v.Provisional}
	}
	if o.JSON || o.CSV {
		if note := viewNote(v); note != "" { // the data go to stdout, the warning to stderr
			fmt.Fprintf(g.Stderr, "otd: %s%s\n", viewTitle("standings", v), note)
		}
	}
	switch {
	case o.JSON:
		return writeJSON(g.Stdout, out)
	case o.CSV:
		w, err := o.Format.Writer(g.Stdout)
		if err != nil {
			return err
		}
		w.Write([]string{"rank", "number", "name", "country", "points", "bq", "discs", "games", "withdrawn"})
		for _, s := range out {
			// Names and countries are typed by users: text, never a formula.
			w.Write([]string{strconv.Itoa(s.Rank), strconv.Itoa(s.Number), export.TextCell(s.Name), export.TextCell(s.Country), o.Format.Decimal(string(s.Points)), o.Format.Decimal(string(s.BQ)),
				strconv.Itoa(s.Discs), strconv.Itoa(s.Games), strconv.FormatBool(s.Withdrawn)})
		}
		w.Flush()
		return w.Error()
	}
	fmt.Fprintf(g.Stdout, "%s: %s of %d (BQ %s)%s\n", t.Name, viewTitle("standings", v), t.Rounds, t.BQ, viewNote(v))
	var tab [][]string
	for _, s := range out {
		name := s.Name
		if s.Withdrawn {
			name += " (withdrawn)"
		}
		tab = append(tab, []string{strconv.Itoa(s.Rank), strconv.Itoa(s.Number), name, s.Country, string(s.Points), string(s.BQ), strconv.Itoa(s.Discs), strconv.Itoa(s.Games)})
	}
	header := []string{"Rank", "No", "Name", "Country", "Points", "BQ", "Discs", "Games"}
	if err := fitTable(g.Stdout, header, tab, 2); err != nil {
		return err
	}
	noDiscs := 0
	for _, s := range out {
		noDiscs += s.NoDiscs
	}
	if noDiscs > 0 { // each game counted by both players
		fmt.Fprintf(g.Stdout, "%s without discs (the file gives only who won): Discs and BQ count no discs for them\n", tournament.Plural(noDiscs, "player's game"))
	}
	return nil
}

// checkRoundFlag refuses a --round R given that t has no round R: its
// default, -1, is the last finished round, and no value the user gives.
func checkRoundFlag(cmd string, t *tournament.Tournament, r int, given bool) error {
	if given && (r < 0 || r > t.Rounds) {
		return usageErrorf("%s --round %d: %w: give 1 to %d (0: before round 1), or no --round for the last round finished",
			cmd, r, tournament.ErrNoRound, t.Rounds)
	}
	return nil
}

// lastView returns the standings of t after round r, -1 the last finished
// round.
func lastView(t *tournament.Tournament, r int) (tournament.View, error) {
	if r < 0 {
		r = t.Finished()
	}
	return t.View(r)
}

// viewTitle names what is shown: "standings after round 3", "provisional
// standings after round 3".
func viewTitle(what string, v tournament.View) string {
	if v.Provisional {
		what = "provisional " + what
	}
	return fmt.Sprintf("%s after round %d", what, v.Round)
}

// viewNote says why the standings are not simply those after the round asked
// for: "; round 3 has no result yet", ": 2 of 4 games of round 3 have no
// result yet".
func viewNote(v tournament.View) string {
	switch {
	case v.Provisional:
		have := "have"
		if v.Pending == 1 {
			have = "has"
		}
		return fmt.Sprintf(": %d of %d games of round %d %s no result yet", v.Pending, v.Games, v.Round, have)
	case v.Round < v.Asked:
		return fmt.Sprintf("; round %d has no result yet", v.Asked)
	}
	return ""
}

type crosstableOptions struct{ viewOptions }

func newCrosstableCmd(g *globals, runF func(crosstableOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o crosstableOptions) error { return runCrosstable(g, o) }
	}
	o := crosstableOptions{lastRound}
	cmd := &cobra.Command{
		Use:   "crosstable",
		Short: "Print the crosstable: each player's opponent, colour and result in every round",
		Long: `crosstable prints, in standings order, each player's rounds as
opponent-number, colour (b/w) and discs, e.g. "+12w40" for a win with 40 discs
as white against player 12; "+"/"="/"-" mark a win, draw or loss. A time
default ends in "t" ("-12w31t": lost on time); a forfeit is "ff" instead of
colour and discs ("+12ff": player 12 did not play; "-12ff": this player did
not). "bye" is a bye and "-" a round not played. Withdrawn players are
marked. Rounds are counted as by 'otd standings'; in a provisional round, a
game without a result yet is "?" with the opponent and colour ("?6w").

With --json or --csv, each round is given as fields: the opponent's number,
the colour, the points, the discs of both and what the round was (normal,
time-default, forfeit, bye or missed; a game without a result yet is
missed), as the Crosstable sheet of 'otd export xlsx'. With --csv, a name a
spreadsheet would take for a formula is written with a single quote in front;
--excel writes the CSV for Excel (--excel or --excel=fr|de where Excel writes
3,5; --excel=en where it writes 3.5: see 'otd export csv --help').`,
		Example: "  otd crosstable\n  otd crosstable --round 3\n  otd crosstable --csv > crosstable.csv\n  otd crosstable --excel > crosstable.csv",
		Args:    argsUsage(cobra.NoArgs),
	}
	v := viewFlags{&o.viewOptions, new(string)}
	cmd.RunE = v.then(func() error { return runF(o) })
	v.add(cmd, "crosstable", "print the crosstable as JSON", "print the crosstable as CSV")
	return cmd
}

// runCrosstable prints the crosstable of the tournament the command acts on.
func runCrosstable(g *globals, o crosstableOptions) error {
	t, err := g.current()
	if err != nil {
		return err
	}
	if err := checkRoundFlag("crosstable", t, o.Round, o.RoundGiven); err != nil {
		return err
	}
	return printCrosstable(g, t, o)
}

// printCrosstable prints the crosstable of t after round o.Round.
func printCrosstable(g *globals, t *tournament.Tournament, o crosstableOptions) error {
	v, err := lastView(t, o.Round)
	if err != nil {
		return err
	}
	rows := v.Rows
	note := viewNote(v)
	if note != "" && (o.JSON || o.CSV) { // the data go to stdout, the warning to stderr
		fmt.Fprintf(g.Stderr, "otd: %s%s\n", viewTitle("crosstable", v), note)
	}
	switch {
	case o.JSON:
		return writeJSON(g.Stdout, newCrosstableJSON(t, rows))
	case o.CSV:
		return export.WriteCSV(g.Stdout, export.CrosstableSheet(t, v), o.Format)
	case note != "":
		fmt.Fprintf(g.Stdout, "%s: %s of %d%s\n", t.Name, viewTitle("crosstable", v), t.Rounds, note)
	}
	pending := map[int]string{} // a game of a provisional round without a result: "?6w"
	if v.Provisional {
		for _, gm := range t.Round(v.Round) {
			if gm.Result == nil && !gm.IsBye() {
				pending[gm.Black], pending[gm.White] = fmt.Sprintf("?%db", gm.White), fmt.Sprintf("?%dw", gm.Black)
			}
		}
	}
	header := []string{"Rank", "No", "Name", "Points"}
	if len(rows) > 0 { // the rounds counted: none after the last with a result
		for k := 1; k <= len(rows[0].Rounds); k++ {
			header = append(header, fmt.Sprintf("R%d", k))
		}
	}
	var tab [][]string
	kinds := map[scoring.Kind]bool{}
	for _, row := range rows {
		name := t.Players[row.Player-1].Name
		if row.Withdrawn {
			name += " (withdrawn)"
		}
		line := []string{strconv.Itoa(row.Rank), strconv.Itoa(row.Player), name, row.Points.String()}
		for k, c := range row.Rounds {
			text := app.CellText(c)
			if p, ok := pending[row.Player]; ok && k+1 == v.Round && c.Kind == scoring.Missed {
				text = p
			}
			line = append(line, text)
			kinds[c.Kind] = true
		}
		tab = append(tab, line)
	}
	if err := table(g.Stdout, header, tab); err != nil {
		return err
	}
	if kinds[scoring.TimeDefault] {
		fmt.Fprintln(g.Stdout, "t: won or lost on time (a time default)")
	}
	if kinds[scoring.Forfeit] {
		fmt.Fprintln(g.Stdout, "ff: a forfeit, not played: + the opponent did not play, - the player did not")
	}
	if kinds[scoring.NoDiscs] {
		fmt.Fprintln(g.Stdout, "a game without discs after the colour: the file gives only who won")
	}
	if len(pending) > 0 {
		fmt.Fprintln(g.Stdout, "?: no result yet")
	}
	return nil
}

func newCrosstableJSON(t *tournament.Tournament, rows []scoring.Row) []crosstableJSON {
	out := []crosstableJSON{}
	for _, row := range rows {
		x := crosstableJSON{Rank: row.Rank, Number: row.Player, Name: t.Players[row.Player-1].Name, Points: json.Number(row.Points.String()),
			Withdrawn: row.Withdrawn}
		for k, c := range row.Rounds {
			x.Rounds = append(x.Rounds, cellJSON{Round: k + 1, Kind: c.Kind.String(), Opponent: c.Opponent, Colour: c.Colour.String(),
				Points: json.Number(c.Points.String()), Discs: c.Discs, OpponentDiscs: c.OpponentDiscs})
		}
		out = append(out, x)
	}
	return out
}
