package cli

import (
	"bytes"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestJSONDocumented: every output of --json is a struct whose fields, and
// those of the structs within, have snake_case JSON names; the fields of
// this package's types have a doc tag; and 'otd help json' lists them all.
func TestJSONDocumented(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run([]string{"help", "json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("otd help json: exit %d: %s", code, errb.String())
	}
	help := out.String()
	cli := reflect.TypeFor[jsonOutputs0]().PkgPath()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.Implements(textMarshaler) || typ.PkgPath() == "time" {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" { // its fields are the struct's
				seen[f.Type] = false
				walk(f.Type)
				continue
			}
			if !snake.MatchString(name) {
				t.Errorf("%v.%s: JSON name %q is not snake_case", typ, f.Name, name)
			}
			if typ.PkgPath() == cli && f.Tag.Get("doc") == "" {
				t.Errorf("%v.%s: no doc tag", typ, f.Name)
			}
			if !strings.Contains(help, "  "+name+" (") {
				t.Errorf("otd help json lacks %s (%v.%s)", name, typ, f.Name)
			}
			walk(f.Type)
		}
	}
	for _, o := range jsonOutputs {
		walk(reflect.TypeOf(o.v))
	}
	if len(seen) < 15 {
		t.Errorf("only %d types checked", len(seen))
	}
}

type jsonOutputs0 struct{}

// TestWriteJSONRefusesUndocumented: an output not in jsonOutputs is an error,
// not JSON that no one documented.
func TestWriteJSONRefusesUndocumented(t *testing.T) {
	var b bytes.Buffer
	if err := writeJSON(&b, map[string]any{"x": 1}); err == nil {
		t.Error("writeJSON of a map: no error")
	}
	if err := writeJSON(&b, []playerJSON{}); err != nil {
		t.Errorf("writeJSON of a list of players: %v", err)
	}
}

// TestJSONCommandsListed: every command that takes --json is named in the
// outputs 'otd help json' lists, so that none prints JSON no one
// documented (writeJSON refuses it: the command would fail).
func TestJSONCommandsListed(t *testing.T) {
	var listed strings.Builder
	for _, o := range jsonOutputs {
		listed.WriteString(o.commands + "; ")
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("json") != nil {
			name := strings.TrimPrefix(c.CommandPath(), "otd ")
			if !regexp.MustCompile(`(^|[ ,(;])` + regexp.QuoteMeta(name) + `[ ,);]`).MatchString(listed.String()) {
				t.Errorf("otd %s takes --json but 'otd help json' does not list it", name)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&globals{}))
}

// TestJSONOutputsRun: every command with --json prints JSON, the
// championship's too (they were refused as undocumented: issue 22). The
// event: 4 players, 1 round, a final between the top 2, a women's
// category, a forbidden pair.
func TestJSONOutputsRun(t *testing.T) {
	d := newTestDB(t)
	for _, args := range [][]string{
		{"tournament", "new", "Cup", "--rounds", "1", "--final", "top=2,bestof=1,third=0"},
		{"category", "add", "women"},
		{"player", "add", "Ann", "--country", "FR"}, {"player", "add", "Ben", "--country", "FR"},
		{"player", "add", "Cat", "--country", "NL"}, {"player", "add", "Dan", "--country", "NL"},
		{"player", "edit", "3", "--category", "women"},
		{"pair", "forbid", "1", "2"},
		{"round", "pair", "--manual", "--force", "1-3", "--force", "2-4"},
		{"result", "1", "1", "40-24"}, {"result", "1", "2", "40-24"},
		{"final", "start", "--black", "F=1"},
		{"result", "F", "1", "33-31"},
	} {
		d.must(args...)
	}
	for _, args := range [][]string{
		{"final", "show"}, {"standings", "--final"}, {"teams"}, {"category", "list"}, {"category", "show", "women"},
		{"pair", "list"}, {"standings"}, {"tournament", "show"}, {"player", "list"}, {"round", "show"}, {"log"},
	} {
		var v any
		d.json(&v, append(args, "--json")...)
	}
}
