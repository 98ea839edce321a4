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
// go on.
func TestKilledRoundPlayResumes(t *testing.T) {
	template := filepath.Join(t.TempDir(), "template.db")
	hold := t.TempDir() // the fake's file while it holds its game
	d := &testDB{t: t, path: template}
	d.must("tournament", "new", "Kill me", "--rounds", "1")
	// The fake first: its game, at table 1, is started first.
	d.must("player", "add", "P1 fake", "--engine", engineSpec("gtp", "hold", 3, "hold="+hold, "quiet"))
	for i, e := range []string{"alphabeta:1", "alphabeta:2", "alphabeta:3", "greedy", "random:1", "random:2",
		"alphabeta:3", "alphabeta:2", "greedy", "random:3", "alphabeta:1"} {
		d.must("player", "add", fmt.Sprintf("P%d %s", i+2, e), "--engine", "builtin:"+e)
	}
	d.must("round", "pair")
	tmpl, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	release := func() { // removes the fake's file: it goes on
		files, _ := os.ReadDir(hold)
		for _, f := range files {
			os.Remove(filepath.Join(hold, f.Name()))
		}
	}
	held := func() bool {
		files, err := os.ReadDir(hold)
		if err != nil {
			t.Fatal(err)
		}
		return len(files) > 0
	}
	rng := rand.New(rand.NewPCG(11, 0))
	for i := range 20 {
		db := filepath.Join(t.TempDir(), fmt.Sprintf("kill%d.db", i))
		if err := os.WriteFile(db, tmpl, 0o644); err != nil {
			t.Fatal(err)
		}
		c, stderr := startOTD(t, "--db", db, "round", "play", "--time", "1s/move", "--concurrency", "2")
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
		for !held() {
			time.Sleep(5 * time.Millisecond)
		}
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
		release() // the killed fake's file
		// Played again: the held game is let go on.
		stop := make(chan struct{})
		released := make(chan struct{})
		go func() {
			defer close(released)
			for {
				release()
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		d.must("round", "play", "--time", "1s/move", "--concurrency", "2")
		close(stop)
		<-released
		checkPlayedOnce(t, d)
	}
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
// the rest.
func TestInterruptedRoundPlay(t *testing.T) {
	d := newTestDB(t)
	d.must("tournament", "new", "Interrupted", "--rounds", "1")
	for i, e := range []string{"alphabeta:4", "alphabeta:3", "alphabeta:4", "alphabeta:3", "alphabeta:4", "alphabeta:3"} {
		d.must("player", "add", fmt.Sprintf("P%d", i+1), "--engine", "builtin:"+e)
	}
	d.must("round", "pair")
	c := exec.Command(os.Args[0], "--db", d.path, "round", "play", "--time", "2s", "--concurrency", "1")
	c.Env = append(os.Environ(), asOTD+"=1")
	stderr := &stampedWriter{start: time.Now()} // safe to read while the command writes
	c.Stderr = stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	// Once the first game is recorded (its line printed), interrupt.
	deadline := time.Now().Add(hang)
	for !strings.Contains(stderr.String(), "round 1 table") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
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
	if len(kept) == 0 || len(left) == 0 {
		t.Fatalf("tables %v of 3 recorded after the interrupt, want some but not all", kept)
	}
	// Games are played in table order, one at a time: 1 (or 1 and 2) kept.
	tables := map[int]string{1: "1 game played and recorded, kept (table 1); 2 engine games without a result (tables 2 and 3)",
		2: "2 games played and recorded, kept (tables 1 and 2); 1 engine game without a result (table 3)"}
	want := "otd: round 1 stopped: " + tables[len(kept)] + ": the games running were stopped, not recorded; run 'otd round play' again to play them\n"
	if out := stderr.String(); !strings.HasSuffix(out, want) || strings.Contains(out, "context") {
		t.Errorf("interrupted round play said:\n%s\nwant it to end with\n%s", out, want)
	}
	d.must("round", "play", "--time", "2s")
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
	for _, sig := range []os.Signal{os.Interrupt, os.Kill} {
		t.Run(sig.String(), func(t *testing.T) {
			d := newTestDB(t)
			d.must("tournament", "new", "Stopped", "--rounds", "1", "--time-default", "fixed") // no completion of a default to wait for
			// Registration starts and stops each engine, and its children;
			// the engines then think 2 s a move, set without the check.
			d.must("player", "add", "Daemon", "--engine", engineSpec("gtp", "daemon", 0))
			d.must("player", "add", "Setsid", "--engine", engineSpec("nboard", "setsid", 0))
			d.must("player", "edit", "1", "--no-check", "--engine", engineSpec("gtp", "daemon", 0, "think=2s"))
			d.must("player", "edit", "2", "--no-check", "--engine", engineSpec("nboard", "setsid", 0, "think=2s"))
			d.must("player", "add", "NoEOF", "--no-check", "--engine", engineSpec("gtp", "noeof", 0, "think=2s"))
			d.must("player", "add", "IgnoreQuit", "--no-check", "--engine", engineSpec("nboard", "ignorequit", 0, "think=2s"))
			if left := fakeProcesses(t); len(left) > 0 {
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
				seen, modes = fakeProcesses(t), map[string]int{}
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
			if left := fakeProcesses(t); len(left) > 0 {
				t.Errorf("fake engines left running: %v", left)
			}
		})
	}
}
