package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

type demoOptions struct {
	Players, Rounds int
	Seed            uint64
	Simulated       bool
	Championship    bool
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
tournament is named accordingly.

With --championship it runs a championship as the World Othello Championship
does (RULES.md section 7), among 19 built-in engines of every strength (and
GRhino when installed): 13 Swiss rounds (BQ as the WOF's Papp: c = 6), then
the final phase (--final woc: a play-off if the 4th place is tied, best-of-3
semi-finals and final, a 3rd-place game), the women's knockout (single games
among the 4 women) and the youth final (the top 2 of the 3 born in 2011 or
later), each not played if one of its members reached the open semi-finals,
and the teams (by country: the best 3 scores, youth not counted). It prints
each round as it is played, then the standings, the final phases, the final
ranking, the categories and the teams. It takes about as long as the plain
demo: some 15 seconds on two cores (--rounds and --players shorten it).`,
		Example: "  otd demo\n  otd demo --rounds 7 --time 10s --concurrency 2\n  otd demo --simulated --db demo.db --players 24 --rounds 9 --seed 7\n  otd demo --championship",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			maxPlayers := len(demoEngines)
			switch {
			case o.Simulated && o.Championship:
				return usageErrorf("demo: --championship is played by engines: leave out --simulated")
			case o.Simulated:
				maxPlayers = 1000
			case o.Championship:
				maxPlayers = len(championEngines)
				if !cmd.Flags().Changed("players") {
					o.Players = maxPlayers
				}
				if !cmd.Flags().Changed("rounds") {
					o.Rounds = 13
				}
			}
			if o.Players < 2 || o.Players > maxPlayers || o.Rounds < 1 || o.Rounds >= o.Players+1 || o.Rounds > 99 {
				return usageErrorf("demo: --players 2 to %d (%d with --championship, 1000 with --simulated) and --rounds 1 to 99, fewer rounds than players",
					len(demoEngines), len(championEngines))
			}
			var po app.PlayOptions
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
	cmd.Flags().BoolVar(&o.Championship, "championship", false, "a championship: 13 rounds among 19 engines (and GRhino), a final phase, women, youth and teams")
	cmd.Flags().StringVar(&o.Time, "time", o.Time, timeHelp)
	cmd.Flags().IntVar(&o.Concurrency, "concurrency", o.Concurrency, "games played at once")
	return cmd
}

// demoEntrant is a built-in engine of the demos: its name and player, and
// for the championship its country (its team) and categories.
type demoEntrant struct {
	name, spec string
	country    string
	born       int  // the year of birth: 2011 or later is the youth
	woman      bool // in the women's category
}

// demoEngines are the demo's built-in entrants, strongest first.
var demoEngines = []demoEntrant{
	{name: "Otto (alpha-beta 6)", spec: "alphabeta:6"}, {name: "Fifi (alpha-beta 5)", spec: "alphabeta:5"},
	{name: "Quad (alpha-beta 4)", spec: "alphabeta:4"}, {name: "Trio (alpha-beta 3)", spec: "alphabeta:3"},
	{name: "Duo (alpha-beta 2)", spec: "alphabeta:2"}, {name: "Uno (alpha-beta 1)", spec: "alphabeta:1"},
	{name: "Gus (greedy)", spec: "greedy"}, {name: "Dice (random)", spec: "random"},
}

// championEngines are the championship demo's built-in entrants, strongest
// first (a-b N: alpha-beta level N): four women, three youths, five
// countries. Alpha-beta 6, whose games take seconds, is left out to keep the
// 13 rounds short.
var championEngines = []demoEntrant{
	{"Fifi (a-b 5)", "alphabeta:5", "FR", 0, true},
	{"Quad (a-b 4)", "alphabeta:4", "JP", 0, false},
	{"Queenie (a-b 4)", "alphabeta:4", "GB", 0, true},
	{"Trio (a-b 3)", "alphabeta:3", "NL", 0, false},
	{"Tess (a-b 3)", "alphabeta:3", "FR", 2012, false},
	{"Troy (a-b 3)", "alphabeta:3", "US", 0, false},
	{"Duo (a-b 2)", "alphabeta:2", "JP", 0, false},
	{"Dora (a-b 2)", "alphabeta:2", "GB", 0, true},
	{"Dirk (a-b 2)", "alphabeta:2", "NL", 0, false},
	{"Uno (a-b 1)", "alphabeta:1", "NL", 0, false},
	{"Ulla (a-b 1)", "alphabeta:1", "FR", 0, true},
	{"Ugo (a-b 1)", "alphabeta:1", "US", 0, false},
	{"Gus (greedy)", "greedy", "JP", 0, false},
	{"Gwen (greedy)", "greedy", "GB", 2013, false},
	{"Gil (greedy)", "greedy", "US", 0, false},
	{"Dice (random)", "random", "NL", 0, false},
	{"Rolf (random)", "random", "FR", 2014, false},
	{"Zed (random)", "random", "JP", 0, false},
	{"Rita (random)", "random", "US", 0, false},
}

// championSettings are the championship demo's: the WOC's BQ (Papp's c =
// 6), final phase and teams (youth not counted), women and youth (born in
// 2011 or later) with final phases of their own.
func championSettings(s tournament.Settings) tournament.Settings {
	s.BQ = scoring.BQRule{Kind: scoring.WOF}
	s.Final = tournament.WOCFinal
	s.Categories = []tournament.Category{
		{Name: "women", Final: tournament.CategoryFinal},
		{Name: "youth", BornFrom: 2011, Final: tournament.FinalRules{Qualifiers: 2, BestOf: 1, Level: tournament.LevelSeed, Colour: tournament.ColourLot}},
	}
	s.TeamRules = tournament.TeamRules{Best: 3, Exclude: []string{"youth"}}
	return s
}

// gtpRhino is where Debian's grhino package puts its GTP engine.
const gtpRhino = "/usr/games/gtp-rhino"

// runEngineDemo runs the engine demo: the engines registered, each round
// paired and played by Director.Run and shown, every transcript replayed;
// with --championship, the final phases too, then the rankings.
func runEngineDemo(g *globals, o demoOptions, po app.PlayOptions) error {
	start := time.Now()
	name, roster := fmt.Sprintf("otd demo: engines (seed %d)", o.Seed), demoEngines
	if o.Championship {
		name, roster = fmt.Sprintf("otd demo: a championship of engines (seed %d)", o.Seed), championEngines
	}
	if err := demoCreate(g, name, o); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "%s\nDatabase: %s (the demo's own; no other tournament is touched). Every game below is played by otd between engines.\n\n", name, g.DB)
	var entrants []demoEntrant
	randoms := uint64(0)
	for _, e := range roster[:o.Players] {
		if e.spec == "random" { // each its own seed: --seed, then the next
			e.spec += ":" + strconv.FormatUint(o.Seed+randoms, 10)
			randoms++
		}
		e.spec = "builtin:" + e.spec
		entrants = append(entrants, e)
	}
	if _, err := os.Stat(gtpRhino); err == nil {
		entrants = append(entrants, demoEntrant{name: "GRhino (level 2)", spec: "gtp:" + gtpRhino + " -l 2"})
	} else {
		fmt.Fprintf(g.Stdout, "(%s is not installed: GRhino does not play; 'apt-get install grhino' adds it)\n", gtpRhino)
	}
	var t *tournament.Tournament
	err := g.withDirector(func(ctx context.Context, d *app.Director, id int64) error {
		var err error
		if t, err = d.Tournament(ctx, id); err != nil {
			return err
		}
		var es []app.Entrant
		for _, e := range entrants {
			if err := app.CheckEngine(ctx, e.spec, t.GameRules()); err != nil {
				return fmt.Errorf("demo: %s, engine %q: %w", e.name, e.spec, err)
			}
			en := app.Entrant{PlayerInput: tournament.PlayerInput{Name: e.name, Engine: e.spec, Country: e.country}}
			if e.born != 0 || e.woman {
				en.Entry = tournament.PlayerEntry{Born: &e.born}
				if e.woman {
					en.Entry.Categories = &[]string{"women"}
				}
			}
			es = append(es, en)
		}
		reg, err := d.RegisterAll(ctx, id, es)
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
	swiss, final := 0, 0
	for _, gm := range t.Games {
		if gm.IsBye() {
			continue
		}
		if err := demoVerify(fmt.Sprintf("round %d table %d", gm.Round, gm.Table), gm.Result); err != nil {
			return err
		}
		swiss++
	}
	for _, fg := range t.FinalGames {
		if err := demoVerify(fmt.Sprintf("%s game %d", fg.Code(), fg.Game), fg.Result); err != nil {
			return err
		}
		final++
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
	if err := runStandings(g, t, standingsOptions{Round: -1}); err != nil {
		return err
	}
	phs, err := export.Phases(t)
	if err != nil {
		return err
	}
	for _, ph := range phs {
		fmt.Fprintln(g.Stdout)
		printPhase(g, t, ph)
	}
	fmt.Fprintln(g.Stdout)
	if err := runFinalStandings(g, t, standingsOptions{Round: -1}); err != nil {
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

// demoVerify replays a game otd played (where names it) as 'otd verify'
// does and checks that its moves are legal and, for a game played to the
// end, give the recorded score.
func demoVerify(where string, res *tournament.Result) error {
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
	if o.Championship {
		s = championSettings(s)
	}
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
		_, changes, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
			return d.Register(ctx, id, in)
		})
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
		if t, _, err = g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
			return d.Pair(ctx, id, tournament.PairOptions{})
		}); err != nil {
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
			if _, _, err := g.act(func(ctx context.Context, d *app.Director, id int64) (app.Outcome, error) {
				return d.Record(ctx, id, r, gm.Table, in)
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
