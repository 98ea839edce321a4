//go:build !linux

package proc

import (
	"os"
	"syscall"
)

// Without /proc, Stop kills the engine's process group and no more: what the
// engine started outside it is not found.

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func becomeSubreaper() {}

func self() ID { return ID{Pid: os.Getpid()} }

// Find returns the process that has pid now; its start time is unknown (0).
func Find(pid int) (ID, bool) {
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return ID{}, false
	}
	return ID{Pid: pid}, true
}

// Running reports whether a process has the pid (which may be a later one,
// or a zombie: nothing here tells).
func (id ID) Running() bool {
	_, ok := Find(id.Pid)
	return ok
}

func groupRunning(int) bool { return true }

func (p *Process) members() []ID { return nil }

func (p *Process) end([]ID) int { return 0 }

func endRun(ID) int { return 0 }
