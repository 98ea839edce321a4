package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// The demonstration tournaments of 'otd demo': a Swiss among built-in
// engines (and GRhino when installed), a championship of engines, or people
// whose results are drawn from their ratings.

// DemoOptions say which demonstration tournament to build.
type DemoOptions struct {
	Players, Rounds int
	Seed            uint64 // the tournament's, the random players' and the simulated results'
	Simulated       bool   // people with results drawn from their ratings, not engines
	Championship    bool   // the WOC's rules: a final phase, women, youth and teams
	// Date is the event's day (its start): the youth are by its year.
	// Zero: today.
	Date tournament.Date
}

// date is the demo's day: o.Date, or today.
func (o DemoOptions) date() tournament.Date {
	if o.Date.IsZero() {
		return tournament.DayOf(time.Now())
	}
	return o.Date
}

// DemoEntrant is a built-in engine of the demos: its name and player, and
// for the championship its country (its team) and categories.
type DemoEntrant struct {
	Name, Spec string
	Country    string
	Age        int  // the age in the event's year (0: not given): at most the youth age (15) is the youth
	Woman      bool // in the women's category
}

// DemoEngines are the demo's built-in entrants, strongest first.
var DemoEngines = []DemoEntrant{
	{Name: "Otto (alpha-beta 6)", Spec: "alphabeta:6"}, {Name: "Fifi (alpha-beta 5)", Spec: "alphabeta:5"},
	{Name: "Quad (alpha-beta 4)", Spec: "alphabeta:4"}, {Name: "Trio (alpha-beta 3)", Spec: "alphabeta:3"},
	{Name: "Duo (alpha-beta 2)", Spec: "alphabeta:2"}, {Name: "Uno (alpha-beta 1)", Spec: "alphabeta:1"},
	{Name: "Gus (greedy)", Spec: "greedy"}, {Name: "Dice (random)", Spec: "random"},
}

// ChampionEngines are the championship demo's built-in entrants, strongest
// first (a-b N: alpha-beta level N): four women, three youths, five
// countries. Alpha-beta 6, whose games take seconds, is left out to keep the
// 13 rounds short.
var ChampionEngines = []DemoEntrant{
	{"Fifi (a-b 5)", "alphabeta:5", "FR", 0, true},
	{"Quad (a-b 4)", "alphabeta:4", "JP", 0, false},
	{"Queenie (a-b 4)", "alphabeta:4", "GB", 0, true},
	{"Trio (a-b 3)", "alphabeta:3", "NL", 0, false},
	{"Tess (a-b 3)", "alphabeta:3", "FR", 14, false},
	{"Troy (a-b 3)", "alphabeta:3", "US", 0, false},
	{"Duo (a-b 2)", "alphabeta:2", "JP", 0, false},
	{"Dora (a-b 2)", "alphabeta:2", "GB", 0, true},
	{"Dirk (a-b 2)", "alphabeta:2", "NL", 0, false},
	{"Uno (a-b 1)", "alphabeta:1", "NL", 0, false},
	{"Ulla (a-b 1)", "alphabeta:1", "FR", 0, true},
	{"Ugo (a-b 1)", "alphabeta:1", "US", 0, false},
	{"Gus (greedy)", "greedy", "JP", 0, false},
	{"Gwen (greedy)", "greedy", "GB", 13, false},
	{"Gil (greedy)", "greedy", "US", 0, false},
	{"Dice (random)", "random", "NL", 0, false},
	{"Rolf (random)", "random", "FR", 12, false},
	{"Zed (random)", "random", "JP", 0, false},
	{"Rita (random)", "random", "US", 0, false},
}

// GTPRhino is where Debian's grhino package puts its GTP engine.
const GTPRhino = "/usr/games/gtp-rhino"

// DemoSettings are the settings of the demo o: its name says what it is
// (and its seed); a championship has the WOC's BQ (Papp's c = 6), final
// phase and teams (youth not counted), women and youth (at most 15 years old
// in the event's year, RULES.md section 7) with final phases of their own.
func DemoSettings(o DemoOptions) tournament.Settings {
	name := fmt.Sprintf("otd demo: engines (seed %d)", o.Seed)
	switch {
	case o.Simulated:
		name = fmt.Sprintf("otd demo, SIMULATED results (seed %d)", o.Seed)
	case o.Championship:
		name = fmt.Sprintf("otd demo: a championship of engines (seed %d)", o.Seed)
	}
	s := tournament.DefaultSettings(name, o.Rounds)
	s.Seed = o.Seed
	if !o.Championship {
		return s
	}
	s.Start, s.End = o.date(), o.date()
	s.BQ = scoring.BQRule{Kind: scoring.WOF}
	s.Final = tournament.WOCFinal
	s.Categories = []tournament.Category{
		{Name: "women", Final: tournament.CategoryFinal},
		{Name: "youth", Youth: true, Final: tournament.FinalRules{Qualifiers: 2, BestOf: 1, Level: tournament.LevelSeed, Colour: tournament.ColourLot}},
	}
	s.TeamRules = tournament.TeamRules{Best: 3, Exclude: []string{"youth"}}
	return s
}

// DemoEntrants are the engine entrants of the demo o: its first o.Players
// built-in engines (each random player seeded in turn from o.Seed), and
// GRhino at level 2 when it is installed (rhino).
func DemoEntrants(o DemoOptions) (es []Entrant, rhino bool) {
	roster := DemoEngines
	if o.Championship {
		roster = ChampionEngines
	}
	randoms := uint64(0)
	for _, e := range roster[:o.Players] {
		if e.Spec == "random" { // each its own seed: --seed, then the next
			e.Spec += ":" + strconv.FormatUint(o.Seed+randoms, 10)
			randoms++
		}
		en := Entrant{PlayerInput: tournament.PlayerInput{Name: e.Name, Engine: "builtin:" + e.Spec, Country: e.Country}}
		if e.Age != 0 || e.Woman {
			var born tournament.Born // not given
			if e.Age != 0 {
				born = tournament.BornIn(o.date().Time().Year() - e.Age)
			}
			en.Entry = tournament.PlayerEntry{Born: &born}
			if e.Woman {
				en.Entry.Categories = &[]string{"women"}
			}
		}
		es = append(es, en)
	}
	if _, err := os.Stat(GTPRhino); err == nil {
		es = append(es, Entrant{PlayerInput: tournament.PlayerInput{Name: "GRhino (level 2)", Engine: "gtp:" + GTPRhino + " -l 2"}})
		rhino = true
	}
	return es, rhino
}

// EntrantError is an entrant whose engine failed its check (CheckEngine).
type EntrantError struct {
	Name, Engine string
	Err          error
}

func (e *EntrantError) Error() string {
	return fmt.Sprintf("%s, engine %q: %v", e.Name, e.Engine, e.Err)
}
func (e *EntrantError) Unwrap() error { return e.Err }

// RegisterEngines checks that each entrant's engine answers a move under
// tournament id's rules (an *EntrantError names the first that does not),
// then registers them all (RegisterAll).
func (d *Director) RegisterEngines(ctx context.Context, id int64, es []Entrant) (Outcome, error) {
	t, err := d.Tournament(ctx, id)
	if err != nil {
		return Outcome{}, err
	}
	for _, e := range es {
		if err := CheckEngine(ctx, e.Engine, t.GameRules()); err != nil {
			return Outcome{}, &EntrantError{e.Name, e.Engine, err}
		}
	}
	return d.RegisterAll(ctx, id, es)
}

var (
	demoNames = []string{"Ada Lovelace", "Bram Stoker", "Chiara Ferri", "Dmitri Orlov", "Elif Kaya", "Femi Adeyemi",
		"Greta Holm", "Hiro Tanaka", "Ines Duarte", "Jonas Berg", "Kavya Rao", "Luca Bianchi", "Mei Chen", "Nils Ek",
		"Olga Petrova", "Pablo Ruiz", "Quinn Doyle", "Rosa Marin", "Sven Lund", "Tariq Aziz", "Uma Sen", "Viktor Hald",
		"Wen Li", "Xavier Roux"}
	demoCountries = []string{"GB", "FR", "IT", "JP", "NL", "SE", "US", "DE"}
)

// Simulation draws the people of a simulated demo and their results, from
// a seed: every run of a seed is the same.
type Simulation struct {
	rng     *rand.Rand
	ratings map[int]int // by player number
}

// NewSimulation returns the simulation of seed.
func NewSimulation(seed uint64) *Simulation {
	return &Simulation{rng: rand.New(rand.NewPCG(seed, 0x6f7464)), ratings: map[int]int{}}
}

// SimulatePlayers registers n people in tournament id, one action each,
// their ratings (1500 to 2399) and countries drawn by s.
func (d *Director) SimulatePlayers(ctx context.Context, id int64, s *Simulation, n int) (Outcome, error) {
	var out Outcome
	for i := range n {
		name := demoNames[i%len(demoNames)]
		if i >= len(demoNames) {
			name += " " + strconv.Itoa(i/len(demoNames)+1)
		}
		r := 1500 + s.rng.IntN(900)
		in := tournament.PlayerInput{Name: name, Rating: r, Country: demoCountries[s.rng.IntN(len(demoCountries))]}
		o, err := d.Register(ctx, id, in)
		if err != nil {
			return out, err
		}
		s.ratings[o.Changes[0].After.Players[0].Number] = r
		out.Tournament, out.Changes = o.Tournament, append(out.Changes, o.Changes...)
	}
	return out, nil
}

// SimulateRound pairs the next round of tournament id and records each of
// its games' results, one action each, drawn by s from the players' ratings
// (pairing.SimulateDiscs); now and then a flag falls, the loser's. It
// returns the tournament after the last and the round.
func (d *Director) SimulateRound(ctx context.Context, id int64, s *Simulation) (Outcome, int, error) {
	out, err := d.Pair(ctx, id, tournament.PairOptions{})
	if err != nil {
		return out, 0, err
	}
	r := out.Tournament.Paired()
	for _, gm := range out.Tournament.Round(r) {
		if gm.IsBye() {
			continue
		}
		b := pairing.SimulateDiscs(s.rng, s.ratings[gm.Black], s.ratings[gm.White])
		in := tournament.ResultInput{Black: b, White: 64 - b, HasScore: true}
		if s.rng.IntN(40) == 0 {
			in.TimeDefault = tournament.Black
			if b > 32 {
				in.TimeDefault = tournament.White
			}
		}
		o, err := d.Record(ctx, id, tournament.At(r, gm.Table), in)
		if err != nil {
			return out, r, err
		}
		out.Tournament, out.Changes = o.Tournament, append(out.Changes, o.Changes...)
	}
	return out, r, nil
}

// ReplayError is a game otd played whose transcript does not replay to its
// recorded result: where it is, the game and the replay's report.
type ReplayError struct {
	Where  string
	Game   transcript.Game
	Report transcript.Report
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("%s: its transcript does not replay to its recorded result", e.Where)
}

// ReplayPlayed replays every game of t, the Swiss rounds' then the final
// phase's, as 'otd verify' does: each must have been played by otd, with
// legal moves and, for a game played to the end, the recorded score (a
// *ReplayError otherwise). It returns the games of each.
func ReplayPlayed(t *tournament.Tournament) (swiss, final int, err error) {
	for _, gm := range t.Games {
		if gm.IsBye() {
			continue
		}
		if err := replayPlayed(fmt.Sprintf("round %d table %d", gm.Round, gm.Table), gm.Result); err != nil {
			return swiss, final, err
		}
		swiss++
	}
	for _, fg := range t.FinalGames {
		if err := replayPlayed(fmt.Sprintf("%s game %d", fg.Code(), fg.Game), fg.Result); err != nil {
			return swiss, final, err
		}
		final++
	}
	return swiss, final, nil
}

func replayPlayed(where string, res *tournament.Result) error {
	if res == nil || res.End == "" {
		return fmt.Errorf("%s was not played by otd", where)
	}
	if res.Moves == "" { // a default before the first move
		return nil
	}
	game, err := transcript.ParseMoves(res.Moves)
	if err != nil {
		return fmt.Errorf("%s: its transcript: %w", where, err)
	}
	var claimed *transcript.Result
	if res.End == "normal" {
		claimed = &transcript.Result{Black: res.Black, White: res.White}
	}
	if r := transcript.Verify(game, claimed); !r.Legal() || claimed != nil && !r.Agrees() {
		return &ReplayError{where, game, r}
	}
	return nil
}
