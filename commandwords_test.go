package otd_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// commandWords matches a command line of otd in a string: 'otd undo',
// `otd round pair`, "otd result ..." (a quoted command: at the start of the
// string). "this otd reads" is no command.
var commandWords = regexp.MustCompile("(^|['\"`])otd [a-z]")

// noteFuncs are the functions of package tournament whose strings may
// name a command: they make a change's notes, not errors, and a note is
// stored with the change as it is said (the audit trail keeps it word for
// word), so it moves with the notes' own wording, not with the errors.
var noteFuncs = map[string]bool{
	"pairedOnOld": true, // "it has no result yet: 'otd result ... --correct --repair' pairs it again"
}

// namedCommands returns the string literals of the Go source src (file
// name) that name an otd command, as "file:line: text", but those of the
// functions noteFuncs names.
func namedCommands(t *testing.T, fset *token.FileSet, name string, src any) []string {
	t.Helper()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		if fn, ok := n.(*ast.FuncDecl); ok && noteFuncs[fn.Name.Name] {
			return false
		}
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
		}
		if commandWords.MatchString(s) {
			found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
		}
		return true
	})
	return found
}

// TestDomainNamesNoCommand: no string of package tournament (its errors,
// its notes) names an otd command (DESIGN.md: errors carry data, never
// command names; the CLI words them). Comments may.
func TestDomainNamesNoCommand(t *testing.T) {
	files, err := filepath.Glob("tournament/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var found []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			found = append(found, namedCommands(t, fset, f, nil)...)
		}
	}
	for _, f := range found {
		t.Errorf("%s names an otd command: the domain's errors carry data, the CLI words the way out (cmd/otd/cli advice)", f)
	}
}

// TestNamedCommandsCatches: the check finds a command in an error, in a
// note and in a raw string, and not otd named in a sentence or a comment.
func TestNamedCommandsCatches(t *testing.T) {
	const src = "package p\n" +
		"// 'otd undo' in a comment is fine\n" +
		"var (\n" +
		"	a = errors.New(\"round 2: undo them first with 'otd undo'\")\n" +
		"	b = fmt.Sprintf(\"%s: pairs it again\", \"otd result 1 2 --correct\")\n" +
		"	c = `see ` + \"`otd round pair`\"\n" +
		"	d = errors.New(\"settings of version 3: this otd reads up to 2: upgrade otd\")\n" +
		"	e = \"it is not as otd writes it\"\n" +
		")\n" +
		"func pairedOnOld() []string { return []string{\"'otd result 1 1 --correct --repair' pairs it again\"} }\n"
	got := namedCommands(t, token.NewFileSet(), "p.go", src)
	want := []string{
		`p.go:4:17: "round 2: undo them first with 'otd undo'"`,
		`p.go:5:40: "otd result 1 2 --correct"`,
		"p.go:6:15: \"`otd round pair`\"",
	}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
