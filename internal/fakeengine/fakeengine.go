// Package fakeengine lets a test binary be a misbehaving external engine, so
// that the tests of any package can start one as a subprocess: Argv names the
// engine to start, and the test binary's TestMain runs it,
//
//	func TestMain(m *testing.M) {
//		if code, ok := fakeengine.Main(); ok {
//			os.Exit(code)
//		}
//		os.Exit(m.Run())
//	}
//
// A fake engine speaks GTP or NBoard on stdin and stdout, plays the first
// legal move on a board of its own and misbehaves as its mode says:
//
//	good        nothing wrong
//	nopass      (GTP) refuses "play COLOUR pass" and passes by itself (as gtp-rhino)
//	refuse      (GTP) refuses the n-th play command it is sent, once
//	silent      never answers move request n (genmove, go): stops reading
//	late        answers move request n after the delay option
//	hold        at move request n, makes the file named by its pid (as /proc
//	            names it) in the folder of the hold option and answers once
//	            that file is removed; it exits when its parent is gone (a test
//	            waits for the file: the game is then in play, and cannot end
//	            before the test lets it)
//	crash       exits (status 3) at move request n
//	ansi        exits (status 3) at move request n, its last words on stderr
//	            terminal escape sequences (a new title, a cleared screen)
//	garbage     answers move request n with a line that is no move
//	badsquare   answers z9 at move request n
//	longline    answers a line of 100 KiB at move request n
//	illegal     answers an occupied square at move request n
//	flood       writes 1 MiB to stderr at start and before each reply
//	ignorequit  ignores quit, SIGINT and SIGTERM
//	exitstart   exits (status 1) at once, with a message on stderr
//	fork        starts a child in its group (mode sleeper) that holds its pipes
//	setsid      starts a child (mode sleeper) in a session of its own (setsid),
//	            out of its process group, that holds its pipes
//	daemon      starts a child (mode detach) in a session of its own that starts
//	            a sleeper holding its pipes and exits: the sleeper has neither
//	            the engine's group nor a living parent
//	noeof       ignores quit and the end of its input: it spins reading it, as
//	            a loop that never checks for the end would
//	stdoutflood (NBoard) writes status lines of 60 KiB to stdout between its
//	            replies, from its start, as fast as they are read
//	sleeper     ignores SIGINT and SIGTERM and sleeps
//	detach      starts a sleeper and exits at once
//
// A fake that starts a sleeper or a detacher writes "fake: child PID" (its
// pid as /proc names it: the system's, also in a PID namespace) to stderr.
//
// Options: "delay=DURATION" (of mode late), "hold=DIR" (of mode hold),
// "think=DURATION" (waited before answering every move request), "style=tight" (GTP: no ids, no
// space after '=', upper case, CRLF; NBoard: no name, no status lines, lower
// case, CRLF), "style=edax" (GTP: a space between '=' or '?' and the id, "= 7
// f6", as Edax 4.6 answers), "version=V" (NBoard: the one protocol version the
// fake speaks, 1 or 2; another "nboard N" ends it with status 4; by default it
// speaks both, as Ntest does), "sizes=N,N..." (GTP: the board sizes boardsize
// accepts, for Othello on that board; 8 alone by default) and "quiet" (no log
// of the commands on stderr). Other arguments are shown in the engine's name,
// fake[ARG|ARG...], and given to the children it starts: a test may mark its
// fakes with one, to find its own in /proc beside other tests' fakes.
//
// A command the fake cannot follow (an NBoard game that is not a legal game
// from the start position) makes it exit with status 4 and a message on
// stderr, so that the client's test sees a crash.
package fakeengine

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/otd-project/otd/engine"
)

// arg is os.Args[1] of a fake engine.
const arg = "otd-fake-engine"

// Argv returns the argv of a fake engine: the test binary itself, protocol
// "gtp" or "nboard", the mode, the move request (1, 2, ...) at which the mode
// strikes (0: at once), and options.
func Argv(protocol, mode string, n int, opts ...string) []string {
	return append([]string{os.Args[0], arg, protocol, mode, strconv.Itoa(n)}, opts...)
}

// Main runs the fake engine and returns its exit status when the process was
// started from Argv (ok), and returns at once otherwise. Call it first in
// TestMain, before flags are parsed.
func Main() (code int, ok bool) {
	if len(os.Args) < 2 || os.Args[1] != arg {
		return 0, false
	}
	return run(os.Args[2:]), true
}

// fake is a fake engine's settings and output.
type fake struct {
	protocol, mode string
	n              int // the move request at which mode strikes
	delay, think   time.Duration
	hold           string // the folder of mode hold's file
	style          string // "tight", "edax" or "" (see the package's doc)
	version        string // the one NBoard protocol version the fake speaks, "1" or "2"; "" both
	quiet          bool
	sizes          map[int]bool // the board sizes the GTP fake accepts
	extra          []string     // arguments shown in the name
	mu             sync.Mutex   // held while a line is written to out (stdoutflood writes too)
	out            *bufio.Writer
}

var modes = map[string]string{ // mode: the protocols it is for ("" both)
	"good": "", "nopass": "gtp", "refuse": "gtp", "silent": "", "late": "", "hold": "", "crash": "",
	"ansi": "", "garbage": "", "badsquare": "", "longline": "", "illegal": "", "flood": "",
	"ignorequit": "", "exitstart": "", "fork": "", "sleeper": "",
	"setsid": "", "daemon": "", "noeof": "", "stdoutflood": "nboard", "detach": "",
}

func run(args []string) int {
	if len(args) < 3 {
		fmt.Fprintln(os.Stderr, "fake: usage: otd-fake-engine gtp|nboard MODE N [OPTION...]")
		return 2
	}
	f := &fake{protocol: args[0], mode: args[1], sizes: map[int]bool{8: true}, out: bufio.NewWriter(os.Stdout)}
	var err error
	if f.n, err = strconv.Atoi(args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "fake: N:", err)
		return 2
	}
	if p, ok := modes[f.mode]; !ok || p != "" && p != f.protocol || f.protocol != "gtp" && f.protocol != "nboard" {
		fmt.Fprintf(os.Stderr, "fake: no mode %q for protocol %q\n", f.mode, f.protocol)
		return 2
	}
	for _, o := range args[3:] {
		switch k, v, _ := strings.Cut(o, "="); {
		case o == "quiet":
			f.quiet = true
		case k == "style" || k == "version":
			if !map[string]bool{"style=": true, "style=tight": true, "style=edax": true, "version=1": true, "version=2": true}[o] {
				fmt.Fprintln(os.Stderr, "fake: no option", o)
				return 2
			}
			if k == "style" {
				f.style = v
			} else {
				f.version = v
			}
		case k == "hold":
			f.hold = v
		case k == "sizes":
			f.sizes = map[int]bool{}
			for _, n := range strings.Split(v, ",") {
				size, err := strconv.Atoi(n)
				if err != nil {
					fmt.Fprintln(os.Stderr, "fake: sizes:", err)
					return 2
				}
				f.sizes[size] = true
			}
		case k == "delay" || k == "think":
			d, err := time.ParseDuration(v)
			if err != nil {
				fmt.Fprintf(os.Stderr, "fake: %s: %v\n", k, err)
				return 2
			}
			if k == "delay" {
				f.delay = d
			} else {
				f.think = d
			}
		default:
			f.extra = append(f.extra, o)
		}
	}
	if os.Getenv(pidPipe) == "3" { // a child of startChild: it tells its pid
		w := os.NewFile(3, "pid")
		fmt.Fprintln(w, systemPid())
		w.Close()
	}
	switch f.mode {
	case "exitstart":
		fmt.Fprintln(os.Stderr, "fake: cannot open the opening book")
		return 1
	case "sleeper":
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
		time.Sleep(time.Hour)
		return 0
	case "ignorequit":
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	case "fork", "setsid":
		if err := startChild(f.protocol, "sleeper", f.mode == "setsid", f.extra); err != nil {
			return 1
		}
	case "daemon":
		if err := startChild(f.protocol, "detach", true, f.extra); err != nil {
			return 1
		}
	case "detach":
		if err := startChild(f.protocol, "sleeper", false, f.extra); err != nil {
			return 1
		}
		return 0
	case "stdoutflood":
		go func() {
			line := "status " + strings.Repeat("x", 60<<10)
			for {
				f.mu.Lock()
				fmt.Fprintln(f.out, line)
				f.out.Flush()
				f.mu.Unlock()
			}
		}()
	}
	f.flood()
	handle := f.gtp()
	if f.protocol == "nboard" {
		handle = f.nboard()
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 4096), 1<<20) // a longer line ends the fake (bufio.ErrTooLong), as its client's tests expect
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		if !f.quiet {
			fmt.Fprintf(os.Stderr, "fake: got %s\n", line)
		}
		if c, done := handle(line); done {
			return c
		}
	}
	switch f.mode {
	case "ignorequit":
		time.Sleep(time.Hour)
	case "noeof":
		for b := make([]byte, 1); ; {
			os.Stdin.Read(b)
		}
	}
	return 0
}

// pidPipe, set to 3 in a child's environment, says that fd 3 is a pipe on
// which it tells its pid.
const pidPipe = "OTD_FAKE_PID_PIPE"

// startChild starts a fake in mode (with no move request to strike at, with
// the extra arguments) holding the fake's standard input, output and error,
// in a session of its own with setsid, and writes its pid to stderr once the child has told it:
// the pid as /proc names it (a PID namespace's pid is another).
func startChild(protocol, mode string, setsid bool, extra []string) error {
	argv := Argv(protocol, mode, 0, extra...)
	c := exec.Command(argv[0], argv[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr // holds the pipes open too
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
	c.Env = append(os.Environ(), pidPipe+"=3")
	r, w, err := os.Pipe()
	if err == nil {
		c.ExtraFiles = []*os.File{w}
		err = c.Start()
		w.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake: start a child:", err)
		return err
	}
	pid, _ := bufio.NewReader(r).ReadString('\n')
	r.Close()
	fmt.Fprintf(os.Stderr, "fake: child %s\n", strings.TrimSpace(pid))
	return nil
}

// name is the engine's name: fake, with the extra arguments as received.
func (f *fake) name() string {
	if len(f.extra) > 0 {
		return "fake[" + strings.Join(f.extra, "|") + "]"
	}
	return "fake"
}

func (f *fake) flood() {
	if f.mode == "flood" {
		os.Stderr.Write([]byte(strings.Repeat("flood flood flood\n", 1<<20/18)))
	}
}

// strike thinks (option think), then misbehaves at move request k, as the
// mode says, for the modes whose misbehaviour does not depend on the
// protocol; answer writes a move reply. It reports whether the request is
// answered.
func (f *fake) strike(k int, g engine.Position, answer func(string)) bool {
	time.Sleep(f.think)
	if k != max(f.n, 1) {
		return false
	}
	switch f.mode {
	case "silent":
		time.Sleep(time.Hour)
	case "late":
		time.Sleep(f.delay)
	case "hold":
		f.holdOn()
	case "crash":
		fmt.Fprintf(os.Stderr, "fake: crashing at move request %d\n", k)
		os.Exit(3)
	case "ansi":
		fmt.Fprintf(os.Stderr, "fake: \x1b]0;pwned\x07\x1b[2J\x1b[Hround 1 table 1: 64-0 \u202eok\n")
		os.Exit(3)
	case "badsquare":
		answer("z9")
		return true
	case "illegal":
		n := g.Rules().Size
		for row := range n {
			for col := range n {
				if p := (engine.Point{Col: int8(col), Row: int8(row)}); occupied(g, p) {
					answer(p.String())
					return true
				}
			}
		}
	}
	return false
}

// systemPid returns the process's pid as /proc names it: the system's, also
// in the PID namespace of an engine's box (where os.Getpid is the
// namespace's, 1 for its init).
func systemPid() string {
	if p, err := os.Readlink("/proc/self"); err == nil {
		return p
	}
	return strconv.Itoa(os.Getpid())
}

// holdOn makes the file of mode hold and waits until it is removed; it
// exits when the fake's parent is gone (another takes its place).
func (f *fake) holdOn() {
	file := filepath.Join(f.hold, systemPid())
	parent := os.Getppid()
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fake: hold:", err)
		os.Exit(4)
	}
	for {
		if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
			return
		}
		if os.Getppid() != parent {
			os.Exit(0)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// occupied reports whether p holds a disc in g.
func occupied(g engine.Position, p engine.Point) bool {
	_, ok := g.At(p)
	return ok
}

// Escaper returns the argv of engine (an argv) behind a shell that first
// starts a grandchild leaving the engine's session (setsid), its parent (a
// double fork) and its environment (env -i), which sleeps an hour: the
// engine of issue 28. The grandchild writes its pid, as /proc names it, to
// file, through a rename (whole or not at all); EscaperPid reads it.
func Escaper(engine []string, file string) []string {
	grandchild := `read pid rest < /proc/self/stat; echo $pid > "$0.tmp"; /bin/mv "$0.tmp" "$0"; exec /bin/sleep 3602`
	// The engine starts once the grandchild has written its pid: a box
	// that ends the engine at once (a quick 'player add' on a busy machine)
	// must not end the grandchild before the test can know it.
	return append([]string{"/bin/sh", "-c", `f=$1; shift; ( setsid env -i /bin/sh -c '` + grandchild + `' "$f" & ); while [ ! -e "$f" ]; do /bin/sleep 0.01; done; exec "$@"`, "escaper", file}, engine...)
}

// EscaperPid waits for an Escaper's grandchild to write its pid to file,
// at most d, and returns it.
func EscaperPid(file string, d time.Duration) (int, error) {
	for end := time.Now().Add(d); ; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil {
			return strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Now().After(end) {
			return 0, fmt.Errorf("no pid in %s after %v", file, d)
		}
	}
}
