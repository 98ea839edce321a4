package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
)

// holderArg makes the test binary a holder: an otd that starts issue 28's
// engine (fakeengine.Escaper of gtp-rhino -l 1) in
// the box of EnvIsolation, prints the pid of the process it started and
// its own ID, then stops it when it reads a line, and says how that went.
const holderArg = "otd-proc-holder"

func holder(rhino, file string) int {
	p, err := Start(Config{Argv: fakeengine.Escaper([]string{rhino, "-l", "1"}, file), Grace: 150 * time.Millisecond})
	if err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println(p.Pid(), Self())
	bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Println("stop:", p.Stop("quit"))
	return 0
}

// A started holder: the process, its ID, its stdin and stdout, the pid of
// the process it started (the engine's init, or the engine), and the
// grandchild, once it has written its pid.
type held struct {
	cmd        *exec.Cmd
	id         ID
	in         io.WriteCloser
	out        *bufio.Reader
	engine     int
	grandchild ID
}

// hold starts a holder in the box way, as the user cred (nil: this one) in
// the folder dir, which that user can write, and waits for the
// grandchild's pid (the bound, hang, catches a grandchild that never
// writes, not a slow machine). It kills what is left when the test ends.
func hold(t *testing.T, way, dir string, cred *syscall.Credential) *held {
	t.Helper()
	rhino := testenv.GTPRhino(t)
	file := filepath.Join(dir, "grandchild")
	os.Remove(file)
	c := exec.Command(os.Args[0], holderArg, rhino, file)
	if cred != nil {
		c.Path = filepath.Join(dir, "proc.test")
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	c.Dir, c.Env, c.Stderr = dir, append(os.Environ(), EnvIsolation+"="+way), os.Stderr
	h := &held{cmd: c}
	in, _ := c.StdinPipe()
	out, _ := c.StdoutPipe()
	h.in, h.out = in, bufio.NewReader(out)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Process.Kill()
		c.Wait()
		if h.grandchild.Running() { // this test failed: do not leave it running
			syscall.Kill(h.grandchild.Pid, syscall.SIGKILL)
		}
	})
	line, _ := h.out.ReadString('\n')
	if _, err := fmt.Sscanf(line, "%d %d.%d", &h.engine, &h.id.Pid, &h.id.Start); err != nil {
		if way != "subreaper" && strings.HasPrefix(line, "start ") {
			testenv.Missing(t, fmt.Sprintf("the box %s (%s)", way, strings.TrimSpace(line)))
		}
		t.Fatalf("the holder said %q", line)
	}
	pid, err := fakeengine.EscaperPid(file, hang)
	if h.grandchild, _ = Find(pid); err != nil || !h.grandchild.Running() {
		t.Fatalf("no grandchild running: %v", err)
	}
	return h
}

// checkBox checks that the grandchild carries the mark of the box way: a
// PID namespace that is not this process's, a cgroup of otd's making, or
// the engine's init (a subreaper) as its parent once its own has exited
// (within hang: a bound on a hang, not on a slow machine).
func checkBox(t *testing.T, way string, h *held) {
	t.Helper()
	g := strconv.Itoa(h.grandchild.Pid)
	switch way {
	case "pidns":
		ns, _ := os.Readlink("/proc/" + g + "/ns/pid")
		if mine, _ := os.Readlink("/proc/self/ns/pid"); ns == mine {
			t.Errorf("the grandchild is in this process's PID namespace, %s", ns)
		}
	case "cgroup":
		b, _ := os.ReadFile("/proc/" + g + "/cgroup")
		if !strings.Contains(string(b), "0::/") || !strings.Contains(string(b), "/"+cgroupPrefix+h.id.String()+"-") {
			t.Errorf("the grandchild's cgroup is not the holder's making: %q", b)
		}
	case "subreaper":
		for end := time.Now().Add(hang); ; time.Sleep(5 * time.Millisecond) {
			if q, _ := readProc(h.grandchild.Pid); q.ppid == h.engine {
				break
			}
			if time.Now().After(end) {
				q, _ := readProc(h.grandchild.Pid)
				t.Errorf("the grandchild's parent is %d, not the engine's init %d", q.ppid, h.engine)
				break
			}
		}
	}
}

// ended waits for the grandchild to end (the bound, hang, catches one that
// does not, not a slow machine).
func (h *held) ended(t *testing.T, after string) {
	t.Helper()
	for end := time.Now().Add(hang); h.grandchild.Running(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the grandchild %d still running %v after %s", h.grandchild.Pid, hang, after)
		}
	}
}

// noCgroups checks that no cgroup of otd's making is left of run.
func noCgroups(t *testing.T, run ID) {
	t.Helper()
	if parent, err := cgroupParent(); err == nil {
		if left, _ := filepath.Glob(filepath.Join(parent, cgroupPrefix+run.String()+"-*")); len(left) > 0 {
			t.Errorf("cgroups left: %v", left)
		}
	}
}

// TestBoxHoldsEscaper: the grandchild of issue 28's engine carries the mark
// of its box, whichever way the box is made, and it ends when the game
// ends (Stop) and when otd is killed (SIGKILL): at once, or, for a cgroup
// whose init was killed too, at the next otd's start (EndRun). As root,
// the PID namespace is also made as an unprivileged user (through a user
// namespace), as a director's laptop makes it; run unprivileged, the test
// makes it so anyway.
func TestBoxHoldsEscaper(t *testing.T) {
	dir := t.TempDir()
	for _, way := range isolations {
		t.Run(way+"/stop", func(t *testing.T) {
			h := hold(t, way, dir, nil)
			checkBox(t, way, h)
			io.WriteString(h.in, "stop\n")
			if line, _ := h.out.ReadString('\n'); line != "stop: <nil>\n" {
				t.Errorf("the holder said %q", line)
			}
			if h.grandchild.Running() {
				t.Errorf("the grandchild %d still running after Stop", h.grandchild.Pid)
			}
			if err := Gone(h.engine, 10*time.Second); err != nil {
				t.Error(err)
			}
		})
		t.Run(way+"/kill", func(t *testing.T) {
			h := hold(t, way, dir, nil)
			checkBox(t, way, h)
			h.cmd.Process.Kill()
			h.cmd.Wait()
			h.ended(t, "the holder's SIGKILL")
			EndRun(h.id) // the next otd removes the empty cgroup
			noCgroups(t, h.id)
		})
	}
	t.Run("cgroup/killinit", func(t *testing.T) {
		h := hold(t, "cgroup", dir, nil)
		checkBox(t, "cgroup", h)
		syscall.Kill(h.engine, syscall.SIGKILL) // the init, before otd: nothing runs then to end the box
		h.cmd.Process.Kill()
		h.cmd.Wait()
		// Another otd making its first cgroup may end it first (a sweep
		// of the cgroups of the otds that are not running): what counts
		// is that nothing is left once EndRun has run.
		EndRun(h.id)
		h.ended(t, "EndRun")
		noCgroups(t, h.id)
	})
	if os.Geteuid() != 0 {
		return
	}
	// As nobody: the test binary, and the folder, where nobody can read
	// and write.
	nobody := &syscall.Credential{Uid: 65534, Gid: 65534}
	udir := t.TempDir()
	os.Chmod(udir, 0o777)
	os.Chmod(filepath.Dir(udir), 0o755)
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(udir, "proc.test"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("pidns/unprivileged/stop", func(t *testing.T) {
		h := hold(t, "pidns", udir, nobody)
		checkBox(t, "pidns", h)
		ns, _ := os.Readlink("/proc/" + strconv.Itoa(h.grandchild.Pid) + "/ns/user")
		if mine, _ := os.Readlink("/proc/self/ns/user"); ns == mine {
			t.Errorf("the grandchild is in this process's user namespace, %s", ns)
		}
		io.WriteString(h.in, "stop\n")
		if line, _ := h.out.ReadString('\n'); line != "stop: <nil>\n" {
			t.Errorf("the holder said %q", line)
		}
		if h.grandchild.Running() {
			t.Errorf("the grandchild %d still running after Stop", h.grandchild.Pid)
		}
	})
	t.Run("pidns/unprivileged/kill", func(t *testing.T) {
		h := hold(t, "pidns", udir, nobody)
		checkBox(t, "pidns", h)
		h.cmd.Process.Kill()
		h.cmd.Wait()
		h.ended(t, "the holder's SIGKILL")
	})
}
