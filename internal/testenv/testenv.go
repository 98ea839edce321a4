// Package testenv finds what tests need outside the repository: the shared
// third-party data beside the repository and external engines. A missing
// dependency skips the test on a developer's machine and fails it under CI
// (CI=true), so that CI never passes by skipping.
package testenv

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RepoRoot returns the repository root: the nearest directory above the
// working directory that holds go.mod.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("testenv: no go.mod above the working directory")
		}
		dir = parent
	}
}

// SharedData returns the absolute path of ../shared/data (beside the repository).
func SharedData(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(filepath.Dir(RepoRoot(tb)), "shared", "data")
	if _, err := os.Stat(dir); err != nil {
		Missing(tb, "shared test data at "+dir)
	}
	return dir
}

// SharedFile returns the absolute path of a file under ../shared/data.
func SharedFile(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(SharedData(tb), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		Missing(tb, "shared test file "+p)
	}
	return p
}

// GTPRhino returns the path of Debian's gtp-rhino engine (package grhino).
func GTPRhino(tb testing.TB) string {
	tb.Helper()
	for _, p := range []string{"/usr/games/gtp-rhino"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("gtp-rhino"); err == nil {
		return p
	}
	Missing(tb, "gtp-rhino (Debian package grhino; 'make test' installs it)")
	return ""
}

// Missing skips the test for lack of what it needs on a developer's
// machine, and fails it under CI (CI=true), where nothing may be missing.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("missing %s: required under CI", what)
	}
	tb.Skipf("missing %s (set CI=true to make this a failure)", what)
}

// CSV reads a CSV file under ../shared/data whole, header row included.
func CSV(tb testing.TB, rel string) [][]string {
	tb.Helper()
	f, err := os.Open(SharedFile(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", rel, err)
	}
	return rows
}
