package elo

import (
	"fmt"
	"strings"
)

// Lenient says how an .ELO file that contradicts itself is imported (by
// 'otd import elo' and the archive; interchange.FromELOWith); the
// zero value refuses it.
type Lenient struct {
	// Sign is how ReadWith takes a game line whose sign contradicts
	// its discs: the discs win, or the sign (a result without discs).
	Sign SignRule
	// Rounds: a player paired twice in a round ("split"): the later game
	// goes to the next round where both players are free, in a round of
	// its own after the file's if none is.
	Rounds string
	// Totals: published scores and disc totals that the games do not give
	// ("games"): the tournament is built from the games, and the notes say
	// each published figure left aside.
	Totals string
	// Listed: a player id listed twice in the standings ("first"): the
	// first line counts, the others are left aside.
	Listed string
	// Games: the games read for the rating list ("list", RULES.md section
	// 8): a game against oneself, and a game of "??????" where several
	// players of the standings have no id (it cannot be attributed), are
	// dropped; a player of the games who is not in the standings is added
	// from them.
	Games string
	// Names: a name otd refuses (txt.CheckName: a control character,
	// more than 200 characters) is cleaned ("clean", txt.CleanName) and
	// noted, not refused: the archive keeps a file's games whatever its
	// names.
	Names string
	// Dates: a %%Date range whose last day is before its first ("first",
	// File.Days): the tournament is dated by its first day alone, and the
	// notes say so.
	Dates string
}

// ListReading is how the rating list reads a file (RULES.md section 8):
// every game counts, also in a file that contradicts itself. The sign
// gives the result where the discs disagree, a player paired twice in a
// round keeps both games, published scores and disc totals the games do
// not give are set aside, a player listed twice is taken from the first
// line, a %%Date range whose last day is before its first is read as its
// first day, and only a game that cannot be attributed (or against oneself)
// is dropped, never the file.
var ListReading = Lenient{Sign: SignSign, Rounds: "split", Totals: "games", Listed: "first", Games: "list", Dates: "first"}

// ParseLenient reads --lenient: comma-separated WHAT=HOW (the values of
// Lenient; 'otd import elo --help' lists them).
func ParseLenient(s string) (Lenient, error) {
	var l Lenient
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		switch {
		case kv == "":
		case k == "sign" && (v == string(SignDiscs) || v == string(SignSign)):
			l.Sign = SignRule(v)
		case k == "rounds" && v == "split":
			l.Rounds = v
		case k == "totals" && v == "games":
			l.Totals = v
		case k == "listed" && v == "first":
			l.Listed = v
		case k == "games" && v == "list":
			l.Games = v
		case k == "names" && v == "clean":
			l.Names = v
		case k == "dates" && v == "first":
			l.Dates = v
		default:
			return Lenient{}, fmt.Errorf("--lenient %q: want sign=discs, sign=sign, rounds=split, totals=games, listed=first, games=list, names=clean or dates=first, comma-separated", kv)
		}
	}
	return l, nil
}

// String is l as ParseLenient reads it: "sign=discs,rounds=split", "" for
// none.
func (l Lenient) String() string {
	var kv []string
	for _, f := range [][2]string{{"sign", string(l.Sign)}, {"rounds", l.Rounds}, {"totals", l.Totals}, {"listed", l.Listed}, {"games", l.Games}, {"names", l.Names}, {"dates", l.Dates}} {
		if f[1] != "" {
			kv = append(kv, f[0]+"="+f[1])
		}
	}
	return strings.Join(kv, ",")
}
