package cli

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// replayMoves plays a recorded move list (passes implicit) under r and
// returns the discs on the final board.
func replayMoves(t *testing.T, r engine.Rules, moves string) engine.Score {
	t.Helper()
	rec, err := transcript.ParseMovesRules(moves, r)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rec.Moves {
		if g.MustPass() {
			g, _ = g.Play(engine.PassPoint)
		}
		if g, err = g.Play(p); err != nil {
			t.Fatalf("%s: move %s: %v", moves, p, err)
		}
	}
	if !g.GameOver() {
		t.Fatalf("%s: the game is not over", moves)
	}
	return g.Score()
}

// TestVariantTournaments runs a 10x10, an Anti-Othello, an 8Stars and a 6x6
// Reversi tournament of built-in players end to end, and checks every recorded score and the
// standings' BQ against values worked out here from the rules: a score adds
// up to the board's squares, the empty squares go to the winner, in
// Anti-Othello a side is recorded with its opponent's discs, and
// BQ = own discs + c x the opponents' points (a bye: squares/2 + c x own
// points) with c = round(squares / rounds).
func TestVariantTournaments(t *testing.T) {
	t.Parallel() // databases of its own, built-in players
	const rounds = 3
	for _, tc := range []struct {
		name    string
		flags   []string
		rules   string
		squares int
		c       int
	}{
		{"10x10", []string{"--size", "10"}, "othello:10", 100, 33},  // round(100/3)
		{"anti", []string{"--rules", "anti"}, "anti", 64, 21},       // round(64/3)
		{"8stars", []string{"--rules", "8stars"}, "8stars", 88, 29}, // round(88/3)
		{"reversi", []string{"--rules", "reversi", "--size", "6"}, "reversi:6", 36, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := engine.ParseRules(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			d := newTestDB(t)
			d.must(append([]string{"tournament", "new", "V", "--rounds", strconv.Itoa(rounds)}, tc.flags...)...)
			if out := d.must("tournament", "show"); !strings.Contains(out, "game: "+tc.rules) {
				t.Errorf("tournament show does not name the rules %s:\n%s", tc.rules, out)
			}
			players := []string{"builtin:alphabeta:2", "builtin:alphabeta:1", "builtin:greedy", "builtin:random:3", "builtin:random"}
			for _, e := range players {
				d.must("player", "add", e, "--engine", e)
			}
			d.must("tournament", "run", "--time", "1m/move")
			points := make([]int, len(players)+1) // half-points
			type game struct{ opp, discs int }
			played := make([][]game, len(players)+1)
			byes := make([]int, len(players)+1)
			for rd := 1; rd <= rounds; rd++ {
				for _, gm := range roundGames(d, rd) {
					if gm.Bye {
						byes[gm.Black]++
						points[gm.Black] += 2
						continue
					}
					if gm.BlackDiscs == nil || gm.End != "normal" {
						t.Fatalf("round %d table %d not played to its end: %+v", rd, gm.Table, gm)
					}
					board := replayMoves(t, r, gm.Moves)
					// The disc scores: under Anti-Othello each side's is
					// its opponent's discs; the empty squares to the winner.
					sc := board
					if r.Winner == engine.FewestDiscs {
						sc.Black, sc.White = board.White, board.Black
					}
					switch e := tc.squares - sc.Black - sc.White; {
					case sc.Black > sc.White:
						sc.Black += e
					case sc.White > sc.Black:
						sc.White += e
					default:
						sc.Black, sc.White = tc.squares/2, tc.squares/2
					}
					// Recorded: the discs on the board under Anti-Othello,
					// else the disc scores.
					rec := sc
					if r.Winner == engine.FewestDiscs {
						rec = board
					}
					if *gm.BlackDiscs != rec.Black || *gm.WhiteDiscs != rec.White {
						t.Errorf("round %d table %d: recorded %d-%d, the moves give %d-%d", rd, gm.Table, *gm.BlackDiscs, *gm.WhiteDiscs, rec.Black, rec.White)
					}
					b, w := sc.Black, sc.White
					switch {
					case b > w:
						points[gm.Black] += 2
					case w > b:
						points[gm.White] += 2
					default:
						points[gm.Black]++
						points[gm.White]++
					}
					played[gm.Black] = append(played[gm.Black], game{gm.White, b})
					played[gm.White] = append(played[gm.White], game{gm.Black, w})
				}
			}
			var standings []standingJSON
			d.json(&standings, "standings", "--json")
			for _, s := range standings {
				n := s.Number
				bq2 := byes[n] * (tc.squares + tc.c*points[n]) // in halves: squares/2 + c x points, twice
				for _, g := range played[n] {
					bq2 += 2*g.discs + tc.c*points[g.opp]
				}
				want := strconv.Itoa(bq2 / 2)
				if bq2%2 != 0 {
					want += ".5"
				}
				if s.BQ.String() != want || s.Points.String() != scoring.HalfPoints(points[n]).String() {
					t.Errorf("player %d: %s points, BQ %s; want %v, %s", n, s.Points, s.BQ, scoring.HalfPoints(points[n]), want)
				}
			}
		})
	}
}

// TestVariantEngines: an engine entrant is checked against the tournament's
// rules at registration. gtp-rhino plays only 8x8 (it answers "? unacceptable
// size" to boardsize 10), so it is refused on 10x10; a GTP engine that takes
// boardsize 10 plays a 10x10 round; GTP cannot be told Anti-Othello's rules,
// and NBoard plays standard 8x8 only.
func TestVariantEngines(t *testing.T) {
	t.Parallel() // no fake engine
	rhino := testenv.GTPRhino(t)
	d := newTestDB(t)
	d.must("tournament", "new", "Grand", "--rounds", "1", "--size", "10")
	rhinoSpec := tournament.Engine{Protocol: "gtp", Argv: []string{rhino}}.String()
	for _, tc := range []struct{ spec, want string }{
		{rhinoSpec, "boardsize 10"},
		{engineSpec("gtp", "good", 0), "boardsize 10"},
		{engineSpec("nboard", "good", 0), "standard 8x8 Othello"},
	} {
		if _, errs, code := d.run("player", "add", "E", "--engine", tc.spec); code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%s on 10x10: exit %d, %s; want a refusal naming %q", tc.spec, code, errs, tc.want)
		}
	}
	d.must("player", "add", "Ten", "--engine", engineSpec("gtp", "good", 0, "sizes=8,10"))
	d.must("player", "add", "Greedy", "--engine", "builtin:greedy")
	d.must("round", "pair")
	d.must("round", "play", "--time", "1m/move")
	for _, gm := range roundGames(d, 1) {
		if gm.BlackDiscs == nil || gm.End != "normal" || *gm.BlackDiscs+*gm.WhiteDiscs != 100 {
			t.Fatalf("the 10x10 game: %+v", gm)
		}
		replayMoves(t, engine.Rules{Size: 10}, gm.Moves)
	}

	d = newTestDB(t)
	d.must("tournament", "new", "Anti", "--rounds", "1", "--rules", "anti")
	if _, errs, code := d.run("player", "add", "R", "--engine", rhinoSpec); code != exitUsage || !strings.Contains(errs, "not the rules of anti") {
		t.Errorf("gtp-rhino under anti: exit %d, %s", code, errs)
	}
	// Nor may the rules change to ones an entrant cannot play.
	d = newTestDB(t)
	d.must("tournament", "new", "Club", "--rounds", "1")
	d.must("player", "add", "R", "--engine", rhinoSpec)
	if _, errs, code := d.run("tournament", "edit", "--rules", "anti"); code == 0 || !strings.Contains(errs, "player 1 (R)") {
		t.Errorf("rules changed to anti with gtp-rhino registered: exit %d, %s", code, errs)
	}
	// gtp-rhino was checked on 8x8: it is asked again on 10x10, and refuses.
	if _, errs, code := d.run("tournament", "edit", "--size", "10"); code == 0 || !strings.Contains(errs, "player 1 (R)") || !strings.Contains(errs, "boardsize 10") {
		t.Errorf("board changed to 10x10 with gtp-rhino registered: exit %d, %s", code, errs)
	}
	if out := d.must("tournament", "show"); strings.Contains(out, "game:") {
		t.Errorf("the board changed all the same:\n%s", out)
	}
}

// TestAntiResultEntry: under Anti-Othello a result is entered, shown and
// corrected as the discs on the board; the standings score it.
func TestAntiResultEntry(t *testing.T) {
	d := newTestDB(t)
	d.must("tournament", "new", "Anti", "--rounds", "1", "--rules", "anti")
	d.must("player", "add", "Ann")
	d.must("player", "add", "Bob")
	d.must("round", "pair")
	d.must("result", "1", "1", "20-40")
	if out, errs, code := d.run("result", "1", "1", "20-40"); code != 0 || !strings.Contains(out, "Round 1 table 1: 20-40 is recorded already; nothing changed.") {
		t.Errorf("the result entered again: exit %d, %s%s", code, out, errs)
	}
	if _, errs, code := d.run("result", "1", "1", "40-20"); code != exitFailure || !strings.Contains(errs, "(20-40)") {
		t.Errorf("another result: exit %d, %s", code, errs)
	}
	d.must("result", "1", "1", "20-40", "--correct") // the same, typed back: nothing turns around
	if _, errs, code := d.run("export", "elo", filepath.Join(t.TempDir(), "anti.elo")); code == 0 || !strings.Contains(errs, "standard 8x8 Othello") {
		t.Errorf("export elo of an Anti-Othello event: exit %d, %s", code, errs)
	}
	gm := roundGames(d, 1)[0]
	if *gm.BlackDiscs != 20 || *gm.WhiteDiscs != 40 {
		t.Errorf("round show: %d-%d, want the board's 20-40", *gm.BlackDiscs, *gm.WhiteDiscs)
	}
	var standings []standingJSON
	d.json(&standings, "standings", "--json")
	// Black (fewer discs) wins, scored 44-20: white's 40 and the 4 empties.
	for _, s := range standings {
		want := map[int]string{gm.Black: "1 44", gm.White: "0 20"}[s.Number]
		if got := s.Points.String() + " " + strconv.Itoa(s.Discs); got != want {
			t.Errorf("player %d: points and discs %s, want %s", s.Number, got, want)
		}
	}
}
