package otd_test

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// cliStoreAllowed lists what cmd/otd/cli may use of the store packages
// (store/sqlite, store/postgres): opening and closing the database, its
// sentinel errors, putting a backup in place of an SQLite file otd cannot
// open (RestoreFile: a damaged or missing file, which no Director can hold),
// and telling a PostgreSQL URL from a file's path and hiding its password
// (IsURL, Redact: they touch no database); telling whether two names are one
// database (DatabaseFile, DatabaseOutput, SameDatabase: a backup never writes over the
// database it copies); opening a backup to restore, checked against otd's
// schema (OpenBackup); handing the store's features to the application
// layer (App); and opening the archive database (OpenArchive), which
// it uses through package archive; telling an SQLite file by its header
// (IsDatabase: 'otd rating --ratings' takes a database or a list). Everything else of a
// director's action (transactions, loading, saving, audit rows) goes through
// the application layer, app.Director (DESIGN.md).
func cliStoreAllowed(name string) bool {
	return name == "Open" || name == "Options" || name == "Close" || name == "RestoreFile" || strings.HasPrefix(name, "Err") ||
		name == "IsURL" || name == "Redact" || name == "OpenArchive" || name == "App" ||
		name == "DatabaseFile" || name == "DatabaseOutput" || name == "SameDatabase" || name == "OpenBackup" || name == "IsDatabase"
}

// cliProcessImports are the packages of ours that start engines' processes
// or end them: engine play is app's (DESIGN.md), never the command line's.
var cliProcessImports = []string{"engine/proc", "engine/gtp", "engine/nboard"}

// TestCLIUsesTheApplicationLayer type-checks the non-test files of
// cmd/otd/cli and fails if they import database/sql or a package that starts
// engines' processes or ends them (cliProcessImports: app does, DESIGN.md),
// use anything of package store but Open, Options, Close and its errors, or
// call a method of the storage interfaces (tournament.Storage,
// tournament.Tx) themselves.
func TestCLIUsesTheApplicationLayer(t *testing.T) {
	const dir = "cmd/otd/cli"
	problems, err := layerProblems(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestLayerCheckCatches runs the same check on a small package that breaks
// every rule, so that the check is known to be able to fail.
func TestLayerCheckCatches(t *testing.T) {
	dir := filepath.Join("internal", "testenv", "testdata", "badcli")
	problems, err := layerProblems(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"imports database/sql", "bad.go:9:2: imports engine/proc", "bad_windows.go:5:8: imports engine/nboard", "postgres.Store", "sqlite.Store).Update", "tournament.Tx).Load"} {
		found := false
		for _, p := range problems {
			found = found || strings.Contains(p, want)
		}
		if !found {
			t.Errorf("the check missed %q; it found %q", want, problems)
		}
	}
}

func layerProblems(dir string) ([]string, error) {
	// The export data of every package the directory's package imports, built by go list.
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", "./"+dir).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return nil, &listError{string(ee.Stderr)}
		}
		return nil, err
	}
	exports := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(l, "="); ok {
			exports[path] = file
		}
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	var problems []string
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, imp := range f.Imports { // of every file, whatever it is built for
			p, _ := strconv.Unquote(imp.Path.Value)
			where := fset.Position(imp.Pos()).String()
			if p == "database/sql" {
				problems = append(problems, where+": imports database/sql")
			}
			if ours, ok := strings.CutPrefix(p, module+"/"); ok && slices.Contains(cliProcessImports, ours) {
				problems = append(problems, where+": imports "+ours+": the command line starts no process and ends none; the application layer (app) does (DESIGN.md)")
			}
		}
		if ok, err := build.Default.MatchFile(dir, filepath.Base(n)); err != nil || !ok {
			continue // not built here (build constraints): not type-checked
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	if _, err := conf.Check(dir, fset, files, info); err != nil {
		return nil, err
	}
	for id, obj := range info.Uses {
		if obj.Pkg() == nil {
			continue
		}
		where := fset.Position(id.Pos()).String()
		switch obj.Pkg().Path() {
		case module + "/store/sqlite", module + "/store/postgres":
			if v, ok := obj.(*types.Var); ok && v.IsField() { // of Options: store's other structs have none exported
				continue
			}
			if !cliStoreAllowed(obj.Name()) {
				problems = append(problems, where+": uses "+types.ObjectString(obj, nil)+": only the application layer (app.Director) may")
			}
		case module + "/tournament":
			if fn, ok := obj.(*types.Func); ok {
				if recv := fn.Signature().Recv(); recv != nil {
					if named, ok := types.Unalias(recv.Type()).(*types.Named); ok && (named.Obj().Name() == "Tx" || named.Obj().Name() == "Storage") {
						problems = append(problems, where+": calls "+types.ObjectString(obj, nil)+": only the application layer (app.Director) may")
					}
				}
			}
		}
	}
	return problems, nil
}

type listError struct{ stderr string }

func (e *listError) Error() string { return "go list: " + e.stderr }
