package tournament

import "testing"

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
