package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// The JSON that --json prints: one typed struct per kind of output, its names
// in snake_case, each field documented by its doc tag. 'otd help json' prints
// this documentation from the types themselves, so it cannot drift from them.

type tournamentJSON struct {
	ID          int64           `json:"id" doc:"the tournament's id in the database ('otd tournament use ID')"`
	Name        string          `json:"name" doc:"the tournament's name"`
	Rounds      int             `json:"rounds" doc:"rounds planned"`
	Paired      int             `json:"paired" doc:"rounds paired so far"`
	Players     int             `json:"players" doc:"players registered"`
	System      string          `json:"system" doc:"swiss or roundrobin"`
	BQ          string          `json:"bq" doc:"the BQ rule: nearest, wof, exact, or the constant"`
	TimeDefault string          `json:"time_default" doc:"how a time default is scored: complete, fixed or wipeout"`
	ByePoints   json.Number     `json:"bye_points" doc:"points of a bye: 1 or 0.5"`
	ByeDiscs    [2]int          `json:"bye_discs" doc:"the discs a bye (and a forfeit) counts, the winner's and the other side's: 32-32 by default, Papp's 40-24, 0-0 for a file whose totals count a bye's point alone"`
	TieBreaks   string          `json:"tiebreaks" doc:"the ranking order, comma-separated: points, bq, discs, h2h, wins, diff"`
	FirstRound  string          `json:"first_round" doc:"how round 1 is paired: rating or random"`
	Seed        uint64          `json:"seed" doc:"seed of the pairing's random choices"`
	Pairing     string          `json:"pairing" doc:"the Swiss pairing's cost model: a preset, papp or plain, then ,name=value for each weight changed from it"`
	Weights     []weightJSON    `json:"pairing_weights" doc:"every weight of the cost model, in the order of the model's text (RULES.md section 4)"`
	Start       string          `json:"start,omitempty" doc:"first day of the event, YYYY-MM-DD; left out if not given"`
	End         string          `json:"end,omitempty" doc:"last day of the event, YYYY-MM-DD; left out if not given"`
	City        string          `json:"city,omitempty" doc:"the city of the event; left out if not given"`
	Country     string          `json:"country,omitempty" doc:"the country of the event; left out if not given"`
	Director    string          `json:"director,omitempty" doc:"the tournament director; left out if not given"`
	NewIDs      string          `json:"new_ids,omitempty" doc:"the WOF ids for new players that 'otd export elo' gives the players without one, FROM-TO or FROM; left out if not given"`
	Rules       string          `json:"rules" doc:"the game's rules as --rules takes them: othello, othello:10, anti, reversi, 8stars..."`
	Squares     int             `json:"squares" doc:"the board's playable squares: a score adds up to them (64 on 8x8)"`
	Time        string          `json:"time" doc:"the engines' time control for the games otd plays (otd's default: 1m)"`
	Forbidden   []forbiddenJSON `json:"forbidden_pairs" doc:"the pairs forbidden to meet for the rest of the event ('otd pair forbid'), by a then b"`
	Final       string          `json:"final,omitempty" doc:"the final phase after the Swiss, as --final takes it (woc, or top=4,bestof=3,...); left out if none"`
	Categories  []categoryJSON  `json:"categories,omitempty" doc:"the categories ('otd category'); left out if none"`
	Teams       string          `json:"teams,omitempty" doc:"how teams are ranked, as --teams takes it (best=3,exclude=youth); left out for the default, the best 3"`
	YouthAge    int             `json:"youth_age" doc:"the youth's age limit (RULES.md section 7): a youth is at most this old in the event's year, born in its year less the limit or later; 15 unless set ('tournament edit --youth-age')"`
}

func newTournamentJSON(t *tournament.Tournament) tournamentJSON {
	s := t.Settings
	bye, _ := scoring.ScoreGame(scoring.Result{Kind: scoring.Bye}, s.Rules()) // the settings are valid
	j := tournamentJSON{ByeDiscs: [2]int{bye.BlackDiscs, bye.WhiteDiscs}, ID: t.ID, Name: s.Name, Rounds: s.Rounds, Paired: t.Paired(), Players: len(t.Players),
		System: string(s.System), BQ: s.BQ.String(), TimeDefault: s.TimeDefault.String(), ByePoints: json.Number(s.ByePoints.String()),
		TieBreaks: s.TieBreaks.String(), FirstRound: s.FirstRound.String(), Seed: s.Seed, Pairing: s.Pairing.String(),
		Weights: []weightJSON{}, Start: s.Start.String(), End: s.End.String(), City: s.City, Country: s.Country, Director: s.Director,
		NewIDs: s.NewIDs.String(), Rules: s.GameRules().String(), Squares: s.GameRules().Squares(), Time: s.PlayTime().String(), Forbidden: newForbiddenJSON(t), YouthAge: s.Youth()}
	if !s.Final.IsZero() {
		j.Final = s.Final.String()
	}
	for _, c := range s.Categories {
		j.Categories = append(j.Categories, newCategoryJSON(t, c))
	}
	if b, err := s.TeamRules.MarshalText(); err == nil {
		j.Teams = string(b)
	}
	if w, err := s.Pairing.Weights(); err == nil { // checked when set and when read
		for _, x := range tournament.PairingWeightList(w) {
			j.Weights = append(j.Weights, weightJSON{Name: x.Name, Value: x.Value, About: x.Doc})
		}
	}
	return j
}

type weightJSON struct {
	Name  string `json:"name" doc:"the weight's name, as --pairing takes it"`
	Value string `json:"value" doc:"its value: a number, numbers separated by / (a table), none, or 0/1"`
	About string `json:"about" doc:"what it costs"`
}

type tournamentListJSON struct {
	ID      int64  `json:"id" doc:"the tournament's id in the database"`
	Name    string `json:"name" doc:"the tournament's name"`
	Rounds  int    `json:"rounds" doc:"rounds planned"`
	Players int    `json:"players" doc:"players registered"`
	Paired  int    `json:"paired" doc:"rounds paired so far"`
	Current bool   `json:"current" doc:"whether it is the current tournament, the one commands act on"`
}

type playerJSON struct {
	Number     int      `json:"number" doc:"the player's number in the tournament: 1, 2, ... in order of registration"`
	Name       string   `json:"name" doc:"the player's name"`
	FedID      int      `json:"fed_id,omitempty" doc:"the federation's (WOF) id; left out if none"`
	NewID      bool     `json:"new_id,omitempty" doc:"true if the WOF id is new to the rating list, from a federation's range for new players (an .ELO file's +); left out if not"`
	Rating     int      `json:"rating" doc:"rating, 0 for none"`
	Country    string   `json:"country" doc:"country code, empty if none"`
	FirstRound int      `json:"first_round" doc:"the first round the player can be paired in (later for a late entry)"`
	Withdrawn  bool     `json:"withdrawn" doc:"whether the player has withdrawn"`
	Left       int      `json:"withdrawn_before_round,omitempty" doc:"the first round missed after withdrawing; left out if not withdrawn"`
	Absent     []int    `json:"absent,omitempty" doc:"rounds the player misses; left out if none"`
	Engine     string   `json:"engine,omitempty" doc:"for a computer program entered as a player, how otd starts it (gtp:ARGV, nboard:ARGV or builtin:NAME); left out for a person"`
	Team       string   `json:"team,omitempty" doc:"the team the player was entered in ('player edit --team'), - for none; left out for their country's"`
	Born       int      `json:"born,omitempty" doc:"the year of birth (what the categories by age and the youth go by); left out if not given"`
	BornDate   string   `json:"born_date,omitempty" doc:"the date of birth, YYYY-MM-DD, when it was given ('--born 2009-05-01'); left out if only the year was, or nothing"`
	Categories []string `json:"categories,omitempty" doc:"the categories the player was entered in by name (those by year of birth follow born); left out if none"`
}

func newPlayerJSON(p tournament.Player) playerJSON {
	return playerJSON{Number: p.Number, Name: p.Name, FedID: p.WOFID, NewID: p.NewID, Rating: p.Rating, Country: p.Country,
		FirstRound: p.FirstRound, Withdrawn: p.Left != 0, Left: p.Left, Absent: p.Absent, Engine: p.Engine, Team: p.Team, Born: p.Born.Year, BornDate: p.Born.Date(), Categories: p.Categories}
}

type gameJSON struct {
	Round       int         `json:"round" doc:"the round"`
	Table       int         `json:"table" doc:"the table (board) number"`
	Black       int         `json:"black" doc:"black's player number (for a bye: the player with the bye)"`
	White       int         `json:"white,omitempty" doc:"white's player number; left out for a bye"`
	Bye         bool        `json:"bye,omitempty" doc:"true for a bye"`
	BlackPoints json.Number `json:"black_points" doc:"black's points before the round"`
	WhitePoints json.Number `json:"white_points,omitempty" doc:"white's points before the round; left out for a bye"`
	BlackDiscs  *int        `json:"black_discs,omitempty" doc:"black's discs as recorded; left out until the game has a result"`
	WhiteDiscs  *int        `json:"white_discs,omitempty" doc:"white's discs as recorded; left out until the game has a result"`
	Kind        string      `json:"kind,omitempty" doc:"how the game ended, if not normally: time-default or forfeit"`
	Loser       string      `json:"loser,omitempty" doc:"for a time default or a forfeit: the colour that lost, black or white"`
	Moves       string      `json:"moves,omitempty" doc:"for a game otd played (engine round): the transcript, a move list such as f5d6c3 (passes implicit; 'otd verify' reads it)"`
	End         string      `json:"end,omitempty" doc:"for a game otd played: how it ended: normal, time (a flag fell), crash, illegal (an illegal or unreadable move), no reply"`
	Note        string      `json:"note,omitempty" doc:"for a game otd played that ended by default: why, in words"`
}

type standingJSON struct {
	Rank        int         `json:"rank" doc:"rank: players equal on every tie-break share it"`
	Number      int         `json:"number" doc:"the player's number"`
	Name        string      `json:"name" doc:"the player's name"`
	Country     string      `json:"country,omitempty" doc:"country code; left out if none"`
	Points      json.Number `json:"points" doc:"points, a half as .5"`
	BQ          json.Number `json:"bq" doc:"Brightwell Quotient, exact (a fraction's decimal expansion)"`
	BQRounded   int         `json:"bq_rounded" doc:"the BQ rounded to the nearest whole number, halves up (FlipTheDisc's published mbq); the standings table prints bq, to two decimals"`
	Discs       int         `json:"discs" doc:"total discs"`
	Games       int         `json:"games" doc:"games played"`
	NoDiscs     int         `json:"no_discs,omitempty" doc:"games without discs (an imported file gives only who won): discs and BQ count none for them; left out if none"`
	Withdrawn   bool        `json:"withdrawn" doc:"whether the player has withdrawn (a player withdrawn before playing ranks below all who played)"`
	Round       int         `json:"after_round" doc:"the round the standings are after: the one asked for, or the one before if it has no result yet"`
	Provisional bool        `json:"provisional,omitempty" doc:"true if a game of that round has no result yet: the standings will change"`
}

type crosstableJSON struct {
	Rank      int         `json:"rank" doc:"rank in the standings"`
	Number    int         `json:"number" doc:"the player's number"`
	Name      string      `json:"name" doc:"the player's name"`
	Points    json.Number `json:"points" doc:"points"`
	Rounds    []cellJSON  `json:"rounds" doc:"one entry a round"`
	Withdrawn bool        `json:"withdrawn" doc:"whether the player has withdrawn"`
}

type cellJSON struct {
	Round         int         `json:"round" doc:"the round"`
	Kind          string      `json:"kind" doc:"what the round was for the player: normal (a game played to the end), time-default, forfeit (not played), bye, missed"`
	Opponent      int         `json:"opponent" doc:"the opponent's number, 0 if none"`
	Colour        string      `json:"colour" doc:"the player's colour: black or white"`
	Points        json.Number `json:"points" doc:"points scored in the round"`
	Discs         int         `json:"discs" doc:"the player's discs"`
	OpponentDiscs int         `json:"opponent_discs" doc:"the opponent's discs"`
}

type logJSON struct {
	ID       int64            `json:"id" doc:"the entry's number, in the order of the changes"`
	At       time.Time        `json:"at" doc:"when, RFC 3339 with the time zone"`
	Action   string           `json:"action" doc:"the kind of change: player add, round pair, result, undo, ..."`
	Subject  string           `json:"subject" doc:"what changed, in words"`
	Notes    []string         `json:"notes,omitempty" doc:"what the director should know of the change (a pairing's last resorts, the rounds paired on a corrected result), one a string; left out if none (and for an entry of version 1 or older, whose subject holds its notes after '; ')"`
	Actor    *actorJSON       `json:"actor,omitempty" doc:"who made the change; left out for an entry written before otd recorded it (version 1 or older)"`
	Version  int              `json:"version" doc:"the version of the entry's stored form (0: otd's first schema, 1: before otd recorded the actor, its notes in the subject; both read as the current form)"`
	Before   tournament.State `json:"before" doc:"the entities the change touched, as they were (players, games, results, settings, finals)"`
	After    tournament.State `json:"after" doc:"the same entities as the change left them; an entity on one side only was added or removed"`
	UndoneBy int64            `json:"undone_by,omitempty" doc:"the id of the entry that undid this one; left out if none"`
	Undoes   int64            `json:"undoes,omitempty" doc:"for an undo: the id of the entry it reverted"`
}

type actorJSON struct {
	Kind    string         `json:"kind" doc:"command line, console (a session of the web console), report (a player's report of a game) or worker ('otd worker')"`
	Name    string         `json:"name,omitempty" doc:"the user at the command line, the director of a console session, the worker's name; left out if none"`
	Session string         `json:"session,omitempty" doc:"the console session (for a report: the session that approved it); left out if none"`
	Side    string         `json:"side,omitempty" doc:"the colour whose player reported, in an entry written before reports: black or white; left out if none"`
	Game    string         `json:"game,omitempty" doc:"the game reported, in words, in an entry written before reports; left out if none"`
	Address string         `json:"address,omitempty" doc:"the network address the report came from, in an entry written before reports; left out if none"`
	Reports []reportedJSON `json:"reports,omitempty" doc:"for a result recorded from the venue, or entered by the director on a game its players had reported: each side's report, in the order they came; left out if none"`
	Login   string         `json:"login,omitempty" doc:"how the console session logged in, and from where: password from 127.0.0.1, one-time link from 192.168.1.7; left out if not known"`
	Text    string         `json:"text" doc:"who, in words, as 'otd log' says it: command line (alice), worker w1@host, report: black from 192.168.1.7 at 14:02:11, ..."`
}

type reportedJSON struct {
	Side    string    `json:"side" doc:"the colour whose player reported: black or white"`
	Address string    `json:"address" doc:"the network address the report came from"`
	At      time.Time `json:"at" doc:"when, RFC 3339 with the time zone"`
	Score   string    `json:"score,omitempty" doc:"what the side reported: the discs B-W (40-24), or call (it called the director); left out in an entry written before otd kept it"`
	Moves   bool      `json:"moves,omitempty" doc:"true if the report came with the game's moves; left out otherwise"`
	Chosen  bool      `json:"chosen,omitempty" doc:"true for the side whose report the director chose to settle a dispute; left out otherwise"`
}

// newActorJSON gives actor a for 'otd log --json', nil for an unknown one.
func newActorJSON(a tournament.Actor) *actorJSON {
	if a.IsZero() {
		return nil
	}
	j := &actorJSON{Kind: string(a.Kind), Name: a.Name, Session: a.Session, Side: string(a.Side), Game: a.Game, Address: a.Address, Login: a.Login, Text: a.String()}
	for _, r := range a.Reports {
		j.Reports = append(j.Reports, reportedJSON{Side: string(r.Side), Address: r.Address, At: r.At, Score: r.Score, Moves: r.Moves, Chosen: r.Chosen})
	}
	return j
}

type explainJSON struct {
	Round         int                 `json:"round" doc:"the round explained"`
	Cost          int64               `json:"cost" doc:"the round's cost under the tournament's pairing weights: the sum of its pairs' (RULES.md section 4)"`
	RoundRobin    bool                `json:"round_robin,omitempty" doc:"true if the tournament pairs by the round-robin table, not by cost: the costs are those the Swiss pairing would see"`
	Pairs         []explainPairJSON   `json:"pairs" doc:"every table of the round, the bye last, with its cost by term"`
	Alternatives  []explainChoiceJSON `json:"alternatives" doc:"for the dearest pairs, dearest first: the cheapest swap of partners with another table, and what it would add"`
	NoAlternative []int               `json:"no_alternative,omitempty" doc:"the tables of dear pairs that no allowed swap changes"`
}

type explainPairJSON struct {
	Table       int         `json:"table" doc:"the table"`
	Black       int         `json:"black" doc:"black's player number (for the bye: the player with it)"`
	White       int         `json:"white,omitempty" doc:"white's player number; left out for the bye"`
	Bye         bool        `json:"bye,omitempty" doc:"true for the bye"`
	BlackPoints json.Number `json:"black_points" doc:"black's points before the round"`
	WhitePoints json.Number `json:"white_points,omitempty" doc:"white's points before the round; left out for the bye"`
	Cost        int64       `json:"cost" doc:"the pair's cost: the sum of its terms (0 if broken)"`
	Terms       termsJSON   `json:"terms" doc:"the cost by term"`
	Broken      string      `json:"broken,omitempty" doc:"the absolute rule the pair breaks (a forbidden pair), which no cost measures; left out if none"`
}

type termsJSON struct {
	Gap          int64 `json:"gap" doc:"the score gap, by its size in half-points"`
	Colour       int64 `json:"colour" doc:"both players' colour imbalance |blacks - whites| after the game; for the bye, the current one"`
	SameColour   int64 `json:"same_colour" doc:"the colour of the previous round again, per player"`
	Float        int64 `json:"float_repeat" doc:"floating the same way as last time, per player"`
	Compensation int64 `json:"compensation" doc:"floating back the other way (negative)"`
	Elitism      int64 `json:"elitism" doc:"elitism: floats cost more at the top than at the bottom"`
	Rematch      int64 `json:"rematch" doc:"earlier meetings (and a second bye), plus one if in the previous round"`
	Country      int64 `json:"country" doc:"compatriots"`
}

type explainChoiceJSON struct {
	Table      int               `json:"table" doc:"the dear pair's table"`
	Cost       int64             `json:"cost" doc:"its cost"`
	WithTable  int               `json:"with_table" doc:"the table it would exchange partners with"`
	Instead    []explainSwapJSON `json:"instead" doc:"the two pairs after the swap, each in its cheaper colours"`
	Delta      int64             `json:"delta" doc:"what the swap would add to the round's cost; below 0 if the pairing is not the cheapest (forced, manual or imported pairs)"`
	DeltaTerms termsJSON         `json:"delta_terms" doc:"the delta by term: why the swap lost"`
}

type explainSwapJSON struct {
	Black int       `json:"black" doc:"black's player number (for the bye: the player with it)"`
	White int       `json:"white,omitempty" doc:"white's player number; left out for the bye"`
	Cost  int64     `json:"cost" doc:"the pair's cost"`
	Terms termsJSON `json:"terms" doc:"the cost by term"`
}

func newTermsJSON(x pairing.Terms) termsJSON {
	return termsJSON{Gap: x.Gap, Colour: x.Colour, SameColour: x.SameColour, Float: x.Repeat, Compensation: x.Compensation,
		Elitism: x.Elitism, Rematch: x.Rematch, Country: x.Country}
}

func newExplainJSON(rep tournament.ExplainReport, points map[int]scoring.HalfPoints) explainJSON {
	out := explainJSON{Round: rep.Round, Cost: rep.Cost, RoundRobin: rep.RoundRobin, Pairs: []explainPairJSON{}, Alternatives: []explainChoiceJSON{}}
	tables := map[int]int{}
	for _, p := range rep.Pairs {
		tables[p.Black] = p.Table
		j := explainPairJSON{Table: p.Table, Black: p.Black, White: p.White, Bye: p.IsBye(), BlackPoints: jsonPoints(points[p.Black]),
			Cost: p.Cost, Terms: newTermsJSON(p.Terms), Broken: p.Broken}
		if !p.IsBye() {
			j.WhitePoints = jsonPoints(points[p.White])
		}
		out.Pairs = append(out.Pairs, j)
	}
	for _, a := range rep.Alternatives {
		j := explainChoiceJSON{Table: tables[a.Pair.Black], Cost: a.Pair.Cost, WithTable: tables[a.Other.Black], Delta: a.Delta, DeltaTerms: newTermsJSON(a.DeltaTerms)}
		for _, q := range a.Instead {
			j.Instead = append(j.Instead, explainSwapJSON{Black: q.Black, White: q.White, Cost: q.Cost, Terms: newTermsJSON(q.Terms)})
		}
		out.Alternatives = append(out.Alternatives, j)
	}
	for _, p := range rep.NoAlternative {
		out.NoAlternative = append(out.NoAlternative, tables[p.Black])
	}
	return out
}

type perftJSON struct {
	Depth   int     `json:"depth" doc:"the depth counted"`
	Leaves  uint64  `json:"leaves" doc:"the number of positions at that depth"`
	Seconds float64 `json:"seconds" doc:"the time it took"`
}

type reportJSONT struct {
	Name        string           `json:"name" doc:"the game's name: the file, and the game's place in it"`
	Black       string           `json:"black,omitempty" doc:"black's name, if the record gives it"`
	White       string           `json:"white,omitempty" doc:"white's name, if the record gives it"`
	Event       string           `json:"event,omitempty" doc:"the event, if the record gives it"`
	Moves       []playedJSON     `json:"moves" doc:"the legal moves played, in order"`
	Legal       bool             `json:"legal" doc:"whether every move is legal"`
	Illegal     *illegalJSON     `json:"illegal,omitempty" doc:"the first illegal move; left out if none"`
	Over        bool             `json:"over" doc:"whether the game is over (neither side can move)"`
	Score       string           `json:"score" doc:"the true score B-W, empties to the winner if the game is over"`
	Claimed     string           `json:"claimed,omitempty" doc:"the result claimed (--claimed or the record's), if any"`
	Agrees      *bool            `json:"agrees,omitempty" doc:"whether the claimed result agrees with the moves; left out if none is claimed"`
	Corrections []correctionJSON `json:"corrections,omitempty" doc:"for a damaged transcript sheet: the smallest corrections that make it legal"`
	At          *atJSON          `json:"at,omitempty" doc:"with --at: the position after that move"`
}

type playedJSON struct {
	Number int    `json:"number" doc:"the move's number, 1 for the first"`
	Move   string `json:"move" doc:"the square, e.g. f5"`
	Color  string `json:"color" doc:"who played it: black or white"`
	Forced bool   `json:"forced,omitempty" doc:"true if it was the only legal move"`
}

type illegalJSON struct {
	Number     int      `json:"number" doc:"the move's number"`
	Move       string   `json:"move,omitempty" doc:"the square played; left out when the sheet's numbering is what is wrong"`
	Color      string   `json:"color" doc:"the side to move: black or white"`
	Reason     string   `json:"reason" doc:"why it is illegal, in words"`
	Board      string   `json:"board" doc:"the board before the move, row by row from a1 (64 characters on 8x8, size x size on other boards): X black, O white, - empty, # a square 8Stars cuts"`
	LegalMoves []string `json:"legal_moves" doc:"the legal moves there"`
}

type correctionJSON struct {
	What   string `json:"what" doc:"the correction, in words"`
	Over   bool   `json:"over" doc:"whether the corrected game is over"`
	Score  string `json:"score" doc:"the corrected game's score B-W"`
	Agrees bool   `json:"agrees" doc:"whether it agrees with the claimed result"`
}

type atJSON struct {
	Move   int    `json:"move" doc:"the move asked for with --at"`
	Board  string `json:"board" doc:"the board after it"`
	ToMove string `json:"to_move" doc:"the side to move there"`
}

type batchJSON struct {
	Games       int           `json:"games" doc:"games read"`
	Legal       int           `json:"legal" doc:"games whose every move is legal"`
	Illegal     int           `json:"illegal" doc:"games with an illegal move"`
	Agreeing    int           `json:"agreeing" doc:"legal games whose recorded result agrees with the moves"`
	Disagreeing int           `json:"disagreeing" doc:"legal games whose recorded result does not"`
	NoResult    int           `json:"no_result" doc:"legal games with no result recorded"`
	Problems    []problemJSON `json:"problems" doc:"the first problems found (at most 10)"`
}

type problemJSON struct {
	Name    string `json:"name" doc:"the game's name"`
	Black   string `json:"black,omitempty" doc:"black's name, if known"`
	White   string `json:"white,omitempty" doc:"white's name, if known"`
	Event   string `json:"event,omitempty" doc:"the event, if known"`
	Year    int    `json:"year,omitempty" doc:"the year, if known"`
	Problem string `json:"problem" doc:"what is wrong, in words"`
}

// jsonOutputs are the outputs of --json, in the order 'otd help json' lists them.
var jsonOutputs = []struct {
	commands string
	v        any
}{
	{"tournament new, tournament show", tournamentJSON{}},
	{"tournament list (a list)", tournamentListJSON{}},
	{"player add, player list (a list)", playerJSON{}},
	{"round pair, round show (a list)", gameJSON{}},
	{"round check", checkJSON{}},
	{"pair list (a list)", forbiddenJSON{}},
	{"round explain", explainJSON{}},
	{"standings (a list)", standingJSON{}},
	{"standings --final, category show (a list)", rankJSON{}},
	{"final show (a list: the open's phase, then the categories')", phaseJSON{}},
	{"category list (a list)", categoryJSON{}},
	{"teams (a list)", teamJSON{}},
	{"pair list (a list)", forbiddenJSON{}},
	{"crosstable (a list)", crosstableJSON{}},
	{"log (a list)", logJSON{}},
	{"verify of one game (one object on one line)", reportJSONT{}},
	{"verify of a batch, several games or a WTHOR file (one object on one line)", batchJSON{}},
	{"pairing simulate", pairing.SimReport{}},
	{"perft", perftJSON{}},
	{"archive index", archiveIndexJSON{}},
	{"archive problems (a list)", archiveProblemJSON{}},
	{"archive players (a list)", archivePersonJSON{}},
	{"archive player", archiveHistoryJSON{}},
	{"archive h2h", archiveH2HJSON{}},
	{"archive tournaments (a list)", archiveTournamentJSON{}},
	{"archive tournament", archiveTournamentShowJSON{}},
	{"rating (a list)", ratingJSON{}},
	{"rating preview (a list)", ratingPreviewJSON{}},
}

// writeJSON writes v, one of jsonOutputs or a list of one, indented.
func writeJSON(w io.Writer, v any) error { return encodeJSON(w, v, "  ") }

// writeJSONLine writes v, one of jsonOutputs, on one line.
func writeJSONLine(w io.Writer, v any) error { return encodeJSON(w, v, "") }

func encodeJSON(w io.Writer, v any, indent string) error {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	documented := false
	for _, o := range jsonOutputs {
		documented = documented || reflect.TypeOf(o.v) == t
	}
	if !documented {
		return fmt.Errorf("internal error: JSON output %v is not in 'otd help json'", t)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", indent)
	return enc.Encode(v)
}

func newJSONHelpTopic() *cobra.Command {
	var b strings.Builder
	b.WriteString(`Every command that lists takes --json and then prints the objects below
(a list where it says so). Names are snake_case and stable: a script may rely
on them. Points are JSON numbers with a half as .5.
`)
	for _, o := range jsonOutputs {
		fmt.Fprintf(&b, "\n%s:\n", o.commands)
		describeJSON(&b, reflect.TypeOf(o.v), "  ", map[reflect.Type]bool{})
	}
	return &cobra.Command{Use: "json", Short: "The JSON that --json prints: every field, documented", Long: b.String()}
}

var textMarshaler = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()

// describeJSON writes the fields of struct type t, one a line, with their
// doc tags, and those of the structs within (an embedded struct's fields
// as its own).
func describeJSON(b *strings.Builder, t reflect.Type, indent string, seen map[reflect.Type]bool) {
	describeFields(b, t, indent, seen, nil)
}

// gameFields are the fields of a tournament.Game that a list of one kind of
// game leaves out: a round's game has no match, a final match's no round.
var gameFields = map[string]map[string]bool{
	"games":       {"category": true, "match": true, "game": true, "seq": true},
	"final_games": {"round": true, "table": true},
}

// describeFields is describeJSON but for the fields named in skip.
func describeFields(b *strings.Builder, t reflect.Type, indent string, seen map[reflect.Type]bool, skip map[string]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct { // its fields are the struct's, as encoding/json writes them
			describeFields(b, f.Type, indent, seen, skip)
			continue
		}
		if name == "-" || !f.IsExported() || skip[name] {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		kind := jsonKind(f.Type)
		fmt.Fprintf(b, "%s%s (%s)", indent, name, kind)
		if doc := f.Tag.Get("doc"); doc != "" {
			fmt.Fprintf(b, ": %s", doc)
		}
		b.WriteString("\n")
		if ft.Kind() == reflect.Struct && !ft.Implements(textMarshaler) && ft != reflect.TypeFor[time.Time]() {
			var inner map[string]bool
			if ft == reflect.TypeFor[tournament.Game]() {
				inner = gameFields[name]
			}
			describeFields(b, ft, indent+"  ", seen, inner)
		}
	}
}

// jsonKind names the JSON type of a Go type.
func jsonKind(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[json.Number]() || t == reflect.TypeFor[scoring.HalfPoints]():
		return "number"
	case t == reflect.TypeFor[time.Time]():
		return "string, time"
	case t == reflect.TypeFor[tournament.Born]():
		return "number, a year, or string, a date"
	case t.Implements(textMarshaler):
		return "string"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.Slice, reflect.Array:
		return "list of " + jsonKind(t.Elem())
	case reflect.Struct:
		return "object"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	}
	return "number"
}
