package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/testenv"
)

// The venue's rush (issue 31): rushTables tables (twice as many players,
// round 1 paired) whose two sides all report within rushSpread, as players
// finishing, rushDisputes of them disagreeing; meanwhile rushPhones phones
// follow the live pages and the director works the console.
const (
	rushTables   = 100
	rushDisputes = 5
	rushPhones   = 300
	rushSpread   = 60 * time.Second
	rushLimit    = 5 * time.Minute
)

// BenchmarkVenueLoad runs 'otd serve --venue' (the otd binary) on an event
// of 200 players, round 1 paired, in SQLite and in PostgreSQL
// (OTD_TEST_POSTGRES; skipped without it), under a round's rush:
//
//   - each side of every table reports its result (POST /r/{token}, the
//     slips' codes) once, at a moment drawn at random (seeded) within
//     rushSpread; rushDisputes tables disagree;
//   - rushPhones phones follow the live pages as the pages' script does:
//     each holds an update stream (/events) open and loads its page again
//     on every message;
//   - the director, logged in with the password, loads the console's
//     tables page again and again, holds the console's update stream open
//     (as its script does) and settles each dispute once both of its reports
//     are in (POST /console/approve, black's report).
//
// Every client has an address of its own (127.0.x.y, net.Dialer's
// LocalAddr), so that the per-address limiter is not what is measured. Then
// the database must hold every table's result, each recorded once (one
// 'result' entry per table in 'otd log': by report, or by the console for
// the disputes). It reports the p50 and p99 of a report's POST, the time
// from a report's answer to the console stream's next message (0 when the
// message came first), the pages served per second (the phones' and the
// console's), and the server's peak memory (VmHWM: Linux only).
//
// As BenchmarkLoad, the clients run on one core (GOMAXPROCS=1): the phones
// bring their own CPUs. One iteration is one rush (a minute):
//
//	go test -run '^$' -bench VenueLoad -benchtime 1x ./web/
func BenchmarkVenueLoad(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads the server's peak memory from /proc: Linux only")
	}
	otd := buildOTD(b)
	b.Run("sqlite", func(b *testing.B) {
		for b.Loop() {
			rush(b, otd, filepath.Join(b.TempDir(), "event.db"))
		}
	})
	b.Run("postgres", func(b *testing.B) {
		testenv.NeedPostgres(b)
		for b.Loop() {
			rush(b, otd, testenv.Postgres(b))
		}
	})
}

// buildOTD builds the otd binary into a temporary folder.
func buildOTD(b *testing.B) string {
	otd := filepath.Join(b.TempDir(), "otd")
	build := exec.Command("go", "build", "-o", otd, "./cmd/otd")
	build.Dir = testenv.RepoRoot(b)
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return otd
}

// startServe starts 'otd --db db serve args...' and returns it and the
// address it prints (http://127.0.0.1:PORT/).
func startServe(b *testing.B, ctx context.Context, otd, db string, args ...string) (*exec.Cmd, string) {
	srv := exec.CommandContext(ctx, otd, append([]string{"--db", db, "serve", "--listen", "127.0.0.1:0", "--qr=false"}, args...)...)
	stdout, err := srv.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	url := ""
	for sc := bufio.NewScanner(stdout); url == "" && sc.Scan(); {
		url = regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(sc.Text())
	}
	if url == "" {
		b.Fatal("otd serve printed no address")
	}
	go io.Copy(io.Discard, stdout)
	return srv, url
}

// clientAt is an HTTP client whose connections come from address 127.0.x.y
// (n = x*256 + y), keeping its cookies.
func clientAt(n int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, byte(n>>8), byte(n))}}
	jar, _ := cookiejar.New(nil)
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 2}, Jar: jar} // no timeout: the streams last; rushLimit bounds the rush
}

// rush sets up the event in db and runs the rush on it (BenchmarkVenueLoad).
func rush(b *testing.B, otd, db string) {
	ctx, cancel := context.WithTimeout(context.Background(), rushLimit)
	defer cancel()
	run := func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, otd, append([]string{"--db", db}, args...)...).Output()
		if err != nil {
			return "", fmt.Errorf("otd %s: %w", strings.Join(args, " "), err)
		}
		return string(out), nil
	}
	must := func(args ...string) string {
		out, err := run(args...)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	must("tournament", "new", "Rush Open", "--rounds", "7")
	for i := 1; i <= 2*rushTables; i++ {
		must("player", "add", fmt.Sprintf("Player %03d", i), "--rating", strconv.Itoa(2200-i))
	}
	must("round", "pair")
	password := filepath.Join(b.TempDir(), "password")
	if err := os.WriteFile(password, []byte("rush-hour-director\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	must("tournament", "edit", "--director-password-file", password)
	// The slips give each table's black stub, then its white one.
	codes := regexp.MustCompile(`/r/([0-9A-Z]{13})\b`).FindAllStringSubmatch(must("round", "slips", "1", "--url", "http://127.0.0.1/"), -1)
	if len(codes) != 2*rushTables {
		b.Fatalf("the slips have %d codes, want %d", len(codes), 2*rushTables)
	}
	srv, base := startServe(b, ctx, otd, db, "--venue", "--https-listen", "127.0.0.1:0")

	var mu sync.Mutex
	phones, stop := context.WithCancel(ctx)
	defer stop()
	fail := func(format string, args ...any) {
		if phones.Err() == nil {
			b.Errorf(format, args...)
		}
	}

	// The director's session, its console's stream: the messages' times.
	director := clientAt(1)
	resp, err := director.PostForm(base+"console/login", url.Values{"password": {"rush-hour-director"}})
	if err != nil || resp.StatusCode != 200 || resp.Request.URL.Path != "/console" {
		b.Fatalf("console login: %v, %v", resp, err)
	}
	resp.Body.Close()
	var consoleAt []time.Time
	stream := func(c *http.Client, path string, each func()) error {
		resp, err := c.Get(base + path)
		if err != nil {
			return err
		}
		if resp.StatusCode != 200 {
			resp.Body.Close()
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		go func() {
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			first := true
			for sc.Scan() {
				if !strings.HasPrefix(sc.Text(), "data:") {
					continue
				}
				if !first {
					each()
				}
				first = false
			}
		}()
		return nil
	}
	if err := stream(director, "console/events", func() {
		mu.Lock()
		consoleAt = append(consoleAt, time.Now())
		mu.Unlock()
	}); err != nil {
		b.Fatalf("the console's stream: %v", err)
	}

	// The phones.
	pages := 0
	load := func(c *http.Client, path string) {
		resp, err := c.Get(base + path)
		if err != nil {
			fail("%s: %v", path, err)
			return
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			fail("%s: status %d, %v", path, resp.StatusCode, err)
			return
		}
		mu.Lock()
		pages++
		mu.Unlock()
	}
	paths := []string{"", "round/1", "standings", "crosstable"}
	for i := range rushPhones {
		c, path := clientAt(256+i), paths[i%len(paths)]
		if i%len(paths) == 0 && i%8 == 0 {
			path = fmt.Sprintf("player/%d", i%(2*rushTables)+1)
		}
		reload := make(chan struct{}, 1)
		if err := stream(c, "events", func() {
			select {
			case reload <- struct{}{}:
			default: // a reload is under way: it gets the change
			}
		}); err != nil {
			b.Fatalf("phone %d's stream: %v", i, err)
		}
		go func() {
			for {
				select {
				case <-phones.Done():
					return
				case <-reload:
					load(c, path)
				}
			}
		}()
	}

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	start := time.Now()

	// The players: each side at its moment, from its own address.
	type report struct {
		sent, answered time.Time
	}
	reports := make([]report, 2*rushTables)
	both := make(chan int, rushTables) // a disputed table whose two reports are in
	in := make([]int, rushTables)
	rnd := rand.New(rand.NewPCG(31, 2026))
	var players sync.WaitGroup
	for i, code := range codes {
		at := time.Duration(rnd.Int64N(int64(rushSpread)))
		table, white := i/2, i%2 == 1
		black := 33 + table%30
		form := url.Values{"black": {strconv.Itoa(black)}, "white": {strconv.Itoa(64 - black)}}
		if white && table < rushDisputes {
			form = url.Values{"black": {strconv.Itoa(64 - black)}, "white": {strconv.Itoa(black)}}
		}
		c := clientAt(2048 + i)
		players.Go(func() {
			time.Sleep(at)
			t0 := time.Now()
			resp, err := c.PostForm(base+"r/"+code[1], form)
			if err != nil {
				fail("table %d's report: %v", table+1, err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			t1 := time.Now()
			if resp.StatusCode != 200 {
				fail("table %d's report: status %d", table+1, resp.StatusCode)
			}
			mu.Lock()
			reports[i] = report{t0, t1}
			in[table]++
			if in[table] == 2 && table < rushDisputes {
				both <- table + 1
			}
			mu.Unlock()
		})
	}

	// The director: the console's tables page, again and again; a dispute
	// settled once both its reports are in.
	done := make(chan struct{})
	var directing sync.WaitGroup
	settled := 0
	directing.Go(func() {
		for {
			select {
			case <-done:
				return
			case table := <-both:
				resp, err := director.PostForm(base+"console/approve", url.Values{"round": {"1"}, "table": {strconv.Itoa(table)}, "side": {"black"}})
				if err != nil || resp.StatusCode != 200 {
					fail("settling table %d: %v %v", table, resp, err)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				settled++
				mu.Unlock()
			default:
				load(director, "console")
				time.Sleep(100 * time.Millisecond)
			}
		}
	})
	players.Wait()
	for ctx.Err() == nil && !b.Failed() {
		mu.Lock()
		n := settled
		mu.Unlock()
		if n == rushDisputes {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // the last changes' pages
	close(done)
	directing.Wait()
	elapsed := time.Since(start)
	peak, err := peakMemory(srv.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}
	stop()

	// Every table's result, recorded once.
	type game struct {
		Table      int
		BlackDiscs *int `json:"black_discs"`
	}
	var games []game
	if err := json.Unmarshal([]byte(must("round", "show", "1", "--json")), &games); err != nil {
		b.Fatal(err)
	}
	recorded := 0
	for _, g := range games {
		if g.BlackDiscs != nil {
			recorded++
		}
	}
	var log []struct {
		Action, Subject string
		Actor           struct{ Kind string }
	}
	if err := json.Unmarshal([]byte(must("log", "--json")), &log); err != nil {
		b.Fatal(err)
	}
	entries, by := map[string]int{}, map[string]int{}
	for _, e := range log {
		if e.Action == "result" {
			table, _, _ := strings.Cut(e.Subject, " (")
			entries[table]++
			by[e.Actor.Kind]++
		}
	}
	if recorded != rushTables || len(entries) != rushTables {
		b.Errorf("%d results in the database, %d tables with a result in the log, want %d", recorded, len(entries), rushTables)
	}
	for table, n := range entries {
		if n != 1 {
			b.Errorf("%s: %d results in the log, want 1", table, n)
		}
	}

	mu.Lock()
	defer mu.Unlock()
	var post, update []time.Duration
	for _, r := range reports {
		if r.answered.IsZero() {
			continue
		}
		post = append(post, r.answered.Sub(r.sent))
		i, _ := slices.BinarySearchFunc(consoleAt, r.sent, func(a, t time.Time) int { return a.Compare(t) })
		if i == len(consoleAt) {
			b.Errorf("a report of %v got no console message", r.sent.Sub(start))
			continue
		}
		update = append(update, max(0, consoleAt[i].Sub(r.answered)))
	}
	if len(post) == 0 || len(update) == 0 {
		b.Fatalf("%d reports answered, %d console updates", len(post), len(update))
	}
	slices.Sort(post)
	slices.Sort(update)
	b.ReportMetric(ms(post[len(post)/2]), "report-p50-ms")
	b.ReportMetric(ms(post[len(post)*99/100]), "report-p99-ms")
	b.ReportMetric(ms(update[len(update)/2]), "console-p50-ms")
	b.ReportMetric(ms(update[len(update)*99/100]), "console-p99-ms")
	b.ReportMetric(float64(pages)/elapsed.Seconds(), "pages/s")
	b.ReportMetric(float64(peak)/(1<<20), "server-peak-MB")
	b.ReportMetric(float64(by["report"]), "by-report")
	b.ReportMetric(float64(by["console"]), "by-console")
}
