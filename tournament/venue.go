package tournament

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/otd-project/otd/scoring"
)

// VenueApproval says what becomes of a game whose two sides reported the
// same result from the venue (issue 31): recorded at once (ApproveAuto, the
// default; "" reads so), or held for the director (ApproveDirector).
type VenueApproval string

// Venue approvals.
const (
	ApproveAuto     VenueApproval = "auto"
	ApproveDirector VenueApproval = "director"
)

// ParseVenueApproval reads a venue approval: auto (kept as "", the
// default's one form: setting it where it is the default changes nothing)
// or director.
func ParseVenueApproval(s string) (VenueApproval, error) {
	switch VenueApproval(s) {
	case ApproveAuto:
		return "", nil
	case ApproveDirector:
		return ApproveDirector, nil
	}
	return "", invalidf("--venue-approval %q: auto (two reports that agree are recorded at once) or director (held for the director's approval)", s)
}

// MarshalText writes the approval as ParseVenueApproval reads it.
func (a VenueApproval) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads the approval with ParseVenueApproval.
func (a *VenueApproval) UnmarshalText(b []byte) (err error) {
	*a, err = ParseVenueApproval(string(b))
	return err
}

// String gives the approval as ParseVenueApproval reads it; "" is auto.
func (a VenueApproval) String() string {
	if a == "" {
		return string(ApproveAuto)
	}
	return string(a)
}

// Report is one side's report of a game from the venue: the discs it gives
// (or a call for the director, with no score), the moves if given, the
// players of the pairing it was made for, and where and when it came from.
// Reports are not changes: the result recorded from them is, and its actor
// keeps who reported (Actor.Reports).
type Report struct {
	Game         GameRef
	Side         Color
	Black, White int    // the discs reported
	Moves        string // the move list, "" if none
	Call         bool   // "call the director": a time default, a forfeit, a question; no score
	// ForBlack and ForWhite are the players (numbers) of the game when the
	// report was made: a report of another pairing (the round unpaired and
	// paired again) is void.
	ForBlack, ForWhite int
	Address            string
	At                 time.Time
}

// For reports whether r was made for game g as it is paired now.
func (r Report) For(g Game) bool {
	return r.Game == g.Ref() && r.ForBlack == g.Black && r.ForWhite == g.White
}

// Agree reports whether two reports give the same result under rules: the
// same score once scored (RULES.md section 2: the empty squares to the
// winner, so 34-29 and 35-29 agree); a call agrees with nothing.
func Agree(a, b Report, rules scoring.Rules) bool {
	if a.Call || b.Call {
		return false
	}
	sa, errA := scoring.ScoreGame(scoring.Result{BlackDiscs: a.Black, WhiteDiscs: a.White}, rules)
	sb, errB := scoring.ScoreGame(scoring.Result{BlackDiscs: b.Black, WhiteDiscs: b.White}, rules)
	return errA == nil && errB == nil && sa == sb
}

// VenueKeys are a tournament's keys for the venue, made on first use and
// kept in its database: the secret the report tokens are derived from, the
// director's password (bcrypt's hash, nil if none set), and the console's
// TLS certificate and key (PEM), so that its fingerprint stays the same
// across restarts. Never shown, exported or written in a rating file;
// backups and copies of the database keep them.
type VenueKeys struct {
	Secret       []byte
	PasswordHash []byte
	CertPEM      []byte
	KeyPEM       []byte
}

// IsZero reports whether no key is made yet.
func (k VenueKeys) IsZero() bool {
	return len(k.Secret) == 0 && len(k.PasswordHash) == 0 && len(k.CertPEM) == 0 && len(k.KeyPEM) == 0
}

// VenueTx is what a Tx keeps of the venue: a tournament's keys and its
// games' reports, deleted with the tournament.
type VenueTx interface {
	// VenueKeys returns tournament id's venue keys, zero if none made.
	VenueKeys(id int64) (VenueKeys, error)
	// PutVenueKeys replaces tournament id's venue keys with k.
	PutVenueKeys(id int64, k VenueKeys) error
	// Reports returns tournament id's reports, by game (a round's by round
	// and table, then the final games by match and game) and side (black
	// first).
	Reports(id int64) ([]Report, error)
	// PutReport stores r, replacing the report of its game and side.
	PutReport(id int64, r Report) error
	// DeleteReports deletes the reports of game g (both sides).
	DeleteReports(id int64, g GameRef) error
}

// SortReports orders reports as a Tx returns them: a round's games first,
// by round and table, then the final games by match and game; black first.
func SortReports(rs []Report) {
	slices.SortFunc(rs, func(a, b Report) int {
		final := func(r Report) bool { return r.Game.Match != "" }
		return cmp.Or(compareBool(final(a), final(b)), cmp.Compare(a.Game.Round, b.Game.Round), cmp.Compare(a.Game.Table, b.Game.Table),
			strings.Compare(a.Game.Match, b.Game.Match), cmp.Compare(a.Game.Game, b.Game.Game), strings.Compare(string(a.Side), string(b.Side)))
	})
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// DirectorPasswordSet is the audit trail's change for the director's
// password set: it changes no entity, and holds no password nor hash.
func (t *Tournament) DirectorPasswordSet() Change {
	return t.change(ActDirectorPassword, "director password set", State{}, State{})
}
