package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
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
)

// The load: every iteration loads loadPages pages at once while loadStreams
// update streams are open; meanwhile 'otd result' corrects a result every
// resultEvery, loadResults times at least (the load goes on until then, or
// until one fails). The whole run must end within loadLimit.
const (
	loadPages   = 500
	loadStreams = 300
	loadResults = 10
	resultEvery = 200 * time.Millisecond
	loadLimit   = 3 * time.Minute
)

// BenchmarkLoad runs the otd binary: 'otd demo --simulated' makes a
// finished 7-round event of 64 players; 'otd serve' serves it on a loopback
// port; the load is as above, the results entered by 'otd result ...
// --correct' processes against the same database file, as a director
// would. It reports the pages per second, the 99th-percentile latency of a
// page, the server's peak memory (its resident set's high-water mark,
// VmHWM in /proc: Linux only) and the median and the longest time an
// 'otd result' process took, start to exit, under the load and, for
// comparison, before it (5 results, streams open). Then Ctrl-C (SIGINT) must
// stop the server, streams open, within 5 s.
//
// The pages are loaded by this process with one core at most
// (GOMAXPROCS=1): at the venue the phones load them, and a generator on
// every core would take from otd the CPU the phones do not.
//
//	go test -run '^$' -bench Load -benchtime 20x ./web/
func BenchmarkLoad(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads the server's peak memory from /proc: Linux only")
	}
	ctx, cancel := context.WithTimeout(context.Background(), loadLimit)
	defer cancel()
	db := filepath.Join(b.TempDir(), "event.db")
	otd := buildOTD(b)
	run := func(args ...string) error {
		out, err := exec.CommandContext(ctx, otd, append([]string{"--db", db}, args...)...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("otd %s: %w\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	if err := run("demo", "--simulated", "--players", "64", "--rounds", "7", "--seed", "1"); err != nil {
		b.Fatal(err)
	}

	srv, url := startServe(b, ctx, otd, db)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: loadPages + loadStreams}, Timeout: 30 * time.Second}
	for range loadStreams {
		resp, err := client.Get(url + "events")
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("stream: %v", err)
		}
		defer resp.Body.Close()
		go io.Copy(io.Discard, resp.Body)
	}

	result := func(i int) (time.Duration, error) {
		t0 := time.Now()
		err := run("result", "7", "1", []string{"40-24", "24-40"}[i%2], "--correct")
		return time.Since(t0), err
	}
	var idle []time.Duration
	for i := range 5 {
		d, err := result(i)
		if err != nil {
			b.Fatal(err)
		}
		idle = append(idle, d)
		time.Sleep(resultEvery)
	}

	// The director's results, while the load runs.
	var results []time.Duration
	var failed bool
	var mu sync.Mutex
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(resultEvery)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			d, err := result(i)
			mu.Lock()
			results = append(results, d)
			failed = err != nil
			mu.Unlock()
			if err != nil {
				b.Error(err)
				return
			}
		}
	}()
	enough := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(results) >= loadResults || failed
	}

	paths := []string{"/", "/standings", "/crosstable", "/round/7", "/player/1", "/?q=an"}
	var lat []time.Duration
	burst := func() {
		if ctx.Err() != nil {
			b.Fatalf("the load did not end within %v", loadLimit)
		}
		var wg sync.WaitGroup
		for j := range loadPages {
			wg.Go(func() {
				t0 := time.Now()
				resp, err := client.Get(url + paths[j%len(paths)][1:])
				if err != nil {
					b.Error(err)
					return
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					b.Errorf("%s: status %d, %v", paths[j%len(paths)], resp.StatusCode, err)
				}
				mu.Lock()
				lat = append(lat, time.Since(t0))
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	start := time.Now()
	for b.Loop() {
		burst()
	}
	for !enough() {
		burst()
	}
	elapsed := time.Since(start)
	close(stop)
	<-stopped
	peak, err := peakMemory(srv.Process.Pid)
	if err != nil {
		b.Fatal(err)
	}

	if err := srv.Process.Signal(os.Interrupt); err != nil {
		b.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			b.Errorf("otd serve after Ctrl-C: %v", err)
		}
	case <-time.After(5 * time.Second):
		b.Error("otd serve did not stop within 5 s of Ctrl-C")
	}

	if len(lat) == 0 || len(results) == 0 {
		b.Fatalf("%d pages and %d results measured", len(lat), len(results))
	}
	slices.Sort(lat)
	slices.Sort(results)
	slices.Sort(idle)
	b.ReportMetric(ms(idle[len(idle)/2]), "result-idle-median-ms")
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "pages/s")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(float64(peak)/(1<<20), "server-peak-MB")
	b.ReportMetric(ms(results[len(results)/2]), "result-median-ms")
	b.ReportMetric(ms(results[len(results)-1]), "result-max-ms")
	b.ReportMetric(float64(len(results)), "results")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakMemory reads a process's peak resident set (VmHWM) in bytes.
func peakMemory(pid int) (int64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("peak memory: %w", err)
	}
	m := regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB$`).FindSubmatch(status)
	if m == nil {
		return 0, fmt.Errorf("peak memory: no VmHWM in /proc/%d/status", pid)
	}
	kb, err := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10, err
}
