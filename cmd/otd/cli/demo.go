package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// demoOptions are what 'otd demo' builds and how it plays: Explicit says
// --db was given (the demo then writes that file, new or empty).
type demoOptions struct {
	Demo     app.DemoOptions
	Play     app.PlayOptions // engines only
	Explicit bool
}

func newDemoCmd(g *globals, runF func(demoOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o demoOptions) error { return runDemo(g, o) }
	}
	o := demoOptions{Demo: app.DemoOptions{Players: 8, Rounds: 5, Seed: 1}}
	po := playOptions{Time: "3s", Concurrency: 2}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run a complete demonstration tournament: a Swiss among engines that otd plays",
		Long: `demo runs a whole Swiss tournament through otd's own commands: it creates a
tournament in a database of its own, registers engine entrants (otd's
built-in players from alpha-beta level 6 down to random, and GRhino when
/usr/games/gtp-rhino is installed), and for every round pairs it, plays every
game ('otd round play'), and prints the round; then it replays every recorded
transcript as 'otd verify' does, and prints the final standings and the
crosstable.

The demo never writes into a director's event. Without --db it makes its own
file, otd-demo.db in a new folder of the system's temporary directory (TMPDIR,
e.g. /tmp/otd-demo-123456789/otd-demo.db), and prints where: explore it
afterwards with 'otd --db FILE standings'. OTD_DB is not used. With --db FILE
it writes FILE, which must not exist yet or hold no tournament; a database
that holds a tournament is refused.

With --simulated it registers people instead (up to 1000) and draws their
results at random from their ratings (seeded, so every run is the same): the
tournament is named accordingly.

With --championship it runs a championship as the World Othello Championship
does (RULES.md section 7), among 19 built-in engines of every strength (and
GRhino when installed): 13 Swiss rounds (BQ as the WOF's Papp: c = 6), then
the final phase (--final woc: a play-off if the 4th place is tied, best-of-3
semi-finals and final, a 3rd-place game), the women's knockout (single games
among the 4 women) and the youth final (the top 2 of the 3 youths, at most
15 years old in the demo's year), each not played if one of its members
reached the open semi-finals, and the teams (by country: the best 3 scores, youth not counted). It prints
each round as it is played, then the standings, the final phases, the final
ranking, the categories and the teams. It takes longer than the plain demo
(140 games, not 20): 20 to 30 seconds on two cores (--rounds and --players
shorten it).`,
		Example: "  otd demo\n  otd demo --rounds 7 --time 10s --concurrency 2\n  otd demo --simulated --db demo.db --players 24 --rounds 9 --seed 7\n  otd demo --championship",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			d := &o.Demo
			maxPlayers := len(app.DemoEngines)
			switch {
			case d.Simulated && d.Championship:
				return usageErrorf("demo: --championship is played by engines: leave out --simulated")
			case d.Simulated:
				maxPlayers = 1000
			case d.Championship:
				maxPlayers = len(app.ChampionEngines)
				if !cmd.Flags().Changed("players") {
					d.Players = maxPlayers
				}
				if !cmd.Flags().Changed("rounds") {
					d.Rounds = 13
				}
			}
			if d.Players < 2 || d.Players > maxPlayers || d.Rounds < 1 || d.Rounds >= d.Players+1 || d.Rounds > 99 {
				return usageErrorf("demo: --players 2 to %d (%d with --championship, 1000 with --simulated) and --rounds 1 to 99, fewer rounds than players",
					len(app.DemoEngines), len(app.ChampionEngines))
			}
			if !d.Simulated {
				var err error
				if o.Play, err = po.options(); err != nil {
					return err
				}
			}
			o.Explicit = cmd.Flags().Changed("db")
			return runF(o)
		},
	}
	cmd.Flags().IntVar(&o.Demo.Players, "players", o.Demo.Players, "number of players (built-in engines; GRhino comes on top)")
	cmd.Flags().IntVar(&o.Demo.Rounds, "rounds", o.Demo.Rounds, "number of rounds")
	cmd.Flags().Uint64Var(&o.Demo.Seed, "seed", o.Demo.Seed, "seed of the tournament, the random player and the simulated results")
	cmd.Flags().BoolVar(&o.Demo.Simulated, "simulated", false, "people with SIMULATED results instead of engines")
	cmd.Flags().BoolVar(&o.Demo.Championship, "championship", false, "a championship: 13 rounds among 19 engines (and GRhino), a final phase, women, youth and teams")
	cmd.Flags().StringVar(&po.Time, "time", po.Time, timeHelp)
	cmd.Flags().IntVar(&po.Concurrency, "concurrency", po.Concurrency, "games played at once")
	return cmd
}

// runDemo runs the demo o in its own database (demoDB).
func runDemo(g *globals, o demoOptions) error {
	db, err := demoDB(g, o.Explicit)
	if err != nil {
		return err
	}
	g.DB = db
	o.Demo.Date = tournament.DayOf(g.now()) // a championship's youth are by its year
	if o.Demo.Simulated {
		return runSimulatedDemo(g, o.Demo)
	}
	return runEngineDemo(g, o.Demo, o.Play)
}

// runEngineDemo runs the engine demo: the engines registered, each round
// paired and played by Director.Run and shown, every transcript replayed;
// with --championship, the final phases too, then the rankings.
func runEngineDemo(g *globals, o app.DemoOptions, po app.PlayOptions) error {
	start := time.Now()
	name, err := demoCreate(g, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s\nDatabase: %s (the demo's own; no other tournament is touched). Every game below is played by otd between engines.\n\n", name, g.DB)
	entrants, rhino := app.DemoEntrants(o)
	if !rhino {
		fmt.Fprintf(g.Stdout, "(%s is not installed: GRhino does not play; 'apt-get install grhino' adds it)\n", app.GTPRhino)
	}
	var t *tournament.Tournament
	err = g.withDirector(func(ctx context.Context, d *app.Director, id int64) error {
		reg, err := d.RegisterEngines(ctx, id, entrants)
		if ee := (*app.EntrantError)(nil); errors.As(err, &ee) {
			return fmt.Errorf("demo: %w", err)
		}
		if err != nil {
			return err
		}
		t = reg.Tournament
		if err := printPlayers(g, t, false); err != nil {
			return err
		}
		po.Paired = func(r int, notes []string) {
			if r == 0 { // the final phase: the games paired
				fmt.Fprintf(g.Stdout, "\nPlaying the %s...\n", strings.Join(notes, ", "))
			} else if !o.Championship {
				fmt.Fprintf(g.Stdout, "\nPlaying round %d...\n", r)
			}
		}
		var shown error // the first round that could not be shown
		po.Played = func(rep app.PlayReport) {
			t, err := d.Tournament(ctx, id)
			switch {
			case err != nil:
			case rep.Round == 0: // the final phase: shown at the end
			case o.Championship:
				fmt.Fprintf(g.Stdout, "Round %d of %d: %s played.\n", rep.Round, o.Rounds, tournament.Plural(rep.Played, "game"))
			default:
				err = printRound(g, t, rep.Round, false)
			}
			if shown == nil {
				shown = err
			}
		}
		if err := d.Run(ctx, id, po); err != nil {
			return err
		}
		if shown != nil {
			return shown
		}
		t, err = d.Tournament(ctx, id)
		return err
	})
	if err != nil {
		return err
	}
	swiss, final, err := app.ReplayPlayed(t)
	if re := (*app.ReplayError)(nil); errors.As(err, &re) {
		var out strings.Builder
		printReport(&out, re.Game, &re.Report, -1)
		return fmt.Errorf("demo: %s: otd verify: %s", re.Where, out.String())
	}
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if o.Championship {
		err = championResults(g, t)
	} else {
		err = demoResults(g, t)
	}
	if err != nil {
		return err
	}
	played := fmt.Sprintf("%d games played by otd", swiss)
	if o.Championship {
		played = fmt.Sprintf("%d Swiss games and %d final-phase games played by otd", swiss, final)
	}
	fmt.Fprintf(g.Stdout, "\nDone in %.1f s: %d players, %d rounds, %s, every transcript replayed to its recorded score. 'otd --db %s round show 1 --json' gives the transcripts; 'otd --db %s log' every change.\n",
		time.Since(start).Seconds(), len(t.Players), o.Rounds, played, shellWord(g.DB), shellWord(g.DB))
	return nil
}

// championResults prints the championship's outcome: the Swiss standings,
// the final phases, the final ranking, the categories' rankings and the
// teams.
func championResults(g *globals, t *tournament.Tournament) error {
	fmt.Fprintln(g.Stdout)
	if err := runStandings(g, t, standingsOptions{viewOptions: lastRound}); err != nil {
		return err
	}
	phs, err := app.Phases(t)
	if err != nil {
		return err
	}
	for _, ph := range phs {
		fmt.Fprintln(g.Stdout)
		printPhase(g, t, ph)
	}
	fmt.Fprintln(g.Stdout)
	if err := runFinalStandings(g, t, standingsOptions{viewOptions: lastRound}); err != nil {
		return err
	}
	for _, c := range t.Categories {
		fmt.Fprintln(g.Stdout)
		if err := printCategory(g, t, c.Name, false); err != nil {
			return err
		}
	}
	fmt.Fprintln(g.Stdout)
	return printTeams(g, t, false)
}

// demoCreate creates the demo's tournament in its new database and makes
// it the one the demo acts on; it returns its name.
func demoCreate(g *globals, o app.DemoOptions) (string, error) {
	d, done, err := g.app(true)
	if err != nil {
		return "", err
	}
	defer done()
	t, err := d.Create(context.Background(), app.DemoSettings(o))
	if err != nil {
		return "", err
	}
	g.id = t.ID
	return t.Name, nil
}

// demoResults prints the final standings and the crosstable.
func demoResults(g *globals, t *tournament.Tournament) error {
	fmt.Fprintln(g.Stdout)
	if err := runStandings(g, t, standingsOptions{viewOptions: lastRound}); err != nil {
		return err
	}
	fmt.Fprintln(g.Stdout)
	return printCrosstable(g, t, crosstableOptions{lastRound})
}

// errDemoDB: the database named for the demo holds a tournament.
var errDemoDB = errors.New("the demo writes only into a new database")

// demoDB returns the database file of the demo: the one named by --db if
// explicit (refused if it holds a tournament), else a new otd-demo.db in a
// new folder of the temporary directory. OTD_DB, the director's event, is
// never the demo's.
func demoDB(g *globals, explicit bool) (string, error) {
	if !explicit {
		dir, err := os.MkdirTemp("", "otd-demo-")
		if err != nil {
			return "", fmt.Errorf("demo: a folder for its database: %w; name a file with --db", err)
		}
		return filepath.Join(dir, "otd-demo.db"), nil
	}
	d, done, err := g.app(false)
	if isNoDatabase(err) {
		return g.DB, nil // a new file, or an empty one
	}
	if err != nil {
		return "", err
	}
	defer done()
	list, err := d.Tournaments(context.Background())
	if err != nil {
		return "", err
	}
	if len(list) > 0 {
		return "", fmt.Errorf("demo: %s holds %d tournament(s), the first %q: %w: name a file that does not exist yet with --db, or leave --db out (the demo then makes its own file)",
			g.DB, len(list), list[0].Name, errDemoDB)
	}
	return g.DB, nil
}

// runSimulatedDemo runs the simulated demo: people registered, each round
// paired and its results drawn from the ratings.
func runSimulatedDemo(g *globals, o app.DemoOptions) error {
	start := time.Now()
	name, err := demoCreate(g, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s\nDatabase: %s (the demo's own; no other tournament is touched). Every result below is SIMULATED from the ratings, not played.\n\n", name, g.DB)
	sim := app.NewSimulation(o.Seed)
	var t *tournament.Tournament
	if t, _, err = g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
		return d.SimulatePlayers(ctx, id, sim, o.Players)
	}); err != nil {
		return err
	}
	if err := printPlayers(g, t, false); err != nil {
		return err
	}
	for range o.Rounds {
		r := 0
		if t, _, err = g.act(func(ctx context.Context, d *app.Director, id int64) (o app.Outcome, err error) {
			o, r, err = d.SimulateRound(ctx, id, sim)
			return o, err
		}); err != nil {
			return err
		}
		fmt.Fprintln(g.Stdout)
		if err := printRound(g, t, r, false); err != nil {
			return err
		}
	}
	if err := demoResults(g, t); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "\nDone in %.1f s: %d players, %d rounds, SIMULATED results. 'otd --db %s log' shows every change.\n",
		time.Since(start).Seconds(), o.Players, o.Rounds, shellWord(g.DB))
	return nil
}

// shellWord quotes a file name for a shell command line if it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:+,=@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
