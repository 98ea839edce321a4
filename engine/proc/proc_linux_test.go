package proc

import (
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/fakeengine"
)

// The test binary is also the fake engines (internal/fakeengine).
func TestMain(m *testing.M) {
	if code, ok := fakeengine.Main(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// children returns the processes a fake engine says it started ("fake:
// child PID" on stderr), once it has said so n times (within 10 s), as
// they are now.
func children(t *testing.T, p *Process, n int) []ID {
	t.Helper()
	re := regexp.MustCompile(`fake: child (\d+)`)
	for end := time.Now().Add(10 * time.Second); len(re.FindAllString(p.Stderr(), -1)) < n && time.Now().Before(end); {
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

// stopAndCheck stops p (failing if Stop does not return within limit) and
// checks, by pid, that none of ids is left: not running, and not a zombie
// of this process (which must reap what it adopts).
func stopAndCheck(t *testing.T, p *Process, ids []ID, limit time.Duration) {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- p.Stop("quit") }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("stop: %v", err)
		}
	case <-time.After(limit):
		t.Fatalf("Stop did not return within %v", limit)
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
			stopAndCheck(t, p, ids, 10*time.Second)
		})
	}
}

// TestStopHurried: once Hurry is closed (Ctrl-C), Stop does not wait its
// graces (an hour here) for an engine that ignores quit and SIGINT: closed
// before Stop and while it waits.
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
			time.AfterFunc(100*time.Millisecond, func() { close(hurry) })
		}
		stopAndCheck(t, p, []ID{id}, 10*time.Second)
	}
}
