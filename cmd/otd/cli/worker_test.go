package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"github.com/otd-project/otd/app"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/tournament"
)

// TestWorkerEngines plays a round across two workers on PostgreSQL: table
// 1 between two built-in players, table 2 between two GTP engines
// registered at a path that no machine has. The first worker (no --engines)
// plays table 1 and says that it waits, the game left needing engines it
// lacks; the second, given those engines' programs with --engines, plays
// table 2 (a local 'otd round play' meanwhile is refused: the game is
// queued). 'otd round play --distributed' says that both were played; both
// workers stop cleanly on SIGTERM. On SQLite both commands are refused,
// saying why.
func TestWorkerEngines(t *testing.T) {
	t.Parallel() // a database of its own; its fakes are not those of a test that looks for fakes left (marked)
	file := newTestDB(t)
	file.must("tournament", "new", "Club", "--rounds", "1")
	for _, args := range [][]string{{"worker"}, {"round", "play", "--distributed"}} {
		_, errs, code := file.run(args...)
		if code != exitUsage || !strings.Contains(errs, "PostgreSQL database only") || !strings.Contains(errs, "is an SQLite file") {
			t.Errorf("otd %s on SQLite: exit %d, %q", strings.Join(args, " "), code, errs)
		}
	}

	pg := testenv.Postgres(t)
	st, err := postgres.Open(pg, postgres.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	d := app.New(st.App())
	ctx := context.Background()
	tm, err := d.Create(ctx, tournament.DefaultSettings("Engines", 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []tournament.PlayerInput{{Name: "Alpha", Engine: "builtin:greedy"}, {Name: "Beta", Engine: "builtin:random:1"},
		{Name: "Gamma", Engine: "gtp:/nonexistent/gamma"}, {Name: "Delta", Engine: "gtp:/nonexistent/delta -l 2"}} {
		if _, _, err := d.DoForTest(ctx, tm.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(p) }); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := d.DoForTest(ctx, tm.ID, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}}})
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	otd := func(args ...string) (*exec.Cmd, *bytes.Buffer) {
		var out bytes.Buffer
		c := exec.Command(os.Args[0], append([]string{"--db", pg}, args...)...)
		c.Env = append(os.Environ(), asOTD+"=1", "USER=tester")
		c.Stdout, c.Stderr = &out, &out
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c, &out
	}
	w1, out1 := otd("worker", "--name", "w1")
	play, outPlay := otd("round", "play", "--distributed")
	fake := strings.Join(fakeengine.Argv("gtp", "good", 0, "quiet"), " ")
	waiting := "waiting: the 1 game queued need engines this worker lacks (Delta, Gamma)"
	for deadline := time.Now().Add(hang); !strings.Contains(out1.String(), waiting); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first worker did not say why it waits; it said:\n%s", out1)
		}
	}
	// A local round play meanwhile would play the queued game twice.
	local := exec.Command(os.Args[0], "--db", pg, "round", "play")
	local.Env = append(os.Environ(), asOTD+"=1")
	if out, err := local.CombinedOutput(); err == nil || !strings.Contains(string(out), "games queued for the workers are not played here too: round 1, table") ||
		!regexp.MustCompile(`tables? ([0-9, ]+ and )?2\b`).Match(out) {
		t.Errorf("a local round play of the round queued: %v\n%s", err, out)
	}
	w2, out2 := otd("worker", "--engines", "gamma="+fake, "--engines", "Delta="+fake)
	done := make(chan error, 1)
	go func() { done <- play.Wait() }()
	select {
	case err := <-done:
		if err != nil || !strings.Contains(outPlay.String(), "round 1: 2 engine games played") {
			t.Errorf("round play --distributed: %v\n%s", err, outPlay)
		}
	case <-time.After(hang):
		t.Fatalf("round play --distributed did not end; it said:\n%s\nthe workers:\n%s\n%s", outPlay, out1, out2)
	}
	for _, w := range []*exec.Cmd{w1, w2} {
		w.Process.Signal(syscall.SIGTERM)
		if err := w.Wait(); err != nil {
			t.Errorf("a worker stopped by SIGTERM: %v", err)
		}
	}
	for i, c := range []struct{ out, want string }{
		{out1.String(), "Engines, round 1 table 1: 1 Alpha - 2 Beta: "},
		{out1.String(), "stopped: 1 game played and recorded"},
		{out2.String(), "with gamma, Delta (and the built-in players)"},
		{out2.String(), "Engines, round 1 table 2: 3 Gamma - 4 Delta: "},
		{out2.String(), "stopped: 1 game played and recorded"},
	} {
		if !strings.Contains(c.out, c.want) {
			t.Errorf("%d: the worker said\n%s\nwant %q in it", i, c.out, c.want)
		}
	}
	// Each result names the worker that recorded it: by --name, or by
	// default its user and machine.
	var log, errs bytes.Buffer
	if code := Run([]string{"--db", pg, "log", "--json"}, nil, &log, &errs); code != 0 {
		t.Fatalf("log --json: exit %d, %s", code, errs.String())
	}
	var entries []logJSON
	if err := json.Unmarshal(log.Bytes(), &entries); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	want := map[string]string{"round 1 table 1": "w1", "round 1 table 2": "tester@" + host}
	for _, e := range entries {
		table, _, _ := strings.Cut(e.Subject, " (")
		if w, ok := want[table]; ok && e.Action == "result" {
			if e.Actor == nil || e.Actor.Kind != "worker" || e.Actor.Name != w {
				t.Errorf("%s %s: actor %+v; want the worker %s", e.Action, e.Subject, e.Actor, w)
			}
			delete(want, table)
		}
	}
	if len(want) > 0 {
		t.Errorf("no result recorded for %v", want)
	}
}

// engineEvent makes a one-round event of four built-in players, the last
// two (gtp) GTP entrants registered at paths no machine has, paired as
// forced, on a new PostgreSQL database; it returns the store, a Director,
// the tournament's id, and a command of otd on the database.
func engineEvent(t *testing.T, forced [][2]int, gtp bool) (*postgres.Store, *app.Director, int64, func(args ...string) *exec.Cmd) {
	pg := testenv.Postgres(t)
	st, err := postgres.Open(pg, postgres.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	d := app.New(st.App())
	ctx := context.Background()
	tm, err := d.Create(ctx, tournament.DefaultSettings("Engines", 1))
	if err != nil {
		t.Fatal(err)
	}
	ps := []tournament.PlayerInput{{Name: "Alpha", Engine: "builtin:greedy"}, {Name: "Beta", Engine: "builtin:random:1"},
		{Name: "Gamma", Engine: "builtin:random:2"}, {Name: "Delta", Engine: "builtin:random:3"}}
	if gtp {
		ps[2].Engine, ps[3].Engine = "gtp:/nonexistent/gamma", "gtp:/nonexistent/delta"
	}
	for _, p := range ps {
		if _, _, err := d.DoForTest(ctx, tm.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(p) }); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := d.DoForTest(ctx, tm.ID, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: forced})
	}); err != nil {
		t.Fatal(err)
	}
	return st, d, tm.ID, func(args ...string) *exec.Cmd {
		c := exec.Command(os.Args[0], append([]string{"--db", pg}, args...)...)
		c.Env = append(os.Environ(), asOTD+"=1")
		return c
	}
}

// start starts c with its output in a buffer, killed at the test's end.
func start(t *testing.T, c *exec.Cmd) *bytes.Buffer {
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	return &out
}

// TestWorkerEngineFails: a worker whose program for an engine is missing
// is refused at its start; one whose program fails to start does not
// record the game as the entrant's default: the game is played again, by a
// worker that can.
func TestWorkerEngineFails(t *testing.T) {
	t.Parallel() // a database of its own; its fakes are not those of a test that looks for fakes left (marked)
	_, d, id, otd := engineEvent(t, [][2]int{{1, 2}, {3, 4}}, true)
	fake := strings.Join(fakeengine.Argv("gtp", "good", 0, "quiet"), " ")
	typo := otd("worker", "--engines", "Gamma=/typo/gamma")
	typoOut := start(t, typo)
	ended := make(chan error, 1)
	go func() { ended <- typo.Wait() }()
	select {
	case err := <-ended:
		if err == nil || !strings.Contains(typoOut.String(), "this machine has no program /typo/gamma") {
			t.Errorf("a worker given a program that is not there: %v\n%s", err, typoOut)
		}
	case <-time.After(hang):
		t.Errorf("a worker given a program that is not there started")
	}
	bad := otd("worker", "--engines", "Gamma=/bin/false", "--engines", "Delta="+fake)
	badOut := start(t, bad)
	play := otd("round", "play", "--distributed")
	playOut := start(t, play)
	for deadline := time.Now().Add(hang); !strings.Contains(badOut.String(), "could not start"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the worker with /bin/false did not fail to start it; it said:\n%s", badOut)
		}
	}
	bad.Process.Signal(syscall.SIGTERM)
	bad.Wait()
	good := otd("worker", "--engines", "Gamma="+fake, "--engines", "Delta="+fake)
	goodOut := start(t, good)
	done := make(chan error, 1)
	go func() { done <- play.Wait() }()
	select {
	case err := <-done:
		if err != nil || !strings.Contains(playOut.String(), "round 1: 2 engine games played") {
			t.Errorf("round play --distributed: %v\n%s", err, playOut)
		}
	case <-time.After(hang):
		t.Fatalf("round play --distributed did not end; it said:\n%s\nthe workers:\n%s\n%s", playOut, badOut, goodOut)
	}
	tm, err := d.Tournament(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := tm.Game(1, 2); err != nil || g.Result == nil || g.Result.Kind != tournament.Normal || g.Result.End != "normal" {
		t.Errorf("table 2: %+v, %v; want a game played to its end\nthe workers:\n%s\n%s", g, err, badOut, goodOut)
	}
}

// TestWorkerRepaired: a round paired again while its games wait in the
// queue has its new games queued and played at the first asking.
func TestWorkerRepaired(t *testing.T) {
	t.Parallel() // a database of its own; its fakes are not those of a test that looks for fakes left (marked)
	st, d, id, otd := engineEvent(t, [][2]int{{1, 2}, {3, 4}}, false)
	play := otd("round", "play", "--distributed")
	out := start(t, play)
	for deadline := time.Now().Add(hang); ; time.Sleep(100 * time.Millisecond) {
		if jobs, err := st.Jobs(context.Background(), id, 1); err == nil && len(jobs) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("round play --distributed did not queue the round; it said:\n%s", out)
		}
	}
	play.Process.Signal(syscall.SIGINT)
	play.Wait()
	ctx := context.Background()
	if _, _, err := d.DoForTest(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.Unpair() }); err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.DoForTest(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 3}, {2, 4}}})
	}); err != nil {
		t.Fatal(err)
	}
	start(t, otd("worker"))
	if b, err := otd("round", "play", "--distributed").CombinedOutput(); err != nil || !strings.Contains(string(b), "round 1: 2 engine games played") {
		t.Errorf("round play --distributed after the round was paired again: %v\n%s", err, b)
	}
}

// TestWorkerStoppedWhileStarting: a worker asked to stop (SIGTERM) as soon
// as it says it is playing, while it still makes the queue's tables on a new
// database, stops as asked: exit 0, "stopped", no error.
func TestWorkerStoppedWhileStarting(t *testing.T) {
	t.Parallel() // a database of its own; its fakes are not those of a test that looks for fakes left (marked)
	pg := testenv.Postgres(t)
	if code := Run([]string{"--db", pg, "tournament", "new", "Engines", "--rounds", "1"}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatalf("tournament new: exit %d", code)
	}
	c, stderr := startOTD(t, "--db", pg, "worker")
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	var said strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() && !strings.Contains(sc.Text(), "Ctrl-C stops") {
		said.WriteString(sc.Text() + "\n")
	}
	c.Process.Signal(syscall.SIGTERM)
	for sc.Scan() {
		said.WriteString(sc.Text() + "\n")
	}
	if err := c.Wait(); err != nil || !strings.Contains(said.String(), "otd worker: stopped: 0 games played") {
		t.Errorf("a worker stopped as it started: %v; it said:\n%s", err, said.String())
	}
}
