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
