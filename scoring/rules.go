package scoring

import (
	"fmt"
	"strconv"
	"strings"
)

// Rules are a tournament's scoring options. The zero value is the default of
// every option: BQ nearest, time defaults completed, a bye worth 1 point and
// 32 discs, tie-breaks DefaultTieBreaks.
type Rules struct {
	BQ          BQRule
	TimeDefault TimePolicy
	ByePoints   HalfPoints // what a bye scores: Point (0 means Point) or Half
	ByeDiscs    int        // discs of a bye and of a forfeit win, 32..64 (0 means 32; Papp's convention is 40, i.e. 40-24), or NoByeDiscs
	TieBreaks   TieBreaks  // empty means points, bq, discs, h2h
	// Squares is the number of playable squares of the board (a variant:
	// 36 on 6x6, 100 on 10x10); 0 means 64. A score adds up to it, a bye
	// and a forfeit count half of it by default, a time default's minimal
	// win is half of it plus one, and BQ's c is round(Squares / rounds).
	Squares int
	// Anti is Anti-Othello, where the fewest discs win: a result's discs
	// are those on the board, and each side scores its opponent's discs
	// (the empty squares to the winner), so that the winner scores more and
	// ties, time defaults, BQ and disc totals work as in Othello.
	Anti bool
}

// NoByeDiscs is the ByeDiscs of a file whose published disc totals count a
// bye as its point alone: a bye, and a forfeit win, count no discs for
// either side.
const NoByeDiscs = -1

// squares is the board's playable squares: Squares, or 64.
func (r Rules) squares() int {
	if r.Squares == 0 {
		return Squares
	}
	return r.Squares
}

// String gives the options as the command line writes them:
// "bq=nearest time-default=complete bye-points=1 bye-discs=32 tiebreaks=points,bq,discs".
func (r Rules) String() string {
	bye, _ := r.byeDiscs()
	return fmt.Sprintf("bq=%v time-default=%v bye-points=%v bye-discs=%d tiebreaks=%v",
		r.BQ, r.TimeDefault, r.byePoints(), bye, r.tieBreaks())
}

// Validate checks that every option is in its range.
func (r Rules) Validate() error {
	switch {
	case r.Squares != 0 && (r.Squares < 4 || r.Squares > 256 || r.Squares%2 != 0):
		return optionf("%d squares: want an even number 4 to 256", r.Squares)
	case r.BQ.Kind > Fixed || r.BQ.C < 0 || r.BQ.C > r.squares() || r.BQ.Kind != Fixed && r.BQ.C != 0:
		return optionf("bq %+v", r.BQ)
	case r.TimeDefault > TimeWipeout:
		return optionf("time default %v", r.TimeDefault)
	case r.ByePoints < 0 || r.ByePoints > Point:
		return optionf("bye points %v: want 1 or 0.5", r.ByePoints)
	case r.ByeDiscs != 0 && r.ByeDiscs != NoByeDiscs && (r.ByeDiscs < r.squares()/2 || r.ByeDiscs > r.squares()):
		return optionf("bye discs %d: want %d to %d, or none", r.ByeDiscs, r.squares()/2, r.squares())
	}
	seen := 0
	for _, t := range r.TieBreaks {
		if t < ByPoints || t > ByDiscDiff || seen&(1<<t) != 0 {
			return optionf("tie-breaks %v", r.TieBreaks)
		}
		seen |= 1 << t
	}
	return nil
}

func (r Rules) byePoints() HalfPoints {
	if r.ByePoints == 0 {
		return Point
	}
	return r.ByePoints
}

// byeDiscs gives the discs of a bye's (or a forfeit's) winner and of the
// other side.
func (r Rules) byeDiscs() (win, lose int) {
	switch r.ByeDiscs {
	case 0:
		return r.squares() / 2, r.squares() / 2
	case NoByeDiscs:
		return 0, 0
	}
	return r.ByeDiscs, r.squares() - r.ByeDiscs
}

func (r Rules) tieBreaks() TieBreaks {
	if len(r.TieBreaks) == 0 {
		return DefaultTieBreaks()
	}
	return r.TieBreaks
}

// ParseByePoints reads the --bye-points option: "1" or "0.5".
func ParseByePoints(s string) (HalfPoints, error) {
	h, err := ParseHalfPoints(s)
	if err != nil || h < Half || h > Point {
		return 0, syntaxf("bye points %q: want 1 or 0.5", s)
	}
	return h, nil
}

// BQKind is how the constant c of the Brightwell Quotient is chosen, and
// which games count as not played (RULES.md section 3). In the standings after
// round r, a game counts the player's discs + c x the opponent's points; a
// game "not played" counts 32 + c x the player's own points instead (a draw
// against oneself). Points are those after round r.
type BQKind uint8

// BQ kinds.
const (
	// Nearest: c = round(64 / rounds). Not played: a bye, a forfeit (won or
	// lost), a round the player missed (late entry, absence), a game against
	// an opponent who withdrew before round r. A player who withdrew keeps the
	// BQ of the standings after their last round (frozen: final).
	Nearest BQKind = iota
	// WOF: c = 6 from 8 rounds on, else 0, as Papp does. Not played: as
	// Nearest, and a game against an opponent absent in round r (no game, or a
	// forfeit lost); the rounds after a player's own withdrawal count as missed.
	WOF
	// Exact: c = 64 / rounds, unrounded (FlipTheDisc's MBQ); otherwise as Nearest.
	Exact
	// Fixed: c = BQRule.C, otherwise as Nearest.
	Fixed
)

// BQRule is a tournament's BQ option.
type BQRule struct {
	Kind BQKind
	C    int // the constant, 0..64, for Fixed only
}

// ParseBQRule reads the --bq option: nearest, wof, exact or a whole number 0..64.
func ParseBQRule(s string) (BQRule, error) {
	switch strings.ToLower(s) {
	case "nearest":
		return BQRule{}, nil
	case "wof":
		return BQRule{Kind: WOF}, nil
	case "exact":
		return BQRule{Kind: Exact}, nil
	}
	c, err := strconv.Atoi(s)
	if err != nil || s[0] < '0' || s[0] > '9' || c > Squares {
		return BQRule{}, syntaxf("bq %q: want nearest, wof, exact or a whole number 0 to 64", s)
	}
	return BQRule{Kind: Fixed, C: c}, nil
}

func (r BQRule) String() string {
	switch r.Kind {
	case Nearest:
		return "nearest"
	case WOF:
		return "wof"
	case Exact:
		return "exact"
	}
	return strconv.Itoa(r.C)
}

// MarshalText writes the rule as ParseBQRule reads it.
func (r BQRule) MarshalText() ([]byte, error) {
	if err := (Rules{BQ: r}).Validate(); err != nil {
		return nil, err
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads the rule with ParseBQRule.
func (r *BQRule) UnmarshalText(b []byte) (err error) {
	*r, err = ParseBQRule(string(b))
	return err
}

// Constant gives BQ's c = num/den for a tournament of the given number of
// rounds (at least 1) on the rules' board: round(squares / rounds) for
// nearest, squares / rounds for exact.
func (r Rules) Constant(rounds int) (num, den int) {
	n := r.squares()
	switch r.BQ.Kind {
	case Nearest:
		return (2*n + rounds) / (2 * rounds), 1
	case WOF:
		if rounds >= 8 {
			return 6, 1
		}
		return 0, 1
	case Exact:
		return n, rounds
	}
	return r.BQ.C, 1
}

// TimePolicy is how a time default is scored.
type TimePolicy uint8

// Time-default policies.
const (
	TimeComplete TimePolicy = iota // the greater of the completed game and 33-31
	TimeFixed                      // 33-31
	TimeWipeout                    // 64-0
)

var timeNames = [...]string{"complete", "fixed", "wipeout"}

func (p TimePolicy) String() string {
	if int(p) < len(timeNames) {
		return timeNames[p]
	}
	return "policy(" + strconv.Itoa(int(p)) + ")"
}

// MarshalText writes the policy as ParseTimePolicy reads it.
func (p TimePolicy) MarshalText() ([]byte, error) {
	if int(p) >= len(timeNames) {
		return nil, optionf("time default %v", p)
	}
	return []byte(p.String()), nil
}

// UnmarshalText reads the policy with ParseTimePolicy.
func (p *TimePolicy) UnmarshalText(b []byte) (err error) {
	*p, err = ParseTimePolicy(string(b))
	return err
}

// ParseTimePolicy reads the --time-default option: complete, fixed or wipeout.
func ParseTimePolicy(s string) (TimePolicy, error) {
	for i, n := range timeNames {
		if strings.EqualFold(s, n) {
			return TimePolicy(i), nil
		}
	}
	return 0, syntaxf("time default %q: want complete, fixed or wipeout", s)
}

// TieBreak is one key of the standings order; a greater value ranks higher.
type TieBreak uint8

// Tie-break keys.
const (
	ByPoints   TieBreak = iota + 1 // points
	ByBQ                           // Brightwell Quotient
	ByDiscs                        // total disc count
	ByH2H                          // points scored against the other tied players (forfeits included), if each has met every other
	ByWins                         // games won, a draw a half (byes and forfeit wins are wins): Japanese
	ByDiscDiff                     // sum of disc differences: Japanese
)

var tieBreakNames = [...]string{ByPoints: "points", ByBQ: "bq", ByDiscs: "discs", ByH2H: "h2h", ByWins: "wins", ByDiscDiff: "diff"}

func (t TieBreak) String() string {
	if t >= ByPoints && int(t) < len(tieBreakNames) {
		return tieBreakNames[t]
	}
	return "tiebreak(" + strconv.Itoa(int(t)) + ")"
}

// TieBreaks is a chain of tie-break keys, applied in order; players equal on
// every key share a rank.
type TieBreaks []TieBreak

// DefaultTieBreaks is the chain of RULES.md section 3 where none is chosen:
// points, then the Brightwell Quotient, then the disc count. It is the one
// definition of the default.
func DefaultTieBreaks() TieBreaks { return TieBreaks{ByPoints, ByBQ, ByDiscs} }

// MarshalText writes the chain as ParseTieBreaks reads it.
func (ts TieBreaks) MarshalText() ([]byte, error) {
	if len(ts) == 0 {
		return nil, optionf("an empty tie-break chain")
	}
	return []byte(ts.String()), nil
}

// UnmarshalText reads the chain with ParseTieBreaks.
func (ts *TieBreaks) UnmarshalText(b []byte) (err error) {
	*ts, err = ParseTieBreaks(string(b))
	return err
}

// String gives the chain as ParseTieBreaks reads it: "points,bq,discs,h2h".
func (ts TieBreaks) String() string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ",")
}

// ParseTieBreaks reads the --tiebreaks option: a comma-separated chain of
// points, bq, discs, h2h, wins and diff, each at most once, or the preset
// "japanese" (wins,diff,h2h).
func ParseTieBreaks(s string) (TieBreaks, error) {
	if strings.EqualFold(s, "japanese") {
		return TieBreaks{ByWins, ByDiscDiff, ByH2H}, nil
	}
	var ts TieBreaks
	for _, f := range strings.Split(s, ",") {
		t := TieBreak(0)
		for i, n := range tieBreakNames {
			if n != "" && strings.EqualFold(strings.TrimSpace(f), n) {
				t = TieBreak(i)
			}
		}
		ts = append(ts, t)
	}
	if err := (Rules{TieBreaks: ts}).Validate(); err != nil {
		return nil, syntaxf("tie-breaks %q: want a comma-separated list of points, bq, discs, h2h, wins, diff (each once) or japanese", s)
	}
	return ts, nil
}
