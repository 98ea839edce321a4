package otd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

// buildOTD builds the otd binary once into a temporary folder.
func buildOTD(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "otd")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/otd")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("go build: %v", err)
	}
	return bin
}

// BenchmarkVerifyWTHORProcess is the wall time of one `otd verify` run over
// the four shared WTHOR databases, process start included.
func BenchmarkVerifyWTHORProcess(b *testing.B) {
	dir := filepath.Join(testenv.SharedData(b), "wthor")
	args := []string{"verify"}
	for _, f := range []string{"WTH_2004.wtb", "WTH_2013.wtb", "WTH_2018.wtb", "WTH_2019.wtb"} {
		args = append(args, filepath.Join(dir, f))
	}
	bin := buildOTD(b)
	b.ResetTimer()
	for b.Loop() {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			b.Fatalf("otd verify: %v\n%s", err, out)
		}
	}
}

// BenchmarkPerft11Process is the wall time of `otd perft 11`, process start included.
func BenchmarkPerft11Process(b *testing.B) {
	bin := buildOTD(b)
	b.ResetTimer()
	for b.Loop() {
		out, err := exec.Command(bin, "perft", "11").Output()
		if err != nil || string(out) != "212258800\n" {
			b.Fatalf("otd perft 11: %q, %v", out, err)
		}
	}
}
