package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/engine/proc"
	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/tournament"
)

// TestEscapedGrandchild plays issue 28's engine (gtp-rhino behind a shell
// whose grandchild leaves its session, its parent and its environment:
// fakeengine.Escaper) in each of the boxes proc makes, forced: the
// grandchild ends with the registration's check, with each game of round
// play (--concurrency 2), and when round play is killed (SIGKILL). Of a
// cgroup whose init was killed too, the next round play ends it. The bounds
// (hang) catch what does not end, not a slow machine.
func TestEscapedGrandchild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the boxes are Linux's")
	}
	rhino := testenv.GTPRhino(t)
	for _, way := range []string{"pidns", "cgroup", "subreaper"} {
		t.Run(way, func(t *testing.T) {
			t.Setenv(proc.EnvIsolation, way)
			if p, err := proc.Start(proc.Config{Argv: []string{"/bin/true"}}); err != nil && way == "subreaper" {
				t.Fatalf("the box %s, which needs nothing of the kernel: %v", way, err)
			} else if err != nil {
				testenv.Missing(t, fmt.Sprintf("the box %s: %v", way, err))
			} else {
				p.Stop("")
			}
			d := newTestDB(t)
			file := filepath.Join(t.TempDir(), "grandchild")
			// grandchild waits for the pid of a new grandchild, which it
			// kills when the test ends (if this test failed).
			grandchild := func() proc.ID {
				t.Helper()
				pid, err := fakeengine.EscaperPid(file, hang)
				if err != nil {
					t.Fatal(err)
				}
				os.Remove(file)
				id, _ := proc.Find(pid)
				t.Cleanup(func() {
					if id.Running() {
						syscall.Kill(id.Pid, syscall.SIGKILL)
					}
				})
				return id
			}
			t.Cleanup(func() { // one whose pid was not read yet, if this test failed
				if pid, err := fakeengine.EscaperPid(file, 0); err == nil {
					if argv, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); strings.Contains(string(argv), "3602") {
						syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			})
			// gone checks that the grandchild the command before started
			// has ended: no process of its pid runs its script or sleep
			// (one of another pid would have another argv).
			gone := func(after string) {
				t.Helper()
				id := grandchild()
				if argv, _ := os.ReadFile("/proc/" + strconv.Itoa(id.Pid) + "/cmdline"); strings.Contains(string(argv), "3602") {
					t.Errorf("the grandchild %d still running after %s", id.Pid, after)
				}
			}
			ended := func(id proc.ID, after string) {
				t.Helper()
				for end := time.Now().Add(hang); id.Running(); time.Sleep(5 * time.Millisecond) {
					if time.Now().After(end) {
						t.Fatalf("the grandchild %d still running %v after %s", id.Pid, hang, after)
					}
				}
			}
			d.must("tournament", "new", "Escape", "--rounds", "2")
			d.must("player", "add", "Escaper", "--engine", tournament.Engine{Protocol: "gtp", Argv: fakeengine.Escaper([]string{rhino, "-l", "1"}, file)}.String())
			gone("player add")
			for _, e := range []string{"builtin:greedy", "builtin:random", "builtin:random:2"} {
				d.must("player", "add", e, "--engine", e)
			}
			play := []string{"round", "play", "--time", "1m", "--concurrency", "2"}
			d.must("round", "pair")
			d.must(play...)
			gone("round play")

			d.must("round", "pair")
			c := exec.Command(os.Args[0], append([]string{"--db", d.path}, play...)...)
			c.Env = append(os.Environ(), asOTD+"=1")
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			g := grandchild()
			if !g.Running() {
				t.Fatal("the grandchild of the round play to kill is not running")
			}
			if way == "cgroup" { // its init first: nothing is left to end the box
				stop(t, c.Process.Pid) // or otd would end it, seeing its engine end
				for _, pid := range inits(c.Process.Pid) {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			c.Process.Kill()
			c.Wait()
			if way != "cgroup" {
				ended(g, "round play's SIGKILL")
			}
			out, errs, code := d.run(play...)
			if code != 0 {
				t.Errorf("the next round play: exit %d:\n%s%s", code, out, errs)
			}
			ended(g, "the next round play")
			gone("the next round play's games")
		})
	}
}

// stop stops the process pid (SIGSTOP) and waits until each of its threads
// has stopped (within hang: a bound on a hang, not on a slow machine).
func stop(t *testing.T, pid int) {
	t.Helper()
	syscall.Kill(pid, syscall.SIGSTOP)
	for end := time.Now().Add(hang); ; time.Sleep(5 * time.Millisecond) {
		stats, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/stat")
		running := len(stats) == 0
		for _, f := range stats {
			b, _ := os.ReadFile(f)
			if i := strings.LastIndexByte(string(b), ')'); i < 0 || len(b) < i+3 || b[i+2] != 'T' && b[i+2] != 't' {
				running = true
			}
		}
		if !running {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("process %d not stopped %v after SIGSTOP", pid, hang)
		}
	}
}

// inits returns the engines' inits that process pid started.
func inits(pid int) []int {
	var ps []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, _ := os.ReadFile(f)
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			if fs := strings.Fields(s[i+1:]); len(fs) > 1 && fs[1] == strconv.Itoa(pid) {
				argv, _ := os.ReadFile(filepath.Join(filepath.Dir(f), "cmdline"))
				if strings.HasPrefix(string(argv), "otd-engine-init\x00") {
					n, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
					ps = append(ps, n)
				}
			}
		}
	}
	return ps
}
