package tournament

import "fmt"

// ActorKind names who makes a change.
type ActorKind string

// The kinds of actor.
const (
	// ByCommandLine: a director at the command line; Name is the user.
	ByCommandLine ActorKind = "command line"
	// ByConsole: a director's session of the web console; Session names
	// it, Name the director if known.
	ByConsole ActorKind = "console"
	// ByReport: a player's report of a game from the venue: Side is the
	// colour reporting, Game the game (as its page names it), Address the
	// phone's network address.
	ByReport ActorKind = "report"
	// ByWorker: an 'otd worker' recording a game it played; Name is the
	// worker's.
	ByWorker ActorKind = "worker"
)

// Actor is who made a change: the audit trail keeps it with the change. The
// zero Actor is unknown: a change written before otd recorded who acts.
type Actor struct {
	Kind    ActorKind `json:"kind"`
	Name    string    `json:"name,omitempty"`
	Session string    `json:"session,omitempty"`
	Side    Color     `json:"side,omitempty"`
	Game    string    `json:"game,omitempty"`
	Address string    `json:"address,omitempty"`
}

// String gives the actor in words, as the audit trail shows it: "command
// line (alice)", "console session 3f2a", "worker w1@host", "report: black of
// round 3 table 2 from 192.168.1.7"; "-" for an unknown actor.
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
		return words(": ", string(a.Side), " of ", a.Game, " from ", a.Address)
	case ByWorker:
		return words(" ", a.Name)
	}
	if a.Name == "" {
		return string(a.Kind)
	}
	return fmt.Sprintf("%s (%s)", a.Kind, a.Name)
}
