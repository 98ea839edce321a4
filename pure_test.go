package otd_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// processDeps are the packages through which code starts or drives other
// programs: the engine clients and os/exec. Only the application layer (app)
// and what sits above it may depend on them (DESIGN.md): the domain is pure.
var processDeps = []string{module + "/engine/gtp", module + "/engine/nboard", module + "/engine/proc", "os/exec"}

// startsProcesses returns the packages of processDeps that pkg depends on,
// directly or not ('go list -deps').
func startsProcesses(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, dep := range strings.Fields(string(out)) {
		if slices.Contains(processDeps, dep) {
			found = append(found, dep)
		}
	}
	return found
}

// TestTournamentIsPure: package tournament depends on nothing that starts
// a process; app, which plays the engine games, does (so the check can
// fail).
func TestTournamentIsPure(t *testing.T) {
	if found := startsProcesses(t, "tournament"); len(found) > 0 {
		t.Errorf("package tournament depends on %v: engine play belongs to package app", found)
	}
	if found := startsProcesses(t, "app"); len(found) != len(processDeps) {
		t.Errorf("package app depends on %v of %v: the check finds nothing", found, processDeps)
	}
}

// TestAppImportsNoAdapter: the application layer depends on no adapter and
// not on the command line (it gets what it needs of them as values); the
// command line, which wires them, does (so the check can fail).
func TestAppImportsNoAdapter(t *testing.T) {
	adapters := func(pkg string) (found []string) {
		out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, dep := range strings.Fields(string(out)) {
			ours, ok := strings.CutPrefix(dep, module+"/")
			if ok && (strings.HasPrefix(ours, "store/") || ours == "web" || ours == "export" || strings.HasPrefix(ours, "cmd/")) {
				found = append(found, ours)
			}
		}
		return found
	}
	if found := adapters("app"); len(found) > 0 {
		t.Errorf("package app depends on %v: adapters hand it what it needs as values", found)
	}
	if found := adapters("cmd/otd/cli"); !slices.Contains(found, "store/sqlite") {
		t.Errorf("cmd/otd/cli's adapters found: %v; the check finds nothing", found)
	}
}

// TestOneGameType: the domain has one type of game, a Swiss round's or a
// final match's (DESIGN.md): no exported struct of package tournament but
// Game has a game's players by colour and its result.
func TestOneGameType(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "tournament", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var games []string
	for _, p := range pkgs {
		ast.Inspect(p, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() { // the decoders of old audit rows aside
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			fields := map[string]bool{}
			for _, f := range st.Fields.List {
				for _, name := range f.Names {
					fields[name.Name] = true
				}
			}
			if fields["Black"] && fields["White"] && fields["Result"] {
				games = append(games, ts.Name.Name)
			}
			return true
		})
	}
	if !slices.Equal(games, []string{"Game"}) {
		t.Errorf("the types of a game in package tournament: %v; want one, Game", games)
	}
}
