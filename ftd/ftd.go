// Package ftd reads the tournament files of FlipTheDisc (flipthedisc.com),
// the live-results site of the World Othello Federation and of national
// federations: the JSON its live page https://flipthedisc.com/live/<id> is
// built from, as a rating pipeline keeps them
// (tomschotte-personal/othello-rating-pipeline; four real files in
// ../shared/data/othello-tournaments-ftd/raw, none with a final phase: that
// is tested with the hand-written interchange/testdata/ftd_final.json).
//
// The layout, as observed:
//
//	{"players_list": [{"id", "wof_id", "surname", "name", "rating",
//	                   "country_code", "left_after_round", "team", "categories"}],
//	 "standings":    [{"player_id", "score", "mbq", "left_after_round", ...}],
//	 "rounds":       [{"currentRound": N, "pairing": [PAIR or "label", ...]}],
//	 "info":         {"name", "city", "country_code", "rounds", "start_date",
//	                  "end_date", "mbq_coef", "finals", "roundNames", ...}}
//
// A PAIR is [first, second]: the first-listed player is Black and carries
// the game (its "score", Black's discs, and "result", 2 a win, 1 a draw, 0
// a loss, both null before the result is in; "transcript", a move list
// where the site has one; "gameName" and "category" in a final phase); a
// second "id" of -1 is the bye. Rounds 1 to info.rounds are the Swiss; the
// final phase is in rounds numbered 108 (semi-finals, "SF"), 109 (3rd
// place, "3/4") and 110 (final, "F"), where a string in the pairing list
// labels the games after it with their category ("open", "division 1",
// "debutants"), and "gameName" numbers a match's games ("SF1", "F2",
// "3/41"). The standings are the Swiss's, in published order, with the
// tie-break value "mbq" (RULES.md section 3: c = 64 / rounds unrounded,
// unless "mbq_coef" gives c).
//
// Read keeps what a file says and refuses what contradicts itself (a
// pairing of an unknown player, a player twice in a Swiss round, a result
// code that is not the score's); it does not check the published points:
// that is the tournament's (interchange.FromFTD).
package ftd

import (
	"errors"
	"fmt"
)

// File is a FlipTheDisc tournament file.
type File struct {
	Info      Info
	Players   []Player   // as listed (players_list)
	Standings []Standing // in published order: the Swiss's
	Rounds    []Round    // as listed: the Swiss, then the final phase
	// Windows1252: the file is not valid UTF-8, and Read read it as
	// Windows-1252 (txt.Decode).
	Windows1252 bool
}

// Info is the tournament's own record ("info").
type Info struct {
	ID      int
	Name    string
	City    string
	Country string // two letters, as the site writes it ("WO" for a world event)
	Rounds  int    // the Swiss rounds planned
	// Start and End are the times the site recorded, as written
	// ("2026-07-04T09:05:48.000Z"); "" where the file has none.
	Start, End string
	// MBQCoef is the tie-break constant c where the director set one ("6");
	// "" for the site's default, 64 / rounds unrounded.
	MBQCoef    string
	Finals     bool           // the event has a final phase
	RoundNames map[int]string // 1: "1", 108: "SF", 109: "3/4", 110: "F"
}

// Player is an entrant ("players_list").
type Player struct {
	ID         int // the site's id, which pairings and standings use
	WOFID      int // 0: none
	Surname    string
	Name       string // given name
	Country    string // two letters as the site writes it
	Team       string
	Rating     int
	LeftAfter  int // the last round played before withdrawing; 0: none
	Categories []string
	At         Pos
}

// Standing is a player's line in the published standings.
type Standing struct {
	PlayerID  int
	Points    int     // in half-points: 9 is 4.5
	MBQ       float64 // the published tie-break, rounded by the site
	LeftAfter int
	At        Pos
}

// Round is one round of pairings.
type Round struct {
	Number int // currentRound: 1, 2... for the Swiss; 108, 109, 110 for the final phase
	Games  []Game
	At     Pos
}

// Final-phase rounds, as FlipTheDisc numbers them.
const (
	SemiFinals = 108
	ThirdPlace = 109
	FinalMatch = 110
)

// Game is a pair of a round: a game, or a bye (White 0).
type Game struct {
	Black, White int    // players' ids; White 0: Black has the bye (the file's -1)
	Category     string // the label before it in a final-phase round ("open", "women"), else the game's own "category"
	Name         string // gameName: "SF1" (a match's game 1), "F2", "3/41"; "" in the Swiss
	// HasResult tells whether the result is in; then BlackDiscs and
	// WhiteDiscs are the discs recorded: Black's score and 64 minus it
	// (32-32 for a draw).
	HasResult              bool
	BlackDiscs, WhiteDiscs int
	Transcript             string // a move list ("f5d6c3..."), "" where the site has none
	At                     Pos
}

// IsBye reports whether the pair is a bye.
func (g Game) IsBye() bool { return g.White == 0 }

// Player returns the player of id, and false if the file lists none.
func (f *File) Player(id int) (Player, bool) {
	for _, p := range f.Players {
		if p.ID == id {
			return p, true
		}
	}
	return Player{}, false
}

// Pos is where a value starts in the file: the line and column (1-based,
// column in bytes) and its path ("rounds[2].pairing[5]").
type Pos struct {
	Line, Column int
	Path         string
}

func (p Pos) String() string {
	s := fmt.Sprintf("line %d, column %d", p.Line, p.Column)
	if p.Path != "" {
		s += ": " + p.Path
	}
	return s
}

// ErrInvalid is wrapped by every error of a file that Read refuses, and by
// the errors of a file whose contents contradict themselves.
var ErrInvalid = errors.New("not a valid FlipTheDisc tournament file")

// ParseError is a file that Read refuses: where (Line 0 when the file as a
// whole is wrong) and what is wrong, wrapping ErrInvalid.
type ParseError struct {
	Pos
	Err error
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%v: %v", e.Err, ErrInvalid)
	}
	return fmt.Sprintf("%v: %v: %v", e.Pos, e.Err, ErrInvalid)
}

func (e *ParseError) Unwrap() []error { return []error{e.Err, ErrInvalid} }

// MaxSize is the largest file Read reads, in bytes: a world championship of
// 100 players with every transcript is under 1 MiB.
const MaxSize = 16 << 20
