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
	// it, Name the director if known.
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
}

// Reported is one side's report that a result recorded from the venue
// rests on: a dispute the director settled keeps both sides', the one
// recorded Chosen.
type Reported struct {
	Side    Color     `json:"side"`
	Address string    `json:"address"`
	At      time.Time `json:"at"`
	Score   string    `json:"score,omitempty"`  // what it reported: "40-24", or "call" (the director called); "" in an entry written before
	Chosen  bool      `json:"chosen,omitempty"` // the side whose report the director chose
}

// String gives the report in words: "black from 10.0.0.4 at 14:02:11
// (40-24, chosen)".
func (r Reported) String() string {
	s := fmt.Sprintf("%s from %s at %s", r.Side, r.Address, r.At.Format(time.TimeOnly))
	switch {
	case r.Score != "" && r.Chosen:
		s += " (" + r.Score + ", chosen)"
	case r.Score != "":
		s += " (" + r.Score + ")"
	case r.Chosen:
		s += " (chosen)"
	}
	return s
}

// IsZero reports whether the actor is unknown.
func (a Actor) IsZero() bool { return a.Kind == "" }

// String gives the actor in words, as the audit trail shows it: "command
// line (alice)", "console session 3f2a", "worker w1@host", "report: black
// from 10.0.0.4 at 14:02:11 (40-24, chosen), white from 10.0.0.5 at 14:02:40
// (24-40); approved by console session 3f2a"; "-" for an unknown actor.
func (a Actor) String() string {
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
		return words(" session ", a.Session, " of ", a.Name)
	case ByReport:
		if len(a.Reports) == 0 {
			return words(": ", string(a.Side), " of ", a.Game, " from ", a.Address)
		}
		sides := make([]string, len(a.Reports))
		for i, r := range a.Reports {
			sides[i] = r.String()
		}
		s := "report: " + strings.Join(sides, ", ")
		if a.Session != "" {
			s += "; approved by console session " + a.Session
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
