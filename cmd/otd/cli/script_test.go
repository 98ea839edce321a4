package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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
	// testscript.Main runs m only for the tests, not for otd run by a script.
	testscript.Main(testenv.Quick(m), map[string]func(){
		"otd": func() { os.Exit(Main()) },
	})
}

// The rounds of testdata/script/championship.txtar are written from its
// design by a program (its expected values are worked out by hand).
//go:generate go run ./testdata/championship

// TestScripts runs the CLI scripts in testdata/script (testscript format) on
// SQLite, each with its own folder (otd.db in it, unless a script says).
// Scripts may use $SHARED, the ../shared/data folder, as an absolute path.
func TestScripts(t *testing.T) {
	t.Parallel() // no script starts a fake engine, sets the test binary's environment or its folder
	p := scriptParams(t, false)
	p.Files, p.Dir = scripts(t, p.Dir), ""
	testscript.Run(t, p)
}

// scripts lists the scripts of dir, those of the most otd commands first:
// the parallel scripts start in that order, and the longest (championship:
// some 370 commands one after another) would otherwise start last of all,
// alone on the machine at the end.
func scripts(t *testing.T, dir string) []string {
	names, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	commands := map[string]int{}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		commands[name] = len(otdCommand.FindAll(b, -1))
	}
	slices.SortStableFunc(names, func(a, b string) int { return commands[b] - commands[a] })
	return names
}

// otdCommand matches a script's line that runs otd.
var otdCommand = regexp.MustCompile(`(?m)^\s*(\[[^]]*\]\s*)*[!?]?\s*otd `)

// TestScriptsPostgres runs the same scripts on PostgreSQL: OTD_DB names a
// new database of the test server for each script. A script that tests SQLite
// files themselves skips there, saying why ([postgres] skip '...'), and so
// does one whose commands open no database (opensDatabase).
func TestScriptsPostgres(t *testing.T) {
	t.Parallel() // as TestScripts
	testenv.NeedPostgres(t)
	p := scriptParams(t, true)
	names := scripts(t, p.Dir)
	p.Dir = ""
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if opensDatabase(string(b)) {
			p.Files = append(p.Files, name)
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			t.Skip("its commands open no database: its run on SQLite (TestScripts) tests them")
		})
	}
	testscript.Run(t, p)
}

// noDatabase are the otd commands that open no database.
var noDatabase = regexp.MustCompile(`^(verify|perft|pairing simulate|version|completion|help|--help)\b`)

// opensDatabase tells whether a script runs an otd command that may open a
// database: any but noDatabase's.
func opensDatabase(script string) bool {
	for _, l := range strings.Split(script, "\n") {
		l = strings.TrimSpace(l)
		for strings.HasPrefix(l, "[") || strings.HasPrefix(l, "!") || strings.HasPrefix(l, "?") {
			if strings.HasPrefix(l, "[") {
				_, l, _ = strings.Cut(l, "]")
			} else {
				l = l[1:]
			}
			l = strings.TrimSpace(l)
		}
		if cmd, ok := strings.CutPrefix(l, "otd "); ok && !noDatabase.MatchString(cmd) {
			return true
		}
		if strings.HasPrefix(l, "-- ") { // the files of the archive
			break
		}
	}
	return false
}

func scriptParams(t *testing.T, postgres bool) testscript.Params {
	shared := filepath.Join(filepath.Dir(testenv.RepoRoot(t)), "shared", "data")
	return testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", filepath.Join(testenv.RepoRoot(t), "examples"))
			env.Setenv("SHARED", shared)
			env.Setenv("USER", "director") // who the command line's changes say made them
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
