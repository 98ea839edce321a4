package tournament

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/otd-project/otd/scoring"
)

// CheckSettings checks a tournament's settings before it is created.
func CheckSettings(s Settings) error {
	switch {
	case s.Name == "":
		return fmt.Errorf("a tournament needs a name: %w", ErrInvalid)
	case s.Rounds < 1 || s.Rounds > 99:
		return fmt.Errorf("--rounds %d: a tournament has 1 to 99 rounds: %w", s.Rounds, ErrInvalid)
	case s.System != "swiss" && s.System != "roundrobin":
		return fmt.Errorf("--system %q: swiss or roundrobin: %w", s.System, ErrInvalid)
	case s.FirstRound != "rating" && s.FirstRound != "random":
		return fmt.Errorf("--first-round %q: rating or random: %w", s.FirstRound, ErrInvalid)
	}
	_, err := s.Rules()
	return err
}

// Rules returns the scoring rules of the settings.
func (s Settings) Rules() (scoring.Rules, error) {
	var r scoring.Rules
	var err error
	if r.BQ, err = scoring.ParseBQRule(s.BQ); err != nil {
		return r, fmt.Errorf("--bq: %w", err)
	}
	if r.TimeDefault, err = scoring.ParseTimePolicy(s.TimeDefault); err != nil {
		return r, fmt.Errorf("--time-default: %w", err)
	}
	r.ByePoints = scoring.HalfPoints(s.ByeHalfPoints)
	if r.TieBreaks, err = scoring.ParseTieBreaks(s.Tiebreaks); err != nil {
		return r, fmt.Errorf("--tiebreaks: %w", err)
	}
	return r, r.Validate()
}

// scoringResult is a recorded result as scoring reads it.
func scoringResult(g Game) (scoring.Result, bool) {
	if g.IsBye() {
		return scoring.Result{Kind: scoring.Bye}, true
	}
	if g.Result == nil {
		return scoring.Result{}, false
	}
	r := scoring.Result{BlackDiscs: g.Result.Black, WhiteDiscs: g.Result.White}
	switch g.Result.Kind {
	case TimeDefault:
		r.Kind = scoring.TimeDefault
	case Forfeit:
		r.Kind = scoring.Forfeit
	}
	if r.Kind != scoring.Normal {
		r.Outcome = scoring.BlackWins
		if g.Result.Loser == Black {
			r.Outcome = scoring.WhiteWins
		}
	}
	return r, true
}

// Event returns the tournament as scoring reads it: every game with a result
// (and every bye).
func (t *Tournament) Event() (scoring.Event, error) {
	rules, err := t.Rules()
	if err != nil {
		return scoring.Event{}, err
	}
	e := scoring.Event{Rounds: t.Rounds, Rules: rules, Players: make([]scoring.Player, len(t.Players))}
	for i, p := range t.Players {
		e.Players[i] = scoring.Player{ID: p.Number}
		if p.Left > 1 {
			e.Players[i].WithdrawnAfter = p.Left - 1
		}
	}
	for _, g := range t.Games {
		if r, ok := scoringResult(g); ok {
			e.Games = append(e.Games, scoring.Game{Round: g.Round, Black: g.Black, White: g.White, Result: r})
		}
	}
	return e, nil
}

// Finished returns the number of rounds from the first whose games all have results.
func (t *Tournament) Finished() int {
	done := t.Paired()
	for _, g := range t.Games {
		if g.Result == nil && !g.IsBye() && g.Round <= done {
			done = g.Round - 1
		}
	}
	return done
}

// Standings returns the standings after round r (0: before the first round).
func (t *Tournament) Standings(r int) ([]scoring.Row, error) {
	if r < 0 || r > t.Rounds {
		return nil, fmt.Errorf("round %d: %w (the tournament has %d rounds)", r, ErrNoRound, t.Rounds)
	}
	if r > t.Paired() {
		return nil, t.CheckPaired(r)
	}
	e, err := t.Event()
	if err != nil {
		return nil, err
	}
	return e.AfterRound(r)
}

// rankOrder returns the player numbers in standings order after round r
// (before round 1: by rating, then number).
func (t *Tournament) rankOrder(r int) []int {
	order := make([]int, len(t.Players))
	for i := range order {
		order[i] = i + 1
	}
	rows, err := t.Standings(r)
	if r == 0 || err != nil {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(t.Players[b-1].Rating, t.Players[a-1].Rating) })
		return order
	}
	for i, row := range rows {
		order[i] = row.Player
	}
	return order
}

// PointsAfter returns every player's half-points after round r.
func (t *Tournament) PointsAfter(r int) map[int]int {
	pts := map[int]int{}
	if rows, err := t.Standings(max(r, 0)); err == nil {
		for _, row := range rows {
			pts[row.Player] = int(row.Points)
		}
	}
	return pts
}

// gamePoints returns the half-points a finished game gave black and white.
func gamePoints(g Game, rules scoring.Rules) (int, int) {
	r, ok := scoringResult(g)
	if !ok {
		return 0, 0
	}
	s, err := scoring.ScoreGame(r, rules)
	if err != nil {
		return 0, 0
	}
	return int(s.BlackPoints), int(s.WhitePoints)
}

// ResultInput is a result as the director enters it.
type ResultInput struct {
	Black, White int   // discs at the end (for a time default: of the completed game)
	HasScore     bool  // Black and White were given
	TimeDefault  Color // the colour whose flag fell, or ""
	Forfeit      Color // the colour that did not play, or ""
}

// RecordResult records a result for the game at table of round r, under the
// tournament's rules; a game that has one is changed only with correct. It
// returns the result before (nil if none) and the one recorded.
func (t *Tournament) RecordResult(r, table int, in ResultInput, correct bool) (*Result, Result, error) {
	g, err := t.Game(r, table)
	if err != nil {
		return nil, Result{}, err
	}
	if g.IsBye() {
		return nil, Result{}, fmt.Errorf("round %d table %d is player %d's bye: %w: it needs no result", r, table, g.Black, ErrInvalid)
	}
	if g.Result != nil && !correct {
		return g.Result, Result{}, fmt.Errorf("round %d table %d: %w (%s): to change it, add --correct", r, table, ErrHasResult, g.Result)
	}
	rules, err := t.Rules()
	if err != nil {
		return nil, Result{}, err
	}
	sr := scoring.Result{BlackDiscs: in.Black, WhiteDiscs: in.White}
	rec := Result{Kind: Normal}
	switch {
	case in.TimeDefault != "":
		sr.Kind, rec.Kind, rec.Loser = scoring.TimeDefault, TimeDefault, in.TimeDefault
	case in.Forfeit != "":
		sr.Kind, rec.Kind, rec.Loser = scoring.Forfeit, Forfeit, in.Forfeit
	}
	if rec.Loser != "" {
		sr.Outcome = scoring.BlackWins
		if rec.Loser == Black {
			sr.Outcome = scoring.WhiteWins
		}
		if !in.HasScore && sr.Kind == scoring.TimeDefault {
			return nil, Result{}, fmt.Errorf("a time default needs the completed game's score B-W: %w", ErrInvalid)
		}
	}
	s, err := scoring.ScoreGame(sr, rules)
	if err != nil {
		return nil, Result{}, fmt.Errorf("round %d table %d: %d-%d: %w", r, table, in.Black, in.White, err)
	}
	rec.Black, rec.White = s.BlackDiscs, s.WhiteDiscs
	before := g.Result
	g.Result = &rec
	return before, rec, nil
}

// RestoreResult puts back a result as it was (nil: none), for undo. Taking a
// result away is refused once the next round is paired on it.
func (t *Tournament) RestoreResult(r, table int, res *Result) error {
	g, err := t.Game(r, table)
	if err != nil {
		return err
	}
	if res == nil && t.Paired() > r {
		return fmt.Errorf("round %d table %d: %w (round %d) on this result; unpair it first ('otd round unpair'), or correct the result with --correct",
			r, table, ErrLaterRound, t.Paired())
	}
	g.Result = res
	return nil
}
