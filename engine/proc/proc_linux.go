package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// endWait bounds Crashed's waits for the engine's exit and the end of its
// stderr, which on Linux are states that follow the break of its input or
// output: the init holds the engine's output and stderr until it ends, which
// it does once the engine has ended, with the box (the init's socket tells
// the status); the engine's input breaks only when the engine and all it
// started have closed it, and its exit then ends the init. A loaded machine
// may take seconds to bring them (killWait); only an init killed from
// outside, whose engine lives on, leaves them to the bound.
const endWait = killWait

// The ways to box an engine, the strongest first.
var isolations = []string{"pidns", "cgroup", "subreaper"}

// box is an engine's init, which otd started, and what holds the engine's
// processes beside it.
type box struct {
	cmd    *exec.Cmd // the init
	pidns  bool      // the init is the first process of a PID namespace
	cgroup string    // the engine's cgroup (a folder of the cgroup2 mount), or ""
	conn   *os.File  // otd's end of the init's socket: the engine's exit status
}

// start starts the init of an engine (path, with cfg.Argv) in the first box
// the kernel allows, or the one EnvIsolation names.
func start(path string, cfg Config, env []string, stdio []*os.File) (*box, error) {
	ways := isolations
	if w := os.Getenv(EnvIsolation); w != "" {
		if !slices.Contains(isolations, w) {
			return nil, fmt.Errorf("%s=%s: want one of %s", EnvIsolation, w, strings.Join(isolations, ", "))
		}
		ways = []string{w}
	}
	var err error
	for _, w := range ways {
		var b *box
		if b, err = startIn(w, path, cfg, env, stdio); err == nil {
			return b, nil
		}
		err = fmt.Errorf("%s: %w", w, err)
	}
	return nil, err
}

// startIn starts the init in the box of a way: a PID namespace (with a user
// namespace when otd is not root, which maps otd's uid and gid to
// themselves: the engine runs as otd's user), a cgroup of its own (entered
// at the clone), or none but the init's tree. The init is the leader of the
// engine's process group; it is given otd's end of a socket as fd 3.
func startIn(way, path string, cfg Config, env []string, stdio []*os.File) (b *box, err error) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	b = &box{pidns: way == "pidns"}
	switch way {
	case "pidns":
		attr.Cloneflags = syscall.CLONE_NEWPID
		if uid, gid := os.Geteuid(), os.Getegid(); uid != 0 {
			attr.Cloneflags |= syscall.CLONE_NEWUSER
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		}
	case "cgroup":
		if b.cgroup, err = newCgroup(); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				os.Remove(b.cgroup)
			}
		}()
		f, err := os.Open(b.cgroup)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		attr.UseCgroupFD, attr.CgroupFD = true, int(f.Fd())
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	b.conn = os.NewFile(uintptr(fds[0]), "init")
	theirs := os.NewFile(uintptr(fds[1]), "otd")
	defer theirs.Close()
	b.cmd = &exec.Cmd{
		Path: "/proc/self/exe", Args: append([]string{initArg0, path}, cfg.Argv...), Dir: cfg.Dir, Env: env,
		Stdin: stdio[0], Stdout: stdio[1], Stderr: stdio[2], ExtraFiles: []*os.File{theirs}, SysProcAttr: attr,
	}
	if err := b.cmd.Start(); err != nil {
		b.conn.Close()
		return nil, err
	}
	return b, nil
}

// wait waits for the init to end and returns the engine's exit status, as
// the init tells it (or the init's own, when it was killed first).
func (b *box) wait() error {
	err := b.cmd.Wait()
	s, _ := io.ReadAll(b.conn)
	b.conn.Close()
	if ws, perr := strconv.ParseUint(string(s), 10, 32); perr == nil {
		if ws := syscall.WaitStatus(ws); !ws.Exited() || ws.ExitStatus() != 0 {
			return exitStatus(ws)
		}
		return nil
	}
	return err
}

// exitStatus is an engine's exit status, said as exec.ExitError says it.
type exitStatus syscall.WaitStatus

func (s exitStatus) Error() string {
	ws := syscall.WaitStatus(s)
	switch {
	case ws.Exited():
		return "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled() && ws.CoreDump():
		return "signal: " + ws.Signal().String() + " (core dumped)"
	case ws.Signaled():
		return "signal: " + ws.Signal().String()
	}
	return fmt.Sprintf("wait status %#x", uint32(ws))
}

// kill ends the box: SIGKILL to the init of a PID namespace (the kernel
// kills every process of the namespace), SIGTERM to another init, which
// kills the engine and its descendants.
func (b *box) kill() {
	if b.pidns {
		b.cmd.Process.Kill()
		return
	}
	b.cmd.Process.Signal(syscall.SIGTERM)
}

// release, once the init has ended (or been killed), ends what is left in
// the engine's cgroup (nothing, unless the init was killed) and removes it.
func (b *box) release() error {
	if b.cgroup == "" {
		return nil
	}
	_, err := endCgroup(b.cgroup)
	return err
}

// cgroupPrefix begins the name of an engine's cgroup: otd-engine-RUN-N,
// RUN the otd that made it (ID.String) and N the engine.
const cgroupPrefix = "otd-engine-"

// engines numbers the engines this process starts in cgroups.
var engines atomic.Int64

// newCgroup makes a cgroup for an engine below otd's own, having ended
// those that otds no longer running left.
func newCgroup() (string, error) {
	parent, err := cgroupParent()
	if err != nil {
		return "", err
	}
	sweepCgroups()
	dir := filepath.Join(parent, fmt.Sprintf("%s%s-%d", cgroupPrefix, Self(), engines.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil { // Linux 5.14 and later
		os.Remove(dir)
		return "", err
	}
	return dir, nil
}

// cgroupParent returns the folder of otd's cgroup in the cgroup2 hierarchy
// (0::PATH in /proc/self/cgroup), under a mount of it (/proc/self/mountinfo:
// ID PARENT DEV ROOT MOUNTPOINT OPTIONS ... - TYPE SOURCE OPTIONS, with
// octal escapes), where the engines' cgroups are made.
var cgroupParent = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	own, ok := "", false
	for line := range strings.Lines(string(b)) {
		if own, ok = strings.CutPrefix(strings.TrimRight(line, "\n"), "0::"); ok {
			break
		}
	}
	if !ok {
		return "", errors.New("otd is in no cgroup2")
	}
	if b, err = os.ReadFile("/proc/self/mountinfo"); err != nil {
		return "", err
	}
	unescape := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`).Replace
	for line := range strings.Lines(string(b)) {
		pre, post, _ := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 1 || g[0] != "cgroup2" {
			continue
		}
		root, mnt := unescape(f[3]), unescape(f[4])
		if rel, ok := strings.CutPrefix(own, root); ok && (root == "/" || rel == "" || rel[0] == '/') {
			return filepath.Join(mnt, rel), nil
		}
	}
	return "", errors.New("no cgroup2 mount holds otd's cgroup")
})

// endCgroup kills the processes of the cgroup dir (cgroup.kill), waits
// until none is left and removes it. It returns how many it killed.
func endCgroup(dir string) (int, error) {
	procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return 0, err
	}
	n := strings.Count(string(procs), "\n")
	if populated(dir) {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0); err != nil {
			return 0, err
		}
	}
	if !waitState(func() bool { return !populated(dir) }) {
		return n, fmt.Errorf("the cgroup %s still holds processes after cgroup.kill", dir)
	}
	return n, os.Remove(dir)
}

// populated reports whether a process of the cgroup dir, or of a cgroup
// below, is running (cgroup.events; a zombie is no longer in its cgroup).
func populated(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.events"))
	return err == nil && strings.Contains(string(b), "populated 1")
}

// endRun ends the cgroups that run made for its engines.
func endRun(run ID) int { return endCgroups(func(maker ID) bool { return maker == run }) }

// endCgroups ends the engines' cgroups below otd's own whose maker (their
// name says it) ends says; it returns how many processes it killed.
func endCgroups(ends func(maker ID) bool) int {
	parent, err := cgroupParent()
	if err != nil {
		return 0
	}
	ents, _ := os.ReadDir(parent)
	killed := 0
	for _, e := range ents {
		var maker ID
		var n int
		if _, err := fmt.Sscanf(e.Name(), cgroupPrefix+"%d.%d-%d", &maker.Pid, &maker.Start, &n); err == nil && ends(maker) {
			k, _ := endCgroup(filepath.Join(parent, e.Name()))
			killed += k
		}
	}
	return killed
}

// sweepCgroups ends, once, the engines' cgroups of the otds that are no
// longer running: empty, when their inits ended them as otd died; not when
// their inits were killed too.
var sweepCgroups = sync.OnceFunc(func() { endCgroups(func(maker ID) bool { return !maker.Running() }) })

// initArg0 is the argv[0] with which otd runs itself as an engine's init:
// initArg0 PATH ARGV...
const initArg0 = "otd-engine-init"

// An engine's init is handled before anything else of otd (or of a test
// binary) runs.
func init() {
	if len(os.Args) > 2 && os.Args[0] == initArg0 {
		os.Exit(runInit(os.Args[1], os.Args[2:]))
	}
}

const (
	prSetPdeathsig      = 1
	prSetChildSubreaper = 36
)

// runInit is an engine's init (fd 3 its socket to otd). It asks for a
// signal when otd dies (SIGKILL in a PID namespace: the kernel then kills
// the namespace; SIGTERM otherwise), starts the engine and reaps every
// process orphaned below it (the first process of a PID namespace does,
// another is a child subreaper) until the engine ends; SIGTERM kills the
// engine, SIGINT (sent to the engine's group) is the engine's alone. It
// tells otd the engine's exit status, then ends what the engine left: as
// the first process of a PID namespace by ending (the kernel kills the
// rest), otherwise by killing its descendants.
//
// Linux sends the parent-death signal when the thread that started the
// init ends, not otd: Go ends a thread only when a goroutine locked to it
// (runtime.LockOSThread) returns, which nothing in otd does.
func runInit(path string, argv []string) int {
	syscall.CloseOnExec(3)
	pidns := os.Getpid() == 1
	death := syscall.SIGTERM
	if pidns {
		death = syscall.SIGKILL
	}
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetPdeathsig, uintptr(death), 0)
	// otd may have died before the call: its end of the socket is closed.
	syscall.SetNonblock(3, true)
	if n, err := syscall.Read(3, make([]byte, 1)); n == 0 && err == nil {
		return 0
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	if !pidns {
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	}
	status := syscall.WaitStatus(127 << 8)
	engine, err := os.StartProcess(path, argv, &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "otd: start %s: %v\n", argv[0], err)
	} else {
		// The engine's input breaks when it ends; its output and stderr
		// end when the init does, with the status told.
		os.Stdin.Close()
		go func() {
			for s := range sigs {
				if s != syscall.SIGINT {
					engine.Kill()
				}
			}
		}()
		status = reap(engine.Pid)
	}
	syscall.Write(3, []byte(strconv.FormatUint(uint64(status), 10)))
	if !pidns {
		killTree()
	}
	return 0
}

// reap reaps the init's children until the engine, pid, ends, and returns
// its status.
func reap(pid int) syscall.WaitStatus {
	for {
		var ws syscall.WaitStatus
		n, err := syscall.Wait4(-1, &ws, 0, nil)
		if n == pid || err != nil && err != syscall.EINTR {
			return ws
		}
	}
}

// killTree kills the init's descendants and reaps them until it has no
// child: what a dying descendant orphans becomes the init's child (it is a
// subreaper), so no child means no descendant. A scan kills what it finds
// running (by pidfd, its start time checked, so that the signal cannot
// reach a later process given the pid); what a process started after a
// scan listed /proc is found by a later one.
func killTree() {
	signalled := make(map[ID]bool)
	for step := time.Millisecond; ; step = min(2*step, 20*time.Millisecond) {
		for {
			n, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if err == syscall.ECHILD {
				return
			}
			if n <= 0 {
				break
			}
		}
		for _, q := range descendants(os.Getpid()) {
			if q.running() && !signalled[q.ID] {
				signalled[q.ID] = true
				if pr, err := os.FindProcess(q.Pid); err == nil {
					if q.Running() {
						pr.Signal(syscall.SIGKILL)
					}
					pr.Release()
				}
			}
		}
		time.Sleep(step)
	}
}

// descendants returns the descendants of the process pid, as /proc lists
// them now.
func descendants(pid int) []procInfo {
	all := processes()
	in := map[int]bool{pid: true}
	for grew := true; grew; {
		grew = false
		for _, q := range all {
			if !in[q.Pid] && in[q.ppid] {
				in[q.Pid], grew = true, true
			}
		}
	}
	var ds []procInfo
	for _, q := range all {
		if in[q.Pid] && q.Pid != pid {
			ds = append(ds, q)
		}
	}
	return ds
}

// procInfo is a process as /proc/PID/stat gives it.
type procInfo struct {
	ID
	ppid, pgrp, sid int
	state           byte // R, S, D, Z (a zombie, waiting for its parent), ...
	threads         int
}

// running reports whether the process runs: not a zombie, or a zombie
// leader of threads still running or still exiting (its parent cannot reap
// it yet).
func (q procInfo) running() bool { return q.state != 'Z' && q.state != 'X' || q.threads > 1 }

// readProc reads /proc/PID/stat: pid (comm) state ppid pgrp session tty_nr
// tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
// priority nice num_threads itrealvalue starttime ...; comm may hold
// spaces and parentheses.
func readProc(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	s := string(b)
	j := strings.LastIndexByte(s, ')')
	if j < 0 {
		return procInfo{}, false
	}
	f := strings.Fields(s[j+1:]) // f[0] is field 3, state
	if len(f) < 20 || len(f[0]) != 1 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	sid, err3 := strconv.Atoi(f[3])
	threads, err4 := strconv.Atoi(f[17])
	start, err5 := strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		return procInfo{}, false
	}
	return procInfo{ID: ID{Pid: pid, Start: start}, ppid: ppid, pgrp: pgrp, sid: sid, state: f[0][0], threads: threads}, true
}

// processes lists the processes of the system.
func processes() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var ps []procInfo
	for _, d := range ents {
		if pid, err := strconv.Atoi(d.Name()); err == nil {
			if q, ok := readProc(pid); ok {
				ps = append(ps, q)
			}
		}
	}
	return ps
}

// Find returns the process that has pid now.
func Find(pid int) (ID, bool) {
	q, ok := readProc(pid)
	return q.ID, ok
}

// Running reports whether the process is there and running (not a zombie
// waiting for its parent): a later process given the same pid is another.
func (id ID) Running() bool {
	q, ok := readProc(id.Pid)
	return ok && q.Start == id.Start && q.running()
}

var self = sync.OnceValue(func() ID {
	id, _ := Find(os.Getpid())
	return id
})

// groupRunning reports whether a process of the group pgid is running: /proc
// tells the running from the zombies that wait for their parent.
func groupRunning(pgid int) bool {
	for _, q := range processes() {
		if q.pgrp == pgid && q.running() {
			return true
		}
	}
	return false
}
