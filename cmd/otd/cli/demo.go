package cli

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/store/sqlite"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

type demoOptions struct {
	Players, Rounds int
	Seed            uint64
	Simulated       bool
	Time            string
	Concurrency     int
}

func newDemoCmd(g *globals) *cobra.Command {
	o := demoOptions{Players: 8, Rounds: 5, Seed: 1, Time: "3s", Concurrency: 2}
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
tournament is named accordingly.`,
		Example: "  otd demo\n  otd demo --rounds 7 --time 10s --concurrency 2\n  otd demo --simulated --db demo.db --players 24 --rounds 9 --seed 7",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			maxPlayers := len(demoEngines)
			if o.Simulated {
				maxPlayers = 1000
			}
			if o.Players < 2 || o.Players > maxPlayers || o.Rounds < 1 || o.Rounds >= o.Players+1 || o.Rounds > 99 {
				return usageErrorf("demo: --players 2 to %d (1000 with --simulated) and --rounds 1 to 99, fewer rounds than players", len(demoEngines))
			}
			var po tournament.PlayOptions
			if !o.Simulated {
				var err error
				if po, err = (playOptions{Time: o.Time, Concurrency: o.Concurrency}).options(); err != nil {
					return err
				}
			}
			db, err := demoDB(g, cmd.Flags().Changed("db"))
			if err != nil {
				return err
			}
			g.DB = db
			if o.Simulated {
				return runDemo(g, o)
			}
			return runEngineDemo(g, o, po)
		},
	}
	cmd.Flags().IntVar(&o.Players, "players", o.Players, "number of players (built-in engines; GRhino comes on top)")
	cmd.Flags().IntVar(&o.Rounds, "rounds", o.Rounds, "number of rounds")
	cmd.Flags().Uint64Var(&o.Seed, "seed", o.Seed, "seed of the tournament, the random player and the simulated results")
	cmd.Flags().BoolVar(&o.Simulated, "simulated", false, "people with SIMULATED results instead of engines")
	cmd.Flags().StringVar(&o.Time, "time", o.Time, timeHelp)
	cmd.Flags().IntVar(&o.Concurrency, "concurrency", o.Concurrency, "games played at once")
	return cmd
}

// demoEngines are the demo's built-in entrants, strongest first.
var demoEngines = []struct{ name, spec string }{
	{"Otto (alpha-beta 6)", "alphabeta:6"}, {"Fifi (alpha-beta 5)", "alphabeta:5"}, {"Quad (alpha-beta 4)", "alphabeta:4"},
	{"Trio (alpha-beta 3)", "alphabeta:3"}, {"Duo (alpha-beta 2)", "alphabeta:2"}, {"Uno (alpha-beta 1)", "alphabeta:1"},
	{"Gus (greedy)", "greedy"}, {"Dice (random)", "random"},
}

// gtpRhino is where Debian's grhino package puts its GTP engine.
const gtpRhino = "/usr/games/gtp-rhino"

// runEngineDemo runs the engine demo: the engines registered, each round
// paired and played by Director.Run and shown, every transcript replayed.
func runEngineDemo(g *globals, o demoOptions, po tournament.PlayOptions) error {
	start := time.Now()
	name := fmt.Sprintf("otd demo: engines (seed %d)", o.Seed)
	if err := demoCreate(g, name, o); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s\nDatabase: %s (the demo's own; no other tournament is touched). Every game below is played by otd between engines.\n\n", name, g.DB)
	var entrants []tournament.PlayerInput
	for _, e := range demoEngines[:o.Players] {
		spec := "builtin:" + e.spec
		if e.spec == "random" {
			spec += ":" + strconv.FormatUint(o.Seed, 10)
		}
		entrants = append(entrants, tournament.PlayerInput{Name: e.name, Engine: spec})
	}
	if _, err := os.Stat(gtpRhino); err == nil {
		entrants = append(entrants, tournament.PlayerInput{Name: "GRhino (level 2)", Engine: "gtp:" + gtpRhino + " -l 2"})
	} else {
		fmt.Fprintf(g.Stdout, "(%s is not installed: GRhino does not play; 'apt-get install grhino' adds it)\n", gtpRhino)
	}
	var t *tournament.Tournament
	err := g.withDirector(func(ctx context.Context, d *tournament.Director, id int64) error {
		var err error
		if t, err = d.Tournament(ctx, id); err != nil {
			return err
		}
		ops := make([]tournament.Op, len(entrants))
		for i, in := range entrants {
			if err := tournament.CheckEngine(ctx, in.Engine, t.GameRules()); err != nil {
				return fmt.Errorf("demo: %s, engine %q: %w", in.Name, in.Engine, err)
			}
			ops[i] = func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) }
		}
		if t, _, err = d.Do(ctx, id, ops...); err != nil {
			return err
		}
		if err := printPlayers(g, t, false); err != nil {
			return err
		}
		po.Paired = func(r int, _ []string) { fmt.Fprintf(g.Stdout, "\nPlaying round %d...\n", r) }
		var shown error // the first round that could not be shown
		po.Played = func(rep tournament.PlayReport) {
			t, err := d.Tournament(ctx, id)
			if err == nil {
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
	verified := 0
	for _, gm := range t.Games {
		if gm.IsBye() {
			continue
		}
		if err := demoVerify(gm); err != nil {
			return err
		}
		verified++
	}
	if err := demoResults(g, t); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "\nDone in %.1f s: %d players, %d rounds, %d games played by otd, every transcript replayed to its recorded score. 'otd --db %s round show 1 --json' gives the transcripts; 'otd --db %s log' every change.\n",
		time.Since(start).Seconds(), len(t.Players), o.Rounds, verified, shellWord(g.DB), shellWord(g.DB))
	return nil
}

// demoVerify replays a game otd played as 'otd verify' does and checks that
// its moves are legal and, for a game played to the end, give the recorded
// score.
func demoVerify(gm tournament.Game) error {
	res := gm.Result
	where := fmt.Sprintf("round %d table %d", gm.Round, gm.Table)
	if res == nil || res.End == "" {
		return fmt.Errorf("demo: %s was not played by otd", where)
	}
	if res.Moves == "" { // a default before the first move
		return nil
	}
	game, err := transcript.ParseMoves(res.Moves)
	if err != nil {
		return fmt.Errorf("demo: %s: its transcript: %w", where, err)
	}
	var claimed *transcript.Result
	if res.End == "normal" {
		claimed = &transcript.Result{Black: res.Black, White: res.White}
	}
	if r := transcript.Verify(game, claimed); !r.Legal() || claimed != nil && !r.Agrees() {
		var out strings.Builder
		printReport(&out, game, &r, -1)
		return fmt.Errorf("demo: %s: otd verify: %s", where, out.String())
	}
	return nil
}

// demoCreate creates the demo's tournament in its new database and makes
// it the one the demo acts on.
func demoCreate(g *globals, name string, o demoOptions) error {
	d, done, err := g.app(true)
	if err != nil {
		return err
	}
	defer done()
	s := tournament.DefaultSettings(name, o.Rounds)
	s.Seed = o.Seed
	t, err := d.Create(context.Background(), s)
	if err != nil {
		return err
	}
	g.id = t.ID
	return nil
}

// demoResults prints the final standings and the crosstable.
func demoResults(g *globals, t *tournament.Tournament) error {
	fmt.Fprintln(g.Stdout)
	if err := runStandings(g, t, standingsOptions{Round: -1}); err != nil {
		return err
	}
	fmt.Fprintln(g.Stdout)
	return printCrosstable(g, t, crosstableOptions{Round: -1})
}

var demoNames = []string{"Ada Lovelace", "Bram Stoker", "Chiara Ferri", "Dmitri Orlov", "Elif Kaya", "Femi Adeyemi",
	"Greta Holm", "Hiro Tanaka", "Ines Duarte", "Jonas Berg", "Kavya Rao", "Luca Bianchi", "Mei Chen", "Nils Ek",
	"Olga Petrova", "Pablo Ruiz", "Quinn Doyle", "Rosa Marin", "Sven Lund", "Tariq Aziz", "Uma Sen", "Viktor Hald",
	"Wen Li", "Xavier Roux"}

var demoCountries = []string{"GB", "FR", "IT", "JP", "NL", "SE", "US", "DE"}

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
	if errors.Is(err, sqlite.ErrNoDatabase) {
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

// runDemo runs the simulated demo: people registered, each round paired
// and its results drawn from the ratings.
func runDemo(g *globals, o demoOptions) error {
	start := time.Now()
	rng := rand.New(rand.NewPCG(o.Seed, 0x6f7464))
	name := fmt.Sprintf("otd demo, SIMULATED results (seed %d)", o.Seed)
	if err := demoCreate(g, name, o); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s\nDatabase: %s (the demo's own; no other tournament is touched). Every result below is SIMULATED from the ratings, not played.\n\n", name, g.DB)
	ratings := map[int]int{}
	for i := 0; i < o.Players; i++ {
		n := demoNames[i%len(demoNames)]
		if i >= len(demoNames) {
			n += " " + strconv.Itoa(i/len(demoNames)+1)
		}
		r := 1500 + rng.IntN(900)
		in := tournament.PlayerInput{Name: n, Rating: r, Country: demoCountries[rng.IntN(len(demoCountries))]}
		_, changes, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) })
		if err != nil {
			return err
		}
		ratings[changes[0].After.Players[0].Number] = r
	}
	t, err := g.current()
	if err != nil {
		return err
	}
	if err := printPlayers(g, t, false); err != nil {
		return err
	}
	for r := 1; r <= o.Rounds; r++ {
		if t, _, err = g.do(func(t *tournament.Tournament) (tournament.Change, error) { return t.Pair(tournament.PairOptions{}) }); err != nil {
			return err
		}
		for _, gm := range t.Round(r) {
			if gm.IsBye() {
				continue
			}
			b := pairing.SimulateDiscs(rng, ratings[gm.Black], ratings[gm.White])
			in := tournament.ResultInput{Black: b, White: 64 - b, HasScore: true}
			if rng.IntN(40) == 0 { // now and then a flag falls: the loser's
				in.TimeDefault = tournament.Black
				if b > 32 {
					in.TimeDefault = tournament.White
				}
			}
			if _, _, err := g.do(func(t *tournament.Tournament) (tournament.Change, error) {
				return t.RecordResult(r, gm.Table, in, false)
			}); err != nil {
				return err
			}
		}
		if t, err = g.current(); err != nil {
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
