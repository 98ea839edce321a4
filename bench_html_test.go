package otd_test

import (
	"path/filepath"
	"testing"
)

// BenchmarkExportHTMLProcess is the wall time of `otd export html` of the
// 1000-player, 13-round tournament to a file (replaced each run), process
// start and loading included (issue 12: at most 0.5 s).
func BenchmarkExportHTMLProcess(b *testing.B) {
	benchProcess(b, func(int) []string { return []string{"export", "html", "--force", filepath.Join(tmp, "bench.html")} })
}
