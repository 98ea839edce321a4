// Package proc runs an external engine for the protocol clients (engine/gtp,
// engine/nboard): it starts the engine from an argv (never through a shell)
// in a process group of its own, hands out its standard output a line at a
// time under a context, keeps the end of its standard error in a bounded
// buffer, and stops it (a quit command, then SIGINT to the group, then
// SIGKILL to every process it started) until none is left running.
//
// What an engine starts may leave its process group (setsid), its parent
// (a daemon's double fork) and its environment (env -i). On Linux the engine
// runs in a box that nothing it starts can leave, a box an engine (each
// game's engines have their own, with --concurrency above 1 too): otd runs
// itself as the box's init (a hidden argv[0], handled by this package's
// init function), which starts the engine, reaps what it orphans and tells
// otd how it ended. The box is, the first the kernel allows (EnvIsolation
// forces one): a PID namespace of its own (unprivileged through a user
// namespace), whose processes all die with its init; a cgroup (cgroup2)
// made for the engine below otd's own, which cgroup.kill empties;
// otherwise the tree of the init, a child subreaper, which kills its
// descendants. The box ends when the engine ends (and Stop ends the
// engine), and when otd dies (a parent-death signal to the init); a cgroup
// whose init was killed too is ended by the next otd (EndRun, and any otd
// that makes a cgroup). Elsewhere Stop kills the process group.
//
// Above the process, Client is the shape both clients share (they embed
// it): their Config, the engine's name, Move's lock and its refusal of a
// closed or broken engine, Close, the errors they break on (Conn.Fail) and
// the reading of a move (ParseMove). The protocols themselves stay in their
// packages.
package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
	HurryGrace         = 50 * time.Millisecond // each wait of Stop once Config.Hurry is closed
	// killWait bounds a wait for what SIGKILL ends, which is a matter of
	// state, not of time: a process ends once the kernel has run its exit,
	// which a loaded machine may take seconds to do (neither Grace nor
	// Hurry cut it). Only a process stuck in the kernel takes longer.
	killWait = 10 * time.Second
)

// EnvIsolation, when set, forces the box of the engines (Linux): "pidns",
// "cgroup" or "subreaper"; Start fails when the kernel does not allow it.
// It is for tests.
const EnvIsolation = "OTD_ENGINE_ISOLATION"

// An ID is a process: its pid and its start time (on Linux, clock ticks from
// boot to its start, field 22 of /proc/PID/stat; 0 elsewhere), which tell it
// from a later process given the same pid.
type ID struct {
	Pid   int
	Start uint64
}

// String returns PID.START.
func (id ID) String() string { return fmt.Sprintf("%d.%d", id.Pid, id.Start) }

// Self returns the running process's ID: what names it in its engines'
// markers.
func Self() ID { return self() }

// EndRun ends what run, an otd that died (killed, say) while it played,
// left running: the processes of the cgroups it made for its engines, whose
// inits were killed with it (on Linux; a PID namespace and a subreaper's
// tree end with their init, and elsewhere nothing is found). It returns how
// many processes it killed; it does nothing when run is this process or is
// still running.
func EndRun(run ID) int {
	if run.Pid <= 0 || run == Self() || run.Running() {
		return 0
	}
	return endRun(run)
}

// ErrLongLine is what Line returns for a line over MaxLine bytes; the output
// cannot be read any further.
var ErrLongLine = fmt.Errorf("a line longer than %d bytes: %w", MaxLine, ErrProtocol)

// Config says how to start an engine, and what a Client calls it.
type Config struct {
	Argv        []string      // the program and its arguments; never run through a shell
	Name        string        // the name the event shows; "" the engine's own (its protocol asks it), else Argv[0]; Start does not use it
	Dir         string        // working directory; "" the current one
	Env         []string      // environment; nil inherits otd's
	StderrLimit int           // bytes of stderr kept (the last ones); 0 DefaultStderrLimit
	Grace       time.Duration // wait of each step of Stop (quit, SIGINT, SIGKILL); 0 DefaultGrace
	// Hurry, once closed (the director pressed Ctrl-C), cuts each wait of
	// Stop to HurryGrace; nil never does.
	Hurry <-chan struct{}
}

// Process is a running engine. Line must not be called concurrently; Stop
// may be called at any time, from any goroutine.
type Process struct {
	cfg    Config
	pgid   int  // the process otd started (the engine, or its init on Linux), leader of the engine's group
	box    *box // what holds the engine's processes
	stdin  *os.File
	stdout *os.File
	errR   *os.File
	stderr *ring

	lines   chan lineMsg   // stdout, a line at a time, then one error; unbuffered
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

// Start starts the engine in a process group of its own (on Linux, in a box:
// the package's doc).
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
	env := cfg.Env
	if env == nil {
		env = os.Environ()
	}
	path, err := lookPath(cfg.Argv[0], cfg.Dir)
	var b *box
	if err == nil {
		b, err = start(path, cfg, env, []*os.File{inR, outW, errW})
	}
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, fmt.Errorf("start %s: %w", cfg.Argv[0], err)
	}
	p := &Process{
		cfg:     cfg,
		pgid:    b.cmd.Process.Pid,
		box:     b,
		stdin:   inW,
		stdout:  outR,
		errR:    errR,
		stderr:  &ring{limit: cfg.StderrLimit},
		lines:   make(chan lineMsg),
		exited:  make(chan struct{}),
		errDone: make(chan struct{}),
		done:    make(chan struct{}),
	}
	go func() {
		p.waitErr = b.wait()
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

// lookPath finds the program name as exec.Command would, relative to dir
// when it is a relative path (the engine starts in dir).
func lookPath(name, dir string) (string, error) {
	if strings.Contains(name, "/") && dir != "" && !filepath.IsAbs(name) {
		_, err := exec.LookPath(filepath.Join(dir, name))
		return name, err
	}
	return exec.LookPath(name)
}

// Pid returns the process id of the engine (on Linux, of its init), which
// is also its process group id.
func (p *Process) Pid() int { return p.pgid }

// Stderr returns the end of what the engine wrote to its standard error (at
// most Config.StderrLimit bytes, the last ones).
func (p *Process) Stderr() string { return p.stderr.String() }

// Stopped is closed when Stop begins.
func (p *Process) Stopped() <-chan struct{} { return p.done }

// ExitErr returns the engine's exit status, an error worded as exec.Cmd.Wait
// words it ("exit status 3", "signal: killed"; nil for status 0), once it
// has exited; nil before.
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

// read sends stdout to p.lines a line at a time, then the error that ended
// it. What it holds is bounded: at most MaxLine bytes read ahead (its
// buffer) and the line waiting to be taken, however fast the engine writes.
func (p *Process) read() {
	defer p.wg.Done()
	br := bufio.NewReaderSize(p.stdout, MaxLine)
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

// readLine reads a line of at most MaxLine bytes, its end included, from br
// (of size MaxLine).
func readLine(br *bufio.Reader) (string, error) {
	b, err := br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return "", ErrLongLine
	case err == nil || len(b) > 0 && err == io.EOF:
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	return "", err
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
		// What the engine wrote before it died may still be in the pipe
		// (its end follows, endWait).
		t := time.NewTimer(endWait)
		defer t.Stop()
		select {
		case m := <-p.lines:
			return m.s, p.lineErr(m.err)
		case <-p.done: // Stop: nothing more is read
		case <-t.C:
		}
		return "", p.Crashed()
	}
}

func (p *Process) lineErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrProtocol):
		return err
	}
	return p.Crashed()
}

// Crashed describes the engine's end (ErrCrashed), once its input or output
// broke: its exit status and the last line of its stderr. It waits up to
// endWait for the exit, then for the end of stderr (the engine's last words
// may still be in the pipe): on Linux both follow the break (endWait says
// why), so the status and the last words are always there.
func (p *Process) Crashed() error {
	status := "closed its output"
	if waitClosed(p.exited, endWait) {
		status = "exit status 0"
		if p.waitErr != nil {
			status = p.waitErr.Error()
		}
		waitClosed(p.errDone, endWait)
	}
	if tail := lastLine(p.stderr.String()); tail != "" {
		return fmt.Errorf("%w (%s; stderr: %s)", ErrCrashed, status, tail)
	}
	return fmt.Errorf("%w (%s)", ErrCrashed, status)
}

// Stop writes quit (a command line, "" none) to the engine, closes its input
// and waits for it to exit; then it sends SIGINT to its process group, then
// ends every process of the engine's box, each after Config.Grace, and waits
// until none is left. On Linux the engine's end ends its box at once (what
// it started does not outlive it). It never waits for the engine's pipes
// longer than a grace. Later calls return the first call's result.
func (p *Process) Stop(quit string) error {
	p.stopOnce.Do(func() { p.stopErr = p.stop(quit) })
	return p.stopErr
}

func (p *Process) stop(quit string) error {
	close(p.done)
	if quit != "" {
		p.stdin.SetWriteDeadline(time.Now().Add(limit(p.cfg.Grace, p.cfg.Hurry)))
		p.stdin.WriteString(quit + "\n")
	}
	p.stdin.Close()
	exited := func() bool { return isClosed(p.exited) }
	var err error
	if !p.wait(exited) {
		syscall.Kill(-p.pgid, syscall.SIGINT) // an init ignores it
		if !p.wait(exited) {
			p.box.kill()
			if !waitState(exited) {
				p.box.cmd.Process.Kill()
				err = fmt.Errorf("the engine (pid %d) still running after SIGKILL", p.pgid)
			}
		}
	}
	if e := p.box.release(); e != nil && err == nil {
		err = e
	}
	p.wait(func() bool { return isClosed(p.errDone) }) // its last words
	p.stdout.Close()
	p.errR.Close()
	p.wg.Wait()
	return err
}

// waitClosed waits up to d for c to be closed, and reports whether it is.
func waitClosed(c <-chan struct{}, d time.Duration) bool {
	if isClosed(c) {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c:
		return true
	case <-t.C:
		return false
	}
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// limit returns the wait of a step of Stop: grace, or HurryGrace once hurry
// is closed.
func limit(grace time.Duration, hurry <-chan struct{}) time.Duration {
	if isClosed(hurry) {
		return min(grace, HurryGrace)
	}
	return grace
}

// wait waits a grace of Stop (what the engine is given to do) for done to
// hold, and reports whether it does.
func (p *Process) wait(done func() bool) bool {
	return poll(func() time.Duration { return limit(p.cfg.Grace, p.cfg.Hurry) }, done)
}

// waitState waits for done, a state that SIGKILL brings, to hold, at most
// killWait, and reports whether it does.
func waitState(done func() bool) bool {
	return poll(func() time.Duration { return killWait }, done)
}

// poll waits up to bound() (read at each check) for done to hold, checked at
// growing intervals up to 20 ms, and reports whether it does.
func poll(bound func() time.Duration, done func() bool) bool {
	start := time.Now()
	for step := time.Millisecond; ; step = min(2*step, 20*time.Millisecond) {
		if done() {
			return true
		}
		if time.Since(start) >= bound() {
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
	return groupRunning(pgid)
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
