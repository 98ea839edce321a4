package tournament

import "github.com/otd-project/otd/internal/txt"

// FoldName is a player's name as a person searching for it, or checking
// that it is not registered twice, compares it (txt.FoldName: case, accents
// and spacing folded), so that "MÜLLER,  Jörg" and "Muller, Jorg" are one.
func FoldName(name string) string { return txt.FoldName(name) }
