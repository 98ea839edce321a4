package tournament

import (
	"errors"
	"testing"
)

func TestFoldName(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"Müller", "muller"},
		{"Ødegaard", "odegaard"},
		{"Çelik, Ayşe", "celik, ayse"},
		{"Żak", "ZAK"},
		{"Tomás", "tomas"},
		{"José", "jose"},
		{"Łukasiewicz", "lukasiewicz"},
		{"Strauß", "strauss"},
		{"DUPONT,  Marie", "Dupont, Marie"},
		{"  Nakamura   Tō ", "nakamura to"},
		{"Đorđević", "dordevic"},
		{"Ærøskøbing", "aeroskobing"},
		{"Cafe\u0301", "Café"}, // a decomposed accent
	} {
		if a, b := FoldName(tc.a), FoldName(tc.b); a != b {
			t.Errorf("FoldName(%q) = %q, FoldName(%q) = %q: want equal", tc.a, a, tc.b, b)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"Dupont, Marie", "Dupond, Marie"},
		{"Dupont, Marie", "Marie Dupont"},
		{"Lee", "Li"},
	} {
		if FoldName(tc.a) == FoldName(tc.b) {
			t.Errorf("FoldName(%q) = FoldName(%q): want different", tc.a, tc.b)
		}
	}
}

// TestDuplicateName: a name that a registered player has, case, spacing and
// accents aside, is refused naming that player (issue 21, item 2), unless
// allowed: two people of one name.
func TestDuplicateName(t *testing.T) {
	tm := &Tournament{Settings: DefaultSettings("Open", 5)}
	for _, n := range []string{"Leader, Imre", "Müller, Jörg", "Dupont, Marie"} {
		if _, err := tm.AddPlayer(PlayerInput{Name: n}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		other int    // the player matched, 0 for none
		msg   string // the error's text
	}{
		{"Dupont, Marie", 3, `name "Dupont, Marie": player 3 (Dupont, Marie) has it already`},
		{"DUPONT,  Marie", 3, `name "DUPONT, Marie": player 3 (Dupont, Marie) has it already, case, spacing and accents aside`},
		{"Muller, Jorg", 2, `name "Muller, Jorg": player 2 (Müller, Jörg) has it already, case, spacing and accents aside`},
		{" leader , imre", 0, ""}, // a space before the comma: another spelling
		{"Dupond, Marie", 0, ""},
	} {
		n := len(tm.Players)
		_, err := tm.AddPlayer(PlayerInput{Name: tc.name})
		var dup *DuplicateNameError
		switch {
		case tc.other == 0 && err != nil:
			t.Errorf("add %q: %v; want it registered", tc.name, err)
		case tc.other == 0:
		case !errors.As(err, &dup) || dup.Other.Number != tc.other || !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrDuplicate) || err.Error() != tc.msg:
			t.Errorf("add %q: %v; want %q, ErrInvalid and ErrDuplicate", tc.name, err, tc.msg)
		case len(tm.Players) != n:
			t.Errorf("add %q: refused, yet registered", tc.name)
		}
	}
	// Two people of one name.
	if c, err := tm.AddPlayer(PlayerInput{Name: "Dupont, Marie", AllowDuplicate: true}); err != nil || c.After.Players[0].Number != 6 {
		t.Errorf("add a second Dupont, Marie, allowed: %v", err)
	}
	// A rename to another player's name; one's own, recased; other fields
	// of a player who shares a name.
	name, own, rating := "MÜLLER, Jörg", "LEADER, Imre", 2000
	var dup *DuplicateNameError
	if _, err := tm.EditPlayer(5, PlayerEdit{Name: &name}); !errors.As(err, &dup) || dup.Other.Number != 2 {
		t.Errorf("rename player 5 to %q: %v; want refused, naming player 2", name, err)
	}
	if _, err := tm.EditPlayer(1, PlayerEdit{Name: &own}); err != nil {
		t.Errorf("recase player 1's own name: %v", err)
	}
	if _, err := tm.EditPlayer(6, PlayerEdit{Rating: &rating}); err != nil {
		t.Errorf("a rating for the second Dupont, Marie: %v", err)
	}
	if _, err := tm.EditPlayer(5, PlayerEdit{Name: &name, AllowDuplicate: true}); err != nil || tm.Players[4].Name != name {
		t.Errorf("rename player 5 to %q, allowed: %v", name, err)
	}
}

// BenchmarkFoldName: 'player import' folds every name of the file twice
// (in the file, against the players registered).
//
//	go test -run '^$' -bench FoldName ./tournament/
func BenchmarkFoldName(b *testing.B) {
	for _, name := range []string{"PLAYER, Number 12345", "MÜLLER,  Jörg"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				FoldName(name)
			}
		})
	}
}
