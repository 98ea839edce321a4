package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
			db, err := demoDB(g, cmd.Flags().Changed("db"))
			if err != nil {
				return err
			}
			g.DB = db
			if o.Simulated {
				return runDemo(g, o)
			}
			return runEngineDemo(g, o)
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

func runEngineDemo(g *globals, o demoOptions) error {
	start := time.Now()
	name := fmt.Sprintf("otd demo: engines (seed %d)", o.Seed)
	if _, err := g.otd("tournament", "new", name, "--rounds", strconv.Itoa(o.Rounds), "--seed", strconv.FormatUint(o.Seed, 10)); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s\nDatabase: %s (the demo's own; no other tournament is touched). Every game below is played by otd between engines.\n\n", name, g.DB)
	for _, e := range demoEngines[:o.Players] {
		spec := "builtin:" + e.spec
		if e.spec == "random" {
			spec += ":" + strconv.FormatUint(o.Seed, 10)
		}
		if _, err := g.otd("player", "add", e.name, "--engine", spec); err != nil {
			return err
		}
	}
	if _, err := os.Stat(gtpRhino); err == nil {
		if _, err := g.otd("player", "add", "GRhino (level 2)", "--engine", "gtp:"+gtpRhino+" -l 2"); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(g.Stdout, "(%s is not installed: GRhino does not play; 'apt-get install grhino' adds it)\n", gtpRhino)
	}
	if err := g.otdTo(g.Stdout, "player", "list"); err != nil {
		return err
	}
	for r := 1; r <= o.Rounds; r++ {
		if _, err := g.otd("round", "pair"); err != nil {
			return err
		}
		fmt.Fprintf(g.Stdout, "\nPlaying round %d...\n", r)
		if err := g.otdTo(io.Discard, "round", "play", "--time", o.Time, "--concurrency", strconv.Itoa(o.Concurrency)); err != nil {
			return err
		}
		if err := g.otdTo(g.Stdout, "round", "show", strconv.Itoa(r)); err != nil {
			return err
		}
	}
	t, err := g.current()
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
	for _, cmd := range [][]string{{"standings"}, {"crosstable"}} {
		fmt.Fprintln(g.Stdout)
		if err := g.otdTo(g.Stdout, cmd...); err != nil {
			return err
		}
	}
	fmt.Fprintf(g.Stdout, "\nDone in %.1f s: %d players, %d rounds, %d games played by otd, every transcript replayed to its recorded score. 'otd --db %s round show 1 --json' gives the transcripts; 'otd --db %s log' every change.\n",
		time.Since(start).Seconds(), len(t.Players), o.Rounds, verified, shellWord(g.DB), shellWord(g.DB))
	return nil
}

// demoVerify replays a game otd played with 'otd verify' and checks that
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
	args := []string{"verify", "-"}
	if res.End == "normal" {
		args = append(args, "--claimed", fmt.Sprintf("%d-%d", res.Black, res.White))
	}
	var out, errb bytes.Buffer
	if code := Run(args, strings.NewReader(res.Moves), &out, &errb); code != 0 {
		return fmt.Errorf("demo: %s: otd verify: %s%s", where, out.String(), errb.String())
	}
	return nil
}

// otdTo runs one otd command on the demo's database, its output to w and its
// messages to the demo's standard error.
func (g *globals) otdTo(w io.Writer, args ...string) error {
	var errb bytes.Buffer
	if code := Run(append([]string{"--db", g.DB}, args...), nil, w, &errb); code != 0 {
		return fmt.Errorf("otd %v: %s", args, bytes.TrimSpace(errb.Bytes()))
	}
	return nil
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

// otd runs one otd command as a user would, on the demo's database.
func (g *globals) otd(args ...string) (string, error) {
	var out, errb bytes.Buffer
	if code := Run(append([]string{"--db", g.DB}, args...), nil, &out, &errb); code != 0 {
		return out.String(), fmt.Errorf("otd %v: %s", args, bytes.TrimSpace(errb.Bytes()))
	}
	return out.String(), nil
}

func runDemo(g *globals, o demoOptions) error {
	start := time.Now()
	rng := rand.New(rand.NewPCG(o.Seed, 0x6f7464))
	name := fmt.Sprintf("otd demo, SIMULATED results (seed %d)", o.Seed)
	if _, err := g.otd("tournament", "new", name, "--rounds", strconv.Itoa(o.Rounds), "--seed", strconv.FormatUint(o.Seed, 10)); err != nil {
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
		out, err := g.otd("player", "add", n, "--rating", strconv.Itoa(r), "--country", demoCountries[rng.IntN(len(demoCountries))])
		if err != nil {
			return err
		}
		num, err := strconv.Atoi(strings.TrimSpace(out))
		if err != nil {
			return fmt.Errorf("otd player add printed %q, not the player's number", out)
		}
		ratings[num] = r
	}
	out, err := g.otd("player", "list")
	if err != nil {
		return err
	}
	fmt.Fprint(g.Stdout, out)
	for r := 1; r <= o.Rounds; r++ {
		if _, err := g.otd("round", "pair"); err != nil {
			return err
		}
		games, err := demoRound(g, r)
		if err != nil {
			return err
		}
		for _, gm := range games {
			if gm.IsBye() {
				continue
			}
			b := pairing.SimulateDiscs(rng, ratings[gm.Black], ratings[gm.White])
			args := []string{"result", strconv.Itoa(r), strconv.Itoa(gm.Table), fmt.Sprintf("%d-%d", b, 64-b)}
			if rng.IntN(40) == 0 { // now and then a flag falls: the loser's
				loser := "black"
				if b > 32 {
					loser = "white"
				}
				args = append(args, "--time-default", loser)
			}
			if _, err := g.otd(args...); err != nil {
				return err
			}
		}
		out, err := g.otd("round", "show", strconv.Itoa(r))
		if err != nil {
			return err
		}
		fmt.Fprint(g.Stdout, "\n", out)
	}
	for _, cmd := range [][]string{{"standings"}, {"crosstable"}} {
		out, err := g.otd(cmd...)
		if err != nil {
			return err
		}
		fmt.Fprint(g.Stdout, "\n", out)
	}
	fmt.Fprintf(g.Stdout, "\nDone in %.1f s: %d players, %d rounds, SIMULATED results. 'otd --db %s log' shows every change.\n",
		time.Since(start).Seconds(), o.Players, o.Rounds, shellWord(g.DB))
	return nil
}

// demoRound reads the games of round r of the current tournament.
func demoRound(g *globals, r int) ([]tournament.Game, error) {
	t, err := g.current()
	if err != nil {
		return nil, err
	}
	return t.Round(r), nil
}

// shellWord quotes a file name for a shell command line if it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:+,=@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
