// Package proc runs an external engine for the protocol clients (engine/gtp,
// engine/nboard): it starts the engine from an argv (never through a shell)
// in a process group of its own, hands out its standard output a line at a
// time under a context, keeps the end of its standard error in a bounded
// buffer, and stops it (a quit command, then SIGINT, then SIGKILL to the
// group) until no process of the group is left running.
package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The errors of an engine process, shared by the protocol clients. Check them
// with errors.Is.
var (
	ErrTimeout  = errors.New("no reply in time")
	ErrCrashed  = errors.New("the engine exited")
	ErrProtocol = errors.New("the engine broke the protocol")
	ErrClosed   = errors.New("the engine is closed")
)

// Defaults of Config, and the longest line Line returns.
const (
	DefaultStderrLimit = 64 << 10
	DefaultGrace       = time.Second
	MaxLine            = 64 << 10
	exitGrace          = 100 * time.Millisecond // for output still in the pipe after the exit
)

// ErrLongLine is what Line returns for a line over MaxLine bytes; the output
// cannot be read any further.
var ErrLongLine = fmt.Errorf("a line longer than %d bytes: %w", MaxLine, ErrProtocol)

// Config says how to start an engine.
type Config struct {
	Argv        []string      // the program and its arguments; never run through a shell
	Dir         string        // working directory; "" the current one
	Env         []string      // environment; nil inherits otd's
	StderrLimit int           // bytes of stderr kept (the last ones); 0 DefaultStderrLimit
	Grace       time.Duration // wait of each step of Stop (quit, SIGINT, SIGKILL); 0 DefaultGrace
}

// Process is a running engine. Line must not be called concurrently; Stop
// may be called at any time, from any goroutine.
type Process struct {
	cfg    Config
	pgid   int
	stdin  *os.File
	stdout *os.File
	errR   *os.File
	stderr *ring

	lines   chan lineMsg   // stdout, a line at a time, then one error
	exited  chan struct{}  // closed when the process has been reaped
	errDone chan struct{}  // closed when the copy of stderr has ended
	done    chan struct{}  // closed by Stop: the reader goroutine stops
	wg      sync.WaitGroup // the reader and stderr goroutines
	waitErr error          // the process's exit status, once exited is closed

	stopOnce sync.Once
	stopErr  error
}

type lineMsg struct {
	s   string
	err error
}

// Start starts the engine in a process group of its own.
func Start(cfg Config) (*Process, error) {
	if len(cfg.Argv) == 0 || cfg.Argv[0] == "" {
		return nil, errors.New("no program to start")
	}
	if cfg.StderrLimit <= 0 {
		cfg.StderrLimit = DefaultStderrLimit
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd := exec.Command(cfg.Argv[0], cfg.Argv[1:]...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, fmt.Errorf("start %s: %w", cfg.Argv[0], err)
	}
	p := &Process{
		cfg:     cfg,
		pgid:    cmd.Process.Pid,
		stdin:   inW,
		stdout:  outR,
		errR:    errR,
		stderr:  &ring{limit: cfg.StderrLimit},
		lines:   make(chan lineMsg, 64),
		exited:  make(chan struct{}),
		errDone: make(chan struct{}),
		done:    make(chan struct{}),
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	p.wg.Add(2)
	go func() {
		defer p.wg.Done()
		defer close(p.errDone)
		io.Copy(p.stderr, errR)
	}()
	go p.read()
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// Pid returns the engine's process id, which is also its process group id.
func (p *Process) Pid() int { return p.pgid }

// Stderr returns the end of what the engine wrote to its standard error (at
// most Config.StderrLimit bytes, the last ones).
func (p *Process) Stderr() string { return p.stderr.String() }

// Stopped is closed when Stop begins.
func (p *Process) Stopped() <-chan struct{} { return p.done }

// ExitErr returns the engine's exit status (as exec.Cmd.Wait does) once it
// has exited, nil before.
func (p *Process) ExitErr() error {
	select {
	case <-p.exited:
		return p.waitErr
	default:
		return nil
	}
}

// Write writes s to the engine's standard input, giving up when ctx is done:
// then part of s may have been written (ErrTimeout). Any other failure is the
// engine's end (ErrCrashed).
func (p *Process) Write(ctx context.Context, s string) error {
	dl, _ := ctx.Deadline() // the zero time: no deadline
	p.stdin.SetWriteDeadline(dl)
	if _, err := p.stdin.WriteString(s); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("the engine reads no input: %w", ErrTimeout)
		}
		return p.Crashed()
	}
	return nil
}

// read sends stdout to p.lines a line at a time, then the error that ended it.
func (p *Process) read() {
	defer p.wg.Done()
	br := bufio.NewReaderSize(p.stdout, 4096)
	for {
		var m lineMsg
		m.s, m.err = readLine(br)
		select {
		case p.lines <- m:
		case <-p.done:
			return
		}
		if m.err != nil {
			return
		}
	}
}

func readLine(br *bufio.Reader) (string, error) {
	var buf []byte
	for {
		b, err := br.ReadSlice('\n')
		if len(buf)+len(b) > MaxLine {
			return "", ErrLongLine
		}
		buf = append(buf, b...)
		switch {
		case err == nil:
			return strings.TrimRight(string(buf), "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(buf) > 0 && err == io.EOF:
			return strings.TrimRight(string(buf), "\r\n"), nil
		}
		return "", err
	}
}

// Line returns the next line of stdout without its line end, waiting until
// ctx is done (ErrTimeout, and the line is read by the next call). Its other
// errors are ErrLongLine and ErrCrashed; after them no line is left.
func (p *Process) Line(ctx context.Context) (string, error) {
	select {
	case m := <-p.lines:
		return m.s, p.lineErr(m.err)
	default:
	}
	select {
	case m := <-p.lines:
		return m.s, p.lineErr(m.err)
	case <-ctx.Done():
		return "", fmt.Errorf("%w (%w)", ErrTimeout, ctx.Err())
	case <-p.exited:
		// What the engine wrote before it died may still be in the pipe;
		// a child it left behind may also hold the pipe open.
		t := time.NewTimer(exitGrace)
		defer t.Stop()
		select {
		case m := <-p.lines:
			return m.s, p.lineErr(m.err)
		case <-t.C:
			return "", p.Crashed()
		}
	}
}

func (p *Process) lineErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrProtocol):
		return err
	}
	select {
	case <-p.exited:
	case <-time.After(exitGrace):
	}
	return p.Crashed()
}

// Crashed describes the engine's end (ErrCrashed): its exit status and the
// last line of its stderr.
func (p *Process) Crashed() error {
	status := "closed its output"
	select {
	case <-p.exited:
		status = "exit status 0"
		if p.waitErr != nil {
			status = p.waitErr.Error()
		}
		// Its last words may still be in the pipe: wait for the copy, a
		// little (a child it left running may hold the pipe open).
		select {
		case <-p.errDone:
		case <-time.After(200 * time.Millisecond):
		}
	default:
	}
	if tail := lastLine(p.stderr.String()); tail != "" {
		return fmt.Errorf("%w (%s; stderr: %s)", ErrCrashed, status, tail)
	}
	return fmt.Errorf("%w (%s)", ErrCrashed, status)
}

// Stop writes quit (a command line, "" none) to the engine, closes its input
// and waits for it to exit; then it sends SIGINT to the process group, then
// SIGKILL, each after Config.Grace, until no process of the group is left
// running. It waits for the reader goroutines. Later calls return the first
// call's result.
func (p *Process) Stop(quit string) error {
	p.stopOnce.Do(func() { p.stopErr = p.stop(quit) })
	return p.stopErr
}

func (p *Process) stop(quit string) error {
	close(p.done)
	grace := p.cfg.Grace
	if quit != "" {
		p.stdin.SetWriteDeadline(time.Now().Add(grace))
		p.stdin.WriteString(quit + "\n")
	}
	p.stdin.Close()
	waitExit := func(d time.Duration) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-p.exited:
		case <-t.C:
		}
	}
	waitExit(grace)
	var err error
	if GroupRunning(p.pgid) {
		syscall.Kill(-p.pgid, syscall.SIGINT)
		if !waitGroup(p.pgid, grace) {
			syscall.Kill(-p.pgid, syscall.SIGKILL)
			if !waitGroup(p.pgid, grace) {
				err = fmt.Errorf("process group %d still running after SIGKILL", p.pgid)
			}
		}
	}
	waitExit(grace)
	p.stdout.Close()
	if err != nil {
		p.errR.Close() // a process still holds its end open
	}
	p.wg.Wait() // the stderr copy ends when the group has closed its pipe
	p.errR.Close()
	return err
}

// waitGroup waits up to d for no process of the group to be running.
func waitGroup(pgid int, d time.Duration) bool {
	end := time.Now().Add(d)
	for step := time.Millisecond; ; step = min(2*step, 20*time.Millisecond) {
		if !GroupRunning(pgid) {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(step)
	}
}

// GroupRunning reports whether a process of the group is running: kill(-pgid, 0)
// says whether the group has a member; on Linux, /proc tells the running from
// the zombies that wait for their parent (init may reap orphans late).
func GroupRunning(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, d := range ents {
		if d.Name()[0] < '0' || d.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		s := string(b)
		j := strings.LastIndexByte(s, ')')
		if j < 0 {
			continue
		}
		f := strings.Fields(s[j+1:])
		if len(f) >= 3 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}

// Gone checks what Stop promises, for tests: that no process of the group is
// running, and that within d the group is gone (kill(-pgid, 0) fails with
// ESRCH; the init of some containers reaps orphaned zombies only every few
// seconds).
func Gone(pgid int, d time.Duration) error {
	if GroupRunning(pgid) {
		return fmt.Errorf("process group %d still has a running process", pgid)
	}
	end := time.Now().Add(d)
	for {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("kill(-%d, 0) = %v after %v; want ESRCH", pgid, err, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ring keeps the last limit bytes written to it.
type ring struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	if len(p) > r.limit {
		p = p[len(p)-r.limit:]
	}
	if over := len(r.buf) + len(p) - r.limit; over > 0 {
		r.buf = append(r.buf[:0], r.buf[over:]...)
	}
	r.buf = append(r.buf, p...)
	return n, nil
}

func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.buf)
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\r\n\t ")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return Clip(s)
}

// Clip shortens s to 200 bytes for an error message.
func Clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
