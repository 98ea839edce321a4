package gtp

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/otd-project/otd/engine"
)

// The test binary is also the fake engines: run with OTD_GTP_FAKE=MODE it
// speaks GTP on stdin and stdout and misbehaves as MODE says.
const (
	fakeEnv      = "OTD_GTP_FAKE"       // the mode
	fakeNEnv     = "OTD_GTP_FAKE_N"     // the genmove (1, 2, ...) at which the mode strikes; 0 at once
	fakeStyleEnv = "OTD_GTP_FAKE_STYLE" // "tight": no ids, no space after '=', upper case, CRLF
	fakeDelayEnv = "OTD_GTP_FAKE_DELAY" // the delay of mode late
	fakeQuietEnv = "OTD_GTP_FAKE_QUIET" // "1": no log of the commands on stderr
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		os.Exit(fakeEngine(mode))
	}
	os.Exit(m.Run())
}

// fakeArgv returns the argv and environment of a fake engine.
func fakeConfig(mode string, n int, extra ...string) Config {
	env := append(os.Environ(), fakeEnv+"="+mode, fakeNEnv+"="+strconv.Itoa(n))
	return Config{
		Argv:  []string{os.Args[0], "-test.run=^$"},
		Env:   append(env, extra...),
		Name:  "fake " + mode,
		Grace: 150 * time.Millisecond,
	}
}

// fakeEngine plays first legal moves on a board of its own, kept from play,
// genmove and clear_board, and misbehaves as mode says:
//
//	good        nothing wrong
//	nopass      refuses "play COLOUR pass" and passes by itself (as gtp-rhino)
//	refuse      refuses the n-th play command it is sent, once
//	silent      never answers genmove n (stops reading)
//	late        answers genmove n after OTD_GTP_FAKE_DELAY
//	crash       exits (status 3) at genmove n
//	garbage     prints a line that is no reply at genmove n
//	badsquare   answers z9 at genmove n
//	longline    answers a line of 100 KiB at genmove n
//	illegal     answers an occupied square at genmove n
//	flood       writes 1 MiB to stderr at start and before each reply
//	ignorequit  ignores quit, SIGINT and SIGTERM
//	exitstart   exits (status 1) at once, with a message on stderr
//	fork        starts a child in its group that ignores SIGINT and sleeps
//	sleeper     the child of fork
func fakeEngine(mode string) int {
	n, _ := strconv.Atoi(os.Getenv(fakeNEnv))
	tight := os.Getenv(fakeStyleEnv) == "tight"
	delay, _ := time.ParseDuration(os.Getenv(fakeDelayEnv))
	quiet := os.Getenv(fakeQuietEnv) == "1"
	out := bufio.NewWriter(os.Stdout)
	switch mode {
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
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), fakeEnv+"=sleeper")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr // holds the pipes open too
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fake: fork:", err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "fake: child %d\n", c.Process.Pid)
	}
	flood := func() {
		if mode == "flood" {
			os.Stderr.Write([]byte(strings.Repeat("flood flood flood\n", 1<<20/18)))
		}
	}
	flood()
	p := engine.Start()
	genmoves, plays, refused := 0, 0, false
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		id := ""
		if _, err := strconv.Atoi(f[0]); err == nil {
			id, f = f[0], f[1:]
		}
		answer := func(ok bool, text string) {
			flood()
			c, nl := "=", "\n"
			if !ok {
				c = "?"
			}
			if tight {
				id, nl, text = "", "\r\n", strings.ToUpper(text)
			} else if text != "" || id != "" {
				text = " " + text
			}
			fmt.Fprintf(out, "%s%s%s%s%s", c, id, text, nl, nl)
			out.Flush()
		}
		if !quiet {
			fmt.Fprintf(os.Stderr, "fake: got %s\n", line)
		}
		switch f[0] {
		case "quit":
			answer(true, "")
			if mode == "ignorequit" {
				continue
			}
			return 0
		case "name":
			if len(os.Args) > 2 { // the arguments after -test.run, as received
				answer(true, "fake["+strings.Join(os.Args[2:], "|")+"]")
				continue
			}
			answer(true, "fake")
		case "version":
			answer(true, "1.0")
		case "boardsize":
			answer(len(f) == 2 && f[1] == "8", "")
		case "clear_board":
			p = engine.Start()
			answer(true, "")
		case "time_settings", "time_left":
			answer(true, "")
		case "play":
			plays++
			if len(f) != 3 {
				answer(false, "syntax error")
				continue
			}
			if mode == "refuse" && plays == n && !refused {
				refused = true
				answer(false, "illegal move")
				continue
			}
			var m engine.Move
			if strings.EqualFold(f[2], "pass") {
				if mode == "nopass" {
					answer(false, "syntax error")
					continue
				}
				m = engine.Pass
			} else {
				sq, err := engine.ParseSquare(f[2])
				if err != nil {
					answer(false, "syntax error")
					continue
				}
				m = engine.MoveAt(sq)
			}
			if p.ToMove.String() != strings.ToLower(f[1]) && mode == "nopass" && p.MustPass() {
				p, _ = p.Play(engine.Pass)
			}
			q, err := p.Play(m)
			if err != nil || p.ToMove.String() != strings.ToLower(f[1]) {
				answer(false, "illegal move")
				continue
			}
			p = q
			answer(true, "")
		case "genmove":
			genmoves++
			if genmoves >= n {
				switch mode {
				case "silent":
					time.Sleep(time.Hour)
				case "late":
					if genmoves == n {
						time.Sleep(delay)
					}
				case "crash":
					if genmoves == n {
						fmt.Fprintf(os.Stderr, "fake: crashing at genmove %d\n", n)
						os.Exit(3)
					}
				case "garbage":
					if genmoves == n {
						fmt.Fprintf(out, "thinking... best line d3 c5\n\n")
						out.Flush()
						continue
					}
				case "longline":
					if genmoves == n {
						fmt.Fprintf(out, "= %s\n\n", strings.Repeat("x", 100<<10))
						out.Flush()
						continue
					}
				case "badsquare":
					if genmoves == n {
						answer(true, "z9")
						continue
					}
				case "illegal":
					if genmoves == n {
						occupied := p.Black | p.White
						sq := engine.NoSquare
						for s := engine.Square(0); s < 64; s++ {
							if occupied&s.Bit() != 0 {
								sq = s
								break
							}
						}
						answer(true, sq.String())
						continue
					}
				}
			}
			if mode == "nopass" && p.ToMove.String() != strings.ToLower(f[1]) && p.MustPass() {
				p, _ = p.Play(engine.Pass)
			}
			ms := p.Moves()
			if len(ms) == 0 || p.ToMove.String() != strings.ToLower(f[1]) {
				answer(false, "not my turn")
				continue
			}
			p, _ = p.Play(ms[0])
			answer(true, ms[0].String())
		default:
			answer(false, "unknown command")
		}
	}
	if mode == "ignorequit" {
		time.Sleep(time.Hour)
	}
	return 0
}
