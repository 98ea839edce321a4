package proc

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRing(t *testing.T) {
	r := &ring{limit: 10}
	for _, tc := range []struct{ write, want string }{
		{"0123456", "0123456"},
		{"789abc", "3456789abc"},
		{"0123456789ABCDEF", "6789ABCDEF"},
		{"", "6789ABCDEF"},
	} {
		if n, err := r.Write([]byte(tc.write)); n != len(tc.write) || err != nil {
			t.Errorf("Write(%q) = %d, %v", tc.write, n, err)
		}
		if r.String() != tc.want {
			t.Errorf("after %q: %q; want %q", tc.write, r.String(), tc.want)
		}
	}
}

// TestStartStop: a program that echoes is started, read a line at a time
// and stopped; a missing program does not start.
func TestStartStop(t *testing.T) {
	p, err := Start(Config{Argv: []string{"/bin/sh", "-c", "echo one; echo two >&2; read x; echo \"$x\"; exit 3"}, Grace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hang
	defer cancel()
	if s, err := p.Line(ctx); s != "one" || err != nil {
		t.Errorf("line %q, %v; want one", s, err)
	}
	if err := p.Write(ctx, "three\n"); err != nil {
		t.Fatal(err)
	}
	if s, err := p.Line(ctx); s != "three" || err != nil {
		t.Errorf("line %q, %v; want three", s, err)
	}
	_, err = p.Line(ctx)
	if !errors.Is(err, ErrCrashed) || err.Error() != "the engine exited (exit status 3; stderr: two)" {
		t.Errorf("then %v; want ErrCrashed with the status and stderr", err)
	}
	if err := p.Stop("quit"); err != nil {
		t.Errorf("stop: %v", err)
	}
	if err := Gone(p.Pid(), time.Minute); err != nil { // a guard against a hang
		t.Error(err)
	}
	if _, err := Start(Config{Argv: []string{"/nonexistent/engine"}}); err == nil {
		t.Error("a missing program started")
	}
	if _, err := Start(Config{}); err == nil {
		t.Error("an empty argv started")
	}
}
