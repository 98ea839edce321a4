package otd_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"github.com/otd-project/otd/app"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/store/postgres"
	"github.com/otd-project/otd/tournament"
)

// TestDistributedWorkersKilled is issue 24's test of engine rounds across
// machines: 4 'otd worker' processes play a round robin of 21 engines (21
// rounds of 10 games: 210 games), each round queued by 'otd round play
// --distributed', while a worker playing a game is killed (SIGKILL) in each
// of the 20 rounds that the first engine plays, and started again at once.
// The engines are fakes that answer at once (internal/fakeengine); the first
// holds its game at a move (mode hold) until the test lets it go on: the test
// waits for that, so that each kill lands on a worker in the middle of a game
// (not on luck), kills the worker holding it, then lets the game go on when
// another worker plays it again. At the end: every game has its result,
// recorded once (one audit entry 'result' per game, no other change of a
// result); every transcript replays, under the rules, to the score recorded
// (engine/transcript, not the code that recorded it); every kill cost its game
// (given back to the queue by the workers left, and played again); no engine
// process is left.
func TestDistributedWorkersKilled(t *testing.T) {
	t.Parallel() // a database of its own; its fake engines carry its token, which alone it looks for
	const (
		entrants = 21 // rounds of 10 games and a bye
		workers  = 4
		kills    = entrants - 1 // the rounds of the first engine
	)
	pg := testenv.Postgres(t)
	bin := buildOTD(t)
	token := "distributed-" + strings.ToLower(rand.Text()[:10]) // in every fake engine's arguments
	rounds := entrants

	st, err := postgres.Open(pg, postgres.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	d := app.New(st.App())
	ctx := context.Background()
	s := tournament.DefaultSettings("Engines RR", rounds)
	s.System = tournament.RoundRobin
	if s.Time, err = engine.ParseTimeControl("30s"); err != nil {
		t.Fatal(err)
	}
	created, err := d.Create(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	held := t.TempDir() // the files of the first engine's games held (mode hold)
	for i := range entrants {
		argv := fakeengine.Argv("gtp", "good", 0, "quiet", token)
		if i == 0 { // held at its 5th move
			argv = fakeengine.Argv("gtp", "hold", 5, "hold="+held, "quiet", token)
		}
		spec := tournament.Engine{Protocol: tournament.GTP, Argv: argv}.String()
		in := tournament.PlayerInput{Name: fmt.Sprintf("Fake %02d", i+1), Engine: spec}
		if _, _, err := d.DoForTest(ctx, created.ID, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) }); err != nil {
			t.Fatal(err)
		}
	}

	dir := t.TempDir()
	procs := make([]*exec.Cmd, workers)
	logs := make([]string, workers)
	starts := make([]int, workers)
	start := func(i int) {
		starts[i]++
		logs[i] = filepath.Join(dir, fmt.Sprintf("worker%d.log", i+1))
		f, err := os.OpenFile(logs[i], os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd := exec.Command(bin, "--db", pg, "worker")
		cmd.Stdout, cmd.Stderr = f, f
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = cmd
	}
	for i := range workers {
		start(i)
	}
	defer func() { // a test that fails midway leaves no worker
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	}()
	otd := func(args ...string) {
		t.Helper()
		out, err := exec.Command(bin, append([]string{"--db", pg}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("otd %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	// waitHeld returns the pid of the engine holding its game (the name of
	// its file), or 0 when the round ends first.
	waitHeld := func(done <-chan struct{}) int {
		t.Helper()
		for {
			files, err := os.ReadDir(held)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) > 0 {
				pid, err := strconv.Atoi(files[0].Name())
				if err != nil {
					t.Fatal(err)
				}
				return pid
			}
			select {
			case <-done:
				return 0
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	began := time.Now()
	killed := 0
	for r := 1; r <= rounds; r++ {
		otd("round", "pair")
		var out bytes.Buffer
		play := exec.Command(bin, "--db", pg, "round", "play", "--distributed")
		play.Stdout, play.Stderr = &out, &out
		if err := play.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var playErr error
		go func() { playErr = play.Wait(); close(done) }()
		// The first engine's game cannot end while it is held: the round
		// ends first only in the round of its bye.
		if pid := waitHeld(done); pid != 0 {
			i := slices.IndexFunc(procs, func(p *exec.Cmd) bool { return descends(pid, p.Process.Pid) })
			if i < 0 {
				t.Fatalf("round %d: the engine holding its game (pid %d) is no worker's", r, pid)
			}
			procs[i].Process.Signal(syscall.SIGKILL)
			procs[i].Wait()
			killed++
			os.Remove(filepath.Join(held, strconv.Itoa(pid)))
			start(i)
			// Played again by a worker: let it go on.
			again := waitHeld(done)
			if again == 0 {
				t.Fatalf("round %d: the round ended without the game of worker %d killed played again:\n%s", r, i+1, out.String())
			}
			os.Remove(filepath.Join(held, strconv.Itoa(again)))
		}
		<-done
		if playErr != nil {
			t.Fatalf("round %d: otd round play --distributed: %v\n%s", r, playErr, out.String())
		}
		if !strings.Contains(out.String(), fmt.Sprintf("round %d: 10 engine games played", r)) {
			t.Errorf("round %d: otd round play --distributed said:\n%s", r, out.String())
		}
	}
	t.Logf("%d rounds, %d kills: %s", rounds, killed, time.Since(began).Round(time.Millisecond))
	// Each worker started is stopped once it says it plays (before that,
	// SIGTERM ends a process that has not yet set what it does on it).
	for i := range procs {
		for end := time.Now().Add(2 * time.Minute); strings.Count(readFile(t, logs[i]), "Ctrl-C stops") < starts[i]; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("worker %d, started %d times, did not say it plays; it said:\n%s", i+1, starts[i], readFile(t, logs[i]))
			}
		}
	}
	for _, p := range procs {
		p.Process.Signal(syscall.SIGTERM)
		if err := p.Wait(); err != nil {
			t.Errorf("a worker stopped by SIGTERM: %v", err)
		}
	}
	if t.Failed() {
		for i, l := range logs {
			t.Logf("worker %d said:\n%s", i+1, readFile(t, l))
		}
	}

	tm, log, err := d.Log(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	recorded := map[string]int{}
	for _, e := range log {
		switch e.Action {
		case tournament.ActResult:
			recorded[e.Subject]++
		case tournament.ActResultCorrect, tournament.ActUndo:
			t.Errorf("audit entry %d: %s %s", e.ID, e.Action, e.Subject)
		}
	}
	games := 0
	for _, g := range tm.Games {
		if g.IsBye() {
			continue
		}
		games++
		res := g.Result
		if res == nil {
			t.Errorf("round %d table %d: no result", g.Round, g.Table)
			continue
		}
		rec, err := transcript.ParseMovesRules(res.Moves, tm.GameRules())
		if err != nil {
			t.Errorf("round %d table %d: transcript %q: %v", g.Round, g.Table, res.Moves, err)
			continue
		}
		if rep := transcript.Verify(rec, &transcript.Result{Black: res.Black, White: res.White}); res.End != "normal" || !rep.Agrees() {
			t.Errorf("round %d table %d: %d-%d (%s), but its transcript replays to %s (over: %v, illegal: %v)",
				g.Round, g.Table, res.Black, res.White, res.End, rep.Score, rep.Over, rep.Illegal)
		}
	}
	if games != rounds*(entrants-1)/2 || len(recorded) != games {
		t.Errorf("%d games, %d audit subjects of results; want %d each", games, len(recorded), rounds*(entrants-1)/2)
	}
	for subject, n := range recorded {
		if n != 1 {
			t.Errorf("%s: recorded %d times", subject, n)
		}
	}

	givenBack := 0
	for _, l := range logs {
		givenBack += strings.Count(readFile(t, l), "given back to the queue")
	}
	t.Logf("%d games given back by the workers after the kills", givenBack)
	if killed != kills || givenBack != killed { // a worker plays one game at a time
		t.Errorf("%d kills (want %d), each in a game, but %d games given back", killed, kills, givenBack)
	}
	if left := engineProcesses(token, time.Minute); len(left) > 0 {
		t.Errorf("engine processes left running: %s", strings.Join(left, "; "))
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// descends reports whether process pid descends from process parent
// (Linux's /proc).
func descends(pid, parent int) bool {
	for pid > 1 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return false
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 2 {
			return false
		}
		if pid, err = strconv.Atoi(f[1]); err != nil {
			return false
		}
		if pid == parent {
			return true
		}
	}
	return false
}

// engineProcesses returns the command lines of the processes whose
// arguments hold token, waiting up to d for them to end (a SIGKILL takes
// effect in the kernel's time).
func engineProcesses(token string, d time.Duration) []string {
	deadline := time.Now().Add(d)
	for {
		var left []string
		dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, f := range dirs {
			b, err := os.ReadFile(f)
			if err == nil && bytes.Contains(b, []byte(token)) {
				left = append(left, filepath.Base(filepath.Dir(f))+": "+strings.ReplaceAll(string(bytes.TrimRight(b, "\x00")), "\x00", " "))
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(50 * time.Millisecond)
	}
}
