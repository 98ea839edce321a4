package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

type resultOptions struct {
	Round, Table int
	Match        string // a final phase's match ("SF1", "women:F"): Table is then the game's number
	In           tournament.ResultInput
	Correct      bool
	Repair       bool // with Correct: pair the next round again on the corrected scores
	Rederive     bool // with Correct: drop the final games that rest on the old result
	// The game's moves, replayed against the result: a move list, or game
	// Game of a transcript file; Override records a result they contradict.
	Moves, Transcript string
	Game              int // from 1; 0: the first
	Override          string
}

func newResultCmd(g *globals, runF func(resultOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o resultOptions) error { return runResult(g, o) }
	}
	var o resultOptions
	var timeDefault, forfeit string
	cmd := &cobra.Command{
		Use:   "result ROUND TABLE B-W",
		Short: "Record a game's result: black's discs, then white's",
		Long: `result records the discs of black and white at the end of a game. Empty
squares go to the winner: 40-22 is recorded 42-22, a tie with empties 32-32.

A time default names the colour whose flag fell; B-W is then the game as the
winner completed it, or the board as it stood when the flag fell; the
tournament's policy records it (complete: the empty squares to the winner on
time, never to the player whose flag fell, then at least 33-31 for the winner,
so black's flag falling at 19-5 is 19-45; fixed: 33-31; wipeout: 64-0). A
forfeit names the colour that did not play; it takes no B-W, as no game was
played.

On another board (tournament new --size, --rules) the scores add up to its
squares, and the minimal win is half of them plus one. Under Anti-Othello
(the fewest discs win) B-W is the discs on the board, recorded as it is; the
standings score each side its opponent's discs, the empty squares to the
winner: 20-40 with 4 empty is a win for black, scored 44-20.

Under the fixed and wipeout policies a time default needs no B-W (its score
is set); a B-W given is checked as a board all the same.

A game that has a result is changed only with --correct; entering the same
result again changes nothing. A correction made once the next round is paired
says so: that round was paired on the old result. If it has no result yet,
--repair (with --correct) pairs it again on the corrected scores, under the
rules it was paired with, in the same change. Every change is in 'otd log',
and 'otd undo' reverts the last one (a correction with --repair as a whole).

A final game is a fact: once the final phase has games paired, a correction
that would change what they rest on (who qualified, the seeds and so the
pairings and colours, a match's outcome, whether a game was needed) is
refused, naming them; one that changes none of it goes through and says so.
--rederive (with --correct) makes it all the same and drops those games
(and those that rest on them), listed, for 'otd final next' to pair the
final phase again: it is to the final phase what --repair is to the next
Swiss round. 'otd undo' puts them back.

--moves f5d6c3... (or --transcript FILE --game N, any format 'otd verify'
reads) gives the game's moves: they are replayed at once, and a result they
contradict is refused with what the replay found (the first illegal move,
or the score the moves give); B-W may then be left out, the moves give it.
Moves that stop before the end need --time-default: the board they leave is
the board as it stood when the flag fell. --override REASON records the
result as entered all the same, the reason kept as its note. The moves are
kept with the result ('otd serve' shows the game); the .ELO export has none.
The moves of a game whose same result was entered without them are added to
it, no --correct needed (the change says "moves added").`,
		Example: `  otd result 3 1 40-24
  otd result 3 2 30-28 --time-default white
  otd result 3 4 --forfeit black
  otd result 2 5 33-31 --correct
  otd result 5 3 30-34 --correct --repair
  otd result SF1 2 40-24 --correct
  otd result 13 7 28-36 --correct --rederive
  otd result 4 2 --moves f5d6c3d3c4f4f6f3e6e7...
  otd result SF1 2 36-28 --transcript sf1.ggf --game 2
  otd result 4 5 30-34 --moves f5d6c3 --override "sheet lost after move 3"
  otd undo`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 4 {
				_, err1 := strconv.Atoi(args[2])
				_, err2 := strconv.Atoi(args[3])
				if err1 == nil && err2 == nil {
					return usageErrorf("result: write the score as %s-%s (black's discs, a hyphen, white's): 'otd result %s %s %s-%s'",
						args[2], args[3], args[0], args[1], args[2], args[3])
				}
			}
			return argsUsage(cobra.RangeArgs(2, 3))(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.Round, err = strconv.Atoi(args[0]); err != nil || o.Round < 1 {
				if !finalCode.MatchString(args[0]) {
					return usageErrorf("result: ROUND is a round number, or a final match's code (SF1, F, women:F), not %q", args[0])
				}
				o.Round, o.Match = 0, strings.ToUpper(args[0][strings.LastIndex(args[0], ":")+1:])
				if i := strings.LastIndex(args[0], ":"); i > 0 {
					o.Match = args[0][:i] + ":" + o.Match
				}
			}
			if o.Table, err = strconv.Atoi(args[1]); err != nil || o.Table < 1 {
				if o.Match != "" {
					return usageErrorf("result: after a match's code comes the game's number in it (1, 2, ...), not %q", args[1])
				}
				return usageErrorf("result: TABLE is a table number, not %q", args[1])
			}
			if o.In.TimeDefault, err = colourFlag("--time-default", timeDefault); err != nil {
				return err
			}
			if o.In.Forfeit, err = colourFlag("--forfeit", forfeit); err != nil {
				return err
			}
			switch {
			case o.In.TimeDefault != "" && o.In.Forfeit != "":
				return usageErrorf("result: a game ends by a time default or by a forfeit, not both")
			case o.Repair && !o.Correct:
				return usageErrorf("result: --repair pairs the next round again after a correction: add --correct")
			case o.Rederive && !o.Correct:
				return usageErrorf("result: --rederive derives the final phase anew after a correction: add --correct")
			case o.Moves != "" && o.Transcript != "":
				return usageErrorf("result: give the moves with --moves or with --transcript, not both")
			case o.Game != 0 && o.Transcript == "":
				return usageErrorf("result: --game picks a game of a --transcript file")
			case o.Game < 0 || cmd.Flags().Changed("game") && o.Game == 0:
				return usageErrorf("result: --game is a game's number in the file, from 1, not %d", o.Game)
			case o.Repair && (o.Moves != "" || o.Transcript != ""):
				return usageErrorf("result: --repair corrects a result without its moves: correct it first, then record the moves with --correct")
			case o.Override != "" && o.Moves == "" && o.Transcript == "":
				return usageErrorf("result: --override records a result its moves contradict: give the moves with --moves or --transcript")
			case len(args) == 2 && o.In.Forfeit == "" && o.In.TimeDefault == "" && o.Moves == "" && o.Transcript == "":
				return usageErrorf("result: give the score B-W (black's discs first), e.g. 'otd result %d %d 40-24'", o.Round, o.Table)
			case len(args) == 3 && o.In.Forfeit != "":
				return usageErrorf("result: a forfeit has no score, the game was not played: drop %s ('otd result %d %d --forfeit %s'), or give the score without --forfeit",
					args[2], o.Round, o.Table, o.In.Forfeit)
			case len(args) == 3:
				// Two numbers are a score; whether it is a possible one (0..64
				// each, 64 at most in all) is the tournament's to say, with exit
				// status 1 as for any score it refuses.
				sc, perr := engine.ParseScore(args[2])
				if perr != nil {
					b, w, ok := strings.Cut(args[2], "-")
					var err1, err2 error
					sc.Black, err1 = strconv.Atoi(b)
					sc.White, err2 = strconv.Atoi(w)
					if !ok || err1 != nil || err2 != nil {
						return usageErrorf("result: %w", perr)
					}
				}
				o.In.Black, o.In.White, o.In.HasScore = sc.Black, sc.White, true
			}
			if o.Repair && o.Match != "" {
				return usageErrorf("result: --repair is for a round's result, not a final game's")
			}
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&timeDefault, "time-default", "", "the colour whose flag fell: black or white")
	f.StringVar(&forfeit, "forfeit", "", "the colour that did not play: black or white")
	f.BoolVar(&o.Correct, "correct", false, "replace the result the game already has")
	f.BoolVar(&o.Repair, "repair", false, "with --correct: pair the next round, paired on the old result and without a result yet, again")
	rederiveFlag(f, &o.Rederive)
	f.StringVar(&o.Moves, "moves", "", "the game's `MOVES` (f5d6c3...): replayed against the result, kept with it")
	f.StringVar(&o.Transcript, "transcript", "", "the game's moves from `FILE` (any format 'otd verify' reads)")
	f.IntVar(&o.Game, "game", 0, "with --transcript: the game's number `N` in the file (default 1)")
	f.StringVar(&o.Override, "override", "", "record the result its moves contradict, for this `REASON`")
	cmd.AddCommand(newResultUndoCmd(g, nil))
	return cmd
}

// gameMoves reads the moves of 'result --moves' or '--transcript FILE
// --game N'; nil without either.
func gameMoves(g *globals, o resultOptions) (*app.Moves, error) {
	if o.Transcript == "" {
		if o.Moves == "" {
			return nil, nil
		}
		return &app.Moves{List: o.Moves}, nil
	}
	gf, err := openGames(g, verifyOptions{Files: []string{o.Transcript}}, o.Transcript) // verify.go
	if err != nil {
		return nil, err
	}
	defer gf.close()
	for n := 1; ; n++ {
		game, err := gf.next()
		if errors.Is(err, io.EOF) {
			return nil, inputError(fmt.Errorf("result: %s has %s, not a game %d", displayName(o.Transcript), tournament.Plural(n-1, "game"), o.Game))
		}
		if err != nil {
			return nil, err
		}
		if n == max(o.Game, 1) {
			return &app.Moves{Record: &game}, nil
		}
	}
}

func colourFlag(flag, v string) (tournament.Color, error) {
	switch v {
	case "":
		return "", nil
	case "black", "b", "B":
		return tournament.Black, nil
	case "white", "w", "W":
		return tournament.White, nil
	}
	return "", usageErrorf("result: %s is black or white, not %q", flag, v)
}

// finalCode is a final match's code as 'otd result' takes it.
var finalCode = regexp.MustCompile(`^([^:,]+:)?(?i:PO|QF[1-4]|SF[12]|F|3P)$`)

func runResult(g *globals, o resultOptions) error {
	where := fmt.Sprintf("Round %d table %d", o.Round, o.Table)
	if o.Match != "" {
		where = fmt.Sprintf("%s game %d", o.Match, o.Table)
	}
	ref := tournament.At(o.Round, o.Table)
	if o.Match != "" {
		ref = tournament.GameRef{Match: o.Match, Game: o.Table}
	}
	moves, err := gameMoves(g, o)
	if err != nil {
		return err
	}
	_, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		if moves != nil {
			return rederiving(d, o.Rederive).RecordMoves(ctx, id, ref, o.In, o.Correct, *moves, o.Override)
		}
		if o.Repair || o.Correct {
			return rederiving(d, o.Rederive).Correct(ctx, id, ref, o.In, o.Repair)
		}
		return d.Record(ctx, id, ref, o.In)
	})
	if errors.Is(err, app.ErrRepairFinal) {
		return usageErrorf("result: %w", err)
	}
	if same := (*tournament.SameResultError)(nil); errors.As(err, &same) {
		fmt.Fprintf(g.Stdout, "%s: %s is recorded already; nothing changed.\n", where, same.Result)
		return nil
	}
	if err != nil {
		return err
	}
	c := changes[0]
	now, was := func() (*tournament.Result, *tournament.Result) {
		if o.Match != "" {
			return c.After.FinalGames[0].Result, c.Before.FinalGames[0].Result
		}
		return c.After.Results[0].Result, c.Before.Results[0].Result
	}()
	fmt.Fprintf(g.Stdout, "%s: %s", where, now)
	if was != nil && was.String() != now.String() { // the same: its moves added (a note)
		fmt.Fprintf(g.Stdout, " (was %s)", was)
	}
	fmt.Fprintln(g.Stdout)
	printChangeNotes(g, changes)
	return nil
}

// undoOptions are the options of 'undo' and 'result undo'.
type undoOptions struct {
	DryRun bool
	Kinds  []tournament.Action // the kinds of change undone; none: any
}

func newResultUndoCmd(g *globals, runF func(undoOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o undoOptions) error { return runUndo(g, o) }
	}
	o := undoOptions{Kinds: []tournament.Action{tournament.ActResult, tournament.ActResultCorrect}}
	cmd := &cobra.Command{
		Use:   "undo",
		Short: "Revert the last change, if it is a result entered or corrected",
		Long: `result undo reverts the last change of the tournament when it is a result
entered or corrected, and says what it changed back ("before -> after");
'otd undo' reverts the last change of any kind. --dry-run says what it
would revert, changing nothing.`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error { return runF(o) },
	}
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "say what would be undone, and change nothing")
	return cmd
}

func newUndoCmd(g *globals, runF func(undoOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o undoOptions) error { return runUndo(g, o) }
	}
	var o undoOptions
	cmd := &cobra.Command{
		Use:   "undo",
		Short: "Revert the last change: a player added, edited, withdrawn or removed, a round paired or unpaired, a result, a setting",
		Long: `undo reverts the newest change of the current tournament that is not undone
yet, and says which entry of 'otd log' it reverted and what it changed
back ("before -> after", "-" for nothing); run it again to go further back.
--dry-run says what it would revert, changing nothing. The undo is itself
in 'otd log'. A change that a later one depends on is refused (a result
that the next round is paired on: unpair that round first). Creating or
importing the tournament is not undone.`,
		Example: "  otd undo --dry-run\n  otd undo\n  otd log",
		Args:    argsUsage(cobra.NoArgs),
		RunE:    func(*cobra.Command, []string) error { return runF(o) },
	}
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "say what would be undone, and change nothing")
	return cmd
}

// runUndo undoes the last change (of one of o.Kinds, if given) and says
// what it undid: the entry, and what it changed back, as 'otd log' shows a
// change; with o.DryRun it says what it would undo.
func runUndo(g *globals, o undoOptions) error {
	d, id, done, err := g.event()
	if err != nil {
		return err
	}
	defer done()
	undo, said := d.Undo, "Undone"
	if o.DryRun {
		undo, said = d.WouldUndo, "Would undo"
	}
	last, u, err := undo(context.Background(), id, o.Kinds...)
	if err != nil {
		return err
	}
	now, back := u.Describe()
	wrap(g.Stdout, fmt.Sprintf("%s: entry %d, %s: %s", said, last.ID, last.Action, last.Summary()), logIndent+"  ")
	wrap(g.Stdout, logIndent+now+" -> "+back, logIndent+"  ")
	if o.DryRun {
		fmt.Fprintln(g.Stdout, "Nothing is changed: a dry run.")
	}
	return nil
}

type logOptions struct{ JSON, Wide bool }

func newLogCmd(g *globals, runF func(logOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o logOptions) error { return runLog(g, o) }
	}
	var o logOptions
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Show the audit trail of the current tournament: every change, when, before and after",
		Long: `log lists every change of the current tournament, oldest first: its number,
when (in the local time zone), the action and what it changed (and its
notes), then who made it ("by command line (alice)", "by worker w1@host";
"by -" for a change made before otd recorded who), then the two sides of the
change, "before -> after" (only what differs; "-" for nothing).
An entry that was undone says by which entry. The lines fit in 80 columns,
long ones wrapped; --wide gives a table of one line an entry instead (to
search with grep, or on a wide screen). --json gives the entities
themselves ('otd help json').`,
		Example: "  otd log\n  otd log --wide | grep 'result'\n  otd log --json",
		Args:    argsUsage(cobra.NoArgs),
		RunE:    func(*cobra.Command, []string) error { return runF(o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the trail as JSON, with the entities before and after")
	cmd.Flags().BoolVar(&o.Wide, "wide", false, "a table of one line an entry, as wide as its longest")
	return cmd
}

func runLog(g *globals, o logOptions) error {
	d, id, done, err := g.event()
	if err != nil {
		return err
	}
	defer done()
	_, log, err := d.Log(context.Background(), id)
	if err != nil {
		return err
	}
	if o.JSON {
		out := []logJSON{}
		for _, e := range log {
			out = append(out, logJSON{ID: e.ID, At: e.At.Local(), Action: string(e.Action), Subject: e.Subject, Notes: e.Notes,
				Actor: newActorJSON(e.Actor), Version: e.Version,
				Before: e.Before, After: e.After, UndoneBy: e.UndoneBy, Undoes: e.Undoes})
		}
		return writeJSON(g.Stdout, out)
	}
	return printLog(g.Stdout, log, o.Wide)
}

// printLog prints an audit trail: each entry in lines of at most termWidth
// columns, or with wide a table of one row an entry.
func printLog(w io.Writer, log []tournament.Entry, wide bool) error {
	const when = "2006-01-02 15:04:05 MST"
	var tab [][]string
	b := bufio.NewWriter(w)
	digits := 1 // of the entries' numbers, aligned
	if len(log) > 0 {
		digits = len(strconv.FormatInt(log[len(log)-1].ID, 10))
	}
	for _, e := range log {
		before, after := e.Describe()
		note := ""
		switch {
		case e.UndoneBy != 0:
			note = fmt.Sprintf("undone by %d", e.UndoneBy)
		case e.Undoes != 0:
			note = fmt.Sprintf("undoes %d", e.Undoes)
		}
		if wide {
			tab = append(tab, []string{strconv.FormatInt(e.ID, 10), e.At.Local().Format(when), string(e.Action), e.Summary(), before, after, e.Actor.String(), note})
			continue
		}
		if note != "" {
			note = " (" + note + ")"
		}
		wrap(b, fmt.Sprintf("%*d  %s  %s%s: %s", digits, e.ID, e.At.Local().Format(when), e.Action, note, e.Summary()), logIndent+"  ")
		wrap(b, logIndent+"by "+e.Actor.String(), logIndent+"  ")
		wrap(b, logIndent+before+" -> "+after, logIndent+"  ")
	}
	if wide {
		return table(w, []string{"#", "When", "Action", "What", "Before", "After", "By", ""}, tab)
	}
	return b.Flush()
}

// logIndent starts the line of an entry's two sides in 'otd log'; the
// lines that go on the one before, wrapped, are indented two more.
const logIndent = "    "

// wrap writes text in lines of at most termWidth columns, broken at spaces,
// every line after the first starting with indent; a word longer than a
// line is cut where the line ends. The text's own indent and runs of spaces
// are kept.
func wrap(w io.Writer, text, indent string) {
	trimmed := strings.TrimLeft(text, " ")
	line, bare := text[:len(text)-len(trimmed)], true // bare: nothing on the line but its indent
	newline := func() {
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		line, bare = indent, true
	}
	for _, word := range strings.Split(trimmed, " ") {
		if word == "" { // of a run of spaces
			if !bare {
				line += " "
			}
			continue
		}
		if !bare {
			line += " "
			if twwidth.Width(line+word) > termWidth && twwidth.Width(indent+word) <= termWidth {
				newline() // the word fits whole on the next line
			}
		}
		for twwidth.Width(line+word) > termWidth { // cut it where the line ends
			cut := twwidth.Truncate(word, termWidth-twwidth.Width(line))
			switch {
			case cut == "" && !bare:
				newline()
				continue
			case cut == "": // a character wider than a line's room
				cut = string([]rune(word)[:1])
			}
			line += cut
			newline()
			word = word[len(cut):]
		}
		line, bare = line+word, false
	}
	fmt.Fprintln(w, strings.TrimRight(line, " "))
}
