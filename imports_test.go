package otd_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/otd-project/otd"

// allowed lists, for each package of ours (by path below the module), the
// packages of ours its non-test files may import (DESIGN.md, "Imports").
// A package not listed may import nothing of ours except where a prefix rule
// below allows it.
var allowed = map[string][]string{
	"engine":              {},
	"pairing":             {},
	"scoring":             {},
	"engine/transcript":   {"engine"},
	"engine/player":       {"engine"},
	"engine/proc":         {},
	"engine/gtp":          {"engine", "engine/player", "engine/proc"},
	"engine/nboard":       {"engine", "engine/player", "engine/proc"},
	"engine/match":        {"engine", "engine/player"},
	"tournament":          {"engine", "pairing", "scoring", "engine/match", "engine/player", "engine/transcript"},
	"tournament/export":   {"tournament", "engine", "pairing", "scoring"},
	"store":               {"tournament", "engine", "pairing", "scoring"},
	"tournament/web":      {"tournament", "tournament/export", "engine", "engine/transcript", "pairing", "scoring"}, // otd serve: through the application layer, never store; the game viewer replays transcripts
	"internal/testenv":    {},
	"internal/fakeengine": {"engine"},
	"internal/memstore":   {"tournament"}, // a tournament.Storage in memory for tests
	// The end-to-end checks of make e2e (build tag e2e) run the otd binary
	// and the programs people open its files with; they import nothing of ours.
	"e2e": {},
}

// testAllowed lists what a package's test files may import beyond its own
// rule and internal/testenv: the Director's tests use a Storage in memory;
// the match tests play a real engine through GTP; the engine processes' and
// clients' tests start fake engines, and nboard's play games.
var testAllowed = map[string][]string{
	"tournament":    {"internal/memstore"}, // the Director's tests over a Storage in memory
	"engine/match":  {"engine/gtp"},
	"engine/proc":   {"internal/fakeengine"},
	"engine/gtp":    {"internal/fakeengine"},
	"engine/nboard": {"internal/fakeengine", "engine/match"},
}

// TestImportRules enforces the layering of DESIGN.md on every non-test Go
// file: the leaves import nothing of ours, engine/* only engine (and
// engine/player), store and export only the domain and the leaves; cmd may
// import everything. Test files may also import internal/testenv.
func TestImportRules(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if strings.HasPrefix(pkg, "cmd/") || pkg == "." {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		isTest := strings.HasSuffix(path, "_test.go")
		rules, known := allowed[pkg]
		if !known {
			t.Errorf("%s: package %s has no import rule: add it to allowed in imports_test.go (DESIGN.md)", path, pkg)
			return nil
		}
		seen++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, module+"/") {
				continue
			}
			ours := strings.TrimPrefix(p, module+"/")
			ok := ours == pkg || (isTest && (ours == "internal/testenv" || slices.Contains(testAllowed[pkg], ours)))
			for _, a := range rules {
				ok = ok || ours == a
			}
			if !ok {
				t.Errorf("%s imports %s: package %s may import only %v of ours (DESIGN.md)", path, ours, pkg, rules)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen == 0 {
		t.Fatal("no Go files checked")
	}
}

// TestMainIsOneLine keeps cmd/otd/main.go to its one job (DESIGN.md).
func TestMainIsOneLine(t *testing.T) {
	src, err := os.ReadFile("cmd/otd/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "os.Exit(cli.Main())") {
		t.Error("cmd/otd/main.go must be os.Exit(cli.Main())")
	}
}
