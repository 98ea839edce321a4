package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// recorder is a testing.TB that records Fatalf and Skipf; like testing's,
// they end the goroutine that calls them.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, a ...any) {
	r.fatal = fmt.Sprintf(format, a...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, a ...any) {
	r.skip = fmt.Sprintf(format, a...)
	runtime.Goexit()
}

// record runs f with a recorder, in a goroutine of its own.
func record(f func(testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// TestMissing: a missing dependency skips a test on a developer's machine and
// fails it under CI=true, so that CI never passes by skipping.
func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		ci   string
		fail bool
	}{{"", false}, {"false", false}, {"1", false}, {"true", true}} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r := record(func(tb testing.TB) { Missing(tb, "gtp-rhino") })
			if failed := r.fatal != ""; failed != tc.fail || failed == (r.skip != "") || !strings.Contains(r.fatal+r.skip, "gtp-rhino") {
				t.Errorf("fatal %q, skip %q; want a failure: %v", r.fatal, r.skip, tc.fail)
			}
		})
	}
}

// TestGTPRhino: the engine that 'make test' installs answers GTP. It needs
// gtp-rhino: a skip on a developer's machine without it, a failure under
// CI=true (so CI fails where 'make test' could not install it).
func TestGTPRhino(t *testing.T) {
	p := GTPRhino(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang
	defer cancel()
	cmd := exec.CommandContext(ctx, p)
	cmd.Stdin = strings.NewReader("name\nquit\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	if !strings.HasPrefix(string(out), "= ") {
		t.Errorf("%s answered %q to the GTP command name; want \"= NAME\"", p, out)
	}
}

// TestPostgres: without a server (PostgresEnv unset, or naming none that
// answers) a test skips, saying why, and fails under CI=true; with one, each
// test gets a new, empty database of its own, dropped when it ends.
func TestPostgres(t *testing.T) {
	server := os.Getenv(PostgresEnv)
	for _, tc := range []struct{ env, ci, why string }{
		{"", "", PostgresEnv + " is not set"},
		{"", "true", PostgresEnv + " is not set"},
		{"postgres://otd@127.0.0.1:1/postgres?connect_timeout=5", "", "the PostgreSQL server of " + PostgresEnv},
	} {
		t.Run(fmt.Sprintf("%q CI=%s", tc.env, tc.ci), func(t *testing.T) {
			t.Setenv(PostgresEnv, tc.env)
			t.Setenv("CI", tc.ci)
			r := record(func(tb testing.TB) { Postgres(tb) })
			if (r.fatal != "") != (tc.ci == "true") || !strings.Contains(r.fatal+r.skip, tc.why) {
				t.Errorf("fatal %q, skip %q; want %q, a failure: %v", r.fatal, r.skip, tc.why, tc.ci == "true")
			}
		})
	}
	if server == "" {
		Missing(t, "a PostgreSQL server: "+PostgresEnv+" is not set")
	}
	ctx := context.Background()
	var urls []string
	for i := range 2 {
		t.Run(fmt.Sprint("database ", i), func(t *testing.T) {
			u := Postgres(t)
			conn, err := pgx.Connect(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			var tables int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&tables); err != nil || tables != 0 {
				t.Errorf("a new database: %d tables, %v", tables, err)
			}
			urls = append(urls, u)
		})
	}
	if len(urls) != 2 || urls[0] == urls[1] {
		t.Fatalf("two tests' databases: %q", urls)
	}
	for _, u := range urls {
		if conn, err := pgx.Connect(ctx, u); err == nil || !strings.Contains(err.Error(), "does not exist") {
			if err == nil {
				conn.Close(ctx)
			}
			t.Errorf("%s after its test: %v; want it dropped", u, err)
		}
	}
}
