package otd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

// TestMakeTestWithoutInstalling runs `make test` of the Makefile with stand-ins
// for go, id, sudo and apt-get on a PATH of nothing else (gtp-rhino missing):
// where grhino cannot be installed (no apt-get, not root and no password-less
// sudo, apt-get failing) make says what it could not install and why, and
// still vets and tests; where it can, it installs it (with sudo if not root).
// Under CI=true it says the tests that need gtp-rhino will fail (they do:
// internal/testenv).
func TestMakeTestWithoutInstalling(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("make is missing: required under CI")
		}
		t.Skip("make is missing (set CI=true to make this a failure)")
	}
	// Read here so that a changed Makefile is not a cached pass (go test
	// caches on the files the test itself opens, not make).
	if _, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "Makefile")); err != nil {
		t.Fatal(err)
	}
	tools := map[string]string{}
	for _, name := range []string{"env", "chmod"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s is missing", name)
		}
		tools[name] = p
	}
	const (
		aptOK = `echo "apt-get $*" >> "$LOG"
[ "$1" = install ] && { printf '#!/bin/sh\n' > "$BIN/gtp-rhino"; CHMOD +x "$BIN/gtp-rhino"; }
exit 0`
		aptFails   = `echo "apt-get $*" >> "$LOG"; [ "$1" = install ] && { echo "E: Unable to locate package grhino" >&2; exit 100; }; exit 0`
		aptNothing = `echo "apt-get $*" >> "$LOG"; exit 0`
		root       = `echo 0`
		user       = `echo 1000`
		sudoOK     = `[ "$1" = -n ] && shift; [ "$1" = true ] && exit 0; echo "sudo $*" >> "$LOG"; exec "$@"`
		sudoAsks   = `[ "$1" = -n ] && { echo "sudo: a password is required" >&2; exit 1; }; exit 1`
	)
	for _, tc := range []struct {
		name  string
		stubs map[string]string // commands on PATH besides go and env
		ci    string
		want  []string // in make's output
		not   []string // not in it
		calls []string // apt-get and sudo as called, in order
	}{
		{name: "no apt-get, not Debian", stubs: nil,
			want: []string{"could not install gtp-rhino (Debian package grhino): apt-get is not available here", "the tests that need gtp-rhino will skip; every other test runs"}},
		{name: "not root, no sudo", stubs: map[string]string{"id": user, "apt-get": aptOK},
			want: []string{"could not install gtp-rhino", "apt-get needs root: not root, and sudo is missing or asks for a password"}},
		{name: "not root, sudo asks for a password", stubs: map[string]string{"id": user, "apt-get": aptOK, "sudo": sudoAsks},
			want: []string{"apt-get needs root"}},
		{name: "not root, password-less sudo", stubs: map[string]string{"id": user, "apt-get": aptOK, "sudo": sudoOK},
			want: []string{"installing grhino"}, not: []string{"could not"},
			calls: []string{"sudo apt-get update", "apt-get update", "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y grhino", "apt-get install -y grhino"}},
		{name: "root, apt-get installs", stubs: map[string]string{"id": root, "apt-get": aptOK},
			want: []string{"installing grhino"}, not: []string{"could not"},
			calls: []string{"apt-get update", "apt-get install -y grhino"}},
		{name: "root, apt-get fails", stubs: map[string]string{"id": root, "apt-get": aptFails},
			want:  []string{"Unable to locate package grhino", "could not install gtp-rhino (Debian package grhino): apt-get install grhino failed"},
			calls: []string{"apt-get update", "apt-get install -y grhino"}},
		{name: "root, apt-get installs no gtp-rhino", stubs: map[string]string{"id": root, "apt-get": aptNothing},
			want:  []string{"apt-get installed grhino, but there is no gtp-rhino"},
			calls: []string{"apt-get update", "apt-get install -y grhino"}},
		{name: "gtp-rhino on PATH already", stubs: map[string]string{"id": root, "apt-get": aptOK, "gtp-rhino": "exit 0"},
			not: []string{"grhino"}},
		{name: "CI, cannot install", stubs: nil, ci: "true",
			want: []string{"could not install gtp-rhino", "CI=true: the tests that need gtp-rhino will fail"}, not: []string{"will skip"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := t.TempDir()
			log := filepath.Join(t.TempDir(), "log")
			stub := func(name, body string) {
				body = strings.ReplaceAll(body, "CHMOD", tools["chmod"])
				if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			stub("go", `echo "go $*" >> "$LOG"`)
			for name, body := range tc.stubs {
				stub(name, body)
			}
			if err := os.Symlink(tools["env"], filepath.Join(bin, "env")); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(mk, "test", "GO="+filepath.Join(bin, "go"), "GTP_RHINO="+filepath.Join(bin, "no-such-gtp-rhino"))
			cmd.Dir = testenv.RepoRoot(t)
			cmd.Env = []string{"PATH=" + bin, "LOG=" + log, "BIN=" + bin, "CI=" + tc.ci}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("make test: %v\n%s", err, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("make's output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(string(out), w) {
					t.Errorf("make's output has %q:\n%s", w, out)
				}
			}
			b, _ := os.ReadFile(log)
			var calls []string
			ran := map[string]bool{}
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if strings.HasPrefix(l, "go ") {
					ran[l] = true
				} else if l != "" {
					calls = append(calls, l)
				}
			}
			if !ran["go vet ./..."] || !ran["go test ./..."] {
				t.Errorf("make test did not vet and test; go was called: %q", b)
			}
			if strings.Join(calls, "\n") != strings.Join(tc.calls, "\n") {
				t.Errorf("apt-get and sudo were called as %q; want %q", calls, tc.calls)
			}
		})
	}
}
