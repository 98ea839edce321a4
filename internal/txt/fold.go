package txt

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// FoldName is a player's name as a person searching for it, or checking
// that it is not registered twice, compares it: case, accents and spacing
// folded, so that "MÜLLER,  Jörg" and "Muller, Jorg" are one. Letters
// that carry their mark in themselves rather than as an accent (ø, ł, đ,
// ħ, ı, æ, œ, ß, þ) are written as the letters a person without them types.
func FoldName(name string) string {
	var b strings.Builder // the name without its accents (a transform.Chain costs 5 times as much)
	for _, r := range norm.NFD.String(name) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	s := cases.Fold().String(norm.NFC.String(b.String()))
	s = letters.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// letters are the folded letters that no decomposition takes apart.
var letters = strings.NewReplacer("ø", "o", "ł", "l", "đ", "d", "ħ", "h", "ı", "i", "æ", "ae", "œ", "oe", "þ", "th", "ŀ", "l", "ŧ", "t")
