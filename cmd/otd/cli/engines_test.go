package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/tournament"
)

// engineSpec is the --engine value of a fake engine of this test binary.
func engineSpec(protocol, mode string, n int, opts ...string) string {
	return tournament.Engine{Protocol: protocol, Argv: fakeengine.Argv(protocol, mode, n, opts...)}.String()
}

// roundGames reads round r as 'otd round show --json' gives it.
func roundGames(d *testDB, r int) []gameJSON {
	d.t.Helper()
	var games []gameJSON
	d.json(&games, "round", "show", strconv.Itoa(r), "--json")
	return games
}

// verifyTranscript replays a recorded game with 'otd verify' and checks
// that it is legal and, for a game that ended normally, ends at the recorded
// score.
func verifyTranscript(t *testing.T, gm gameJSON) {
	t.Helper()
	if gm.Moves == "" && gm.End != "normal" { // a default before the first move
		return
	}
	args := []string{"verify", "-", "--json"}
	if gm.End == "normal" {
		args = append(args, "--claimed", fmt.Sprintf("%d-%d", *gm.BlackDiscs, *gm.WhiteDiscs))
	}
	var out, errb bytes.Buffer
	code := Run(args, strings.NewReader(gm.Moves), &out, &errb)
	var rep reportJSONT
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("round %d table %d: otd verify: exit %d, %v: %s %s", gm.Round, gm.Table, code, err, out.String(), errb.String())
	}
	if !rep.Legal || rep.Illegal != nil {
		t.Errorf("round %d table %d: the transcript %s has an illegal move: %+v", gm.Round, gm.Table, gm.Moves, rep.Illegal)
	}
	if gm.End == "normal" && (code != 0 || !rep.Over || rep.Score != fmt.Sprintf("%d-%d", *gm.BlackDiscs, *gm.WhiteDiscs)) {
		t.Errorf("round %d table %d: otd verify (exit %d) finds %s (over %v), recorded %d-%d", gm.Round, gm.Table, code, rep.Score, rep.Over, *gm.BlackDiscs, *gm.WhiteDiscs)
	}
}

// TestEngineRound: round play and tournament run play the engine games, and
// leave a person's game to 'otd result'. The built-in players answer at once:
// a minute a move is for a loaded machine (each game must end normally).
func TestEngineRound(t *testing.T) {
	t.Parallel() // built-in players only
	d := newTestDB(t)
	d.must("tournament", "new", "Bots", "--rounds", "2")
	for _, e := range []string{"builtin:alphabeta:2", "builtin:greedy", "builtin:random:3", "builtin:alphabeta:1", "builtin:random"} {
		d.must("player", "add", e, "--engine", e)
	}
	d.must("player", "add", "Ann Person")
	if _, errs, code := d.run("player", "add", "X", "--engine", "builtin:deep-blue"); code != exitUsage || !strings.Contains(errs, "alphabeta:LEVEL") {
		t.Errorf("a bad builtin: exit %d, %s", code, errs)
	}
	if _, errs, code := d.run("player", "add", "X", "--engine", "gtp:/nonexistent/engine"); code != exitUsage || !strings.Contains(errs, "/nonexistent/engine") {
		t.Errorf("a missing program: exit %d, %s", code, errs)
	}
	if _, errs, code := d.run("round", "play"); code == 0 || !strings.Contains(errs, "round pair") {
		t.Errorf("round play before pairing: exit %d, %s", code, errs)
	}
	d.must("round", "pair")
	out := d.must("round", "play", "--time", "1m/move", "--concurrency", "2")
	if !strings.Contains(out, "round 1: 2 engine games played") || !strings.Contains(out, "1 game with a person left for 'otd result'") {
		t.Errorf("round play said:\n%s", out)
	}
	var human gameJSON
	for _, gm := range roundGames(d, 1) {
		if gm.Black == 6 || gm.White == 6 {
			human = gm
			if gm.BlackDiscs != nil || gm.Moves != "" {
				t.Errorf("the person's game was played: %+v", gm)
			}
			continue
		}
		if gm.BlackDiscs == nil || gm.End != "normal" || gm.Moves == "" {
			t.Fatalf("engine game not recorded: %+v", gm)
		}
		verifyTranscript(t, gm)
	}
	// Nothing left to play: running it again plays nothing.
	if out := d.must("round", "play", "--time", "1m/move"); !strings.Contains(out, "0 engine games played, 2 recorded before") {
		t.Errorf("round play again said:\n%s", out)
	}
	if _, errs, code := d.run("tournament", "run", "--time", "1m/move"); code == 0 || !strings.Contains(errs, "otd result") {
		t.Errorf("tournament run with a person's game open: exit %d, %s", code, errs)
	}
	d.must("result", "1", strconv.Itoa(human.Table), "40-24")
	// Round 2 is paired and its engine games played; the person's waits.
	if out, errs, code := d.run("tournament", "run", "--time", "1m/move"); code == 0 || !strings.Contains(out, "round 2 paired") || !strings.Contains(errs, "enter 1 result") {
		t.Errorf("tournament run: exit %d:\n%s%s", code, out, errs)
	}
	for _, gm := range roundGames(d, 2) {
		if gm.Black == 6 || gm.White == 6 {
			d.must("result", "2", strconv.Itoa(gm.Table), "30-34")
			continue
		}
		verifyTranscript(t, gm)
	}
	if out := d.must("tournament", "run", "--time", "1m/move"); !strings.Contains(out, "standings after round 2 of 2") {
		t.Errorf("tournament run said:\n%s", out)
	}
}

// TestEngineRegistration: registration starts the engine and asks it for a
// move from the start position; an engine whose answer is not a legal move is
// refused with what it answered, and nothing is registered.
func TestEngineRegistration(t *testing.T) {
	t.Parallel() // its fakes are not those of a test that looks for fakes left (marked)
	for _, tc := range []struct {
		name, spec string
		refused    string // in the refusal; "" registered
	}{
		{"gtp edax spacing", engineSpec("gtp", "good", 0, "style=edax"), ""},
		{"nboard version 1 only", engineSpec("nboard", "good", 0, "version=1"), ""},
		{"gtp garbage", engineSpec("gtp", "garbage", 1), `"thinking... best line d3 c5" is not a reply`},
		{"gtp occupied square", engineSpec("gtp", "illegal", 1), "answered d4: the square is occupied (the legal moves are d3 c4 f5 e6)"},
		{"gtp bad square", engineSpec("gtp", "badsquare", 1), `reply "z9" is not a move`},
		{"nboard occupied square", engineSpec("nboard", "illegal", 1), "answered d4: the square is occupied"},
		{"nboard garbage", engineSpec("nboard", "garbage", 1), `thinking... best line d3 c5" is not a move`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newTestDB(t)
			d.must("tournament", "new", "Bots", "--rounds", "1")
			d.must("player", "add", "Greedy", "--engine", "builtin:greedy")
			out, errs, code := d.run("player", "add", "Fake", "--engine", tc.spec)
			if tc.refused == "" {
				if code != 0 || strings.TrimSpace(out) != "2" {
					t.Fatalf("player add: exit %d: %s%s", code, out, errs)
				}
				return
			}
			if code != exitUsage || !strings.Contains(errs, "asked for a move from the start position") || !strings.Contains(errs, tc.refused) {
				t.Errorf("player add: exit %d, %q; want exit %d saying %q", code, errs, exitUsage, tc.refused)
			}
			if _, errs, code := d.run("player", "edit", "1", "--engine", tc.spec); code != exitUsage || !strings.Contains(errs, tc.refused) {
				t.Errorf("player edit: exit %d, %q; want exit %d saying %q", code, errs, exitUsage, tc.refused)
			}
			var players []playerJSON
			d.json(&players, "player", "list", "--json")
			if len(players) != 1 || players[0].Engine != "builtin:greedy" {
				t.Errorf("players after the refusals: %+v", players)
			}
		})
	}
	t.Run("gtp-rhino", func(t *testing.T) {
		rhino := testenv.GTPRhino(t)
		d := newTestDB(t)
		d.must("tournament", "new", "Bots", "--rounds", "1")
		if out := d.must("player", "add", "GRhino", "--engine", "gtp:"+rhino+" -l 2"); strings.TrimSpace(out) != "1" {
			t.Errorf("player add GRhino printed %q", out)
		}
	})
}

// TestEngineMatch: a round robin of 2 engines in 10 rounds is a 10-game
// match, colours alternating (the Berger table's 1-2, then 2-1, ...); the
// engines answer GTP as Edax does ("= 7 f6") and every game ends normally.
func TestEngineMatch(t *testing.T) {
	t.Parallel() // its fakes are not those of a test that looks for fakes left (marked)
	d := newTestDB(t)
	d.must("tournament", "new", "Match", "--rounds", "10", "--system", "roundrobin")
	d.must("player", "add", "Edax A", "--engine", engineSpec("gtp", "good", 0, "style=edax", "quiet"))
	d.must("player", "add", "Edax B", "--engine", engineSpec("gtp", "nopass", 0, "style=edax", "quiet"))
	d.must("tournament", "run", "--time", "1m/move") // they answer at once: a minute is for a loaded machine
	for r := 1; r <= 10; r++ {
		games := roundGames(d, r)
		if len(games) != 1 {
			t.Fatalf("round %d: %d games: %+v", r, len(games), games)
		}
		gm := games[0]
		black := 1 + (r+1)%2
		if gm.Black != black || gm.White != 3-black || gm.End != "normal" || gm.BlackDiscs == nil {
			t.Errorf("round %d: %d-%d, end %q, note %q; want %d-%d ended normally", r, gm.Black, gm.White, gm.End, gm.Note, black, 3-black)
		}
		verifyTranscript(t, gm)
	}
	if _, errs, code := d.run("round", "pair"); code == 0 || !strings.Contains(errs, "all 10 rounds are paired") {
		t.Errorf("an 11th round: exit %d, %s", code, errs)
	}
}

// fakeProcess is a fake engine of this test binary: its process and argv.
type fakeProcess struct {
	proc.ID
	argv []string
}

func (f fakeProcess) String() string { return fmt.Sprintf("%d: %s", f.Pid, strings.Join(f.argv, " ")) }

// mode returns the fake's mode (fakeengine.Argv).
func (f fakeProcess) mode() string { return f.argv[3] }

// fakeProcesses lists the fake engines of this test binary still running;
// with a mark, those given it (an argument of fakeengine.Argv, which their
// children get too) alone.
func fakeProcesses(t *testing.T, mark string) []fakeProcess {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	var left []fakeProcess
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // gone meanwhile
		}
		argv := strings.Split(string(b), "\x00")
		if len(argv) > 3 && argv[0] == os.Args[0] && argv[1] == "otd-fake-engine" && (mark == "" || slices.Contains(argv[5:], mark)) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			if id, ok := proc.Find(pid); ok && id.Running() {
				left = append(left, fakeProcess{id, argv})
			}
		}
	}
	return left
}

// TestMisbehavingEngines plays a round with a misbehaving fake engine and
// two good built-in players: the fake's game is scored as the rules say (and
// not waited on forever), the other game is played, and no process is left.
func TestMisbehavingEngines(t *testing.T) {
	t.Parallel() // beside the tests of no fake engine (the demo's are built-in); each game's fakes are marked with its name
	if runtime.GOOS != "linux" {
		t.Skip("the check for processes left reads /proc")
	}
	// The time of a move: generous, so that no move of a correct engine is
	// late however loaded the machine is; the games that must end on time
	// (silent, late) are given perLate, which they spend, and the late
	// engine answers after twice that.
	const perMove, perLate = time.Minute, 3 * time.Second
	for _, tc := range []struct {
		protocol, mode string
		n              int
		opts           []string
		end            string // how the fake's game ends
	}{
		{"gtp", "good", 0, nil, "normal"},
		{"gtp", "silent", 2, nil, "time"}, // the client gives up at the deadline: the flag falls
		{"gtp", "late", 2, []string{"delay=" + (2 * perLate).String()}, "time"},
		{"gtp", "crash", 3, nil, "crash"},
		{"gtp", "ansi", 3, nil, "crash"},
		{"gtp", "garbage", 2, nil, "illegal"},
		{"gtp", "badsquare", 2, nil, "illegal"},
		{"gtp", "illegal", 2, nil, "illegal"},
		{"gtp", "flood", 0, []string{"quiet"}, "normal"},
		{"gtp", "ignorequit", 0, nil, "normal"},
		{"gtp", "exitstart", 0, nil, "crash"},
		{"gtp", "fork", 0, nil, "normal"},
		{"gtp", "setsid", 0, nil, "normal"},
		{"gtp", "daemon", 0, nil, "normal"},
		{"gtp", "noeof", 0, nil, "normal"},
		{"nboard", "good", 0, nil, "normal"},
		{"nboard", "silent", 2, nil, "time"},
		{"nboard", "crash", 3, nil, "crash"},
		{"nboard", "garbage", 2, nil, "illegal"},
		{"nboard", "illegal", 2, nil, "illegal"},
		{"nboard", "exitstart", 0, nil, "crash"},
		{"nboard", "fork", 0, nil, "normal"},
		{"nboard", "setsid", 0, nil, "normal"},
		{"nboard", "stdoutflood", 0, nil, "normal"},
	} {
		t.Run(tc.protocol+"/"+tc.mode, func(t *testing.T) {
			// Most games wait (for a time limit, an engine's end): side by
			// side, each finds its own fakes by their mark.
			t.Parallel()
			mark := "test=" + t.Name()
			d := newTestDB(t)
			d.must("tournament", "new", "Misbehaviour", "--rounds", "1")
			// --no-check: the fake that exits at start would be refused.
			d.must("player", "add", "Fake", "--no-check", "--engine", engineSpec(tc.protocol, tc.mode, tc.n, append(slices.Clip(tc.opts), mark)...))
			for _, e := range []string{"builtin:greedy", "builtin:random", "builtin:random:2"} {
				d.must("player", "add", e, "--engine", e)
			}
			d.must("round", "pair")
			var stdout bytes.Buffer
			stderr := &stampedWriter{start: time.Now()}
			move := perMove
			if tc.end == "time" {
				move = perLate
			}
			code := Run([]string{"--db", d.path, "round", "play", "--time", move.String() + "/move", "--concurrency", "2"}, nil, &stdout, stderr)
			if code != 0 {
				t.Fatalf("round play: exit %d: %s", code, stderr)
			}
			games := roundGames(d, 1)
			if len(games) != 2 {
				t.Fatalf("%d games", len(games))
			}
			for _, gm := range games {
				if gm.BlackDiscs == nil {
					t.Fatalf("game not recorded: %+v", gm)
				}
				if gm.Black != 1 && gm.White != 1 {
					if gm.End != "normal" {
						t.Errorf("the other game: %+v", gm)
					}
					verifyTranscript(t, gm)
					continue
				}
				fake := "black"
				if gm.White == 1 {
					fake = "white"
				}
				if gm.End != tc.end {
					t.Errorf("the fake's game ended %q, want %q: %+v", gm.End, tc.end, gm)
				}
				if tc.end != "normal" && (gm.Kind != "time-default" || gm.Loser != fake || gm.Note == "") {
					t.Errorf("the fake's default is not scored as a time default lost by %s: %+v", fake, gm)
				}
				if tc.mode == "ansi" && !strings.Contains(gm.Note, `stderr: fake: \x1b]0;pwned\a\x1b[2J\x1b[Hround 1 table 1: 64-0 \u202eok`) {
					t.Errorf("the note does not hold the engine's last words escaped: %q", gm.Note)
				}
				if i := strings.IndexFunc(gm.Note, unprintable); i >= 0 {
					t.Errorf("the note has a control character at %d: %q", i, gm.Note)
				}
				verifyTranscript(t, gm)
			}
			// The fake's game is scored (its line printed once recorded),
			// not waited on forever: the bound catches a hang, not a slow
			// machine (timing is no ordinary test's business; the time
			// control of a move is match's, tested there).
			if at, ok := stderr.at("1 Fake"); !ok || at > move+hang {
				t.Errorf("the fake's game was recorded after %v (found %v), more than %v:\n%s", at, ok, move+hang, stderr)
			}
			if left := fakeProcesses(t, mark); len(left) > 0 {
				t.Errorf("fake engines left running: %v", left)
			}
			if out := stdout.String() + stderr.String(); strings.ContainsFunc(out, func(r rune) bool { return r != '\n' && unprintable(r) }) {
				t.Errorf("round play printed a control character: %q", out)
			}
		})
	}
}

// unprintable reports whether r is a character a terminal may act on
// rather than show: a control, format, line or paragraph separator.
func unprintable(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// hang bounds the tests' waits for a state (a line printed, a process
// started or ended, a command's end): it catches a hang, not a slow machine,
// which a correct otd meets even at a load of 20.
const hang = 2 * time.Minute

// stampedWriter keeps what is written to it with the time of each write.
type stampedWriter struct {
	mu     sync.Mutex
	start  time.Time
	writes []string
	times  []time.Duration
}

func (w *stampedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(p))
	w.times = append(w.times, time.Since(w.start))
	return len(p), nil
}

// at returns when the first write holding s came.
func (w *stampedWriter) at(s string) (time.Duration, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, p := range w.writes {
		if strings.Contains(p, s) {
			return w.times[i], true
		}
	}
	return 0, false
}

func (w *stampedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.writes, "")
}

// TestRhinoRound plays full games between gtp-rhino and a built-in player,
// both colours, through the commands; each transcript replays legally to
// the recorded score.
func TestRhinoRound(t *testing.T) {
	t.Parallel() // no fake engine
	rhino := testenv.GTPRhino(t)
	d := newTestDB(t)
	d.must("tournament", "new", "Rhino match", "--rounds", "2") // round 2: the rematch, colours reversed
	d.must("player", "add", "GRhino", "--engine", tournament.Engine{Protocol: "gtp", Argv: []string{rhino}}.String())
	d.must("player", "add", "otd", "--engine", "builtin:alphabeta:3")
	d.must("tournament", "run", "--time", "1m")
	colours := map[int]bool{}
	for r := 1; r <= 2; r++ {
		for _, gm := range roundGames(d, r) {
			if gm.End != "normal" {
				t.Errorf("round %d: the game ended %s: %s", r, gm.End, gm.Note)
			}
			colours[gm.Black] = true
			verifyTranscript(t, gm)
		}
	}
	if !colours[1] || !colours[2] {
		t.Errorf("each player should have had black once: %v", colours)
	}
}
