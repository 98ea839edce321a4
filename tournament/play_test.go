package tournament

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/scoring"
)

func TestParseEngine(t *testing.T) {
	for _, tc := range []struct {
		in       string
		protocol string
		argv     []string
		canon    string // "" when refused
	}{
		{"gtp:/usr/games/gtp-rhino -l 2", GTP, []string{"/usr/games/gtp-rhino", "-l", "2"}, "gtp:/usr/games/gtp-rhino -l 2"},
		{"  GTP:  prog   a  ", GTP, []string{"prog", "a"}, "gtp:prog a"},
		{`nboard:"/opt/my engine/edax" -n 2`, NBoard, []string{"/opt/my engine/edax", "-n", "2"}, `nboard:'/opt/my engine/edax' -n 2`},
		{`gtp:prog 'it''s' a\ b ""`, GTP, []string{"prog", "its", "a b", ""}, `gtp:prog its 'a b' ''`},
		{`gtp:prog "say \"hi\""`, GTP, []string{"prog", `say "hi"`}, `gtp:prog 'say "hi"'`},
		{`gtp:prog "it's"`, GTP, []string{"prog", "it's"}, `gtp:prog 'it'\''s'`},
		{"builtin:alphabeta:4", Builtin, []string{"alphabeta:4"}, "builtin:alphabeta:4"},
		{"builtin:Greedy", Builtin, []string{"greedy"}, "builtin:greedy"},
		{"builtin:random:7", Builtin, []string{"random:7"}, "builtin:random:7"},
		{"builtin:deep-blue", "", nil, ""}, // which names are players is engine/player's: app asks it (TestRegisterBuiltin)
		{"builtin:", "", nil, ""},
		{"gtp:", "", nil, ""},
		{"gtp:   ", "", nil, ""},
		{"/usr/games/gtp-rhino", "", nil, ""},
		{"uci:stockfish", "", nil, ""},
		{`gtp:prog "open`, "", nil, ""},
		{`gtp:prog \`, "", nil, ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			e, err := ParseEngine(tc.in)
			if tc.canon == "" {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("ParseEngine(%q) = %+v, %v; want ErrInvalid", tc.in, e, err)
				}
				return
			}
			if err != nil || e.Protocol != tc.protocol || !slices.Equal(e.Argv, tc.argv) {
				t.Fatalf("ParseEngine(%q) = %q %q, %v; want %q %q", tc.in, e.Protocol, e.Argv, err, tc.protocol, tc.argv)
			}
			if s := e.String(); s != tc.canon {
				t.Errorf("String = %q, want %q", s, tc.canon)
			}
			again, err := ParseEngine(e.String())
			if err != nil || again.Protocol != e.Protocol || !slices.Equal(again.Argv, e.Argv) {
				t.Errorf("ParseEngine(String()) = %+v, %v; want %+v", again, err, e)
			}
		})
	}
}

func FuzzParseEngine(f *testing.F) {
	for _, s := range []string{"gtp:/usr/games/gtp-rhino -l 2", `nboard:"a b" 'c'\ d`, "builtin:alphabeta:3", "gtp:\"", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseEngine(s)
		if err != nil {
			return
		}
		again, err := ParseEngine(e.String())
		if err != nil || again.Protocol != e.Protocol || !slices.Equal(again.Argv, e.Argv) {
			t.Fatalf("%q: String %q reads back as %+v, %v; want %+v", s, e.String(), again, err, e)
		}
	})
}

// playedGame plays moves (squares as text, two characters each) from the
// start of standard Othello and returns the game as app hands it over: ended
// normally if it is over, else lost by default by the side to move with end.
func playedGame(t *testing.T, moves string, end string) Played {
	return playedUnder(t, engine.Othello(), moves, end)
}

// playedUnder is playedGame under the rules r.
func playedUnder(t *testing.T, r engine.Rules, moves string, end string) Played {
	t.Helper()
	pos, err := engine.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	var ms []engine.Point
	for i := 0; i < len(moves); i += 2 {
		m, err := engine.ParsePoint(moves[i : i+2])
		if err != nil {
			t.Fatal(err)
		}
		if pos.MustPass() {
			pos, _ = pos.Play(engine.PassPoint)
			ms = append(ms, engine.PassPoint)
		}
		if pos, err = pos.Play(m); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	p := Played{Moves: ms, Position: pos, End: end}
	if end != EndNormal {
		p.Fault, p.Reason = pos.ToMove(), "flag fell"
	}
	return p
}

// A shortest game: a black wipe-out in 9 moves (13-0, 51 empty squares), found
// by a search of every 9-move game.
const wipeout = "d3c3b3d2e1d6d7e3f4"

func TestRecordGame(t *testing.T) {
	completed := engine.Score{Black: 20, White: 44}
	for _, tc := range []struct {
		name   string
		policy scoring.TimePolicy
		played func(t *testing.T) Played
		want   Result
		err    error
	}{
		{"normal end, empties to the winner", scoring.TimeComplete, func(t *testing.T) Played { return playedGame(t, wipeout, EndNormal) },
			Result{Black: 64, White: 0, Kind: Normal, Moves: wipeout, End: "normal"}, nil},
		// Black's flag falls after f5 d6 (3-3... black to move at 3-3 is
		// after f5d6: 3 black, 3 white): white wins; complete: the empty
		// squares to white, 3-61.
		{"time, board as it stood", scoring.TimeComplete, func(t *testing.T) Played { return playedGame(t, "f5d6", EndTime) },
			Result{Black: 3, White: 61, Kind: TimeDefault, Loser: Black, Moves: "f5d6", End: "time", Note: "flag fell"}, nil},
		{"time, completed by the winner", scoring.TimeComplete, func(t *testing.T) Played {
			p := playedGame(t, "f5d6", EndTime)
			p.Completed = &completed
			return p
		}, Result{Black: 20, White: 44, Kind: TimeDefault, Loser: Black, Moves: "f5d6", End: "time", Note: "flag fell; completed by the winner to 20-44"}, nil},
		// White's illegal move at move 4 (after f5d6c3, white to move; app
		// words the reason, with the move's number): fixed policy, 31-33
		// for black.
		{"illegal, fixed", scoring.TimeFixed, func(t *testing.T) Played {
			p := playedGame(t, "f5d6c3", EndIllegal)
			p.Reason = "e3 is not legal (move 4)"
			return p
		},
			Result{Black: 33, White: 31, Kind: TimeDefault, Loser: White, Moves: "f5d6c3", End: "illegal", Note: "e3 is not legal (move 4)"}, nil},
		{"crash, wipeout", scoring.TimeWipeout, func(t *testing.T) Played { return playedGame(t, "f5", EndCrash) },
			Result{Black: 64, White: 0, Kind: TimeDefault, Loser: White, Moves: "f5", End: "crash", Note: "flag fell"}, nil},
		// An engine's stderr in the error: escape sequences (retitle the
		// terminal, clear it), a bidirectional override, a line break and a
		// byte that is not UTF-8 are kept escaped.
		{"crash, a note with control characters", scoring.TimeWipeout, func(t *testing.T) Played {
			p := playedGame(t, "f5", EndCrash)
			p.Reason = "exited (stderr: \x1b]0;pwned\x07\x1b[2J\u202e0-46 \xff\n\tok)"
			return p
		}, Result{Black: 64, White: 0, Kind: TimeDefault, Loser: White, Moves: "f5", End: "crash",
			Note: `exited (stderr: \x1b]0;pwned\a\x1b[2J\u202e0-46 \xff\n\tok)`}, nil},
		{"normal end before the end", scoring.TimeComplete, func(t *testing.T) Played { return playedGame(t, "f5d6", EndNormal) }, Result{}, ErrInvalid},
		{"moves not leading to the position", scoring.TimeComplete, func(t *testing.T) Played {
			p := playedGame(t, "f5d6", EndTime)
			p.Moves = p.Moves[:1]
			return p
		}, Result{}, ErrInvalid},
		{"an illegal move in the transcript", scoring.TimeComplete, func(t *testing.T) Played {
			p := playedGame(t, "f5d6", EndTime)
			p.Moves[1] = engine.Point{} // a1
			return p
		}, Result{}, ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := club(t, 2, 1)
			tm.TimeDefault = tc.policy
			if _, err := tm.Pair(PairOptions{}); err != nil {
				t.Fatal(err)
			}
			g := tm.Round(1)[0]
			c, err := tm.RecordGame(At(1, g.Table), tc.played(t))
			if !errors.Is(err, tc.err) {
				t.Fatalf("RecordGame: %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			got := *tm.Round(1)[0].Result
			if got != tc.want {
				t.Errorf("recorded %+v\nwant     %+v", got, tc.want)
			}
			if c.Action != ActResult || *c.After.Results[0].Result != tc.want || c.Before.Results[0].Result != nil {
				t.Errorf("change %+v", c)
			}
			if err := tm.Validate(); err != nil {
				t.Error(err)
			}
			// Recorded once: a second recording is refused.
			if _, err := tm.RecordGame(At(1, g.Table), tc.played(t)); !errors.Is(err, ErrHasResult) {
				t.Errorf("second RecordGame: %v, want ErrHasResult", err)
			}
		})
	}
}

func TestEngineEntrant(t *testing.T) {
	tm := club(t, 0, 3)
	c, err := tm.AddPlayer(PlayerInput{Name: "Rhino", Engine: "GTP:/usr/games/gtp-rhino   -l 2"})
	if err != nil {
		t.Fatal(err)
	}
	if e := c.After.Players[0].Engine; e != "gtp:/usr/games/gtp-rhino -l 2" {
		t.Errorf("engine stored as %q", e)
	}
	if !strings.Contains(c.After.Players[0].String(), "engine gtp:") {
		t.Errorf("the log's line %q does not show the engine", c.After.Players[0])
	}
	none := ""
	if _, err := tm.EditPlayer(1, PlayerEdit{Engine: &none}); err != nil || tm.Players[0].Engine != "" {
		t.Errorf("edit to a person: %v, %q", err, tm.Players[0].Engine)
	}
	bad := "builtin:deep-blue"
	if _, err := tm.EditPlayer(1, PlayerEdit{Engine: &bad}); !errors.Is(err, ErrInvalid) {
		t.Errorf("edit to %q: %v, want ErrInvalid", bad, err)
	}
}
