package proc

import (
	"bytes"
	"errors"
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
	ppid, pgrp, sid int
	state           byte // R, S, D, Z (a zombie, waiting for its parent), ...
	threads         int
	noEnv           bool // its environment is set, and empty (env_start = env_end, not 0)
}

// running reports whether the process runs: not a zombie, or a zombie
// leader of threads still running or still exiting (its parent cannot reap
// it yet).
func (q procInfo) running() bool { return q.state != 'Z' && q.state != 'X' || q.threads > 1 }

// readProc reads /proc/PID/stat: pid (comm) state ppid pgrp session tty_nr
// tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
// priority nice num_threads itrealvalue starttime ... env_start env_end
// exit_code (the 52 fields of Linux 3.5 and later); comm may hold spaces and
// parentheses.
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
	return procInfo{ID: ID{Pid: pid, Start: start}, ppid: ppid, pgrp: pgrp, sid: sid, state: f[0][0], threads: threads,
		noEnv: len(f) > 48 && f[48] != "0" && f[47] == f[48]}, true
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
// user's process), and whether that is known: not while the process is in
// execve (its new environment not set yet), nor once it is ending or ended.
func marker(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if errors.Is(err, os.ErrPermission) {
		return "", true
	}
	for kv := range bytes.SplitSeq(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(EnvMarker+"=")); ok {
			return string(v), true
		}
	}
	if len(b) > 0 {
		return "", true
	}
	q, ok := readProc(pid) // nothing read: an empty environment, or none
	return "", ok && q.running() && q.noEnv
}

// family returns the processes of the system and, among them, those an
// engine started: those for which seed holds, the known ones that are still
// the same processes, and their descendants. otd itself is never one of
// them.
func family(seed func(procInfo) bool, known []ID) (all []procInfo, in map[int]bool) {
	all = processes()
	in = make(map[int]bool)
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
	return all, in
}

// seed reports whether a process is of the engine's family by itself: in
// its process group, or carrying its marker.
func (p *Process) seed(q procInfo) bool {
	if q.pgrp == p.pgid {
		return true
	}
	m, _ := marker(q.Pid)
	return m == p.mark
}

// members returns the engine's family as it is now.
func (p *Process) members() []ID {
	var ids []ID
	all, in := family(p.seed, nil)
	for _, q := range all {
		if in[q.Pid] {
			ids = append(ids, q.ID)
		}
	}
	return ids
}

// end ends the engine's family, known the members found before; it returns
// how many are left.
func (p *Process) end(known []ID) int {
	_, left := end(p.seed, known, p.pgid)
	return left
}

// endRun ends what run left: every process carrying one of its markers, and
// their descendants. It returns how many it killed.
func endRun(run ID) int {
	prefix := run.String() + "."
	killed, _ := end(func(q procInfo) bool {
		m, _ := marker(q.Pid)
		return strings.HasPrefix(m, prefix)
	}, nil, 0)
	return killed
}

// end ends a family (seed, known and what family adds to them). It scans
// the processes again and again: it sends SIGKILL to each running member
// (through a pidfd opened on its pid, its start time checked after, so that
// the signal cannot reach a later process given the same pid), and reaps
// the dead members that became otd's children (a subreaper adopts orphans),
// except notPid (the engine, which its exec.Cmd reaps). It also reaps the
// dead children of otd outside otd's session: otd starts none there (an
// engine has a group of its own in otd's session), so each is an orphan
// from an engine, maybe one that lived too short for a scan to see it
// alive (a zombie carries no marker), as the child that Go's os/exec starts
// and reaps to probe pidfd, when its parent is killed in between. It
// returns how many processes it killed and how many are left (when it gives
// up, after killWait: a process stuck in the kernel).
//
// It ends when a scan finds the family gone and nothing that may still add
// to it. A scan is not an instant: a member that it finds dead may have
// started a process after the scan listed /proc, and that process, orphaned,
// is known only by its marker. So a scan that finds a process dead for the
// first time (a member, or a child of otd it cannot place) is followed by
// another, which lists what that process started. A child of otd whose
// marker cannot be read (in execve, or it ended after the scan read its
// state) is looked at again by another. What a member killed by an earlier
// scan starts does not exist (Linux fails a fork once SIGKILL is pending).
func end(seed func(procInfo) bool, known []ID, notPid int) (killed, left int) {
	seen := slices.Clone(known) // found before: a zombie carries no marker
	signalled := make(map[ID]bool)
	dead := make(map[ID]bool) // found dead by a scan
	me, _ := readProc(os.Getpid())
	waitState(func() bool {
		all, in := family(seed, seen)
		left = 0
		fresh := false
		for _, q := range all {
			if !in[q.Pid] && q.ppid != os.Getpid() {
				continue // not otd's to place
			}
			if in[q.Pid] && !slices.Contains(seen, q.ID) {
				seen = append(seen, q.ID)
			}
			switch {
			case q.running() && in[q.Pid]:
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
			case q.running():
				// A child of otd the scan did not place: is it an orphan of
				// the family whose marker could not be read (in execve,
				// or it ended after the scan read its state)?
				if _, ok := marker(q.Pid); !ok || seed(q) {
					left++ // the next scan tells
				}
			default:
				fresh = fresh || !dead[q.ID]
				dead[q.ID] = true
				switch {
				case q.ppid == os.Getpid() && q.Pid != notPid && (in[q.Pid] || q.sid != me.sid):
					var ws syscall.WaitStatus
					if n, _ := syscall.Wait4(q.Pid, &ws, syscall.WNOHANG, nil); n != q.Pid {
						left++ // not reaped yet
					}
				case !in[q.Pid]: // a child of otd not known to be an engine's: not reaped
				case q.Pid == notPid || in[q.ppid]:
					left++ // its exec.Cmd reaps it, or its parent, dying too, hands it to otd
				}
			}
		}
		return left == 0 && !fresh
	})
	return len(signalled), left
}
