package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/store"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

type demoOptions struct {
	Players, Rounds int
	Seed            uint64
}

func newDemoCmd(g *globals) *cobra.Command {
	o := demoOptions{Players: 16, Rounds: 7, Seed: 1}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run a complete demonstration tournament with SIMULATED results",
		Long: `demo runs a whole Swiss tournament through otd's own commands: it creates a
tournament in a database of its own, registers players, and for every round
pairs it, enters results and prints the pairing; then it prints the final
standings and the crosstable.

The demo never writes into a director's event. Without --db it makes its own
file, otd-demo.db in a new folder of the system's temporary directory (TMPDIR,
e.g. /tmp/otd-demo-123456789/otd-demo.db), and prints where: explore it
afterwards with 'otd --db FILE standings'. OTD_DB is not used. With --db FILE
it writes FILE, which must not exist yet or hold no tournament; a database
that holds a tournament is refused.

The results are SIMULATED: drawn at random from the players' ratings (seeded,
so every run is the same), not played. The tournament is named accordingly.`,
		Example: "  otd demo\n  otd demo --db demo.db --players 24 --rounds 9 --seed 7",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Players < 2 || o.Players > 1000 || o.Rounds < 1 || o.Rounds >= o.Players+1 || o.Rounds > 99 {
				return usageErrorf("demo: --players 2 to 1000 and --rounds 1 to 99, fewer rounds than players")
			}
			db, err := demoDB(g, cmd.Flags().Changed("db"))
			if err != nil {
				return err
			}
			g.DB = db
			return runDemo(g, o)
		},
	}
	cmd.Flags().IntVar(&o.Players, "players", o.Players, "number of players")
	cmd.Flags().IntVar(&o.Rounds, "rounds", o.Rounds, "number of rounds")
	cmd.Flags().Uint64Var(&o.Seed, "seed", o.Seed, "seed of the simulated ratings and results")
	return cmd
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
	if errors.Is(err, store.ErrNoDatabase) {
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
