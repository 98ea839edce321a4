package cli

import (
	"os"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"otd": func() { os.Exit(Main()) },
	})
}

// TestScripts runs the CLI scripts in testdata/script (testscript format).
// Scripts may use $SHARED, the ../shared/data folder, as an absolute path.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("SHARED", sharedData(t))
			return nil
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}

func sharedData(t *testing.T) string { return testenv.SharedData(t) }
