package cli

import (
	"slices"
	"strings"
	"testing"
)

// FuzzReadIDFile: any content is WOF ids from 1, or refused in one line
// that names the line, never a panic.
func FuzzReadIDFile(f *testing.F) {
	for _, s := range []string{"79\n2357\n", "\uFEFFWOF id,Name\n79,\"LEADER, Imre\"\n\n5577;x\n", "id\n79\nx\n", "'79'\t1\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ids, err := readIDFile(strings.NewReader(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("%q: want one line naming the line", err)
			}
			return
		}
		for _, id := range ids {
			if id < 1 {
				t.Fatalf("%q: id %d", text, id)
			}
		}
	})
}

func TestReadIDFile(t *testing.T) {
	for _, c := range []struct {
		text string
		want []int
		err  string
	}{
		{"79\n2357\n", []int{79, 2357}, ""},
		{"\uFEFFWOF id,Name\n79,\"LEADER, Imre\"\n\n5577;x\n", []int{79, 5577}, ""},
		{"'79'\t1\r\n", []int{79}, ""},
		{"id\n79\nx\n", nil, `line 3: "x" is not a WOF id`},
		{"79\n0\n", nil, `line 2: "0" is not a WOF id`},
		{"79\n" + strings.Repeat("1", 70_000) + "\n", nil, "line 2: longer than 64 KiB"},
	} {
		got, err := readIDFile(strings.NewReader(c.text))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%.20q: err = %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%.20q: %v, %v; want %v", c.text, got, err, c.want)
		}
	}
}
