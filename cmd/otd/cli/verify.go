package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/ftd"
	"github.com/otd-project/otd/internal/userfile"
	"github.com/spf13/cobra"
)

type verifyOptions struct {
	Files   []string
	Format  transcript.Format
	FTD     bool // --format ftd: FlipTheDisc tournament files
	Claimed *transcript.Result
	At      int // board after this move; -1 for none
	JSON    bool
	SVG     string        // draw the board to this file ("-": standard output)
	Force   bool          // replace the SVG file
	Rules   *engine.Rules // the rules given (--rules, --size); nil: standard Othello, or what a GGF record says
}

func newVerifyCmd(g *globals, runF func(verifyOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o verifyOptions) error { return runVerify(g, o) }
	}
	o := verifyOptions{At: -1}
	var format, claimed, rules string
	var size int
	cmd := &cobra.Command{
		Use:   "verify [FILE|-]...",
		Short: "Replay a game record and check its result",
		Long: `verify replays a game record under the rules and reports the moves with their
colours (passes shown), the final score as recorded under the rules (empty
squares to the winner) and whether it agrees with the claimed result.

On an illegal move it names the move (number, square, colour, why) and shows
the board before it with the legal moves marked. For a transcript sheet that
does not replay it searches for the smallest corrections that make it legal
(and agree with --claimed) and prints up to three, most plausible first.

Formats: a move list (f5d6c3..., passes implicit or pass/PS/--), a file of
move lists one game per line (a batch; a line may end with its score, e.g.
40-24), a transcript sheet (8x8 grid of move numbers), GGF, a WTHOR database
(.wtb, with names from WTHOR.JOU and WTHOR.TRN beside it), OBF positions,
PGN, and a FlipTheDisc tournament file (its games with a transcript, each
checked against the result the site recorded). For a batch or a database it
prints a summary and the first ten problems.

PGN as Othello archives and programs write it: tags [Event], [Date],
[Black], [White], [Result], then the moves ("1. F5 D6 2. C3 F3", move
numbers skipped, passes left out or written -- or pass), comments {...}. A
result is a score, Black's discs first (40-24), or the winner only: 1-0
Black won, 0-1 White won, 1/2-1/2 a draw (Black's number first, as Edax
writes it: the opposite of chess). The [Result] tag and the result after
the moves, when both are there, must agree. Variations and games from a
set-up position ([FEN]) are refused.

--rules names the rule set the games were played under (RULES.md section 1),
as 'otd perft' takes it: othello (the default), anti, reversi, 8stars, joined
by + (anti+reversi), supply=N; --size N (even, 4 to 16), or NAME:N, sets the
board side. Move lists then take squares up to the board's last (j10 on
10x10) and sheets have N rows of N cells (# on the squares 8stars cuts). A
GGF record says its board itself (TY[10], BO[10 ...]; # for 8stars, an empty
board for Reversi); with --rules, a record of another size is an error.
WTHOR and OBF hold standard Othello only.

--svg FILE draws the board of a single game as an SVG picture: before the
first illegal move (crossed out in red), or after move N with --at N, or at
the end; with the number of each move played on its disc, as on the sheet,
the coordinates and the legal moves of the side to move marked. "--svg -"
writes the picture to standard output and the report to standard error.

A batch, a database or a GGF file is read one game at a time: its length is
not limited and memory does not grow with it. Limits: a line of at most 64 KiB
(move lists, sheets, OBF, GGF), a GGF record of at most 64 KiB, a transcript
sheet file of at most 64 KiB, a game of at most 60 moves (and 122 moves and
passes; on other boards, its empty squares); an input past one is refused
where it passes it.

Exit status: 0 every game legal and agreeing, 1 otherwise, 2 for unreadable
input or wrong usage.`,
		Example: `  otd verify game.txt --claimed 40-24
  otd verify sheet.txt --claimed 33-31      # a transcript sheet; corrections if it does not replay
  echo f5d6c3d3c4f4 | otd verify - --at 4    # the board after move 4
  otd verify WTH_2018.wtb WTH_2019.wtb      # every game of WTHOR databases
  otd verify games.ggf --json
  otd verify WTH_1977.pgn                   # every game of a PGN file
  otd verify tournament_579.json            # a FlipTheDisc file: transcripts against results
  otd verify sheet.txt --svg dispute.svg    # the board before the illegal move
  otd verify game10.txt --rules othello --size 10
  otd verify --rules anti+reversi:6 game.txt`,
		Args: argsUsage(cobra.ArbitraryArgs),
		RunE: func(_ *cobra.Command, args []string) error {
			var err error
			if o.FTD = strings.EqualFold(format, "ftd"); o.FTD {
				format = "auto"
			}
			if o.Format, err = transcript.ParseFormat(format); err != nil {
				return usageErrorf("verify: --format: %w", err)
			}
			if claimed != "" {
				sc, err := engine.ParseScore(claimed)
				if err != nil {
					return usageErrorf("verify: --claimed: %w", err)
				}
				o.Claimed = &transcript.Result{Black: sc.Black, White: sc.White}
			}
			if rules != "" || size != 0 {
				r, err := parseRules(rules, size)
				if err != nil {
					return usageErrorf("verify: %w", err)
				}
				o.Rules = &r
				if c := o.Claimed; c != nil && c.Black+c.White > r.Squares() {
					return usageErrorf("verify: --claimed %s: more discs than the %d squares of %s", claimed, r.Squares(), r)
				}
			}
			o.Files = args
			if len(o.Files) == 0 {
				o.Files = []string{"-"}
			}
			return runF(o)
		},
	}
	cmd.Flags().StringVar(&format, "format", "auto", "record format: auto, moves, sheet, ggf, wthor, obf, pgn or ftd")
	cmd.Flags().StringVar(&claimed, "claimed", "", "the result the players signed, black discs first (e.g. 40-24)")
	cmd.Flags().IntVar(&o.At, "at", -1, "also show the board after move `N`")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the report as JSON")
	cmd.Flags().StringVar(&o.SVG, "svg", "", "draw the board (before the illegal move, or after --at N) as SVG to `FILE`")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace the --svg FILE if it exists")
	cmd.Flags().StringVar(&rules, "rules", "", "the rule set: othello, anti, reversi, 8stars, joined by +, [:SIZE] (default othello, or a GGF record's own board)")
	cmd.Flags().IntVar(&size, "size", 0, "the board side, even 4 to 16 (default: the rule set's, 8 or 10 for 8stars)")
	return cmd
}

// parseRules reads --rules NAME [--size N] ("" for othello).
func parseRules(name string, size int) (engine.Rules, error) {
	if name == "" {
		name = "othello"
	}
	if size != 0 && strings.Contains(name, ":") {
		return engine.Rules{}, fmt.Errorf("give the board size once: --rules %s or --size %d", name, size)
	}
	if size != 0 {
		return engine.RulesFor(name, size)
	}
	return engine.ParseRules(name)
}

// gameFile is an input of verify being read: one game at a time, so that a
// batch of any length is verified in memory that does not grow with it.
type gameFile struct {
	name   string
	rd     *transcript.Reader // nil for a FlipTheDisc file
	queue  []transcript.Game  // a FlipTheDisc file's games, not returned yet
	closer io.Closer
	prefix bool // name the games after the file: several files, or a WTHOR database
	games  int  // games read
}

// openGames opens the input name ("-": standard input) for reading its games.
// An unreadable input is an exitUsage error.
func openGames(g *globals, o verifyOptions, name string) (*gameFile, error) {
	var r io.Reader = g.Stdin
	gf := &gameFile{name: name}
	if name != "-" {
		// No cap: the readers hold one game at a time, and stop at their
		// limits (transcript.MaxLine...).
		f, err := userfile.Open(name, 0)
		if errors.Is(err, userfile.ErrNotRegular) {
			return nil, inputError(fmt.Errorf("verify: %w; give a pipe on standard input (otd verify - < PIPE)", err))
		}
		if err != nil {
			return nil, inputError(fmt.Errorf("verify: %w", err))
		}
		r, gf.closer = f, f
	}
	if o.Format == transcript.Auto && !o.FTD {
		var isJSON bool
		if r, isJSON = transcript.StartsJSON(r); isJSON { // no game record starts with '{'
			o.FTD = true
		}
	}
	if o.FTD {
		f, err := ftd.Read(r)
		if err == nil {
			gf.queue, err = f.Games()
		}
		if err != nil {
			gf.close()
			return nil, gf.readError(err)
		}
		gf.prefix = len(o.Files) > 1
		return gf, nil
	}
	rd, err := transcript.NewReader(r, o.Format, nil)
	if err != nil {
		gf.close()
		return nil, gf.readError(err)
	}
	if o.Rules != nil {
		rd.SetRules(*o.Rules)
	}
	if rd.Format() == transcript.WTHOR && name != "-" {
		rd.SetNames(transcript.NamesBeside(name))
	}
	gf.rd = rd
	gf.prefix = len(o.Files) > 1 || rd.Format() == transcript.WTHOR
	return gf, nil
}

func (gf *gameFile) close() {
	if gf.closer != nil {
		gf.closer.Close()
	}
}

func (gf *gameFile) readError(err error) error {
	return inputError(fmt.Errorf("verify: %s: %w", displayName(gf.name), err))
}

// isWTHOR reports whether the file is a WTHOR database.
func (gf *gameFile) isWTHOR() bool { return gf.rd != nil && gf.rd.Format() == transcript.WTHOR }

// next returns the next game, io.EOF after the last, or an exitUsage error.
// A file without a game (other than an empty WTHOR database) is an error.
func (gf *gameFile) next() (transcript.Game, error) {
	if gf.rd == nil {
		if len(gf.queue) == 0 {
			return transcript.Game{}, io.EOF
		}
		game := gf.queue[0]
		gf.queue = gf.queue[1:]
		gf.games++
		if gf.prefix {
			game.Name = displayName(gf.name) + ": " + game.Name
		}
		return game, nil
	}
	game, err := gf.rd.Next()
	switch {
	case errors.Is(err, io.EOF) && gf.games == 0 && !gf.isWTHOR():
		return game, gf.readError(&transcript.ParseError{Format: gf.rd.Format(), Expected: "at least one game", Found: "none", Err: transcript.ErrEmpty})
	case errors.Is(err, io.EOF):
		return game, io.EOF
	case err != nil:
		return game, gf.readError(err)
	}
	gf.games++
	if gf.prefix {
		game.Name = displayName(gf.name) + ": " + game.Name
	}
	return game, nil
}

func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

func runVerify(g *globals, o verifyOptions) error {
	var pending []transcript.Game // games read to tell one game from a batch
	var first *gameFile
	if len(o.Files) == 1 {
		gf, err := openGames(g, o, o.Files[0])
		if err != nil {
			return err
		}
		defer gf.close()
		game, err := gf.next()
		switch {
		case errors.Is(err, io.EOF): // a WTHOR database of no game
		case err != nil:
			return err
		default:
			pending = append(pending, game)
		}
		if !gf.isWTHOR() {
			second, err := gf.next()
			if errors.Is(err, io.EOF) {
				return verifyOne(g, o, game)
			}
			if err != nil {
				return err
			}
			pending = append(pending, second)
		}
		first = gf
	}
	if o.Claimed != nil || o.At >= 0 || o.SVG != "" {
		return usageErrorf("verify: --claimed, --at and --svg apply to a single game; this input is a batch (several games or files, or a WTHOR database)")
	}
	return verifyBatch(g, o, first, pending)
}

// verifyOne reports on a single game.
func verifyOne(g *globals, o verifyOptions, game transcript.Game) error {
	r := transcript.Verify(game, o.Claimed)
	out := g.Stdout
	if o.SVG == "-" {
		out = g.Stderr // the picture takes standard output
	}
	if o.JSON {
		if err := writeJSONLine(out, reportJSON(game, &r, o.At)); err != nil {
			return err
		}
	} else {
		printReport(out, game, &r, o.At)
	}
	if o.SVG != "" {
		pic, ok := r.Picture(o.At)
		if !ok {
			return usageErrorf("verify: --svg: no board after move %d: the record has no legal move %d", o.At, o.At)
		}
		if game.Black != "" || game.White != "" {
			pic.Caption = fmt.Sprintf("%s (black) - %s (white). %s", game.Black, game.White, pic.Caption)
		}
		if err := writeOutput(g, o.SVG, o.Force, pic.WriteSVG); err != nil {
			return err
		}
	}
	if !r.Legal() || (r.Claimed != nil && !r.Agrees()) {
		return &exitError{code: exitFailure}
	}
	return nil
}

func printReport(w io.Writer, game transcript.Game, r *transcript.Report, at int) {
	if game.Black != "" || game.White != "" {
		fmt.Fprintf(w, "%s: %s (black) vs %s (white)", r.Name, game.Black, game.White)
		if game.Event != "" {
			fmt.Fprintf(w, ", %s", game.Event)
		}
		fmt.Fprintln(w)
	}
	if rules := r.Start.Rules(); !rules.Standard() {
		fmt.Fprintf(w, "Rules: %s\n", rules)
	} else if p, _ := r.Start.Position(); p != engine.Start() {
		fmt.Fprintf(w, "Starting position (%s to move):\n%s", p.ToMove, r.Start.Diagram(false))
	}
	fmt.Fprintln(w, "Moves:")
	var row strings.Builder
	for i, m := range r.Moves {
		cell := fmt.Sprintf("%2d %s %s", m.Number, m.Color, m.Move)
		if m.Move == engine.PassPoint {
			cell = fmt.Sprintf("   %s passes", m.Color)
		}
		fmt.Fprintf(&row, "  %-16s", cell)
		if i%5 == 4 || i == len(r.Moves)-1 {
			fmt.Fprintln(w, strings.TrimRight(row.String(), " "))
			row.Reset()
		}
	}
	if il := r.Illegal; il != nil {
		fmt.Fprintf(w, "Illegal: %s\n", il)
		fmt.Fprintf(w, "Board before it (%s to move; * marks the legal moves):\n%s", il.Before.ToMove(), il.Before.Diagram(true))
		fmt.Fprintf(w, "Legal moves: %s\n", movesList(il.Before))
		if r.Claimed != nil {
			fmt.Fprintf(w, "Claimed %s: cannot be confirmed, the record is illegal.\n", r.Claimed)
		}
		printCorrections(w, r)
	} else {
		last := 0
		if n := len(r.Moves); n > 0 {
			last = r.Moves[n-1].Number
		}
		if r.Over {
			fmt.Fprintf(w, "Final score: %s (%s)\n", r.Score, outcome(r))
		} else {
			fmt.Fprintf(w, "Unfinished: after move %d %s is to move; discs %s.\n", last, r.Final.ToMove(), r.Score)
		}
		if c := r.Claimed; c != nil {
			switch {
			case c.Ending != transcript.Normal:
				fmt.Fprintf(w, "Claimed %s ended by time, resignation or agreement: the board cannot confirm it.\n", c)
			case r.Agrees():
				fmt.Fprintf(w, "Claimed %s: agrees.\n", c)
			case !r.Over:
				fmt.Fprintf(w, "Claimed %s: DISAGREES: the game is not finished.\n", c)
			default:
				fmt.Fprintf(w, "Claimed %s: DISAGREES with the final score %s.\n", c, r.Score)
			}
		}
	}
	if at >= 0 {
		if p, ok := r.PositionAfter(at); ok {
			fmt.Fprintf(w, "Board after move %d (%s to move):\n%s", at, p.ToMove(), p.Diagram(false))
		} else {
			fmt.Fprintf(w, "No board after move %d: the record has no legal move %d.\n", at, at)
		}
	}
}

func outcome(r *transcript.Report) string {
	win, ok := r.Final.Rules().WinnerOf(r.Score)
	s := "a tie"
	if ok {
		s = win.String() + " wins"
	}
	if e := r.Final.Empties(); e > 0 {
		s += fmt.Sprintf("; %d empty squares to the winner", e)
	}
	return s
}

func movesList(b transcript.Board) string {
	var names []string
	for _, m := range b.Moves() {
		names = append(names, m.String())
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, " ")
}

func printCorrections(w io.Writer, r *transcript.Report) {
	if r.Corrections == nil && r.Illegal != nil {
		return
	}
	if len(r.Corrections) == 0 {
		fmt.Fprintln(w, "No single correction (a swap, a misplaced, missing or doubled number) makes the sheet legal.")
		return
	}
	fmt.Fprintln(w, "Possible corrections, most plausible first:")
	for i, c := range r.Corrections[:min(3, len(r.Corrections))] {
		fmt.Fprintf(w, "  %d. %s: %s\n", i+1, c.What, correctionOutcome(r, c))
	}
	if n := len(r.Corrections) - 3; n > 0 {
		fmt.Fprintf(w, "  (%d more candidates: --json lists them all)\n", n)
	}
	fmt.Fprintf(w, "Corrected sheet (1):\n%s", r.Corrections[0].Sheet)
}

func correctionOutcome(r *transcript.Report, c transcript.Correction) string {
	s := "legal, unfinished"
	if c.Over {
		s = "legal, final score " + c.Score.String()
	}
	switch {
	case r.Claimed == nil:
	case c.Agrees:
		s += ", agrees with the claimed " + r.Claimed.String()
	default:
		s += ", not the claimed " + r.Claimed.String()
	}
	return s
}

func reportJSON(game transcript.Game, r *transcript.Report, at int) reportJSONT {
	out := reportJSONT{Name: r.Name, Black: game.Black, White: game.White, Event: game.Event,
		Moves: []playedJSON{}, Legal: r.Legal(), Over: r.Over, Score: r.Score.String()}
	for _, m := range r.Moves {
		out.Moves = append(out.Moves, playedJSON{m.Number, m.Move.String(), m.Color.String(), m.Forced})
	}
	if il := r.Illegal; il != nil {
		ij := &illegalJSON{Number: il.Number, Color: il.Color.String(), Reason: il.String(), Board: il.Before.String(), LegalMoves: []string{}}
		if !errors.Is(il.Reason, transcript.ErrSheetNumbering) {
			ij.Move = il.Move.String()
		}
		for _, m := range il.Before.Moves() {
			ij.LegalMoves = append(ij.LegalMoves, m.String())
		}
		out.Illegal = ij
	}
	if r.Claimed != nil {
		out.Claimed = r.Claimed.String()
		a := r.Agrees()
		out.Agrees = &a
	}
	for _, c := range r.Corrections {
		out.Corrections = append(out.Corrections, correctionJSON{c.What, c.Over, c.Score.String(), c.Agrees})
	}
	if at >= 0 {
		if p, ok := r.PositionAfter(at); ok {
			out.At = &atJSON{Move: at, Board: p.String(), ToMove: p.ToMove().String()}
		}
	}
	return out
}

// verifyBatch verifies every game of every file, one at a time: first (if
// not nil) is the file already open, and pending its games already read.
func verifyBatch(g *globals, o verifyOptions, first *gameFile, pending []transcript.Game) error {
	files := o.Files
	gf := first
	if gf != nil { // closed by runVerify, which opened it
		files = nil
	}
	next := func() (transcript.Game, error) {
		if len(pending) > 0 {
			game := pending[0]
			pending = pending[1:]
			return game, nil
		}
		for {
			if gf != nil {
				game, err := gf.next()
				if !errors.Is(err, io.EOF) {
					return game, err
				}
				gf.close()
				gf = nil
			}
			if len(files) == 0 {
				return transcript.Game{}, io.EOF
			}
			var err error
			if gf, err = openGames(g, o, files[0]); err != nil {
				return transcript.Game{}, err
			}
			files = files[1:]
		}
	}
	tally, err := transcript.VerifyAll(next)
	if gf != nil {
		gf.close()
	}
	if err != nil {
		return err
	}
	s := batchJSON{Games: tally.Games, Legal: tally.Legal, Illegal: tally.Illegal, Agreeing: tally.Agreeing,
		Disagreeing: tally.Disagreeing, NoResult: tally.NoResult, Problems: []problemJSON{}}
	for _, p := range tally.Problems {
		s.Problems = append(s.Problems, problemJSON{p.Game.Name, p.Game.Black, p.Game.White, p.Game.Event, p.Game.Year, p.What})
	}
	if o.JSON {
		if err := writeJSONLine(g.Stdout, s); err != nil {
			return err
		}
	} else {
		w := g.Stdout
		fmt.Fprintf(w, "games: %d  legal: %d  illegal: %d  agreeing: %d  disagreeing: %d  no result: %d\n",
			s.Games, s.Legal, s.Illegal, s.Agreeing, s.Disagreeing, s.NoResult)
		if len(s.Problems) > 0 {
			fmt.Fprintf(w, "First %d problems:\n", len(s.Problems))
		}
		for _, p := range s.Problems {
			fmt.Fprintf(w, "  %s", p.Name)
			if p.Black != "" || p.White != "" {
				fmt.Fprint(w, " (")
				if p.Event != "" {
					fmt.Fprint(w, p.Event)
					if p.Year != 0 {
						fmt.Fprintf(w, " %d", p.Year)
					}
					fmt.Fprint(w, ": ")
				}
				fmt.Fprintf(w, "%s vs %s)", p.Black, p.White)
			}
			fmt.Fprintf(w, ": %s\n", p.Problem)
		}
	}
	if tally.Failed() {
		return &exitError{code: exitFailure}
	}
	return nil
}
