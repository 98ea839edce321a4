package archive_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/txt"
)

// TestReadELOBadName (issue 28): the archive keeps the games of a file
// whose name 'player add' refuses, with the name cleaned and noted (a bad
// name must not drop games); a file in Windows-1252 is read so and noted.
func TestReadELOBadName(t *testing.T) {
	file := "%%Tournament: Club\n%%Date: 21/11/2026\n%_% 79, LEADER, Imre, GBR, 1.5, 72, 0\n" +
		"%_% 2, \x1b[2J\x1b]0;pwn\x07EVIL, J\xf6rg, FRA, 0.5, 56, 0\n%Round: 1\n79 (40)>(24) 2 B\n%Round: 2\n2 (32)=(32) 79 B\n"
	tm, err := archive.ReadELO("2026/club.ELO", []byte(file), archive.Reading{}, interchange.ArchiveGames)
	if err != nil {
		t.Fatal(err)
	}
	if len(tm.Games) != 2 {
		t.Errorf("%d games kept; want 2", len(tm.Games))
	}
	if got := tm.Players[1].Name(); got != "[2J]0;pwnEVIL, Jörg" {
		t.Errorf("player 2 kept as %q; want %q", got, "[2J]0;pwnEVIL, Jörg")
	}
	want := []string{txt.Windows1252Note, `line 4: the name "\x1b[2J\x1b]0;pwn\aEVIL, Jörg" is not one otd keeps (character U+001B is a control character): kept as "[2J]0;pwnEVIL, Jörg"`}
	if !slices.Equal(tm.Notes, want) {
		t.Errorf("notes\n%q\nwant\n%q", tm.Notes, want)
	}
	long := strings.Replace(file, "J\xf6rg", strings.Repeat("x", 10000), 1)
	tm, err = archive.ReadELO("2026/club.ELO", []byte(long), archive.Reading{}, interchange.ArchiveGames)
	if err != nil || len(tm.Games) != 2 || len(tm.Notes) != 1 {
		t.Fatalf("a 10,000-character name: %v; want its 2 games kept and one note", err)
	}
	if got := tm.Players[1].Name(); txt.CheckName(got) != nil {
		t.Errorf("a 10,000-character name kept as %d characters: %v", utf8.RuneCountInString(got), txt.CheckName(got))
	}
	// Two parts of 150 characters each pass alone; together they are too long.
	both := strings.Replace(strings.Replace(file, "J\xf6rg", strings.Repeat("y", 150), 1), "\x1b[2J\x1b]0;pwn\x07EVIL", strings.Repeat("z", 150), 1)
	tm, err = archive.ReadELO("2026/club.ELO", []byte(both), archive.Reading{}, interchange.ArchiveGames)
	if err != nil || len(tm.Games) != 2 {
		t.Fatalf("two 150-character parts: %v; want the 2 games kept", err)
	}
	if got := tm.Players[1].Name(); txt.CheckName(got) != nil || len(tm.Notes) != 1 {
		t.Errorf("two 150-character parts kept as %d characters (%v), notes %q; want a name otd keeps, noted", utf8.RuneCountInString(got), txt.CheckName(got), tm.Notes)
	}
}
