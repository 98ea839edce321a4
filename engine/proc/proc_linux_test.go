package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/fakeengine"
)

// The test binary is also the fake engines (internal/fakeengine) and the
// holders of TestBoxHoldsEscaper.
func TestMain(m *testing.M) {
	if code, ok := fakeengine.Main(); ok {
		os.Exit(code)
	}
	if len(os.Args) == 4 && os.Args[1] == holderArg {
		os.Exit(holder(os.Args[2], os.Args[3]))
	}
	os.Exit(m.Run())
}

// children returns the processes a fake engine says it started ("fake:
// child PID" on stderr), once it has said so n times (within hang), as
// they are now.
func children(t *testing.T, p *Process, n int) []ID {
	t.Helper()
	re := regexp.MustCompile(`fake: child (\d+)`)
	for end := time.Now().Add(hang); len(re.FindAllString(p.Stderr(), -1)) < n && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	var ids []ID
	for _, m := range re.FindAllStringSubmatch(p.Stderr(), -1) {
		pid, _ := strconv.Atoi(m[1])
		if id, ok := Find(pid); ok {
			ids = append(ids, id)
		}
	}
	if len(ids) < n {
		t.Fatalf("%d children running; want %d: stderr %q", len(ids), n, p.Stderr())
	}
	return ids
}

// hang bounds Stop in the tests: longer than all its waits (its graces, and
// killWait for each of three states), it catches a Stop that never returns,
// not a slow machine.
const hang = time.Minute

// stopAndCheck stops p (failing if Stop does not return within hang) and
// checks, by pid, that none of ids is left: not running, and not a zombie
// of this process (which must reap what it adopts).
func stopAndCheck(t *testing.T, p *Process, ids []ID) {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- p.Stop("quit") }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("stop: %v", err)
		}
	case <-time.After(hang):
		t.Fatalf("Stop did not return within %v", hang)
	}
	for _, id := range ids {
		if q, ok := readProc(id.Pid); ok && q.Start == id.Start && (q.running() || q.ppid == os.Getpid()) {
			t.Errorf("process %d left: state %c, parent %d", id.Pid, q.state, q.ppid)
		}
	}
	if err := Gone(p.Pid(), 10*time.Second); err != nil {
		t.Error(err)
	}
}

// TestStopEndsEverything: whatever the engine does (ignore quit and the end
// of its input, start children that leave its process group and its
// parent, holding its pipes), Stop returns and ends every process, found by
// pid.
func TestStopEndsEverything(t *testing.T) {
	for _, tc := range []struct {
		mode     string
		children int // the sleepers and detachers it starts
	}{
		{"good", 0},
		{"ignorequit", 0},
		{"noeof", 0},
		{"fork", 1},
		{"setsid", 1},
		{"daemon", 2},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			p, err := Start(Config{Argv: fakeengine.Argv("gtp", tc.mode, 0), Grace: 150 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			ids := append(children(t, p, tc.children), ID{})
			ids[len(ids)-1], _ = Find(p.Pid())
			stopAndCheck(t, p, ids)
		})
	}
}

// TestStopEndsOrphans: the engine ended (killed here) before Stop, what it
// started is left without it: a daemon's sleeper, and the zombie of the
// detacher that started it in a session of its own. They end, and Stop
// returns.
func TestStopEndsOrphans(t *testing.T) {
	p, err := Start(Config{Argv: fakeengine.Argv("gtp", "daemon", 0), Grace: 150 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ids := children(t, p, 2)
	engine := 0 // the fake, its init's child
	for _, q := range processes() {
		if q.ppid == p.Pid() && strings.Contains(cmdline(q.Pid), "otd-fake-engine gtp daemon") {
			engine = q.Pid
		}
	}
	if engine == 0 {
		t.Fatalf("no engine under its init (pid %d)", p.Pid())
	}
	syscall.Kill(engine, syscall.SIGKILL)
	<-p.exited
	stopAndCheck(t, p, ids)
}

// cmdline returns the argv of a process, spaces between its words.
func cmdline(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}

// TestStopHurried: once Hurry is closed (Ctrl-C), Stop does not wait its
// graces (an hour here) for an engine that ignores quit and SIGINT: closed
// before Stop, and while it waits (once the engine's log shows the quit that
// Stop wrote before its first grace).
func TestStopHurried(t *testing.T) {
	for _, before := range []bool{true, false} {
		hurry := make(chan struct{})
		p, err := Start(Config{Argv: fakeengine.Argv("gtp", "ignorequit", 0), Grace: time.Hour, Hurry: hurry})
		if err != nil {
			t.Fatal(err)
		}
		id, _ := Find(p.Pid())
		if before {
			close(hurry)
		} else {
			go func() {
				for end := time.Now().Add(hang); !strings.Contains(p.Stderr(), "fake: got quit\n") && time.Now().Before(end); {
					time.Sleep(5 * time.Millisecond)
				}
				close(hurry)
			}()
		}
		stopAndCheck(t, p, []ID{id})
	}
}

// fakesLeft returns the fake engines of this test binary left running, and
// the zombies of this process (which must reap what it adopts; a zombie
// has no argv).
func fakesLeft() []procInfo {
	var left []procInfo
	for _, q := range processes() {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(q.Pid) + "/cmdline")
		argv := strings.Split(string(b), "\x00")
		fake := len(argv) > 1 && argv[0] == os.Args[0] && argv[1] == "otd-fake-engine"
		if q.running() && fake || !q.running() && q.ppid == os.Getpid() {
			left = append(left, q)
		}
	}
	return left
}

// BenchmarkStopLeavesNothing is a stress test of Stop: it starts engines
// whose children leave their group and their parent (modes daemon, setsid,
// fork), stops each at once or a few milliseconds later (its children
// starting, exec'ing, exiting) and fails if a process is left (ending it);
// "leaks" counts the stops that left one. Run it with the cores busy
// (BENCHMARKS.md):
//
//	go test ./engine/proc -run '^$' -bench StopLeavesNothing -benchtime 1000x
func BenchmarkStopLeavesNothing(b *testing.B) {
	modes := []string{"daemon", "fork", "setsid"}
	leaks := 0
	for i := 0; b.Loop(); i++ {
		p, err := Start(Config{Argv: fakeengine.Argv("gtp", modes[i%len(modes)], 0), Grace: 150 * time.Millisecond})
		if err != nil {
			b.Fatal(err)
		}
		time.Sleep(time.Duration(i%7) * time.Millisecond)
		if err := p.Stop("quit"); err != nil {
			b.Errorf("stop %d (%s): %v", i, modes[i%len(modes)], err)
		}
		if left := fakesLeft(); len(left) > 0 {
			leaks++
			b.Errorf("stop %d (%s) left %s", i, modes[i%len(modes)], describe(left))
			for _, q := range left { // this process's (a subreaper adopts orphans)
				syscall.Kill(q.Pid, syscall.SIGKILL)
				syscall.Wait4(q.Pid, nil, 0, nil)
			}
		}
	}
	b.ReportMetric(float64(leaks), "leaks")
}

// describe says what processes are: pid, state, parent and argv.
func describe(ps []procInfo) string {
	var s []string
	for _, q := range ps {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(q.Pid) + "/cmdline")
		st, _ := os.ReadFile("/proc/" + strconv.Itoa(q.Pid) + "/stat")
		s = append(s, fmt.Sprintf("%d (state %c, parent %d, group %d, session %d: %s) %s", q.Pid, q.state, q.ppid, q.pgrp, q.sid, strings.ReplaceAll(string(b), "\x00", " "), st))
	}
	return strings.Join(s, ", ")
}

// TestLastWordsOnABusyMachine: an engine that writes its last words to stderr
// and exits is ErrCrashed with its exit status and its last words, however
// late otd gets to them. Goroutines that spin keep this process's threads
// busy, as a loaded machine does, so that the copy of stderr runs late: on
// Linux the exit and the end of stderr follow the end of the engine's output
// (endWait), so Crashed waits for them, not for a grace (it waited 200 ms,
// and TestClient/FakeExitAtStart then failed under load).
func TestLastWordsOnABusyMachine(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for !isClosed(stop) {
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	const want = "the engine exited (exit status 3; stderr: last words)"
	for range 5 {
		p, err := Start(Config{Argv: []string{"/bin/sh", "-c", "echo last words >&2; exit 3"}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), hang)
		_, err = p.Line(ctx)
		cancel()
		if !errors.Is(err, ErrCrashed) || err.Error() != want {
			t.Errorf("%v; want %q", err, want)
		}
		if err := p.Stop(""); err != nil {
			t.Error(err)
		}
	}
}
