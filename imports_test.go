package otd_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
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
	"engine":            {},
	"pairing":           {},
	"scoring":           {},
	"rating":            {},                                              // the WOF rating list: games in, ratings out
	"engine/transcript": {"engine", "internal/txt", "internal/userfile"}, // a picture's caption escaped; a WTHOR database's names files read
	"engine/player":     {"engine"},
	"engine/proc":       {"engine", "engine/player"}, // proc.Client is a player.Player; it knows no protocol
	"engine/gtp":        {"engine", "engine/player", "engine/proc"},
	"engine/nboard":     {"engine", "engine/player", "engine/proc", "engine/transcript"}, // set game sends a GGF record
	"engine/match":      {"engine", "engine/player"},
	"tournament":        {"internal/txt", "engine", "pairing", "scoring", "engine/match", "engine/player", "engine/transcript"}, // the domain: pure, it starts no process (app does)
	// The application layer: the domain, the archive, the leaves, the formats and the engines it starts; never an adapter.
	"app":            {"tournament", "archive", "internal/txt", "engine", "engine/transcript", "engine/player", "engine/proc", "engine/gtp", "engine/nboard", "engine/match", "pairing", "scoring", "rating", "elo", "ftd", "roster"},
	"export":         {"internal/txt", "tournament", "engine", "pairing", "scoring", "elo", "ftd"},              // the .ELO mapping: tournament <-> elo.File; a FlipTheDisc file -> tournament
	"elo":            {"internal/txt", "scoring"},                                                               // a file format: its own types and the points and rules it writes
	"ftd":            {"internal/txt", "engine/transcript"},                                                     // FlipTheDisc's tournament JSON: a file format, its own types; its transcripts as game records
	"roster":         {"internal/txt", "tournament"},                                                            // the players file of 'player import', its names compared as the domain does (FoldName)
	"archive":        {"internal/txt", "elo", "export", "rating", "scoring", "tournament", "internal/userfile"}, // the WOF archive: .ELO files indexed (by export's lenient reader), the rating list (rating), names compared as the domain does
	"store/sqlite":   {"app", "tournament", "engine", "pairing", "scoring", "store/internal/sqltx", "archive", "rating", "internal/tempfile", "internal/testhook", "internal/userfile"},
	"store/postgres": {"app", "tournament", "store/internal/sqltx", "internal/testhook"},
	// The tournament.Tx of the SQL stores, written once for both engines.
	"store/internal/sqltx": {"app", "tournament", "scoring"},
	"web":                  {"internal/txt", "tournament", "export", "engine", "engine/transcript", "pairing", "scoring"}, // otd serve: through the application layer, never a store; the game viewer replays transcripts
	"internal/testenv":     {},
	"internal/tempfile":    {}, // the temporary files of backups, restores and exports, told dead by their lock
	"internal/testhook":    {}, // otd stopped at a named point of a backup or restore, for the tests that kill it there
	"internal/txt":         {}, // a leaf every package may import: a file's text decoded, the one check of a name, text escaped for a terminal
	"internal/userfile":    {}, // opening a file the user names: a regular file under a cap
	"internal/fakeengine":  {"engine"},
	"internal/memstore":    {"tournament"},                   // a tournament.Storage in memory for tests
	"internal/storetest":   {"app", "tournament", "scoring"}, // the suite of the tournament.Storage contract, run by every store
	// The tests engine/gtp and engine/nboard pass alike, against the fakes.
	"internal/enginetest": {"engine", "engine/player", "engine/proc", "internal/fakeengine"},
	// The end-to-end checks of make e2e (build tag e2e) run the otd binary
	// and the programs people open its files with; they import nothing of ours.
	"e2e": {},
}

// testAllowed lists what a package's test files may import beyond its own
// rule and internal/testenv: the Director's tests use a Storage in memory;
// the match tests play a real engine through GTP (configured by a
// proc.Config); the engine processes' tests start fake engines, the clients' tests through internal/enginetest,
// and nboard's play games.
var testAllowed = map[string][]string{
	"app": {"internal/memstore"}, // the Director's tests over a Storage in memory
	// The stores run the suite of the Storage contract; PostgreSQL's schema
	// is held to SQLite's by a test that opens both.
	"store/sqlite":      {"internal/storetest"},
	"store/postgres":    {"internal/storetest", "store/sqlite"},
	"internal/memstore": {"internal/storetest", "app"},
	"engine/match":      {"engine/gtp", "engine/proc"},
	"engine/proc":       {"internal/fakeengine"},
	"engine/gtp":        {"internal/enginetest"},
	"engine/nboard":     {"internal/enginetest", "engine/match"},
}

// TestImportRules enforces the layering of DESIGN.md on every non-test Go
// file: the leaves import nothing of ours, engine/* only engine and the
// engine packages below them (engine/proc's Client is a player.Player,
// engine/nboard writes GGF with engine/transcript), the domain the leaves
// and the engine family (it plays and starts engine entrants), store and
// export only the domain and the leaves (and export the file formats), a
// file format nothing but leaves (elo) or the domain (roster, for FoldName); cmd may import everything.
// Test files may also import internal/testenv.
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

// layers are DESIGN.md's, bottom up: 0 the leaves (and test support), 1
// the domain, 2 the adapters beside it, 3 the command line. Every package
// of ours is listed.
var layers = map[string]int{
	"engine": 0, "engine/transcript": 0, "engine/player": 0, "engine/proc": 0, "engine/gtp": 0, "engine/nboard": 0,
	"engine/match": 0, "pairing": 0, "scoring": 0, "rating": 0,
	"internal/testenv": 0, "internal/txt": 0, "internal/tempfile": 0, "internal/testhook": 0, "internal/userfile": 0, "internal/fakeengine": 0, "internal/enginetest": 0, "e2e": 0,
	"tournament":           1,
	"app":                  2, // the application layer: beside the adapters, which hand it their features
	"export":               2,
	"elo":                  2, // file formats: adapters that import only leaves
	"ftd":                  2,
	"roster":               2,
	"archive":              2, // beside export: .ELO files in, the rating list out; its Store implemented by store/sqlite
	"web":                  2,
	"store/sqlite":         2,
	"store/postgres":       2,
	"store/internal/sqltx": 2,
	"internal/memstore":    2, // a store in memory, for tests
	"internal/storetest":   2, // the stores' test suite
	"cmd/otd":              3, "cmd/otd/cli": 3,
}

// TestLayering: every package's imports of ours go down the layers (cmd ->
// adapters -> domain -> leaves) or stay in its layer, and no package is
// nested inside a package of another layer that it depends on (an adapter
// inside the domain's folder): a folder holds its package's own parts and
// family, such as engine/gtp beside the rules of engine.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 15 {
		t.Fatalf("only %d packages listed", len(lines))
	}
	for _, p := range layeringProblems(lines, layers) {
		t.Error(p)
	}
}

// TestLayeringCatches: the check finds the layout of before issue 20, the
// adapters inside the domain's folder, and an import up the layers.
func TestLayeringCatches(t *testing.T) {
	old := map[string]int{"tournament": 1, "tournament/web": 2, "tournament/export": 2, "scoring": 0}
	lines := []string{
		module + "/tournament/web " + module + "/tournament " + module + "/tournament/export net/http",
		module + "/tournament/export " + module + "/tournament",
		module + "/scoring " + module + "/tournament",
		module + "/tournament " + module + "/scoring",
	}
	problems := strings.Join(layeringProblems(lines, old), "\n")
	for _, want := range []string{
		"tournament/web is nested inside tournament",
		"tournament/export is nested inside tournament",
		"scoring (layer 0) imports tournament (layer 1)",
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("the check missed %q; it found:\n%s", want, problems)
		}
	}
	if strings.Contains(problems, "web is nested inside tournament/export") {
		t.Errorf("a sibling reported as nested:\n%s", problems)
	}
}

// layeringProblems checks lines of 'go list' ("PKG IMPORT...") against
// layers.
func layeringProblems(lines []string, layers map[string]int) []string {
	var problems []string
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module+"/")
		if !ok {
			continue
		}
		from, known := layers[pkg]
		if !known {
			problems = append(problems, fmt.Sprintf("package %s is in no layer: add it to layers in imports_test.go (DESIGN.md)", pkg))
			continue
		}
		for _, imp := range fields[1:] {
			dep, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			to := layers[dep]
			if to > from {
				problems = append(problems, fmt.Sprintf("%s (layer %d) imports %s (layer %d): imports go down the layers", pkg, from, dep, to))
			}
			if strings.HasPrefix(pkg, dep+"/") && to != from {
				problems = append(problems, fmt.Sprintf("%s is nested inside %s, which it depends on, of another layer: make it a sibling", pkg, dep))
			}
		}
	}
	return problems
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
