package gtp

import (
	"os"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/fakeengine"
)

// The test binary is also the fake engines (internal/fakeengine).
func TestMain(m *testing.M) {
	if code, ok := fakeengine.Main(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// fakeConfig returns the Config of a fake GTP engine in mode, striking at
// genmove n, with fakeengine's options.
func fakeConfig(mode string, n int, opts ...string) Config {
	return Config{
		Argv:  fakeengine.Argv("gtp", mode, n, opts...),
		Name:  "fake " + mode,
		Grace: 150 * time.Millisecond,
	}
}
