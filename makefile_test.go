package otd_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

// TestMakeTestWithoutInstalling runs `make test` of the Makefile with stand-ins
// for go, id, sudo, apt-get, runuser, chown and PostgreSQL's initdb and pg_ctl
// on a PATH of nothing else but a few file tools: where grhino or postgresql
// cannot be installed (no apt-get, not root and no password-less sudo,
// apt-get failing) make says what it could not install and why, and still
// vets and tests; where it can, it installs them (with sudo if not root).
// Where PostgreSQL is there, make starts a throw-away server (initdb in a
// temporary folder, as the user postgres when root), gives the tests its URL
// in OTD_TEST_POSTGRES, and stops and removes it at the end, even when the
// tests fail; where it cannot start one, it says why and the tests run
// without. Under CI=true it says the tests that need what is missing will
// fail (they do: internal/testenv). Where OTD_TEST_POSTGRES names a server
// already, make neither installs nor starts one: the tests get that one. go
// test runs with a limit of 20 minutes a package (go's default, 10, is too
// close to a busy machine's time).
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
	for _, name := range []string{"env", "chmod", "mktemp", "od", "tr", "rm", "tail", "mkdir", "touch", "cp"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s is missing", name)
		}
		tools[name] = p
	}
	const (
		// apt-get install makes what it installs: gtp-rhino, and initdb and pg_ctl in $PGBIN.
		aptOK = `echo "apt-get $*" >> "$LOG"
[ "$1" = install ] || exit 0
case "$*" in *grhino*) printf '#!/bin/sh\n' > "$BIN/gtp-rhino"; CHMOD +x "$BIN/gtp-rhino";; esac
case "$*" in *postgresql*) MKDIR -p "$PGBIN"; CP "$BIN/stubs/initdb" "$BIN/stubs/pg_ctl" "$PGBIN/";; esac
exit 0`
		aptFails   = `echo "apt-get $*" >> "$LOG"; [ "$1" = install ] && { echo "E: Unable to locate package grhino" >&2; exit 100; }; exit 0`
		aptNothing = `echo "apt-get $*" >> "$LOG"; exit 0`
		root       = `[ "$1" = -u ] && { echo 0; exit 0; }; [ "$1" = postgres ] && exit 0; exit 1`
		user       = `[ "$1" = -u ] && { echo 1000; exit 0; }; exit 0`
		sudoOK     = `[ "$1" = -n ] && shift; [ "$1" = true ] && exit 0; echo "sudo $*" >> "$LOG"; exec "$@"`
		sudoAsks   = `[ "$1" = -n ] && { echo "sudo: a password is required" >&2; exit 1; }; exit 1`
		// PostgreSQL's tools: initdb makes the data folder; pg_ctl start
		// leaves postmaster.pid in it, stop takes it away.
		// As run by runuser, they say so ($AS).
		initdbOK    = `echo "pg: ${AS}initdb $*" >> "$LOG"; MKDIR -p "$2"`
		initdbFails = `echo "pg: ${AS}initdb $*" >> "$LOG"; echo "initdb: error: could not create directory: No space left on device" >&2; exit 1`
		pgCtl       = `echo "pg: ${AS}pg_ctl $*" >> "$LOG"
case "$*" in *" start") TOUCH "$2/postmaster.pid";; *" stop") RM -f "$2/postmaster.pid";; esac`
		runuser = `AS="runuser $1 $2 $3 "; export AS; shift 3; exec "$@"`
		chown   = `echo "pg: chown $*" >> "$LOG"`
	)
	for _, tc := range []struct {
		name   string
		stubs  map[string]string // commands on PATH besides go and env
		pg     map[string]string // initdb and pg_ctl in PG_BIN; nil: PostgreSQL is not installed
		ci     string
		server string   // OTD_TEST_POSTGRES as make is run
		goExit string   // go's exit status
		want   []string // in make's output
		not    []string // not in it
		calls  []string // apt-get and sudo as called, in order
		pgRuns []string // PostgreSQL's tools as called, in order, with the temporary folder as TMP and the port as PORT
	}{
		{name: "no apt-get, not Debian", stubs: nil,
			want: []string{"could not install gtp-rhino (Debian package grhino): apt-get is not available here", "the tests that need gtp-rhino will skip; every other test runs",
				"could not install PostgreSQL (Debian package postgresql): apt-get is not available here",
				"could not start PostgreSQL for the tests: PostgreSQL's initdb and pg_ctl are not installed (Debian package postgresql)",
				"the tests that need PostgreSQL will skip; every other test runs"},
			pgRuns: []string{"OTD_TEST_POSTGRES="}},
		{name: "not root, no sudo", stubs: map[string]string{"id": user, "apt-get": aptOK}, pg: map[string]string{"initdb": initdbOK, "pg_ctl": pgCtl},
			want:   []string{"could not install gtp-rhino", "apt-get needs root: not root, and sudo is missing or asks for a password"},
			not:    []string{"could not install PostgreSQL"},
			pgRuns: startStop(false)},
		{name: "not root, sudo asks for a password", stubs: map[string]string{"id": user, "apt-get": aptOK, "sudo": sudoAsks},
			want: []string{"apt-get needs root", "could not install PostgreSQL (Debian package postgresql): apt-get needs root"}},
		{name: "not root, password-less sudo", stubs: map[string]string{"id": user, "apt-get": aptOK, "sudo": sudoOK},
			want: []string{"installing grhino postgresql"}, not: []string{"could not"},
			calls:  []string{"sudo apt-get update", "apt-get update", "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y grhino postgresql", "apt-get install -y grhino postgresql"},
			pgRuns: startStop(false)},
		{name: "root, apt-get installs", stubs: map[string]string{"id": root, "apt-get": aptOK, "runuser": runuser, "chown": chown},
			want: []string{"installing grhino postgresql", "PostgreSQL for the tests: "}, not: []string{"could not"},
			calls:  []string{"apt-get update", "apt-get install -y grhino postgresql"},
			pgRuns: startStop(true)},
		{name: "root, apt-get fails", stubs: map[string]string{"id": root, "apt-get": aptFails, "runuser": runuser, "chown": chown}, pg: map[string]string{"initdb": initdbOK, "pg_ctl": pgCtl},
			want:  []string{"Unable to locate package grhino", "could not install gtp-rhino (Debian package grhino): apt-get install grhino failed"},
			calls: []string{"apt-get update", "apt-get install -y grhino"}},
		{name: "root, apt-get installs no gtp-rhino", stubs: map[string]string{"id": root, "apt-get": aptNothing, "runuser": runuser, "chown": chown}, pg: map[string]string{"initdb": initdbOK, "pg_ctl": pgCtl},
			want:  []string{"apt-get installed grhino, but there is no gtp-rhino"},
			calls: []string{"apt-get update", "apt-get install -y grhino"}},
		{name: "gtp-rhino on PATH already", stubs: map[string]string{"id": user, "apt-get": aptOK, "gtp-rhino": "exit 0"}, pg: map[string]string{"initdb": initdbOK, "pg_ctl": pgCtl},
			not: []string{"grhino", "could not"}, pgRuns: startStop(false)},
		{name: "tests fail: the server is stopped all the same", stubs: map[string]string{"id": user, "gtp-rhino": "exit 0"}, pg: map[string]string{"initdb": initdbOK, "pg_ctl": pgCtl},
			goExit: "1", pgRuns: startStop(false)},
		{name: "initdb fails", stubs: map[string]string{"id": user, "gtp-rhino": "exit 0"}, pg: map[string]string{"initdb": initdbFails, "pg_ctl": pgCtl},
			want:   []string{"could not start PostgreSQL for the tests: initdb failed: initdb: error: could not create directory: No space left on device", "the tests that need PostgreSQL will skip"},
			pgRuns: []string{"initdb -D TMP/data -U otd --pwfile=TMP/pw --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8", "OTD_TEST_POSTGRES="}},
		{name: "OTD_TEST_POSTGRES set, PostgreSQL installed", stubs: map[string]string{"id": user, "gtp-rhino": "exit 0"}, pg: map[string]string{"initdb": initdbOK, "pg_ctl": pgCtl},
			server: "postgres://otd:pw@db.example.org:5433/postgres",
			want:   []string{"make: PostgreSQL for the tests: the server of OTD_TEST_POSTGRES (none started)"}, not: []string{"could not"},
			pgRuns: []string{"OTD_TEST_POSTGRES=postgres://otd:pw@db.example.org:5433/postgres"}},
		{name: "OTD_TEST_POSTGRES set, PostgreSQL not installed", stubs: map[string]string{"id": user, "gtp-rhino": "exit 0", "apt-get": aptOK, "sudo": sudoOK},
			server: "postgres://otd:pw@db.example.org:5433/postgres",
			want:   []string{"the server of OTD_TEST_POSTGRES (none started)"}, not: []string{"could not", "installing"},
			pgRuns: []string{"OTD_TEST_POSTGRES=postgres://otd:pw@db.example.org:5433/postgres"}},
		{name: "CI, cannot install", stubs: nil, ci: "true",
			want: []string{"could not install gtp-rhino", "CI=true: the tests that need gtp-rhino will fail", "CI=true: the tests that need PostgreSQL will fail"}, not: []string{"will skip"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := t.TempDir()
			pgBin := filepath.Join(bin, "pg")
			tmp := t.TempDir()
			log := filepath.Join(t.TempDir(), "log")
			stub := func(dir, name, body string) {
				body = regexp.MustCompile(`\b(CHMOD|MKDIR|TOUCH|RM|CP)\b`).ReplaceAllStringFunc(body, func(w string) string { return tools[strings.ToLower(w)] })
				if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			stub(bin, "go", `echo "go $*" >> "$LOG"; [ "$1" = test ] && { echo "pg: OTD_TEST_POSTGRES=$OTD_TEST_POSTGRES" >> "$LOG"; exit ${GO_EXIT:-0}; }; exit 0`)
			for name, body := range tc.stubs {
				stub(bin, name, body)
			}
			// What apt-get installs of PostgreSQL: the tools of a server that starts.
			os.MkdirAll(filepath.Join(bin, "stubs"), 0o755)
			stub(filepath.Join(bin, "stubs"), "initdb", initdbOK)
			stub(filepath.Join(bin, "stubs"), "pg_ctl", pgCtl)
			if tc.pg != nil {
				os.MkdirAll(pgBin, 0o755)
				for name, body := range tc.pg {
					stub(pgBin, name, body)
				}
			}
			for _, name := range []string{"env", "mktemp", "od", "tr", "rm", "tail"} {
				if err := os.Symlink(tools[name], filepath.Join(bin, name)); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(mk, "test", "GO="+filepath.Join(bin, "go"), "GTP_RHINO="+filepath.Join(bin, "no-such-gtp-rhino"), "PG_BIN="+pgBin)
			cmd.Dir = testenv.RepoRoot(t)
			cmd.Env = []string{"PATH=" + bin, "LOG=" + log, "BIN=" + bin, "PGBIN=" + pgBin, "CI=" + tc.ci, "TMPDIR=" + tmp, "GO_EXIT=" + tc.goExit, "OTD_TEST_POSTGRES=" + tc.server}
			out, err := cmd.CombinedOutput()
			if (err != nil) != (tc.goExit != "") {
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
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			folder, port := "", ""
			for _, l := range lines {
				if _, rest, ok := strings.Cut(l, "initdb -D "); ok && folder == "" {
					folder, _, _ = strings.Cut(rest, "/data ")
				}
				if _, rest, ok := strings.Cut(l, "-o -p "); ok {
					port, _, _ = strings.Cut(rest, " ")
				}
			}
			var calls, pgRuns []string
			ran := map[string]bool{}
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "go "):
					ran[l] = true
				case strings.HasPrefix(l, "pg: "):
					l = strings.ReplaceAll(strings.TrimPrefix(l, "pg: "), pgBin+"/", "")
					if folder != "" {
						l = strings.ReplaceAll(l, folder, "TMP")
					}
					if port != "" {
						l = strings.ReplaceAll(strings.ReplaceAll(l, ":"+port+"/", ":PORT/"), "-p "+port+" ", "-p PORT ")
					}
					pgRuns = append(pgRuns, regexp.MustCompile(`otd:[0-9a-f]{24}@`).ReplaceAllString(l, "otd:PASSWORD@"))
				case l != "":
					calls = append(calls, l)
				}
			}
			if !ran["go vet ./..."] || !ran["go test -timeout 20m ./..."] {
				t.Errorf("make test did not vet and test; go was called: %q", b)
			}
			if strings.Join(calls, "\n") != strings.Join(tc.calls, "\n") {
				t.Errorf("apt-get and sudo were called as %q; want %q", calls, tc.calls)
			}
			if tc.pgRuns != nil && strings.Join(pgRuns, "\n") != strings.Join(tc.pgRuns, "\n") {
				t.Errorf("PostgreSQL's tools were called as\n%s\nwant\n%s", strings.Join(pgRuns, "\n"), strings.Join(tc.pgRuns, "\n"))
			}
			if folder != "" {
				if !strings.HasPrefix(folder, tmp+"/") {
					t.Errorf("the server's folder %s is not in TMPDIR %s", folder, tmp)
				}
				if _, err := os.Stat(folder); err == nil {
					t.Errorf("the server's folder %s is left behind", folder)
				}
			}
		})
	}
}

// startStop are the calls of a server started and stopped, as the user
// postgres if asRoot.
func startStop(asRoot bool) []string {
	as := ""
	var runs []string
	if asRoot {
		as = "runuser -u postgres -- "
		runs = append(runs, "chown postgres TMP", "chown postgres TMP/pw")
	}
	return append(runs,
		as+"initdb -D TMP/data -U otd --pwfile=TMP/pw --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8",
		as+"pg_ctl -D TMP/data -l TMP/data/server.log -w -t 60 -o -p PORT -k TMP -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 start",
		"OTD_TEST_POSTGRES=postgres://otd:PASSWORD@127.0.0.1:PORT/postgres?sslmode=disable",
		as+"pg_ctl -D TMP/data -m immediate -w stop")
}
