//go:build !linux

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// Without /proc, Stop kills the engine's process group and no more: what the
// engine started outside it is not found.

// endWait bounds Crashed's waits for the engine's exit and the end of its
// stderr. Without a box, a child the engine left running may hold its pipes
// open, and an engine may close its output and run on: the wait is a grace.
const endWait = 200 * time.Millisecond

// box is the engine's process, the leader of its group.
type box struct{ cmd *exec.Cmd }

func start(path string, cfg Config, env []string, stdio []*os.File) (*box, error) {
	cmd := &exec.Cmd{Path: path, Args: cfg.Argv, Dir: cfg.Dir, Env: env, Stdin: stdio[0], Stdout: stdio[1], Stderr: stdio[2],
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true}}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &box{cmd}, nil
}

func (b *box) wait() error { return b.cmd.Wait() }

func (b *box) kill() { syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL) }

// release kills what is left of the engine's process group.
func (b *box) release() error {
	pgid := b.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGKILL)
	if !waitState(func() bool { return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) }) {
		return errors.New("the engine's process group still running after SIGKILL")
	}
	return nil
}

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

func endRun(ID) int { return 0 }
