package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/engine"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/otd-project/otd/engine/gtp"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/nboard"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/tournament"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// engineStartTimeout bounds an engine's start (and its handshake).
const engineStartTimeout = 10 * time.Second

// engineCheckMove is the time per move of the move asked at registration.
const engineCheckMove = 5 * time.Second

// startEngine starts the program of engine player p: a GTP or NBoard
// engine as a subprocess, or a built-in player.
func startEngine(ctx context.Context, p tournament.Player, r engine.Rules) (player.Player, error) {
	e, err := tournament.ParseEngine(p.Engine)
	if err != nil {
		return nil, err
	}
	if err := e.Plays(r); err != nil {
		return nil, err
	}
	hurry := ctx.Done() // Ctrl-C: the engine is stopped at once
	ctx, cancel := context.WithTimeout(ctx, engineStartTimeout)
	defer cancel()
	// A nil *gtp.Engine is not a nil player.Player: return nil itself.
	switch e.Protocol {
	case tournament.GTP:
		eng, err := gtp.Start(ctx, gtp.Config{Config: proc.Config{Argv: e.Argv, Name: p.Name, Hurry: hurry}, Size: r.Size})
		if err != nil {
			return nil, err
		}
		return eng, nil
	case tournament.NBoard:
		eng, err := nboard.Start(ctx, nboard.Config{Config: proc.Config{Argv: e.Argv, Name: p.Name, Hurry: hurry}})
		if err != nil {
			return nil, err
		}
		return eng, nil
	}
	return player.New(e.Argv[0])
}

// checkEngine starts engine spec once, set up for the current tournament's
// rules, asks it for a move from the start position (match.Probe) and stops
// it: a program that is not there, does not speak its protocol, refuses the
// board's size or answers no legal move is refused at registration.
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

// checkEngineFor is checkEngine under the rules r.
func checkEngineFor(spec string, r engine.Rules) error {
	if e, err := tournament.ParseEngine(spec); err == nil {
		if err := e.Plays(r); err != nil {
			return &exitError{code: exitUsage, usage: true, err: fmt.Errorf("--engine: %w", err)}
		}
	}
	p, err := startEngine(context.Background(), tournament.Player{Name: "the engine", Engine: spec}, r)
	if err == nil {
		err = match.Probe(context.Background(), r, p, engineCheckMove)
		if cerr := p.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return &exitError{code: exitUsage, usage: true, err: fmt.Errorf("--engine %q: %w: check the program and its arguments", spec, err)}
	}
	return nil
}

const timeHelp = `a time control: BASE+INCREMENT per side ("5m+2s"), BASE ("10m") or a time per move ("10s/move"); default: the tournament's ('tournament edit --time'), else 1m a side`

type playOptions struct {
	Time        string
	Concurrency int
}

func (o *playOptions) flags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Time, "time", o.Time, timeHelp)
	cmd.Flags().IntVar(&o.Concurrency, "concurrency", o.Concurrency, "games played at once")
}

func (o playOptions) options(g *globals) (tournament.PlayOptions, error) {
	var tc match.TimeControl // zero: the tournament's
	if err := tc.UnmarshalText([]byte(o.Time)); err != nil {
		return tournament.PlayOptions{}, usageErrorf("--time: %v", err)
	}
	if o.Concurrency < 1 || o.Concurrency > 64 {
		return tournament.PlayOptions{}, usageErrorf("--concurrency %d: 1 to 64 games at once", o.Concurrency)
	}
	return tournament.PlayOptions{Time: tc, Concurrency: o.Concurrency, Start: startEngine}, nil
}

func defaultPlayOptions() playOptions { return playOptions{Concurrency: 1} }

func newRoundPlayCmd(g *globals) *cobra.Command {
	o := defaultPlayOptions()
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
ones running are dropped, and running the same command again plays them.`,
		Example: "  otd round play\n  otd round play --time 5m+2s --concurrency 2\n  otd round play --time 2s/move",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			po, err := o.options(g)
			if err != nil {
				return err
			}
			return g.withDirector(func(ctx context.Context, d *tournament.Director, id int64) error {
				_, err := playRound(ctx, g, d, id, po)
				return err
			})
		},
	}
	o.flags(cmd)
	return cmd
}

// withDirector runs fn, which plays games of tournament id (the one the
// command acts on, read once here), with the application layer and a context
// that Ctrl-C (or SIGTERM) cancels, holding the database's play lock.
func (g *globals) withDirector(fn func(context.Context, *tournament.Director, int64) error) error {
	d, id, done, err := g.event()
	if err != nil {
		return err
	}
	defer done()
	unlock, err := lockPlay(g.DB, g.Stderr)
	if err != nil {
		return err
	}
	defer unlock()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return fn(ctx, d, id)
}

// playRound plays the engine games of tournament id's current round with
// progress on standard error (a bar on a terminal, else a line a game).
func playRound(ctx context.Context, g *globals, d *tournament.Director, id int64, po tournament.PlayOptions) (tournament.PlayReport, error) {
	p := newProgress(g.Stderr)
	po.Progress = p.event
	rep, err := d.PlayRound(ctx, id, po)
	p.finish()
	if err != nil && !errors.Is(err, tournament.ErrNoEngineGames) {
		return rep, err
	}
	fmt.Fprintf(g.Stdout, "round %d: %d engine games played", rep.Round, rep.Played)
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
	return rep, nil
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
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w}
}

func (p *progress) event(e tournament.GameEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("round %d table %d: %d %s - %d %s", e.Round, e.Table, e.Black.Number, e.Black.Name, e.White.Number, e.White.Name)
	switch {
	case !e.Done:
		if p.bar == nil && isTerminal(p.w) {
			p.bar = progressbar.NewOptions(e.Total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetPredictTime(true),
				progressbar.OptionShowCount(), progressbar.OptionSetItsString("games"), progressbar.OptionClearOnFinish())
		}
		if p.bar != nil {
			p.bar.Describe(fmt.Sprintf("%d running", e.Running))
		}
		return
	case e.Err != nil: // it may hold what an engine wrote
		line += ": not played: " + tournament.Printable(e.Err.Error())
	default:
		line += ": " + e.Result.String()
		if e.Result.Note != "" { // escaped when stored; not in a database of before
			line += ": " + tournament.Printable(e.Result.Note)
		}
	}
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

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

func newTournamentRunCmd(g *globals) *cobra.Command {
	o := defaultPlayOptions()
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
		RunE: func(cmd *cobra.Command, _ []string) error {
			po, err := o.options(g)
			if err != nil {
				return err
			}
			err = g.withDirector(func(ctx context.Context, d *tournament.Director, id int64) error {
				for {
					t, err := d.Tournament(ctx, id)
					if err != nil {
						return err
					}
					r := t.Paired()
					if r == 0 || t.Finished() == r {
						if r == t.Rounds {
							return nil
						}
						t, changes, err := d.Do(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
							return t.Pair(tournament.PairOptions{})
						})
						if err != nil {
							return err
						}
						fmt.Fprintf(g.Stdout, "round %d paired\n", t.Paired())
						if _, notes, ok := strings.Cut(changes[0].Subject, "; "); ok {
							fmt.Fprintf(g.Stderr, "otd: note: %s\n", notes)
						}
					}
					rep, err := playRound(ctx, g, d, id, po)
					if err != nil {
						return err
					}
					if len(rep.Humans) > 0 {
						return fmt.Errorf("round %d: %w: enter %s with 'otd result', then run 'otd tournament run' again",
							rep.Round, errHumanGames, tournament.Plural(len(rep.Humans), "result"))
					}
				}
			})
			if err != nil {
				return err
			}
			t, err := g.current()
			if err != nil {
				return err
			}
			return runStandings(g, t, standingsOptions{Round: -1})
		},
	}
	o.flags(cmd)
	return cmd
}

// errHumanGames: tournament run met a game with a person.
var errHumanGames = errors.New("games with a person wait for their results")
