package testenv

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
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
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
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
