package cli

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// asOTD, set to 1 in the environment, makes the test binary run otd (TestMain).
const asOTD = "OTD_TEST_AS_OTD"

// TestKilledRoundPlayResumes kills 'otd round play' (SIGKILL) at random
// points, 20 times, and runs the same command again: every game ends played
// and recorded exactly once (one result in the audit trail per game, no
// correction), each transcript replaying to its score.
func TestKilledRoundPlayResumes(t *testing.T) {
	template := filepath.Join(t.TempDir(), "template.db")
	d := &testDB{t: t, path: template}
	d.must("tournament", "new", "Kill me", "--rounds", "1")
	for i, e := range []string{"alphabeta:1", "alphabeta:2", "alphabeta:3", "greedy", "random:1", "random:2",
		"alphabeta:3", "alphabeta:2", "greedy", "random:3", "alphabeta:1", "random:4"} {
		d.must("player", "add", fmt.Sprintf("P%d %s", i+1, e), "--engine", "builtin:"+e)
	}
	d.must("round", "pair")
	tmpl, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	play := func(db string) *exec.Cmd {
		c := exec.Command(os.Args[0], "--db", db, "round", "play", "--time", "1s/move", "--concurrency", "2")
		c.Env = append(os.Environ(), asOTD+"=1")
		c.Stdout, c.Stderr = io.Discard, io.Discard
		return c
	}
	// How long a whole run takes (the quickest of three: a loaded machine
	// only makes runs longer), to kill within its first 80%.
	whole := time.Hour
	for i := range 3 {
		db := filepath.Join(t.TempDir(), fmt.Sprintf("whole%d.db", i))
		if err := os.WriteFile(db, tmpl, 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := play(db).Run(); err != nil {
			t.Fatalf("round play: %v", err)
		}
		whole = min(whole, time.Since(start))
	}
	rng := rand.New(rand.NewPCG(11, 0))
	interrupted, midway := 0, 0
	for i := range 20 {
		db := filepath.Join(t.TempDir(), fmt.Sprintf("kill%d.db", i))
		if err := os.WriteFile(db, tmpl, 0o644); err != nil {
			t.Fatal(err)
		}
		c := play(db)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(whole) * 8 / 10)))
		c.Process.Kill()
		if c.Wait() == nil {
			continue // it had finished
		}
		interrupted++
		d := &testDB{t: t, path: db}
		done := 0
		for _, gm := range roundGames(d, 1) {
			if gm.BlackDiscs != nil {
				done++
			}
		}
		if done > 0 {
			midway++ // killed with some games recorded, others not
		}
		d.must("round", "play", "--time", "1s/move", "--concurrency", "2")
		checkPlayedOnce(t, d)
	}
	t.Logf("a whole round: %v; %d of 20 runs killed before the end, %d of them with games recorded", whole, interrupted, midway)
	if interrupted < 10 || midway < 3 {
		t.Errorf("only %d of 20 runs were killed before the end, %d with games recorded", interrupted, midway)
	}
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
// it says so, the games finished stay, and the same command plays the rest.
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
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "round 1 table") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c.Process.Signal(os.Interrupt)
	err := c.Wait()
	if err == nil || !strings.Contains(stderr.String(), "stopped") {
		t.Fatalf("interrupted round play: %v:\n%s", err, stderr.String())
	}
	done := 0
	for _, gm := range roundGames(d, 1) {
		if gm.BlackDiscs != nil {
			done++
		}
	}
	if done == 0 || done == 3 {
		t.Errorf("%d of 3 games recorded after the interrupt, want some but not all", done)
	}
	d.must("round", "play", "--time", "2s")
	checkPlayedOnce(t, d)
}
