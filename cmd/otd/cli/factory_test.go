package cli

import (
	"bytes"
	"github.com/otd-project/otd/app"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// flagCase is a command line and what the command makes of it: the options
// it hands to its run function, or its refusal (exit status and message).
type flagCase[O any] struct {
	args []string
	want O
	code int    // 0: want is handed over
	err  string // in the refusal
}

// checkFlags runs each case's command line on a root holding only the
// command newCmd makes (under its group, the line's first word, if it is
// not the command's own name), built with a runF that keeps the options it
// is given, and checks them against the case. No database is opened: the
// file OTD_DB names must not appear.
func checkFlags[O any](t *testing.T, newCmd func(*globals, func(O) error) *cobra.Command, cases []flagCase[O]) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "otd.db")
	t.Setenv("OTD_DB", db)
	for _, tc := range cases {
		var errb bytes.Buffer
		g := &globals{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errb}
		var got *O
		cmd := newCmd(g, func(o O) error { got = &o; return nil })
		root := newBareRootCmd(g)
		if tc.args[0] == cmd.Name() {
			root.AddCommand(cmd)
		} else {
			group := &cobra.Command{Use: tc.args[0]}
			group.AddCommand(cmd)
			root.AddCommand(group)
		}
		code := g.execute(root, tc.args)
		line := "otd " + strings.Join(tc.args, " ")
		switch {
		case tc.code == 0 && (code != 0 || got == nil):
			t.Errorf("%s: exit %d, %s; want the options %+v", line, code, errb.String(), tc.want)
		case tc.code == 0 && !reflect.DeepEqual(*got, tc.want):
			t.Errorf("%s: options\n%+v\nwant\n%+v", line, *got, tc.want)
		case tc.code != 0 && (got != nil || code != tc.code || !strings.Contains(errb.String(), tc.err)):
			t.Errorf("%s: exit %d, %q, options %+v; want exit %d saying %q", line, code, errb.String(), got, tc.code, tc.err)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("reading the flags opened the database %s", db)
	}
}

func TestRoundPairFlags(t *testing.T) {
	type o = roundPairOptions
	type p = tournament.PairOptions
	checkFlags(t, newRoundPairCmd, []flagCase[o]{
		{args: []string{"round", "pair"}, want: o{}},
		{args: []string{"round", "pair", "--force", "3-8", "--forbid", "1-2", "--bye", "17", "--seed", "5", "--json"},
			want: o{PairOptions: p{Forced: [][2]int{{3, 8}}, Forbidden: [][2]int{{1, 2}}, Bye: 17, Seed: 5}, JSON: true}},
		{args: []string{"round", "pair", "--manual", "--force", "1-2", "--force", " 4 - 3 ", "--bye", "5"},
			want: o{PairOptions: p{Forced: [][2]int{{1, 2}, {4, 3}}, Manual: true, Bye: 5}}},
		{args: []string{"round", "pair", "--force", "3"}, code: exitUsage, err: `round pair: --force "3": expected two player numbers such as 3-7; see 'otd round pair --help'`},
		{args: []string{"round", "pair", "--forbid", "0-2"}, code: exitUsage, err: `--forbid "0-2": expected two player numbers`},
		{args: []string{"round", "pair", "--force", "a-b"}, code: exitUsage, err: `--force "a-b"`},
		{args: []string{"round", "pair", "--bye", "x"}, code: exitUsage, err: `--bye "x": not a whole number`},
		{args: []string{"round", "pair", "3"}, code: exitUsage, err: `unknown command "3"`},
	})
}

// TestPlayFlags: round play and tournament run read --time and
// --concurrency alike; no time control is the tournament's (the zero value).
func TestPlayFlags(t *testing.T) {
	type o = enginePlayOptions
	type po = app.PlayOptions
	for _, c := range []struct {
		path   []string
		newCmd func(*globals, func(o) error) *cobra.Command
	}{
		{[]string{"round", "play"}, newRoundPlayCmd},
		{[]string{"tournament", "run"}, newTournamentRunCmd},
	} {
		t.Run(strings.Join(c.path, " "), func(t *testing.T) {
			line := func(args ...string) []string { return append(append([]string{}, c.path...), args...) }
			checkFlags(t, c.newCmd, []flagCase[o]{
				{args: line(), want: o{PlayOptions: po{Concurrency: 1}}},
				{args: line("--time", "5m+2s", "--concurrency", "2"), want: o{PlayOptions: po{Time: engine.TimeControl{Base: 5 * time.Minute, Increment: 2 * time.Second}, Concurrency: 2}}},
				{args: line("--time", "10m"), want: o{PlayOptions: po{Time: engine.TimeControl{Base: 10 * time.Minute}, Concurrency: 1}}},
				{args: line("--time", "2s/move", "--concurrency", "64"), want: o{PlayOptions: po{Time: engine.TimeControl{PerMove: 2 * time.Second}, Concurrency: 64}}},
				{args: line("--time", "fast"), code: exitUsage, err: `--time: `},
				{args: line("--concurrency", "0"), code: exitUsage, err: "--concurrency 0: 1 to 64 games at once"},
				{args: line("--concurrency", "65"), code: exitUsage, err: "--concurrency 65: 1 to 64 games at once"},
				{args: line("--concurrency", "two"), code: exitUsage, err: `--concurrency "two": not a whole number`},
				{args: line("now"), code: exitUsage, err: `unknown command "now"`},
			})
		})
	}
}

func TestResultFlags(t *testing.T) {
	type o = resultOptions
	type in = tournament.ResultInput
	checkFlags(t, newResultCmd, []flagCase[o]{
		{args: []string{"result", "3", "1", "40-24"}, want: o{Round: 3, Table: 1, In: in{Black: 40, White: 24, HasScore: true}}},
		{args: []string{"result", "3", "2", "30-28", "--time-default", "white"},
			want: o{Round: 3, Table: 2, In: in{Black: 30, White: 28, HasScore: true, TimeDefault: tournament.White}}},
		{args: []string{"result", "3", "4", "--forfeit", "b"}, want: o{Round: 3, Table: 4, In: in{Forfeit: tournament.Black}}},
		{args: []string{"result", "2", "5", "33-31", "--correct"}, want: o{Round: 2, Table: 5, In: in{Black: 33, White: 31, HasScore: true}, Correct: true}},
		// Two numbers are a score; whether it is a possible one is the
		// tournament's to say.
		{args: []string{"result", "1", "1", "70-10"}, want: o{Round: 1, Table: 1, In: in{Black: 70, White: 10, HasScore: true}}},
		{args: []string{"result", "0", "1", "40-24"}, code: exitUsage, err: `result: ROUND is a round number, or a final match's code (SF1, F, women:F), not "0"`},
		{args: []string{"result", "1", "x", "40-24"}, code: exitUsage, err: `result: TABLE is a table number, not "x"`},
		{args: []string{"result", "1", "2"}, code: exitUsage, err: "result: give the score B-W (black's discs first), e.g. 'otd result 1 2 40-24'"},
		{args: []string{"result", "1", "1", "40-24", "--forfeit", "black"}, code: exitUsage, err: "result: a forfeit has no score"},
		{args: []string{"result", "1", "1", "--forfeit", "black", "--time-default", "white"}, code: exitUsage, err: "not both"},
		{args: []string{"result", "1", "1", "40-24", "--time-default", "grey"}, code: exitUsage, err: `--time-default is black or white, not "grey"`},
		{args: []string{"result", "1", "1", "forty"}, code: exitUsage, err: "forty"},
		{args: []string{"result", "1", "1", "40-24", "x"}, code: exitUsage, err: "accepts between 2 and 3 arg(s)"},
		{args: []string{"result", "women:sf1", "2", "33-31", "--correct"},
			want: o{Table: 2, Match: "women:SF1", In: in{Black: 33, White: 31, HasScore: true}, Correct: true}},
		// --repair pairs a round again: a final game has none after it.
		{args: []string{"result", "SF1", "1", "30-34", "--correct", "--repair"}, code: exitUsage, err: "result: --repair is for a round's result, not a final game's"},
	})
}

func TestPlayerAddFlags(t *testing.T) {
	type o = playerAddOptions
	type in = tournament.PlayerInput
	type entry = tournament.PlayerEntry
	checkFlags(t, newPlayerAddCmd, []flagCase[o]{
		// The country is the tournament's to check and write as FRA.
		{args: []string{"player", "add", "Imre Leader", "--rating", "2150", "--country", "GB", "--wof-id", "2357"},
			want: o{In: in{Name: "Imre Leader", Rating: 2150, Country: "GB", WOFID: 2357}}},
		// The engine is started by the run, not by reading the flags.
		{args: []string{"player", "add", "GRhino", "--engine", "gtp:/nonexistent/gtp-rhino -l 2"},
			want: o{In: in{Name: "GRhino", Engine: "gtp:/nonexistent/gtp-rhino -l 2"}}},
		{args: []string{"player", "add", "Bot", "--engine", "builtin:greedy", "--no-check", "--json"},
			want: o{In: in{Name: "Bot", Engine: "builtin:greedy"}, NoCheck: true, JSON: true}},
		// Issue 30: all a championship needs, once; a date of birth gives its year.
		{args: []string{"player", "add", "DE JONG, Anna", "--wof-id", "5012", "--rating", "1850", "--country", "NED", "--team", "Oranje",
			"--women", "--born", "2009-05-01", "--category", "u18"},
			want: o{In: in{Name: "DE JONG, Anna", WOFID: 5012, Rating: 1850, Country: "NED"},
				Entry: entry{Team: ptr("Oranje"), Born: ptr(tournament.Born{Year: 2009, Month: 5, Day: 1}), Categories: ptr([]string{"u18", "women"})}}},
		{args: []string{"player", "add", "Kid", "--born", "2011", "--women"},
			want: o{In: in{Name: "Kid"}, Entry: entry{Born: ptr(tournament.BornIn(2011)), Categories: ptr([]string{"women"})}}},
		{args: []string{"player", "add", "Kid", "--born", "2011-13-01"}, code: exitUsage, err: `player add: --born: born "2011-13-01": not a date: give a year (2009) or a date (2009-05-01)`},
		{args: []string{"player", "add", "Imre", "Leader"}, code: exitUsage, err: `a name with spaces goes in quotes, e.g. otd player add "Imre Leader"`},
		{args: []string{"player", "add", "X", "--rating", "high"}, code: exitUsage, err: `--rating "high": not a whole number`},
		{args: []string{"player", "add"}, code: exitUsage, err: "accepts 1 arg(s), received 0"},
	})
}

func TestTournamentNewFlags(t *testing.T) {
	type o = tournamentNewOptions
	settings := func(name string, rounds int, edit func(*tournament.Settings)) tournament.Settings {
		s := tournament.DefaultSettings(name, rounds)
		edit(&s)
		return s
	}
	checkFlags(t, newTournamentNewCmd, []flagCase[o]{
		{args: []string{"tournament", "new", "Paris Open 2026", "--rounds", "7", "--city", "Paris", "--country", "FR", "--director", "Ann Archer"},
			want: o{Settings: settings("Paris Open 2026", 7, func(s *tournament.Settings) { s.City, s.Country, s.Director = "Paris", "FRA", "Ann Archer" })}},
		{args: []string{"tournament", "new", "Club night", "--rounds", "5", "--system", "roundrobin", "--bye-points", "0.5", "--json"},
			want: o{Settings: settings("Club night", 5, func(s *tournament.Settings) { s.System, s.ByePoints = tournament.RoundRobin, scoring.Half }), JSON: true}},
		{args: []string{"tournament", "new", "Bots", "--rounds", "3", "--time", "5m+2s", "--seed", "7"},
			want: o{Settings: settings("Bots", 3, func(s *tournament.Settings) {
				s.Time, s.Seed = engine.TimeControl{Base: 5 * time.Minute, Increment: 2 * time.Second}, 7
			})}},
		{args: []string{"tournament", "new", "Grand", "--rounds", "5", "--size", "10"},
			want: o{Settings: settings("Grand", 5, func(s *tournament.Settings) { s.Variant = engine.Rules{Size: 10} })}},
		{args: []string{"tournament", "new", "Anti night", "--rounds", "4", "--rules", "anti"},
			want: o{Settings: settings("Anti night", 4, func(s *tournament.Settings) { s.Variant = engine.Rules{Size: 8, Winner: engine.FewestDiscs} })}},
		{args: []string{"tournament", "new", "Stars", "--rounds", "4", "--rules", "8stars"},
			want: o{Settings: settings("Stars", 4, func(s *tournament.Settings) { s.Variant = engine.Rules{Size: 10, Shape: engine.EightStars} })}},
		{args: []string{"tournament", "new", "Open"}, code: exitUsage, err: `--rounds N: how many rounds (or --preset woc, 13)`},
		{args: []string{"tournament", "new", "Open", "--rounds", "0"}, code: exitUsage, err: "tournament new: --rounds 0: a tournament has 1 to 99 rounds"},
		{args: []string{"tournament", "new", "Open", "--rounds", "5", "--size", "7"}, code: exitUsage, err: "7"},
		{args: []string{"tournament", "new", "Open", "--rounds", "5", "--rules", "chess"}, code: exitUsage, err: "chess"},
		{args: []string{"tournament", "new", "Open", "--rounds", "5", "--system", "knockout"}, code: exitUsage, err: "knockout"},
		{args: []string{"tournament", "new", "Open", "--rounds", "5", "--country", "Narnia"}, code: exitUsage, err: "Narnia"},
		{args: []string{"tournament", "new", "", "--rounds", "5"}, code: exitUsage, err: "tournament new: "},
	})
}

// TestCommandsInMemory: the commands take their Director from globals, the
// factory: over a Storage in memory they run a whole engine event, no file
// written but the play lock beside the database named.
func TestCommandsInMemory(t *testing.T) {
	db := filepath.Join(t.TempDir(), "otd.db")
	t.Setenv("OTD_DB", db)
	st := memstore.New()
	run := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		g := &globals{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Store: app.Store{Storage: st}}
		if code := g.execute(newRootCmd(g), args); code != 0 {
			t.Fatalf("otd %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.String()
	}
	if out := run("tournament", "new", "Bots", "--rounds", "2"); out != "Tournament 1: Bots, 2 rounds (swiss). It is now the current tournament.\n" {
		t.Errorf("tournament new printed %q", out)
	}
	for i, e := range []string{"builtin:greedy", "builtin:random:1", "builtin:alphabeta:1", "builtin:random:2"} {
		if out := run("player", "add", e, "--engine", e); out != string(rune('1'+i))+"\n" {
			t.Errorf("player add %s printed %q; want player %d", e, out, i+1)
		}
	}
	if out := run("round", "pair"); !strings.HasPrefix(out, "Round 1\n") {
		t.Errorf("round pair printed %q", out)
	}
	out := run("tournament", "run", "--time", "1m/move")
	for _, want := range []string{"round 1: 2 engine games played", "round 2 paired", "round 2: 2 engine games played", "Bots: standings after round 2 of 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("tournament run did not say %q:\n%s", want, out)
		}
	}
	if out := run("result", "1", "1", "33-31", "--correct"); !strings.HasPrefix(out, "Round 1 table 1: 33-31 (was ") {
		t.Errorf("result --correct printed %q", out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("the commands wrote the database file %s", db)
	}
}
