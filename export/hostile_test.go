package export_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/tournament"
)

// TestELOWriteRefusesLineBreaks: a header value or a name with a line break
// or a control character would inject lines into the file (a fake standings
// line, a fake %Round): Write refuses it with ErrELOValue and writes nothing,
// even when it reached the file by a way that does not validate names.
func TestELOWriteRefusesLineBreaks(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m *export.ELOMeta, tm *tournament.Tournament)
		want string
	}{
		{"tournament LF", func(m *export.ELOMeta, _ *tournament.Tournament) {
			m.Tournament = "X\n%_%      9, FAKE, Fay, FRA, 9, 64, 2900\n%Round: 1"
		}, `header Tournament "X\n%_%`},
		{"tournament CR", func(m *export.ELOMeta, _ *tournament.Tournament) { m.Tournament = "X\r%Round: 3" }, "U+000D"},
		{"sender NEL", func(m *export.ELOMeta, _ *tournament.Tournament) { m.Sender = "Ann\u0085%Round: 1" }, "U+0085"},
		{"country LS", func(m *export.ELOMeta, _ *tournament.Tournament) { m.Country = "France\u2028%Round: 1" }, "U+2028"},
		{"creator ESC", func(m *export.ELOMeta, _ *tournament.Tournament) { m.Creator = "otd \x1b[2J" }, "U+001B"},
		{"tournament bidi", func(m *export.ELOMeta, _ *tournament.Tournament) { m.Tournament = "Club \u202eNEPO" }, "U+202E"},
		{"tournament NUL", func(m *export.ELOMeta, _ *tournament.Tournament) { m.Tournament = "Club\x00" }, "U+0000"},
		{"tournament not UTF-8", func(m *export.ELOMeta, _ *tournament.Tournament) { m.Tournament = "Club \xff" }, "not valid UTF-8"},
		{"player LF", func(_ *export.ELOMeta, tm *tournament.Tournament) {
			tm.Players[1].Name = "ARCHER, Ann\n%_%      9, FAKE, Fay, FRA, 9, 64, 2900"
		}, "player id 2"},
		{"country comma", func(_ *export.ELOMeta, tm *tournament.Tournament) { tm.Players[1].Country = "F,R" }, "a comma in a field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm, meta := smallEvent(), smallMeta
			tc.edit(&meta, tm)
			f, err := export.FromTournament(tm, meta)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			err = f.Write(&b)
			if !errors.Is(err, export.ErrELOValue) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Write: %v; want an error with %q wrapping ErrELOValue", err, tc.want)
			}
			if b.Len() != 0 {
				t.Errorf("Write wrote %d bytes before refusing", b.Len())
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("the error has a line break: %q", err)
			}
		})
	}
	for _, s := range []string{"Club", "Paris Open 2026", "Müller, Jürgen", "東京"} {
		if err := export.CheckELOText(s); err != nil {
			t.Errorf("CheckELOText(%q): %v", s, err)
		}
	}
}

// TestELONamesRoundTrip: a name with commas ("SMITH, John, Jr.") survives
// export and import: the standings line keeps the rating list's seven
// fields, and otd's name line gives the name back. Other names come back as
// the rating list writes them, SURNAME, First.
func TestELONamesRoundTrip(t *testing.T) {
	tm := smallEvent()
	names := []string{"SMITH, John, Jr.", "Ann ARCHER", "O'Neil, Mary-Kate, \"MK\"", "de Graaf, Jan C.", "Kashiwabara"}
	for i := range tm.Players {
		tm.Players[i].Name = names[i]
	}
	f, err := export.FromTournament(tm, smallMeta)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n% otd: name "); n != 2 {
		t.Errorf("%d name lines; want 2, for the names with two commas:\n%s", n, b.String())
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "%_%") && strings.Count(l, ",") != 6 {
			t.Errorf("standings line %q: %d commas; want 6", l, strings.Count(l, ","))
		}
	}
	g, err := export.ReadELO(&b)
	if err != nil {
		t.Fatal(err)
	}
	back, err := g.Tournament(g.Settings(tournament.DefaultSettings("", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, p := range back.Players {
		got[p.Name] = true
	}
	for _, n := range []string{"SMITH, John, Jr.", "ARCHER, Ann", "O'Neil, Mary-Kate, \"MK\"", "DE GRAAF, Jan C.", "KASHIWABARA"} {
		if !got[n] {
			t.Errorf("%q is not among the names read back: %v", n, got)
		}
	}
}

// TestReadELOLongLine: a line over 64 KiB is refused with its number and
// the limit (not bufio.Scanner's "token too long"); a line of 64 KiB is read.
func TestReadELOLongLine(t *testing.T) {
	const head = "%%Tournament: Club\n%_%  +    1, ONE, Ann, FRA, 1, 40, 0\n%_%  +    2, TWO, Bob, FRA, 0, 24, 0\n"
	const round = "%Round: 1\n     1 (40)>(24)      2 B\n"
	long := func(n int) string { return "% " + strings.Repeat("x", n-2) }
	for _, tc := range []struct {
		name, file, want string
	}{
		{"64 KiB", head + long(export.MaxELOLine) + "\n" + round, ""},
		{"64 KiB CRLF", head + long(export.MaxELOLine) + "\r\n" + round, ""},
		{"64 KiB + 1", head + long(export.MaxELOLine+1) + "\n" + round, "line 4: longer than 64 KiB"},
		{"64 KiB + 1 last", head + round + long(export.MaxELOLine+1), "line 6: longer than 64 KiB"},
		{"1 MiB", head + long(1<<20) + "\n" + round, "line 4: longer than 64 KiB"},
		{"1 MiB game line", head + round + strings.Repeat("1", 1<<20), "line 6: longer than 64 KiB"},
		{"long bad line", head + round + strings.Repeat("z", 60000) + "\n", "line 6: a game line is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := export.ReadELO(strings.NewReader(tc.file))
			if tc.want == "" {
				if err != nil {
					t.Errorf("ReadELO: %v", err)
				}
				return
			}
			if !errors.Is(err, export.ErrELO) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadELO: %v; want %q", err, tc.want)
			}
			if err != nil && (strings.Contains(err.Error(), "token too long") || len(err.Error()) > 300) {
				t.Errorf("ReadELO: %d bytes: %.300q", len(err.Error()), err)
			}
		})
	}
}

// TestTextCell: OWASP's rule against CSV injection, and nothing more.
func TestTextCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"\n=1", "'\n=1"},
		{"LEADER, Imre", "LEADER, Imre"},
		{"FRA", "FRA"},
		{"", ""},
		{"a=b", "a=b"},
		{"'quoted", "'quoted"},
		{"Éric", "Éric"},
	} {
		if got := export.TextCell(tc.in); got != tc.want {
			t.Errorf("TextCell(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}
