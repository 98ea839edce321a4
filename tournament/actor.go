package tournament

import (
	"fmt"
	"strings"
	"time"
)

// ActorKind names who makes a change.
type ActorKind string

// The kinds of actor.
const (
	// ByCommandLine: a director at the command line; Name is the user.
	ByCommandLine ActorKind = "command line"
	// ByConsole: a director's session of the web console; Session names
	// it, Login says how it logged in, Name the director if known. A result
	// it entered on a game the players had reported keeps their Reports
	// (none chosen).
	ByConsole ActorKind = "console"
	// ByReport: the players' reports of a game from the venue: Reports
	// says which sides reported, from which addresses, when; Session the
	// console session that approved them, if one did. (An entry written
	// before Reports has Side, Game and Address of the one report.)
	ByReport ActorKind = "report"
	// ByWorker: an 'otd worker' recording a game it played; Name is the
	// worker's.
	ByWorker ActorKind = "worker"
)

// Actor is who made a change: the audit trail keeps it with the change. The
// zero Actor is unknown: a change written before otd recorded who acts.
type Actor struct {
	Kind    ActorKind  `json:"kind"`
	Name    string     `json:"name,omitempty"`
	Session string     `json:"session,omitempty"`
	Side    Color      `json:"side,omitempty"`
	Game    string     `json:"game,omitempty"`
	Address string     `json:"address,omitempty"`
	Reports []Reported `json:"reports,omitempty"`
	Login   string     `json:"login,omitempty"` // a console session's: "password from 127.0.0.1", "one-time link from 192.168.1.7"
}

// Reported is one side's report that a result recorded from the venue
// rests on: a dispute the director settled keeps both sides', the one
// recorded Chosen.
type Reported struct {
	Side    Color     `json:"side"`
	Address string    `json:"address"`
	At      time.Time `json:"at"`
	Score   string    `json:"score,omitempty"`  // what it reported: "40-24", or "call" (the director called); "" in an entry written before
	Moves   bool      `json:"moves,omitempty"`  // the report came with the game's moves
	Chosen  bool      `json:"chosen,omitempty"` // the side whose report the director chose
}

// String gives the report in words: "black from 10.0.0.4 at 14:02:11
// (40-24 with moves, chosen)".
func (r Reported) String() string {
	var notes []string
	switch {
	case r.Score != "" && r.Moves:
		notes = append(notes, r.Score+" with moves")
	case r.Score != "":
		notes = append(notes, r.Score)
	case r.Moves:
		notes = append(notes, "with moves")
	}
	if r.Chosen {
		notes = append(notes, "chosen")
	}
	s := fmt.Sprintf("%s from %s at %s", r.Side, r.Address, r.At.Format(time.TimeOnly))
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

// IsZero reports whether the actor is unknown.
func (a Actor) IsZero() bool { return a.Kind == "" }

// String gives the actor in words, as the audit trail shows it: "command
// line (alice)", "console session 3f2a (password from 127.0.0.1)", "worker
// w1@host", "report: black from 10.0.0.4 at 14:02:11 (40-24, chosen), white
// from 10.0.0.5 at 14:02:40 (24-40); approved by console session 3f2a";
// a director's result over the players' reports: "console session 3f2a
// entered the result; reports: black from ..."; "-" for an unknown actor.
func (a Actor) String() string {
	s := a.who()
	if a.Kind != ByReport && len(a.Reports) > 0 {
		s += " entered the result; reports: " + reports(a.Reports)
	}
	return s
}

// reports gives reports in words, joined.
func reports(rs []Reported) string {
	sides := make([]string, len(rs))
	for i, r := range rs {
		sides[i] = r.String()
	}
	return strings.Join(sides, ", ")
}

// who is String without a director's result's reports.
func (a Actor) who() string {
	login := ""
	if a.Login != "" {
		login = " (" + a.Login + ")"
	}
	words := func(parts ...string) string {
		s := string(a.Kind)
		for i := 0; i < len(parts); i += 2 {
			if parts[i+1] != "" {
				s += parts[i] + parts[i+1]
			}
		}
		return s
	}
	switch a.Kind {
	case "":
		return "-"
	case ByConsole:
		return words(" session ", a.Session, " of ", a.Name) + login
	case ByReport:
		if len(a.Reports) == 0 {
			return words(": ", string(a.Side), " of ", a.Game, " from ", a.Address)
		}
		s := "report: " + reports(a.Reports)
		if a.Session != "" {
			s += "; approved by console session " + a.Session + login
		}
		return s
	case ByWorker:
		return words(" ", a.Name)
	}
	if a.Name == "" {
		return string(a.Kind)
	}
	return fmt.Sprintf("%s (%s)", a.Kind, a.Name)
}
