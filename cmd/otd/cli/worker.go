package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// workerOptions are what 'otd worker' is told: its engines and
// concurrency.
type workerOptions struct {
	app.WorkOptions
	Name string // as 'otd log' names it; "": USER@HOST
}

func newWorkerCmd(g *globals, runF func(workerOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o workerOptions) error { return runWorker(g, o) }
	}
	var o workerOptions
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Play the engine games that 'otd round play --distributed' queues, on this machine",
		Long: `worker plays engine games for the events of a PostgreSQL database, on this
machine: the games that 'otd round play --distributed' queues, from any
event, as 'otd round play' would play them (the same clocks, checks and
defaults), each result recorded as soon as its game ends. Start one on every
machine that has the engines (several on one machine with many cores, or
--concurrency); each takes the next game it can play.

A worker plays the games whose two engines it has. With --engines it has
those given, NAME=PROGRAM ARGS..., NAME an engine entrant's name, run with
the program given here whatever its event registered (the protocol stays the
registered one); without, every engine as registered whose program it finds
on this machine. Built-in players it always has. A game it lacks an engine
for is left to the others; when none is queued that it can play, it waits
and says why.

Ctrl-C (or SIGTERM) stops it: the games it is playing go back to the queue
at once, for another worker. A worker killed outright loses only its games
running: they are played again from the start by another worker. A game is
never recorded twice. Each result it records names it in 'otd log': --name,
or by default the user and this machine (alice@host).`,
		Example: `  otd worker --db postgres://otd:secret@db.example.org/league
  otd worker --db postgres://otd@db.example.org/league --concurrency 2 --name rack1 \
    --engines 'Edax=/opt/edax/nboard' --engines 'Rhino 2=/usr/games/gtp-rhino -l 2'
  OTD_DB=postgres://otd@db.example.org/league otd worker`,
		Args: argsUsage(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			if o.Concurrency < 1 || o.Concurrency > 64 {
				return usageErrorf("worker: --concurrency %d: 1 to 64 games at once", o.Concurrency)
			}
			return runF(o)
		},
	}
	cmd.Flags().StringArrayVar(&o.Engines, "engines", nil, "an engine of this worker: `NAME=PROGRAM ARGS...`, NAME an engine entrant's name (repeatable); default: every engine as registered whose program is here")
	cmd.Flags().IntVar(&o.Concurrency, "concurrency", 1, "games played at once")
	cmd.Flags().StringVar(&o.Name, "name", "", "the worker's name, as 'otd log' shows who recorded a game (default: USER@HOST)")
	return cmd
}

// runWorker plays the games of the queue until Ctrl-C, a line for each
// game ended and for each note of the worker's on standard error.
func runWorker(g *globals, wo workerOptions) error {
	o := wo.WorkOptions
	if wo.Name == "" {
		host, _ := os.Hostname()
		wo.Name = g.actor().Name + "@" + host
	}
	g.Actor = tournament.Actor{Kind: tournament.ByWorker, Name: wo.Name}
	if !isPostgresURL(g.DB) && g.Store.Storage == nil {
		return usageErrorf("worker: %v; %s is an SQLite file: give the event's PostgreSQL database with --db postgres://... (or OTD_DB)", app.ErrNoQueue, g.dbName())
	}
	d, done, err := g.app(false)
	if err != nil {
		return err
	}
	defer done()
	unlock, err := lockWorker(g.DB, g.Stderr)
	if err != nil {
		return err
	}
	defer unlock()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var mu sync.Mutex
	say := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(g.Stderr, "%s otd worker: %s\n", time.Now().Format("15:04:05"), s)
	}
	played := 0
	o.Progress = func(e app.GameEvent) {
		if e.Done {
			say(gameLine(e))
			if e.Err == nil {
				mu.Lock()
				played++
				mu.Unlock()
			}
		}
	}
	o.Note = say
	engines := "every engine as registered whose program is on this machine"
	if names := o.EngineNames(); len(names) > 0 {
		engines = strings.Join(names, ", ")
	}
	say(fmt.Sprintf("playing the games queued in %s, %d at a time, with %s (and the built-in players); Ctrl-C stops",
		g.dbName(), o.Concurrency, engines))
	err = d.Work(ctx, o)
	if errors.Is(err, tournament.ErrInvalid) {
		return invalidAsUsage(err)
	}
	if err != nil {
		return err
	}
	say(fmt.Sprintf("stopped: %s played and recorded; the games it was playing are back in the queue", tournament.Plural(played, "game")))
	return nil
}
