package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// factoryFile is the one file of the package that opens stores: the
// factory that hands the commands the app over the database --db names.
const factoryFile = "db.go"

// parsePackage parses the package's files, tests left out.
func parsePackage(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = f
	}
	return fset, files
}

// TestCommandsHaveRunFunctions checks that every command that runs
// something (it sets RunE) is made by a constructor newXCmd(g, runF) whose
// runF takes the command's options struct (a type named ...Options) and is
// what RunE calls: a test hands its own runF and gets the options the flags
// made, with no database opened (cli/cli's NewCmdX(f, runF)). Commands that
// only group others (no RunE) need none.
func TestCommandsHaveRunFunctions(t *testing.T) {
	fset, files := parsePackage(t)
	structs := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if _, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = true
				}
			}
			return true
		})
	}
	constructors := 0
	for name, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "new") || !strings.HasSuffix(fn.Name.Name, "Cmd") || !setsRunE(fn.Body) {
				continue
			}
			constructors++
			where := fset.Position(fn.Pos()).String()
			opts, ok := runFParam(fn)
			switch {
			case !ok:
				t.Errorf("%s: %s runs something but takes no runF func(XOptions) error", where, fn.Name.Name)
			case !strings.HasSuffix(opts, "Options") || !structs[opts]:
				t.Errorf("%s: %s's runF takes %s, not an options struct of the package (a type named ...Options)", where, fn.Name.Name, opts)
			case !callsRunF(fn.Body):
				t.Errorf("%s: %s never calls runF: a test's runF would not replace what the command does", where, fn.Name.Name)
			}
		}
		_ = name
	}
	if constructors < 50 {
		t.Errorf("found %d command constructors that set RunE; otd has more than 50: is the test looking at the right files?", constructors)
	}
}

// setsRunE tells whether a constructor's body sets a command's RunE.
func setsRunE(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && id.Name == "RunE" {
				found = true
			}
		case *ast.SelectorExpr:
			if n.Sel.Name == "RunE" {
				found = true
			}
		}
		return !found
	})
	return found
}

// runFParam returns the name of the options type of fn's runF parameter.
func runFParam(fn *ast.FuncDecl) (string, bool) {
	for _, p := range fn.Type.Params.List {
		ft, ok := p.Type.(*ast.FuncType)
		if !ok || len(p.Names) != 1 || p.Names[0].Name != "runF" || ft.Params == nil || len(ft.Params.List) != 1 {
			continue
		}
		typ := ft.Params.List[0].Type
		if st, ok := typ.(*ast.StarExpr); ok {
			typ = st.X
		}
		if id, ok := typ.(*ast.Ident); ok {
			return id.Name, true
		}
		return "", true
	}
	return "", false
}

// callsRunF tells whether body calls runF.
func callsRunF(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "runF" {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestOneStoreFactory checks that the commands reach the stores through one
// factory (factoryFile): no other file of the package imports a store, so
// that a command parses, calls the app and renders, whatever the database.
func TestOneStoreFactory(t *testing.T) {
	fset, files := parsePackage(t)
	for name, f := range files {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/otd-project/otd/store/") && name != factoryFile {
				t.Errorf("%s: imports %s: only %s, the factory, opens stores", fset.Position(imp.Pos()), path, factoryFile)
			}
		}
	}
}
