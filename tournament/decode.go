package tournament

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
)

// AuditRow is a change as a store's audit table keeps it, column by
// column. Every store writes its rows with NewAuditRow and reads them with
// Entry, so that none keeps the audit trail its own way.
type AuditRow struct {
	ID       int64     // in the order of the changes: the store numbers it
	At       time.Time // when: the store's clock
	UndoneBy int64     // the id of the row that undid this one, or 0
	Version  int       // of the form of Before and After (ChangeVersion)
	Action   string
	Subject  string
	// Before and After are the change's two sides as JSON, empty for
	// nothing; from version 2 After carries the actor and the notes too.
	Before, After []byte
}

// NewAuditRow returns the audit row of change c, but its ID, At and
// UndoneBy, which are the store's to set. A change that this otd does not
// write (another version, no action) is refused with ErrInvalid.
func NewAuditRow(c Change) (AuditRow, error) {
	if c.Version != ChangeVersion || c.Action == "" {
		return AuditRow{}, fmt.Errorf("saving a change of version %d, action %q: %w: this otd writes version %d with an action",
			c.Version, c.Action, ErrInvalid, ChangeVersion)
	}
	r := AuditRow{Version: c.Version, Action: string(c.Action), Subject: c.Subject}
	var err error
	if r.Before, err = encodeSide(side{State: c.Before}); err != nil {
		return r, err
	}
	after := side{State: c.After, Notes: c.Notes}
	if !c.Actor.IsZero() {
		after.Actor = &c.Actor
	}
	r.After, err = encodeSide(after)
	return r, err
}

// Entry reads the change of audit row r back.
func (r AuditRow) Entry() (Entry, error) {
	c, err := DecodeChange(r.Version, r.Action, r.Subject, r.Before, r.After)
	if err != nil {
		return Entry{}, fmt.Errorf("audit entry %d: %w", r.ID, err)
	}
	return Entry{ID: r.ID, At: r.At, UndoneBy: r.UndoneBy, Change: c}, nil
}

// DecodeChange reads a change as the audit trail stores it: its version, its
// action and subject, and the JSON of its two sides ("" for nothing).
// Versions 1 and 2's sides are States (2's After with the actor and the
// notes); version 0 sides are the untagged Go structs of otd's first schema,
// one kind per action, read by the legacy types below.
func DecodeChange(version int, action, subject string, before, after []byte) (Change, error) {
	c := Change{Version: version, Action: Action(action), Subject: subject}
	var err error
	switch version {
	case 1, ChangeVersion:
		var b, a side
		if b, err = decodeSide(before); err == nil {
			a, err = decodeSide(after)
		}
		c.Before, c.After, c.Notes = b.State, a.State, a.Notes
		if a.Actor != nil {
			c.Actor = *a.Actor
		}
		if err == nil && (b.Actor != nil || b.Notes != nil || version == 1 && (a.Actor != nil || a.Notes != nil)) {
			err = fmt.Errorf("an actor or notes where the row has none (version %d, before or after)", version)
		}
	case 0:
		err = c.decodeV0(before, after)
	default:
		return c, fmt.Errorf("%s %s: audit version %d is newer than this otd's (%d): upgrade otd", action, subject, version, ChangeVersion)
	}
	if err != nil {
		return c, fmt.Errorf("%s %s: reading the audit row: %w", action, subject, err)
	}
	return c, nil
}

// side is one side of a change as the audit row keeps it: the entities,
// and on the after side (version 2) who made the change and its notes.
type side struct {
	State
	Actor *Actor   `json:"actor,omitempty"`
	Notes []string `json:"notes,omitempty"`
}

// encodeSide gives s as JSON, nothing for nothing.
func encodeSide(s side) ([]byte, error) {
	if s.IsZero() && s.Actor == nil && len(s.Notes) == 0 {
		return nil, nil
	}
	return json.Marshal(s)
}

// decodeSide reads a side of a version-1 or 2 change: before issue 22 a
// file's added results were "finals", games by their place (Table), which
// are final games of no known match.
func decodeSide(b []byte) (side, error) {
	var v struct {
		side
		Finals []Game `json:"finals,omitempty"`
	}
	err := unmarshal(b, &v)
	for _, g := range v.Finals {
		v.FinalGames = append(v.FinalGames, Game{FinalRef: FinalRef{Game: g.Table, Seq: g.Table}, Black: g.Black, White: g.White, Result: g.Result})
	}
	return v.side, err
}

// unmarshal reads JSON into v, refusing a name that v does not have: a
// payload read as the wrong kind is an error, not an empty value.
func unmarshal(b []byte, v any) error {
	if len(b) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("text after the JSON value")
	}
	return nil
}

// The first schema's payloads: Go structs without JSON tags, so their field
// names are the JSON names. They are frozen here as they were.
type (
	v0Player struct {
		Number     int
		Name       string
		ID         int
		Rating     int
		Country    string
		FirstRound int
		Left       int
		Absent     []int
	}
	v0Result struct {
		Black, White int
		Kind         string
		Loser        string
	}
	v0Game struct {
		Round, Table int
		Black, White int
		Result       *v0Result
	}
	v0GameRef struct {
		Round, Table int
		Result       *v0Result
	}
	v0Settings struct {
		Name          string
		Rounds        int
		System        string
		BQ            string
		TimeDefault   string
		ByeHalfPoints int
		Tiebreaks     string
		FirstRound    string
		Seed          uint64
	}
)

func (r *v0Result) result() *Result {
	if r == nil {
		return nil
	}
	return &Result{Black: r.Black, White: r.White, Kind: Kind(r.Kind), Loser: Color(r.Loser)}
}

func (c *Change) decodeV0(before, after []byte) error {
	sides := []struct {
		b []byte
		s *State
	}{{before, &c.Before}, {after, &c.After}}
	for _, side := range sides {
		if len(side.b) == 0 {
			continue
		}
		switch c.Action {
		case ActPlayerAdd, ActPlayerEdit, ActPlayerWithdraw, ActPlayerAbsent:
			var p v0Player
			if err := unmarshal(side.b, &p); err != nil {
				return err
			}
			side.s.Players = []Player{{Number: p.Number, Name: p.Name, WOFID: p.ID, Rating: p.Rating, Country: p.Country,
				FirstRound: p.FirstRound, Left: p.Left, Absent: p.Absent}}
		case ActRoundPair, ActRoundUnpair:
			var gs []v0Game
			if err := unmarshal(side.b, &gs); err != nil {
				return err
			}
			for _, g := range gs {
				side.s.Games = append(side.s.Games, Game{Round: g.Round, Table: g.Table, Black: g.Black, White: g.White, Result: g.Result.result()})
			}
		case ActResult, ActResultCorrect, "result undo":
			var g v0GameRef
			if err := unmarshal(side.b, &g); err != nil {
				return err
			}
			side.s.Results = []GameResult{{Round: g.Round, Table: g.Table, Result: g.Result.result()}}
		case ActTournamentNew:
			var v v0Settings
			if err := unmarshal(side.b, &v); err != nil {
				return err
			}
			s, err := v.settings()
			if err != nil {
				return err
			}
			side.s.Settings = &s
		case "import elo":
			// A count of what was imported, not the entities: nothing to undo.
		default:
			return fmt.Errorf("unknown action %q", c.Action)
		}
	}
	switch c.Action { // the first schema's names of today's actions
	case "result undo":
		c.Action = ActUndo
	case "import elo":
		c.Action = ActImport
	}
	return nil
}

func (v v0Settings) settings() (Settings, error) {
	s := Settings{Name: v.Name, Rounds: v.Rounds, System: System(v.System), ByePoints: scoring.HalfPoints(v.ByeHalfPoints), Seed: v.Seed}
	var err error
	if s.BQ, err = scoring.ParseBQRule(v.BQ); err != nil {
		return s, err
	}
	if s.TimeDefault, err = scoring.ParseTimePolicy(v.TimeDefault); err != nil {
		return s, err
	}
	if s.TieBreaks, err = scoring.ParseTieBreaks(v.Tiebreaks); err != nil {
		return s, err
	}
	s.FirstRound, err = pairing.ParseFirstRound(v.FirstRound)
	return s, err
}
