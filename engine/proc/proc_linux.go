package proc

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// sysProcAttr starts the engine in a process group of its own, and kills it
// when otd dies, however it dies (a parent-death signal). Linux sends that
// signal when the thread that started the engine ends, not the process: Go
// ends a thread only when a goroutine locked to it (runtime.LockOSThread)
// returns, which nothing in otd does.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// becomeSubreaper makes otd a child subreaper (PR_SET_CHILD_SUBREAPER): a
// process an engine started whose parent ends is given to otd, not to init,
// so that otd finds it, kills it and reaps it. syscall has no Prctl, and the
// process handling takes nothing beyond the standard library (no x/sys).
var becomeSubreaper = sync.OnceFunc(func() {
	const prSetChildSubreaper = 36
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
})

// procInfo is a process as /proc/PID/stat gives it.
type procInfo struct {
	ID
	ppid, pgrp int
	state      byte // R, S, D, Z (a zombie, waiting for its parent), ...
}

func (q procInfo) running() bool { return q.state != 'Z' && q.state != 'X' }

// readProc reads /proc/PID/stat: pid (comm) state ppid pgrp session tty_nr
// tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
// priority nice num_threads itrealvalue starttime ...; comm may hold spaces
// and parentheses.
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
	f := strings.Fields(s[j+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	start, err3 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procInfo{}, false
	}
	return procInfo{ID: ID{Pid: pid, Start: start}, ppid: ppid, pgrp: pgrp, state: f[0][0]}, true
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

// marker returns the value of the variable EnvMarker in the environment a
// process was started with ("" if none, or if it cannot be read: another
// user's process).
func marker(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(EnvMarker+"=")); ok {
			return string(v)
		}
	}
	return ""
}

// family returns the processes an engine started: those for which seed
// holds, the known ones that are still the same processes, and all their
// descendants. otd itself is never one of them.
func family(seed func(procInfo) bool, known []ID) []procInfo {
	all := processes()
	in := make(map[int]bool)
	for _, q := range all {
		if q.Pid != os.Getpid() && (seed(q) || slices.Contains(known, q.ID)) {
			in[q.Pid] = true
		}
	}
	for grew := true; grew; {
		grew = false
		for _, q := range all {
			if !in[q.Pid] && in[q.ppid] && q.Pid != os.Getpid() {
				in[q.Pid], grew = true, true
			}
		}
	}
	var fam []procInfo
	for _, q := range all {
		if in[q.Pid] {
			fam = append(fam, q)
		}
	}
	return fam
}

// seed reports whether a process is of the engine's family by itself: in
// its process group, or carrying its marker.
func (p *Process) seed(q procInfo) bool { return q.pgrp == p.pgid || marker(q.Pid) == p.mark }

// members returns the engine's family as it is now.
func (p *Process) members() []ID {
	var ids []ID
	for _, q := range family(p.seed, nil) {
		ids = append(ids, q.ID)
	}
	return ids
}

// end ends the engine's family, known the members found before; it returns
// how many are left running.
func (p *Process) end(known []ID) int {
	_, left := end(p.seed, known, p.pgid, p.wait)
	return left
}

// endRun ends what run left: every process carrying one of its markers, and
// their descendants. It returns how many it killed.
func endRun(run ID, wait func(func() bool) bool) int {
	prefix := run.String() + "."
	killed, _ := end(func(q procInfo) bool { return strings.HasPrefix(marker(q.Pid), prefix) }, nil, 0, wait)
	return killed
}

// end ends a family (seed, known and their descendants, as family finds
// them): until none of it is left or wait gives up, it finds it again (a
// member may start another meanwhile), sends SIGKILL to each running member
// (through a pidfd opened on its pid, its start time checked after, so that
// the signal cannot reach a later process given the same pid), and reaps
// the members that became otd's children (a subreaper adopts orphans),
// except notPid (the engine, which its exec.Cmd reaps). It returns how many
// processes it killed and how many are left.
func end(seed func(procInfo) bool, known []ID, notPid int, wait func(func() bool) bool) (killed, left int) {
	seen := slices.Clone(known) // found before: a zombie carries no marker
	signalled := make(map[ID]bool)
	wait(func() bool {
		fam := family(seed, seen)
		left = 0
		for _, q := range fam {
			if !slices.Contains(seen, q.ID) {
				seen = append(seen, q.ID)
			}
			switch {
			case q.running():
				if !signalled[q.ID] {
					signalled[q.ID] = true
					if pr, err := os.FindProcess(q.Pid); err == nil {
						if q.Running() {
							pr.Signal(syscall.SIGKILL)
						}
						pr.Release()
					}
				}
				left++
			case slices.ContainsFunc(fam, func(r procInfo) bool { return r.Pid == q.ppid }):
				left++ // a zombie whose parent, dying too, hands it to otd
			case q.ppid == os.Getpid() && q.Pid != notPid:
				var ws syscall.WaitStatus
				if n, _ := syscall.Wait4(q.Pid, &ws, syscall.WNOHANG, nil); n != q.Pid {
					left++ // not reaped yet
				}
			}
		}
		return left == 0
	})
	return len(signalled), left
}
