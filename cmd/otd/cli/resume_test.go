package cli

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// asOTD, set to 1 in the environment, makes the test binary run otd (TestMain).
const asOTD = "OTD_TEST_AS_OTD"

// TestKilledRoundPlayResumes kills 'otd round play' (SIGKILL) 20 times in
// the middle of its round, and runs the same command again: every game ends
// played and recorded exactly once (one result in the audit trail per game,
// no correction), each transcript replaying to its score. A kill is never
// left to luck: one entrant is a fake engine that holds its game at its 3rd
// move (internal/fakeengine, mode hold), so the round cannot end before the
// kill; the test waits for that and for a seeded number of the other 5
// games' results (0 to 4), then kills after a seeded delay of up to 30 ms,
// at any point of the games still played. Played again, the held game is let
// go on. The clock (10 minutes a game) cannot end the held game first.
func TestKilledRoundPlayResumes(t *testing.T) {
	t.Parallel() // its fakes are not those of a test that looks for fakes left (marked)
	template := filepath.Join(t.TempDir(), "template.db")
	hold := holdDir(t.TempDir())
	d := &testDB{t: t, path: template}
	d.must("tournament", "new", "Kill me", "--rounds", "1")
	// The fake first: its game, at table 1, is started first.
	d.must("player", "add", "P1 fake", "--engine", engineSpec("gtp", "hold", 3, "hold="+string(hold), "quiet"))
	for i, e := range []string{"alphabeta:1", "alphabeta:2", "alphabeta:3", "greedy", "random:1", "random:2",
		"alphabeta:3", "alphabeta:2", "greedy", "random:3", "alphabeta:1"} {
		d.must("player", "add", fmt.Sprintf("P%d %s", i+2, e), "--engine", "builtin:"+e)
	}
	d.must("round", "pair")
	tmpl, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 0))
	for i := range 20 {
		db := filepath.Join(t.TempDir(), fmt.Sprintf("kill%d.db", i))
		if err := os.WriteFile(db, tmpl, 0o644); err != nil {
			t.Fatal(err)
		}
		c, stderr := startOTD(t, "--db", db, "round", "play", "--time", "10m", "--concurrency", "2")
		results := make(chan string) // the lines of the games recorded
		go func() {
			defer close(results)
			for sc := bufio.NewScanner(stderr); sc.Scan(); {
				if strings.Contains(sc.Text(), "round 1 table") {
					results <- sc.Text()
				}
			}
		}()
		recorded := rng.IntN(5)
		for n := range recorded {
			if _, ok := <-results; !ok {
				t.Fatalf("run %d: round play ended after %d results, with a game held", i, n)
			}
		}
		hold.wait(t)
		time.Sleep(time.Duration(rng.Int64N(int64(30 * time.Millisecond))))
		c.Process.Kill()
		go func() {
			for range results { // the lines written before the kill
			}
		}()
		if err := c.Wait(); err == nil {
			t.Fatalf("run %d: round play ended, with a game held", i)
		}
		d := &testDB{t: t, path: db}
		done := 0
		for _, gm := range roundGames(d, 1) {
			if gm.BlackDiscs != nil {
				done++
			}
		}
		if done < recorded || done > 5 {
			t.Errorf("run %d: killed after %d results were said, %d games recorded; want %d to 5 (not the held one)", i, recorded, done, recorded)
		}
		// Played again: the held game is let go on (the killed fake's file
		// first).
		stop := hold.releasing()
		d.must("round", "play", "--time", "10m", "--concurrency", "2")
		stop()
		checkPlayedOnce(t, d)
	}
}

// holdDir is the folder of the fake engines in mode hold (internal/fakeengine):
// one makes a file there when it holds its game, and goes on once it is
// removed.
type holdDir string

// wait waits until a fake holds its game (within hang).
func (h holdDir) wait(t *testing.T) {
	t.Helper()
	for end := time.Now().Add(hang); ; time.Sleep(5 * time.Millisecond) {
		files, err := os.ReadDir(string(h))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) > 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("no fake engine holds its game after %v", hang)
		}
	}
}

// releasing lets every fake go on, the one that holds now and each that
// holds later, until stop is called.
func (h holdDir) releasing() (stop func()) {
	done, released := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(released)
		for {
			files, _ := os.ReadDir(string(h))
			for _, f := range files {
				os.Remove(filepath.Join(string(h), f.Name()))
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-released }
}

// startOTD starts the test binary as otd (asOTD) with args, and returns it
// and its standard error, to read as it runs.
func startOTD(t *testing.T, args ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), asOTD+"=1")
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	return c, stderr
}

// checkPlayedOnce checks that every game of round 1 has a result recorded
// once by round play, that replays to its score.
func checkPlayedOnce(t *testing.T, d *testDB) {
	t.Helper()
	var log []logJSON
	d.json(&log, "log", "--json")
	results := map[string]int{}
	for _, e := range log {
		switch {
		case e.Action == "result":
			table, _, _ := strings.Cut(e.Subject, " (")
			results[table]++
		case strings.HasPrefix(e.Action, "result"):
			t.Errorf("%s: %s %s", d.path, e.Action, e.Subject)
		}
	}
	for _, gm := range roundGames(d, 1) {
		if gm.Bye {
			continue
		}
		key := fmt.Sprintf("round 1 table %d", gm.Table)
		if results[key] != 1 || gm.BlackDiscs == nil || gm.End == "" {
			t.Errorf("%s: %s recorded %d times: %+v", d.path, key, results[key], gm)
			continue
		}
		verifyTranscript(t, gm)
	}
}

// TestInterruptedRoundPlay: Ctrl-C (SIGINT) stops 'otd round play' cleanly:
// it says what is kept and how to go on, in words (not "context canceled",
// issue 21 item 10), the games finished stay, and the same command plays
// the rest. The interrupt is never left to luck: the games are played one
// at a time, in table order, and the fake engine of table 2 holds its game
// at its 2nd move (internal/fakeengine, mode hold), so the test interrupts
// once table 1 is recorded and table 2 is in play, and table 3 has not
// begun. Played again, the held game is let go on.
func TestInterruptedRoundPlay(t *testing.T) {
	t.Parallel() // as TestKilledRoundPlayResumes
	d := newTestDB(t)
	hold := holdDir(t.TempDir())
	d.must("tournament", "new", "Interrupted", "--rounds", "1")
	for i, e := range []string{"alphabeta:4", "alphabeta:3", "alphabeta:4", "alphabeta:3", "", "alphabeta:3"} {
		spec := "builtin:" + e
		if e == "" { // player 5: black at table 2 (1-4, 5-2, 3-6)
			spec = engineSpec("gtp", "hold", 2, "hold="+string(hold), "quiet")
		}
		d.must("player", "add", fmt.Sprintf("P%d", i+1), "--engine", spec)
	}
	d.must("round", "pair")
	c := exec.Command(os.Args[0], "--db", d.path, "round", "play", "--time", "10m", "--concurrency", "1")
	c.Env = append(os.Environ(), asOTD+"=1")
	stderr := &stampedWriter{start: time.Now()} // safe to read while the command writes
	c.Stderr = stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	hold.wait(t)
	c.Process.Signal(os.Interrupt)
	err := c.Wait()
	if err == nil || !strings.Contains(stderr.String(), "stopped") {
		t.Fatalf("interrupted round play: %v:\n%s", err, stderr.String())
	}
	var kept, left []string
	for _, gm := range roundGames(d, 1) {
		if gm.BlackDiscs != nil {
			kept = append(kept, strconv.Itoa(gm.Table))
		} else {
			left = append(left, strconv.Itoa(gm.Table))
		}
	}
	if fmt.Sprint(kept, left) != "[1] [2 3]" {
		t.Fatalf("tables %v recorded and %v not after the interrupt; want [1] and [2 3]", kept, left)
	}
	const want = "otd: round 1 stopped: 1 game played and recorded, kept (table 1); 2 engine games without a result (tables 2 and 3): the games running were stopped, not recorded; run 'otd round play' again to play them\n"
	if out := stderr.String(); !strings.HasSuffix(out, want) || strings.Contains(out, "context") {
		t.Errorf("interrupted round play said:\n%s\nwant it to end with\n%s", out, want)
	}
	stop := hold.releasing()
	d.must("round", "play", "--time", "10m")
	stop()
	checkPlayedOnce(t, d)
}

// TestRoundPlayStoppedLeavesNothing stops 'otd round play' while two games
// run: between engines that start children leaving their process group
// (setsid) and their parent (a daemon's double fork), which hold the
// engines' pipes, and between engines that ignore the end of their input
// (one also quit and SIGINT). On Ctrl-C it returns, having ended every
// process. Killed (SIGKILL), its engines and their children die with it
// (a parent-death signal to their boxes' inits); the next round play plays
// the games. Every process is checked by pid and start time.
func TestRoundPlayStoppedLeavesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the processes are found in /proc")
	}
	t.Parallel() // its fakes are marked with its subtest's name: it looks for its own alone
	for _, sig := range []os.Signal{os.Interrupt, os.Kill} {
		t.Run(sig.String(), func(t *testing.T) {
			mark := "test=" + t.Name()
			d := newTestDB(t)
			d.must("tournament", "new", "Stopped", "--rounds", "1", "--time-default", "fixed") // no completion of a default to wait for
			// Registration starts and stops each engine, and its children;
			// the engines then think 2 s a move, set without the check.
			d.must("player", "add", "Daemon", "--engine", engineSpec("gtp", "daemon", 0, mark))
			d.must("player", "add", "Setsid", "--engine", engineSpec("nboard", "setsid", 0, mark))
			d.must("player", "edit", "1", "--no-check", "--engine", engineSpec("gtp", "daemon", 0, "think=2s", mark))
			d.must("player", "edit", "2", "--no-check", "--engine", engineSpec("nboard", "setsid", 0, "think=2s", mark))
			d.must("player", "add", "NoEOF", "--no-check", "--engine", engineSpec("gtp", "noeof", 0, "think=2s", mark))
			d.must("player", "add", "IgnoreQuit", "--no-check", "--engine", engineSpec("nboard", "ignorequit", 0, "think=2s", mark))
			if left := fakeProcesses(t, mark); len(left) > 0 {
				t.Fatalf("fake engines left by registration: %v", left)
			}
			d.must("round", "pair")
			c := exec.Command(os.Args[0], "--db", d.path, "round", "play", "--time", "1m/move", "--concurrency", "2")
			c.Env = append(os.Environ(), asOTD+"=1")
			stderr := &stampedWriter{start: time.Now()}
			c.Stderr = stderr
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			// The four engines and a sleeper of each of two (fakeengine's
			// modes).
			var seen []fakeProcess
			modes := map[string]int{}
			for end := time.Now().Add(hang); len(seen)-modes["detach"] < 6 || modes["sleeper"] < 2; {
				if time.Now().After(end) {
					c.Process.Kill()
					t.Fatalf("the engines and their children did not start: %v", seen)
				}
				time.Sleep(10 * time.Millisecond)
				seen, modes = fakeProcesses(t, mark), map[string]int{}
				for _, f := range seen {
					modes[f.mode()]++
				}
			}
			c.Process.Signal(sig)
			sent := time.Now()
			done := make(chan error, 1)
			go func() { done <- c.Wait() }()
			select {
			case <-done:
				t.Logf("round play ended %v after %v", time.Since(sent), sig)
			case <-time.After(hang): // how soon it ends is the machine's business: a hang is the test's
				c.Process.Kill()
				t.Fatalf("round play did not end within %v of %v:\n%s", hang, sig, stderr)
			}
			if sig == os.Kill {
				// The engines and what they started die with otd (their
				// box, proc's doc).
				for _, f := range seen {
					for end := time.Now().Add(hang); f.Running() && time.Now().Before(end); {
						time.Sleep(10 * time.Millisecond)
					}
					if f.Running() {
						t.Errorf("after the kill, %v running", f)
					}
				}
				out, errs, code := d.run("round", "play", "--time", "1s/move", "--concurrency", "2")
				if code != 0 {
					t.Errorf("round play after the kill: exit %d:\n%s%s", code, out, errs)
				}
				for _, gm := range roundGames(d, 1) {
					if gm.End != "time" {
						t.Errorf("a game after the kill: %+v", gm)
					}
				}
			} else if !strings.Contains(stderr.String(), "stopped") {
				t.Errorf("round play after Ctrl-C:\n%s", stderr)
			}
			for _, f := range seen {
				if f.Running() {
					t.Errorf("left running: %v", f)
				}
			}
			if left := fakeProcesses(t, mark); len(left) > 0 {
				t.Errorf("fake engines left running: %v", left)
			}
		})
	}
}
