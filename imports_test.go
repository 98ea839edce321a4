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

// The groups of DESIGN.md's "Imports", by path below the module.
var (
	// leaves import nothing of ours (but the shared internals).
	leaves = []string{"engine", "pairing", "scoring", "rating"}
	// formats are other programs' files, encoding/csv's shape: they import
	// only the leaves. engine/transcript is one (GGF, WTHOR, PGN...).
	formats = []string{"elo", "ftd", "roster", "engine/transcript"}
	// engines are the engine family beneath app: the only code that starts
	// processes and plays games under a clock.
	engines = []string{"engine/player", "engine/proc", "engine/gtp", "engine/nboard", "engine/match"}
	// shared are the internal helpers every package may import: text
	// (decoding, a name's check, folding, escaping), a file the user names,
	// temporary files, and the points where the crash tests stop otd.
	shared = []string{"internal/txt", "internal/userfile", "internal/tempfile", "internal/testhook"}
	// adapters sit around app: they import app, tournament or archive, the
	// leaves and the formats, never another adapter.
	adapters = []string{"store/sqlite", "store/postgres", "interchange", "export", "web"}
	adapter  = join(leaves, formats, []string{"app", "tournament", "archive"})
)

func join(groups ...[]string) []string { return slices.Concat(groups...) }

// allowed lists, for each package of ours (by path below the module), the
// packages of ours its non-test files may import besides shared (DESIGN.md,
// "Imports"); cmd/ imports all. A package not listed may import nothing.
// The internal packages of tests (testenv, fakeengine, enginetest,
// memstore, storetest) are in no list: only tests import them
// (testAllowed).
var allowed = map[string][]string{
	"engine": nil, "pairing": nil, "scoring": nil, "rating": nil,
	"elo": leaves, "ftd": join(leaves, []string{"engine/transcript"}), // an FTD file's games as game records
	"roster": leaves, "engine/transcript": leaves,
	"engine/player":  {"engine"},
	"engine/proc":    {"engine", "engine/player"}, // proc.Client is a player.Player; it knows no protocol
	"engine/gtp":     {"engine", "engine/player", "engine/proc"},
	"engine/nboard":  {"engine", "engine/player", "engine/proc", "engine/transcript"}, // set game sends a GGF record
	"engine/match":   {"engine", "engine/player"},
	"tournament":     leaves,                                                            // the domain, pure
	"archive":        join(leaves, formats),                                             // the WOF archive's domain, beside tournament
	"app":            join(leaves, formats, engines, []string{"tournament", "archive"}), // the one door; adapters are values from cmd
	"store/sqlite":   join(adapter, []string{"store/internal/sqltx"}),
	"store/postgres": join(adapter, []string{"store/internal/sqltx"}),
	"interchange":    adapter,
	// export writes the results page and wall sheets, web serves them:
	// the pages' data is app's, their templates internal/htmlpage's.
	"export": join(adapter, []string{"internal/htmlpage"}),
	"web":    join(adapter, []string{"internal/htmlpage"}),
	// The tournament.Tx of the SQL stores, written once for both engines:
	// part of the stores, imported by them alone.
	"store/internal/sqltx": join(leaves, []string{"tournament", "app"}),
	"internal/txt":         nil,
	"internal/htmlpage":    nil, // the templates of the HTML pages, which export and web share (not each other)
	"internal/userfile":    nil,
	"internal/tempfile":    nil, // the temporary files of backups, restores and exports, told dead by their lock
	"internal/testhook":    nil, // otd stopped at a named point of a backup or restore, for the tests that kill it there
	"internal/testenv":     nil,
	"internal/fakeengine":  {"engine"},
	"internal/memstore":    {"tournament"},                   // a tournament.Storage in memory for tests
	"internal/storetest":   {"app", "tournament", "scoring"}, // the suite of the tournament.Storage contract, run by every store
	// The tests engine/gtp and engine/nboard pass alike, against the fakes.
	"internal/enginetest": {"engine", "engine/player", "engine/proc", "internal/fakeengine"},
	// The end-to-end checks of make e2e (build tag e2e) run the otd binary
	// and the programs people open its files with; they import nothing of ours.
	"e2e": nil,
}

// testAllowed lists what a package's test files may import beyond its own
// rule and internal/testenv: the domain's tests (and the web's of the venue,
// through the app's actions) use a Storage in memory;
// the stores run the suite of the Storage contract (PostgreSQL's schema is
// held to SQLite's by a test that opens both); the match tests play a real
// engine through GTP; the engine processes' tests start fake engines; the
// archive's tests (and the store's of it) read .ELO files as cmd wires the
// archive, with interchange's builder; export's read back what they wrote.
var testAllowed = map[string][]string{
	"tournament":        {"internal/memstore"},
	"store/sqlite":      {"internal/storetest", "interchange"},
	"store/postgres":    {"internal/storetest", "store/sqlite"},
	"internal/memstore": {"internal/storetest", "app"},
	"app":               {"internal/memstore"},
	"web":               {"internal/memstore"}, // the venue's pages and the console run the app's actions
	"engine/match":      {"engine/gtp", "engine/proc"},
	"engine/proc":       {"internal/fakeengine"},
	"engine/gtp":        {"internal/enginetest"},
	"engine/nboard":     {"internal/enginetest", "engine/match"},
	"archive":           {"interchange"},
	"export":            {"interchange"},
}

// importProblem says why a file of package pkg (a test file: isTest) may
// not import ours, a package of ours ("" if it may).
func importProblem(pkg, ours string, isTest bool) string {
	rules, known := allowed[pkg]
	switch {
	case !known:
		return fmt.Sprintf("package %s has no import rule: add it to allowed in imports_test.go (DESIGN.md)", pkg)
	case ours == pkg || slices.Contains(shared, ours) || slices.Contains(rules, ours):
		return ""
	case isTest && (ours == "internal/testenv" || slices.Contains(testAllowed[pkg], ours)):
		return ""
	case slices.Contains(adapters, pkg) && slices.Contains(adapters, ours):
		return fmt.Sprintf("imports %s: an adapter never imports another adapter (DESIGN.md); what it needs of one comes through app or as a value from cmd", ours)
	}
	return fmt.Sprintf("imports %s: package %s may import only %v of ours, and %v (DESIGN.md)", ours, pkg, rules, shared)
}

// TestImportRules enforces DESIGN.md's rules on every Go file but cmd/'s
// (which imports all) and the root's tests.
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
		seen++
		if _, known := allowed[pkg]; !known {
			t.Errorf("%s: %s", path, importProblem(pkg, "", false))
			return nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			ours, ok := strings.CutPrefix(p, module+"/")
			if !ok {
				continue
			}
			if why := importProblem(pkg, ours, strings.HasSuffix(path, "_test.go")); why != "" {
				t.Errorf("%s %s", path, why)
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

// TestImportRulesCatches: each rule refuses what DESIGN.md forbids, and
// lets through what it allows.
func TestImportRulesCatches(t *testing.T) {
	for _, tc := range []struct {
		pkg, imp string
		test     bool
		want     string // in the problem; "" none
	}{
		{"scoring", "tournament", false, "may import only"},    // a leaf imports the domain
		{"pairing", "scoring", false, "may import only"},       // a leaf imports a leaf
		{"scoring", "internal/txt", false, ""},                 // every package may import the shared internals
		{"roster", "tournament", false, "may import only"},     // a format imports the domain (roster did, for FoldName)
		{"elo", "scoring", false, ""},                          // a format imports a leaf
		{"ftd", "elo", false, "may import only"},               // a format imports another
		{"tournament", "engine/gtp", false, "may import only"}, // the domain starts engines
		{"tournament", "elo", false, "may import only"},        // the domain reads a file
		{"tournament", "scoring", false, ""},
		{"archive", "export", false, "may import only"},     // the archive reads through an adapter (it did)
		{"archive", "tournament", false, "may import only"}, // the archive beside the domain, not on it
		{"archive", "elo", false, ""},
		{"app", "store/sqlite", false, "may import only"}, // app gets adapters as values from cmd
		{"app", "web", false, "may import only"},
		{"app", "engine/gtp", false, ""},
		{"app", "archive", false, ""},
		{"store/sqlite", "interchange", false, "never imports another adapter"}, // an adapter imports another (the done-when)
		{"web", "export", false, "never imports another adapter"},
		{"web", "internal/htmlpage", false, ""},                    // the templates export writes with
		{"app", "internal/htmlpage", false, "may import only"},     // app gives the pages' data, never renders them
		{"scoring", "internal/htmlpage", false, "may import only"}, // the templates are no shared internal
		{"interchange", "export", false, "never imports another adapter"},
		{"export", "store/postgres", false, "never imports another adapter"},
		{"interchange", "engine/gtp", false, "may import only"}, // an adapter starts engines
		{"interchange", "archive", false, ""},
		{"export", "app", false, ""},
		{"store/postgres", "store/internal/sqltx", false, ""},
		{"export", "store/internal/sqltx", false, "may import only"}, // the stores' internals are theirs
		{"export", "internal/memstore", false, "may import only"},    // test support in a program
		{"tournament", "internal/memstore", true, ""},                // ... in a test
		{"archive", "interchange", true, ""},                         // a test wires as cmd does
		{"archive", "interchange", false, "may import only"},
		{"nosuch", "scoring", false, "has no import rule"},
	} {
		got := importProblem(tc.pkg, tc.imp, tc.test)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s imports %s (test file: %v): %q; want %q", tc.pkg, tc.imp, tc.test, got, tc.want)
		}
	}
}

// layers are DESIGN.md's, bottom up: 0 the leaves, the engine family and
// the internals; 1 the formats, the domain and the archive beside it; 2 the
// application layer; 3 the adapters (and the stores' test support); 4 the
// command line. Every package of ours is listed.
var layers = map[string]int{
	"engine": 0, "engine/transcript": 0, "engine/player": 0, "engine/proc": 0, "engine/gtp": 0, "engine/nboard": 0,
	"engine/match": 0, "pairing": 0, "scoring": 0, "rating": 0,
	"internal/testenv": 0, "internal/txt": 0, "internal/tempfile": 0, "internal/testhook": 0, "internal/userfile": 0, "internal/fakeengine": 0, "internal/enginetest": 0, "e2e": 0,
	"elo": 1, "ftd": 1, "roster": 1,
	"tournament":  1,
	"archive":     1, // beside the domain: .ELO files in, the rating list out; its Store implemented by store/sqlite
	"app":         2,
	"interchange": 3, "export": 3, "web": 3, "store/sqlite": 3, "store/postgres": 3, "store/internal/sqltx": 3,
	"internal/htmlpage":  3, // the templates of export's and web's pages
	"internal/memstore":  3, // a store in memory, for tests
	"internal/storetest": 3, // the stores' test suite
	"cmd/otd":            4, "cmd/otd/cli": 4,
}

// TestLayering: every package's imports of ours go down the layers (cmd ->
// adapters -> app -> domain -> leaves) or stay in its layer, and no package is
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
