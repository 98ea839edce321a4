package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// testDB is a database in a test's temporary directory, driven through the
// real commands in-process.
type testDB struct {
	t    testing.TB
	path string
}

func newTestDB(t testing.TB) *testDB {
	return &testDB{t: t, path: filepath.Join(t.TempDir(), "otd.db")}
}

// run runs otd with --db set to the test's database.
func (d *testDB) run(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Run(append([]string{"--db", d.path}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// must runs otd and fails the test unless it exits 0.
func (d *testDB) must(args ...string) string {
	d.t.Helper()
	out, errs, code := d.run(args...)
	if code != 0 {
		d.t.Fatalf("otd %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

// json runs otd (which must succeed) and decodes its JSON output into v.
func (d *testDB) json(v any, args ...string) {
	d.t.Helper()
	if err := json.Unmarshal([]byte(d.must(args...)), v); err != nil {
		d.t.Fatalf("otd %s: %v", strings.Join(args, " "), err)
	}
}
