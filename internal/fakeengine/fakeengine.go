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
//	crash       exits (status 3) at move request n
//	garbage     answers move request n with a line that is no move
//	badsquare   answers z9 at move request n
//	longline    answers a line of 100 KiB at move request n
//	illegal     answers an occupied square at move request n
//	flood       writes 1 MiB to stderr at start and before each reply
//	ignorequit  ignores quit, SIGINT and SIGTERM
//	exitstart   exits (status 1) at once, with a message on stderr
//	fork        starts a child in its group (mode sleeper) that holds its pipes
//	sleeper     ignores SIGINT and SIGTERM and sleeps
//
// Options: "delay=DURATION" (of mode late), "style=tight" (GTP: no ids, no
// space after '=', upper case, CRLF; NBoard: no name, no status lines, lower
// case, CRLF), "style=edax" (GTP: a space between '=' or '?' and the id, "= 7
// f6", as Edax 4.6 answers), "version=V" (NBoard: the one protocol version the
// fake speaks, 1 or 2; another "nboard N" ends it with status 4; by default it
// speaks both, as Ntest does), "sizes=N,N..." (GTP: the board sizes boardsize
// accepts, for Othello on that board; 8 alone by default) and "quiet" (no log
// of the commands on stderr). Other arguments are shown in the engine's name:
// fake[ARG|ARG...].
//
// A command the fake cannot follow (an NBoard game that is not a legal game
// from the start position) makes it exit with status 4 and a message on
// stderr, so that the client's test sees a crash.
package fakeengine

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
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
	delay          time.Duration
	style          string // "tight", "edax" or "" (see the package's doc)
	version        string // the one NBoard protocol version the fake speaks, "1" or "2"; "" both
	quiet          bool
	sizes          map[int]bool // the board sizes the GTP fake accepts
	extra          []string     // arguments shown in the name
	out            *bufio.Writer
}

var modes = map[string]string{ // mode: the protocols it is for ("" both)
	"good": "", "nopass": "gtp", "refuse": "gtp", "silent": "", "late": "", "crash": "",
	"garbage": "", "badsquare": "", "longline": "", "illegal": "", "flood": "",
	"ignorequit": "", "exitstart": "", "fork": "", "sleeper": "",
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
		case k == "delay":
			if f.delay, err = time.ParseDuration(v); err != nil {
				fmt.Fprintln(os.Stderr, "fake: delay:", err)
				return 2
			}
		default:
			f.extra = append(f.extra, o)
		}
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
	case "fork":
		argv := Argv(f.protocol, "sleeper", 0)
		c := exec.Command(argv[0], argv[1:]...)
		c.Stdout, c.Stderr = os.Stdout, os.Stderr // holds the pipes open too
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fake: fork:", err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "fake: child %d\n", c.Process.Pid)
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
	if f.mode == "ignorequit" {
		time.Sleep(time.Hour)
	}
	return 0
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

// strike misbehaves at move request k, as the mode says, for the modes
// whose misbehaviour does not depend on the protocol; answer writes a
// move reply. It reports whether the request is answered.
func (f *fake) strike(k int, g engine.Game, answer func(string)) bool {
	if k != max(f.n, 1) {
		return false
	}
	switch f.mode {
	case "silent":
		time.Sleep(time.Hour)
	case "late":
		time.Sleep(f.delay)
	case "crash":
		fmt.Fprintf(os.Stderr, "fake: crashing at move request %d\n", k)
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

// occupied reports whether p holds a disc in g.
func occupied(g engine.Game, p engine.Point) bool {
	_, ok := g.At(p)
	return ok
}
