package web

import (
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkLoad holds 300 update streams open and, each iteration, loads
// 500 pages at once (bounded: it stops by itself); it reports the pages per
// second and the 99th-percentile latency of a page.
func BenchmarkLoad(b *testing.B) {
	ts, _, _ := newServer(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 600}, Timeout: 30 * time.Second}
	for range 300 {
		resp, err := client.Get(ts.URL + "/events")
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("stream: %v", err)
		}
		defer resp.Body.Close()
	}
	paths := []string{"/", "/standings", "/crosstable", "/round/1", "/player/1", "/?q=ann"}
	var lat []time.Duration
	var mu sync.Mutex
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		var wg sync.WaitGroup
		for i := range 500 {
			wg.Go(func() {
				t0 := time.Now()
				resp, err := client.Get(ts.URL + paths[i%len(paths)])
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				lat = append(lat, time.Since(t0))
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	elapsed := time.Since(start)
	slices.Sort(lat)
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "pages/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
