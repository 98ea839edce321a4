package otd_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"github.com/otd-project/otd/app"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/store/sqlite"
	"github.com/otd-project/otd/tournament"
)

var crashRuns = flag.Int("crashruns", 1, "runs of TestCrashSafety, each of 200 results and 50 kills (seeds 1, 2, ...)")

// TestCrashSafety enters the 200 results of a 400-player round, one `otd
// result` process each, while a seeded killer sends SIGKILL to the running
// process 50 times over, spread over the 200 results, each kill while otd
// has the database open: the killer waits for that (the file among the
// process's open files, in /proc), then kills after a seeded delay drawn
// from the life of an uninterrupted `otd result` (the median so far; halved
// after each kill that came too late, the command having ended), so that a
// kill lands before, during or after the commit. -crashruns 50 runs it 50
// times (seeds 1, 2, ...; about 3 minutes). A killed command is entered
// again, as a director would, and so is a command that ended before a kill
// due (the same result again changes nothing), until the kills due are done.
// After every kill and at the end, a fresh store checks that every result
// whose command exited 0 is there with its discs, that the killed game has
// its whole result and its audit row or neither, that no other game has a
// result or an audit row, and that PRAGMA integrity_check says ok.
//
// SIGKILL kills the process, not the machine: the operating system still
// writes what the process wrote. It tests SQLite's transactions as otd uses
// them, not the disk's flushes (synchronous(FULL) is there for those).
func TestCrashSafety(t *testing.T) {
	t.Parallel() // databases of its own; it kills only the processes it started
	bin := buildOTD(t)
	for run := 1; run <= *crashRuns; run++ {
		t.Run("seed"+strconv.Itoa(run), func(t *testing.T) { crashRun(t, bin, uint64(run), 200, 50) })
	}
}

func crashRun(t *testing.T, bin string, seed uint64, results, kills int) {
	db, games := pairedRound(t, bin, 2*results)
	rng := rand.New(rand.NewPCG(seed, 0xdead))
	want := map[int]tournament.Result{} // table: the result of a command that exited 0
	var lives []time.Duration           // of the attempts not killed
	phases := map[string]int{}          // kills by what they interrupted
	killed, late := 0, 0                // kills; kills due that came after the command's end, in a row
	for i, g := range games {
		b := rng.IntN(65)
		res := tournament.Result{Black: b, White: 64 - b, Kind: tournament.Normal}
		args := []string{"--db", db, "result", "1", strconv.Itoa(g.Table), fmt.Sprintf("%d-%d", b, 64-b)}
		present := false // the game has its result
		for {
			// The kills due by the end of this result (the first ten
			// attempts measure a command's life).
			due := i >= 10 && killed < kills*(i+1)/len(games)
			var delay time.Duration
			if due {
				delay = time.Duration(rng.Int64N(int64(median(lives))>>min(late, 20) + 1))
			}
			stderr, status, sig, life := runKilled(t, bin, db, args, due, delay)
			if sig {
				late = 0
				killed++
				phase := "database open, nothing written"
				if _, err := os.Stat(db + "-wal"); err == nil {
					phase = "database open, nothing committed"
				}
				was := present
				if present = checkResults(t, db, want, g.Table, res); present && !was {
					phase = "after the commit"
				}
				phases[phase]++
				continue
			}
			if due {
				if late++; late > 1000 {
					t.Fatalf("1000 runs of otd %v ended before a kill could land with the database open", args[2:])
				}
			}
			lives = append(lives, life)
			// Entered again after a kill that came after the commit, the
			// same result changes nothing (otd says it is recorded already,
			// exit 0): no second audit row (checkResults).
			if status != 0 || stderr != "" {
				t.Fatalf("otd %v: exit status %d, want 0: %s", args[2:], status, stderr)
			}
			want[g.Table] = res
			present = true
			if !due {
				break
			}
		}
	}
	checkResults(t, db, want, 0, tournament.Result{})
	t.Logf("%d results entered; %d kills, with the database open: %v; median life of a command %v", len(want), killed, phases, median(lives))
}

// runKilled runs otd and, if kill, sends it SIGKILL delay after it has the
// database db open (Linux's /proc), unless it ends first. It returns
// stderr, the exit status, whether SIGKILL ended the process, and the time
// from its start to its end.
func runKilled(t *testing.T, bin, db string, args []string, kill bool, delay time.Duration) (string, int, bool, time.Duration) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ended := make(chan time.Duration, 1)
	go func() { cmd.Wait(); ended <- time.Since(start) }()
	var life time.Duration
	if real, err := filepath.EvalSymlinks(db); err == nil {
		db = real // as /proc names the open file
	}
	if kill && waitOpen(cmd.Process.Pid, db, ended) {
		select {
		case life = <-ended:
		case <-time.After(delay):
			cmd.Process.Kill()
			life = <-ended
		}
	} else {
		life = <-ended
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return stderr.String(), ws.ExitStatus(), ws.Signaled() && ws.Signal() == syscall.SIGKILL, life
}

// waitOpen waits until process pid has file name open, reporting true, or
// until it ends (a value on ended, put back), reporting false.
func waitOpen(pid int, name string, ended chan time.Duration) bool {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	for {
		select {
		case d := <-ended:
			ended <- d
			return false
		default:
		}
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			if l, _ := os.Readlink(filepath.Join(dir, fd.Name())); l == name {
				return true
			}
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// checkResults checks round 1 of the database with a fresh store: each game
// in want has that result; the game at table pending (0: none) has res or no
// result; the others have none; exactly the games with a result have one
// "result" audit row, with that result; PRAGMA integrity_check says ok. It
// returns whether the pending game has its result.
func checkResults(t *testing.T, db string, want map[int]tournament.Result, pending int, res tournament.Result) bool {
	t.Helper()
	tm, log := loadDB(t, db)
	audited := map[int][]tournament.Result{}
	for _, e := range log {
		if e.Action != tournament.ActResult {
			continue
		}
		if len(e.After.Results) != 1 || e.After.Results[0].Round != 1 || e.After.Results[0].Result == nil {
			t.Fatalf("audit entry %d (%s): %+v", e.ID, e.Subject, e.After)
		}
		after := e.After.Results[0]
		audited[after.Table] = append(audited[after.Table], *after.Result)
	}
	present := false
	for _, g := range tm.Round(1) {
		w, ok := want[g.Table]
		switch {
		case ok && (g.Result == nil || *g.Result != w):
			t.Fatalf("table %d: result %v, want %v", g.Table, g.Result, w)
		case g.Table == pending && g.Result != nil:
			if *g.Result != res {
				t.Fatalf("table %d: result %v, want %v or none", g.Table, *g.Result, res)
			}
			present = true
		case !ok && g.Table != pending && g.Result != nil:
			t.Fatalf("table %d: result %v, but no command entering it has run", g.Table, *g.Result)
		}
		var stored []tournament.Result
		if g.Result != nil {
			stored = []tournament.Result{*g.Result}
		}
		if !slices.Equal(audited[g.Table], stored) {
			t.Fatalf("table %d: audit rows %v for the result %v", g.Table, audited[g.Table], stored)
		}
	}
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.IntegrityCheck(); err != nil {
		t.Fatal(err)
	}
	return present
}

// pairedRound creates, with otd's own commands, a tournament of n players
// (n even) with round 1 paired, and returns the database and round 1's games.
func pairedRound(t *testing.T, bin string, n int) (string, []tournament.Game) {
	t.Helper()
	dir := t.TempDir()
	db, csv := filepath.Join(dir, "otd.db"), filepath.Join(dir, "players.csv")
	var b strings.Builder
	b.WriteString("name,rating,country\n")
	for i := range n {
		fmt.Fprintf(&b, "Player %d,%d,FR\n", i+1, 1200+i*37%1000)
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"tournament", "new", "Crash", "--rounds", "5"}, {"player", "import", csv}, {"round", "pair"}} {
		if out, err := exec.Command(bin, append([]string{"--db", db}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("otd %v: %v\n%s", args, err, out)
		}
	}
	tm, _ := loadDB(t, db)
	return db, tm.Round(1)
}

// loadDB reads the current tournament and its audit trail with a fresh store.
func loadDB(t *testing.T, path string) (*tournament.Tournament, []tournament.Entry) {
	t.Helper()
	s, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := app.New(s.App())
	id, err := d.Current(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tm, log, err := d.Log(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tm, log
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
