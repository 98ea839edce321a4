package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/txt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/otd-project/otd/tournament"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// checkEngine checks engine spec (app.CheckEngine) under the current
// tournament's rules: an engine that would not play is refused at
// registration.
func checkEngine(spec string, g *globals) error {
	if spec == "" {
		return nil
	}
	t, err := g.current()
	if err != nil {
		return err
	}
	return checkEngineFor(spec, t.GameRules())
}

// checkEngineFor is checkEngine under the rules r, its refusal said of the
// flag --engine.
func checkEngineFor(spec string, r engine.Rules) error {
	if e, err := tournament.ParseEngine(spec); err == nil {
		if err := e.Plays(r); err != nil {
			return &exitError{code: exitUsage, usage: true, err: fmt.Errorf("--engine: %w", err)}
		}
	}
	if err := app.CheckEngine(context.Background(), spec, r); err != nil {
		return &exitError{code: exitUsage, usage: true, err: fmt.Errorf("--engine %q: %w: check the program and its arguments", spec, err)}
	}
	return nil
}

const timeHelp = `a time control: BASE+INCREMENT per side ("5m+2s"), BASE ("10m") or a time per move ("10s/move"); default: the tournament's ('tournament edit --time'), else 1m a side`

// enginePlayOptions are what the commands that play engine games are told: how
// to play them, and for 'round play' whether the workers play them
// (Distributed).
type enginePlayOptions struct {
	app.PlayOptions
	Distributed bool
}

// playOptions are the flags of the commands that play engine games, as
// given.
type playOptions struct {
	Time        string
	Concurrency int
}

func defaultPlayOptions() playOptions { return playOptions{Concurrency: 1} }

// add defines the flags on cmd and makes its RunE read them into
// app.PlayOptions and hand those (with o's others) to runF.
func (f *playOptions) add(cmd *cobra.Command, o *enginePlayOptions, runF func(enginePlayOptions) error) {
	cmd.Flags().StringVar(&f.Time, "time", f.Time, timeHelp)
	cmd.Flags().IntVar(&f.Concurrency, "concurrency", f.Concurrency, "games played at once")
	cmd.RunE = func(*cobra.Command, []string) error {
		po, err := f.options()
		if err != nil {
			return err
		}
		o.PlayOptions = po
		return runF(*o)
	}
}

// options reads the flags into app.PlayOptions.
func (o playOptions) options() (app.PlayOptions, error) {
	var tc engine.TimeControl // zero: the tournament's
	if err := tc.UnmarshalText([]byte(o.Time)); err != nil {
		return app.PlayOptions{}, usageErrorf("--time: %v", err)
	}
	if o.Concurrency < 1 || o.Concurrency > 64 {
		return app.PlayOptions{}, usageErrorf("--concurrency %d: 1 to 64 games at once", o.Concurrency)
	}
	return app.PlayOptions{Time: tc, Concurrency: o.Concurrency}, nil
}

func newRoundPlayCmd(g *globals, runF func(enginePlayOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o enginePlayOptions) error { return runRoundPlay(g, o) }
	}
	var o enginePlayOptions
	f := defaultPlayOptions()
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play the engine games of the current round",
		Long: `play plays every game of the current round between two engine entrants
(players added with --engine) that has no result yet: otd starts both
programs, keeps the clocks, checks every move, and records the result and
the transcript as soon as the game ends. An engine that oversteps its time,
crashes, answers garbage, plays an illegal move or does not answer loses by
default, scored under the tournament's time-default rule (the winner
completes the game under "complete").

Games with a person are left for 'otd result'. On a terminal a progress bar
shows the games done and running and the time left; otherwise a line is
printed for each game. Ctrl-C stops cleanly: the games finished are kept, the
ones running are dropped, and running the same command again plays them.

With --distributed (a PostgreSQL database only) otd plays nothing itself: it
queues the round's engine games for the workers ('otd worker', on any number
of machines), each with the time control, and shows the same progress as the
workers start games and record their results. A game is queued once: running
the command again (after Ctrl-C, which stops only the showing) queues nothing
new and follows the round again. A game whose engines no worker has waits.`,
		Example: `  otd round play
  otd round play --time 5m+2s --concurrency 2
  otd round play --time 2s/move
  otd --db postgres://otd:secret@db.example.org/league round play --distributed --time 5m`,
		Args: argsUsage(cobra.NoArgs),
	}
	f.add(cmd, &o, runF)
	cmd.Flags().BoolVar(&o.Distributed, "distributed", false, "queue the games for the workers ('otd worker') instead of playing them here, and show their progress")
	cmd.MarkFlagsMutuallyExclusive("distributed", "concurrency")
	return cmd
}

// runRoundPlayDistributed queues the engine games of the current round for
// the workers and shows their progress as runRoundPlay does.
func runRoundPlayDistributed(g *globals, po app.PlayOptions) error {
	if !isPostgresURL(g.DB) && g.Store.Storage == nil {
		return usageErrorf("round play --distributed: %v; %s is an SQLite file", app.ErrNoQueue, g.dbName())
	}
	d, id, done, err := g.event()
	if err != nil {
		return err
	}
	defer done()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := newProgress(g.Stderr)
	po.Progress = p.event
	rep, err := d.PlayDistributed(ctx, id, po)
	p.finish()
	if errors.Is(err, app.ErrNoQueue) {
		return usageErrorf("round play --distributed: %v", err)
	}
	if err != nil && !errors.Is(err, app.ErrNoEngineGames) {
		return err
	}
	printPlayed(g, rep)
	return nil
}

// withDirector runs fn, which plays games of tournament id (the one the
// command acts on, read once here), with the application layer and a context
// that Ctrl-C (or SIGTERM) cancels, holding the database's play lock.
func (g *globals) withDirector(fn func(context.Context, *app.Director, int64) error) error {
	d, id, done, err := g.event()
	if err != nil {
		return err
	}
	defer done()
	unlock, err := lockPlay(g.DB, "play", g.Stderr)
	if err != nil {
		return err
	}
	defer unlock()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return fn(ctx, d, id)
}

// runRoundPlay plays the engine games of the current round with progress
// on standard error (a bar on a terminal, else a line a game), or has the
// workers play them (o.Distributed).
func runRoundPlay(g *globals, o enginePlayOptions) error {
	if o.Distributed {
		return runRoundPlayDistributed(g, o.PlayOptions)
	}
	po := o.PlayOptions
	return g.withDirector(func(ctx context.Context, d *app.Director, id int64) error {
		p := newProgress(g.Stderr)
		po.Progress = p.event
		rep, err := d.PlayRound(ctx, id, po)
		p.finish()
		if err != nil && !errors.Is(err, app.ErrNoEngineGames) {
			return resumeWith(err, "'otd round play' again to play them")
		}
		printPlayed(g, rep)
		return nil
	})
}

// resumeWith adds to the error of a play stopped by Ctrl-C (a
// *app.StoppedError, which says what is kept) how to go on: "run "
// + how.
func resumeWith(err error, how string) error {
	if errors.Is(err, app.ErrStopped) {
		return fmt.Errorf("%w; run %s", err, how)
	}
	return err
}

// printPlayed says what a round's play did.
func printPlayed(g *globals, rep app.PlayReport) {
	what := fmt.Sprintf("round %d", rep.Round)
	if rep.Round == 0 {
		what = "final phase"
	}
	fmt.Fprintf(g.Stdout, "%s: %d engine games played", what, rep.Played)
	if rep.Recorded > 0 {
		fmt.Fprintf(g.Stdout, ", %d recorded before", rep.Recorded)
	}
	if rep.Played > 0 {
		fmt.Fprintf(g.Stdout, " (time control %s)", rep.Time)
	}
	fmt.Fprintln(g.Stdout)
	if len(rep.Humans) > 0 {
		fmt.Fprintf(g.Stdout, "round %d: %s with a person left for 'otd result' (tables %s)\n", rep.Round,
			tournament.Plural(len(rep.Humans), "game"), joinInts(rep.Humans))
	}
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}

// progress shows the games of a round: a progress bar on a terminal, a line
// a finished game otherwise.
type progress struct {
	mu  sync.Mutex
	w   io.Writer
	bar *progressbar.ProgressBar
}

func isTerminal(w io.Writer) bool {
	f, ok := txt.Raw(w).(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w}
}

// gameLine is the line that says how a game ended (e.Done).
func gameLine(e app.GameEvent) string {
	line := fmt.Sprintf("round %d table %d: %d %s - %d %s", e.Round, e.Table, e.Black.Number, e.Black.Name, e.White.Number, e.White.Name)
	if e.Match != "" {
		line = fmt.Sprintf("%s game %d: %d %s - %d %s", e.Match, e.Table, e.Black.Number, e.Black.Name, e.White.Number, e.White.Name)
	}
	if e.Event != "" {
		line = e.Event + ", " + line
	}
	switch {
	case errors.Is(e.Err, app.ErrStopped):
		line += ": " + e.Err.Error()
	case e.Err != nil: // it may hold what an engine wrote
		line += ": not played: " + txt.Printable(e.Err.Error())
	default:
		line += ": " + e.Result.String()
		if e.Result.Note != "" { // escaped when stored; not in a database of before
			line += ": " + txt.Printable(e.Result.Note)
		}
	}
	return line
}

func (p *progress) event(e app.GameEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !e.Done {
		if p.bar == nil && isTerminal(p.w) {
			p.bar = progressbar.NewOptions(e.Total, progressbar.OptionSetWriter(txt.Raw(p.w)), progressbar.OptionSetPredictTime(true),
				progressbar.OptionShowCount(), progressbar.OptionSetItsString("games"), progressbar.OptionClearOnFinish())
		}
		if p.bar != nil {
			p.bar.Describe(fmt.Sprintf("%d running", e.Running))
		}
		return
	}
	line := gameLine(e)
	if p.bar == nil {
		fmt.Fprintln(p.w, line)
		return
	}
	if e.Err != nil { // above the bar, which stays
		p.bar.Clear()
		fmt.Fprintln(p.w, line)
	}
	p.bar.Describe(fmt.Sprintf("%d running", e.Running))
	p.bar.Add(1)
}

// finish ends the round's bar; the next event starts another.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}

func newTournamentRunCmd(g *globals, runF func(enginePlayOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o enginePlayOptions) error { return runTournamentRun(g, o) }
	}
	var o enginePlayOptions
	f := defaultPlayOptions()
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Pair and play every remaining round of an engine event, then print the standings",
		Long: `run finishes an event whose games otd plays itself: it plays the current
round's engine games that have no result ('otd round play'), pairs the next
round ('otd round pair'), and so on to the last round, then prints the
standings. It stops at a round with a game involving a person: enter that
result with 'otd result' and run it again. Ctrl-C stops cleanly; running it
again goes on where it stopped.`,
		Example: "  otd tournament run --time 1m+1s --concurrency 2",
		Args:    argsUsage(cobra.NoArgs),
	}
	f.add(cmd, &o, runF)
	return cmd
}

// runTournamentRun pairs and plays the remaining rounds (Director.Run),
// saying each round paired and played, then prints the standings.
func runTournamentRun(g *globals, o enginePlayOptions) error {
	po := o.PlayOptions
	err := g.withDirector(func(ctx context.Context, d *app.Director, id int64) error {
		p := newProgress(g.Stderr)
		defer p.finish()
		po.Progress = p.event
		po.Paired = func(r int, notes []string) {
			if r == 0 { // the final phase: the games paired
				fmt.Fprintln(g.Stdout, notes[0])
				return
			}
			fmt.Fprintf(g.Stdout, "round %d paired\n", r)
			if len(notes) > 0 {
				fmt.Fprintf(g.Stderr, "otd: note: %s\n", strings.Join(notes, "; "))
			}
		}
		po.Played = func(rep app.PlayReport) {
			p.finish()
			printPlayed(g, rep)
		}
		return d.Run(ctx, id, po)
	})
	if errors.Is(err, app.ErrHumanGames) {
		return fmt.Errorf("%w with 'otd result', then run 'otd tournament run' again", err)
	}
	if err != nil {
		return resumeWith(err, "'otd tournament run' again to go on from there")
	}
	t, err := g.current()
	if err != nil {
		return err
	}
	if !t.Final.IsZero() {
		return runFinalStandings(g, t, standingsOptions{viewOptions: lastRound})
	}
	return runStandings(g, t, standingsOptions{viewOptions: lastRound})
}
