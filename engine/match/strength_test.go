package match_test

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/gtp"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/testenv"
)

// The strength benchmark's settings: which built-in player, under which time
// control, against gtp-rhino with which arguments (none: its defaults, level 3
// with its small opening book).
var (
	strengthPlayer = flag.String("strength.player", "alphabeta:6", "built-in player of BenchmarkVsGTPRhino")
	strengthTC     = flag.String("strength.tc", "10s", "time control of BenchmarkVsGTPRhino, for both sides")
	strengthRhino  = flag.String("strength.rhino", "", "extra arguments of gtp-rhino in BenchmarkVsGTPRhino, space separated")
	strengthPairs  = flag.Int("strength.pairs", 10, "openings played by BenchmarkVsGTPRhino, each with both colours")
)

// openings are the first four plies of the games of BenchmarkVsGTPRhino, one
// pair of games (colours swapped) each: gtp-rhino plays the same game from the
// same position (it has no randomness by default), so without them the 20
// games would be few games repeated (its small opening book varies only its
// first moves). They are ten different 4-ply openings from f5 (the other three
// first moves give the same games mirrored): four perpendicular (f5 d6), three
// diagonal (f5 f6) and three parallel (f5 f4). Two openings may still
// transpose into the same game: the benchmark reports how many of its games
// are distinct.
var openings = []string{
	"f5 d6 c3 d3", // perpendicular: the tiger (c4 next)
	"f5 d6 c5 f4", // perpendicular: the cow (e3 next)
	"f5 f4 c3 f6", // parallel
	"f5 f6 e6 f4", // diagonal: the main line
	"f5 f6 e6 d6", // diagonal
	"f5 f4 e3 f6", // parallel
	"f5 f4 e3 d6", // parallel
	"f5 d6 c5 f6", // perpendicular
	"f5 f6 c4 f4", // diagonal
	"f5 d6 c6 f4", // perpendicular
}

// parseOpening reads space-separated moves and checks they are legal from the
// start.
func parseOpening(tb testing.TB, s string) []engine.Point {
	tb.Helper()
	var ms []engine.Point
	pos := start(tb)
	for _, f := range strings.Fields(s) {
		m, err := engine.ParsePoint(f)
		if err != nil {
			tb.Fatalf("opening %q: %v", s, err)
		}
		if pos, err = pos.Play(m); err != nil {
			tb.Fatalf("opening %q: %s: %v", s, f, err)
		}
		ms = append(ms, m)
	}
	return ms
}

// scripted plays the moves of an opening for its player (both sides are
// wrapped with the same opening), then asks the player. An external engine
// learns the opening moves it did not choose with the next request.
type scripted struct {
	player.Player
	opening []engine.Point
}

// start returns the start of standard Othello.
func start(tb testing.TB) engine.Position {
	tb.Helper()
	g, err := engine.NewPosition(engine.Othello())
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func (s scripted) Move(ctx context.Context, g player.Game, c player.Clock) (engine.Point, error) {
	if n := len(g.Moves); n < len(s.opening) {
		return s.opening[n], nil
	}
	return s.Player.Move(ctx, g, c)
}

// TestOpenings checks the openings of BenchmarkVsGTPRhino: legal, four plies,
// all different.
func TestOpenings(t *testing.T) {
	seen := map[string]string{} // the position (board and side to move): the opening
	for _, o := range openings {
		ms := parseOpening(t, o)
		if len(ms) != 4 {
			t.Errorf("opening %q: %d plies, want 4", o, len(ms))
		}
		pos := start(t)
		for _, m := range ms {
			pos, _ = pos.Play(m)
		}
		key := pos.String() + " " + pos.ToMove().String()
		if prev, ok := seen[key]; ok {
			t.Errorf("openings %q and %q reach the same position", prev, o)
		}
		seen[key] = o
	}
	if len(openings) < 10 {
		t.Errorf("%d openings, want 10 (20 games)", len(openings))
	}
}

// BenchmarkVsGTPRhino plays the strongest built-in player (-strength.player)
// against gtp-rhino at its default level (3) over 20 games, colours
// alternated, each pair from one of the openings above, both sides under the
// time control -strength.tc (10s a side by default: the built-in player
// spends about 7 s of it a game, gtp-rhino, which searches to a fixed depth,
// about 0.2 s), one game at a time, and reports the built-in player's score:
// points (a win 1, a tie 1/2) out of the games, and as a percentage, and the
// number of distinct games. It logs every game (-v shows them all); a game
// lost by either side other than on the board fails the benchmark. Run it
// once (about 3 minutes):
//
//	go test -run '^$' -bench VsGTPRhino -benchtime 1x -v ./engine/match/
func BenchmarkVsGTPRhino(b *testing.B) {
	path := testenv.GTPRhino(b)
	tc, err := engine.ParseTimeControl(*strengthTC)
	if err != nil {
		b.Fatal(err)
	}
	argv := append([]string{path}, strings.Fields(*strengthRhino)...)
	pairs := min(*strengthPairs, len(openings))
	for range b.N {
		type game struct {
			log    string
			key    string // the game from its 8th ply: the same for games that transpose
			points float64
			fail   error
		}
		games := make([]game, 2*pairs)
		// One game at a time: both sides have the machine to themselves.
		for i := range games {
			g := &games[i]
			g.log, g.key, g.points, g.fail = rhinoGame(argv, parseOpening(b, openings[i/2]), i%2 == 0, tc)
		}
		points := 0.0
		distinct := map[string]bool{}
		for i, g := range games {
			if g.fail != nil {
				b.Fatalf("game %d: %v", i+1, g.fail)
			}
			points += g.points
			distinct[g.key] = true
		}
		// The summary first: without -v the benchmark's log is cut after
		// ten lines.
		b.Logf("%s vs gtp-rhino %v, %s: %.1f/%d (%.0f%%)", *strengthPlayer, argv[1:], tc, points, len(games), 100*points/float64(len(games)))
		for i, g := range games {
			b.Logf("game %2d: %s", i+1, g.log)
		}
		b.ReportMetric(points, "points")
		b.ReportMetric(float64(len(games)), "games")
		b.ReportMetric(float64(len(distinct)), "distinct")
		b.ReportMetric(100*points/float64(len(games)), "score%")
	}
}

// rhinoGame plays one game and describes it; points are the built-in
// player's.
func rhinoGame(argv []string, op []engine.Point, builtinBlack bool, tc engine.TimeControl) (log, key string, points float64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*tc.Base+60*tc.PerMove+2*time.Minute)
	defer cancel()
	e, err := gtp.Start(ctx, gtp.Config{Config: proc.Config{Argv: argv}})
	if err != nil {
		return "", "", 0, err
	}
	defer e.Close()
	bp, err := player.New(*strengthPlayer)
	if err != nil {
		return "", "", 0, err
	}
	defer bp.Close()
	var black, white player.Player = scripted{bp, op}, scripted{e, op}
	bc := engine.Black
	if !builtinBlack {
		black, white = white, black
		bc = engine.White
	}
	r, err := match.Play(ctx, engine.Othello(), black, white, tc)
	if err != nil {
		return "", "", 0, err
	}
	if r.End != match.Normal && r.Fault == bc {
		return "", "", 0, fmt.Errorf("%s lost by %s: %v", bp.Name(), r.End, r.Err)
	}
	if r.End != match.Normal {
		return "", "", 0, fmt.Errorf("gtp-rhino lost by %s: %v; stderr: %s", r.End, r.Err, e.Stderr())
	}
	w, won := r.Winner()
	switch {
	case !won:
		points = 0.5
	case w == bc:
		points = 1
	}
	// The key: the position after 8 plies, then the moves from there.
	var sb, rest strings.Builder
	pos, err := engine.NewPosition(engine.Othello())
	if err != nil {
		return "", "", 0, err
	}
	for i, m := range r.Moves {
		sb.WriteString(m.String())
		if i < 8 {
			pos, _ = pos.Play(m) // replays what Play accepted
		} else {
			rest.WriteString(m.String())
		}
	}
	key = fmt.Sprintf("%s %s %s", pos, pos.ToMove(), rest.String())
	name := [2]string{bp.Name(), "gtp-rhino"}
	if !builtinBlack {
		name[0], name[1] = name[1], name[0]
	}
	opening := ""
	for _, m := range op {
		opening += m.String()
	}
	return fmt.Sprintf("%-8s %s-%s %s (%s %v, %s %v) %s", opening, name[0], name[1], r.Score,
		name[0], r.Used[engine.Black].Round(time.Millisecond), name[1], r.Used[engine.White].Round(time.Millisecond), sb.String()), key, points, nil
}
