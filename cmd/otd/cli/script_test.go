package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/otd-project/otd/internal/fakeengine"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	if code, ok := fakeengine.Main(); ok {
		os.Exit(code)
	}
	if os.Getenv(asOTD) == "1" { // the test binary as otd itself, for tests that kill it
		os.Exit(Main())
	}
	testscript.Main(m, map[string]func(){
		"otd": func() { os.Exit(Main()) },
	})
}

// The rounds of testdata/script/championship.txtar are written from its
// design by a program (its expected values are worked out by hand).
//go:generate go run ./testdata/championship

// TestScripts runs the CLI scripts in testdata/script (testscript format).
// Scripts may use $SHARED, the ../shared/data folder, as an absolute path.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", filepath.Join(testenv.RepoRoot(t), "examples"))
			env.Setenv("SHARED", filepath.Join(filepath.Dir(testenv.RepoRoot(t)), "shared", "data"))
			return nil
		},
		// [shared]: ../shared/data is there. Under CI (CI=true) its absence is
		// an error, so that no script passes by skipping.
		Condition: func(cond string) (bool, error) {
			if cond != "shared" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, err := os.Stat(filepath.Join(filepath.Dir(testenv.RepoRoot(t)), "shared", "data"))
			if err != nil && os.Getenv("CI") == "true" {
				return false, fmt.Errorf("../shared/data is missing: required under CI")
			}
			return err == nil, nil
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}
