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

// TestScripts runs the CLI scripts in testdata/script (testscript format) on
// SQLite, each with its own folder (otd.db in it, unless a script says).
// Scripts may use $SHARED, the ../shared/data folder, as an absolute path.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(t, false))
}

// TestScriptsPostgres runs the same scripts on PostgreSQL: OTD_DB names a
// new database of the test server for each script. A script that tests SQLite
// files themselves skips there, saying why ([postgres] skip '...').
func TestScriptsPostgres(t *testing.T) {
	if os.Getenv(testenv.PostgresEnv) == "" {
		testenv.Missing(t, "a PostgreSQL server: "+testenv.PostgresEnv+" is not set ('make test' starts one and sets it)")
	}
	testscript.Run(t, scriptParams(t, true))
}

func scriptParams(t *testing.T, postgres bool) testscript.Params {
	shared := filepath.Join(filepath.Dir(testenv.RepoRoot(t)), "shared", "data")
	return testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", filepath.Join(testenv.RepoRoot(t), "examples"))
			env.Setenv("SHARED", shared)
			if postgres {
				url, drop, err := testenv.NewPostgresDB()
				if err != nil {
					return err
				}
				env.Defer(drop)
				env.Setenv("OTD_DB", url)
			}
			return nil
		},
		// [shared]: ../shared/data is there. Under CI (CI=true) its absence is
		// an error, so that no script passes by skipping. [postgres]: the
		// script runs on PostgreSQL.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "postgres":
				return postgres, nil
			case "shared":
				_, err := os.Stat(shared)
				if err != nil && os.Getenv("CI") == "true" {
					return false, fmt.Errorf("../shared/data is missing: required under CI")
				}
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "" && !postgres,
	}
}
