package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/otd-project/otd/scoring"
)

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
	case NoDiscs:
		r.Kind = scoring.NoDiscs
	default:
		if g.Result.Loser != "" {
			r.Kind = scoring.DecidedTie // a tie on the board that says who lost it
		}
	}
	switch g.Result.Loser {
	case Black:
		r.Outcome = scoring.WhiteWins
	case White:
		r.Outcome = scoring.BlackWins
	default:
		if r.Kind == scoring.NoDiscs {
			r.Outcome = scoring.Draw
		}
	}
	return r, true
}

// Event returns the tournament as scoring reads it: every game with a result
// (and every bye).
func (t *Tournament) Event() scoring.Event {
	e := scoring.Event{Rounds: t.Rounds, Rules: t.Rules(), Players: make([]scoring.Player, len(t.Players))}
	for i, p := range t.Players {
		e.Players[i] = scoring.Player{ID: p.Number}
		if p.Left != 0 { // before round 1 too: Left 1 is WithdrawnAfter 0
			e.Players[i].Withdrawn, e.Players[i].WithdrawnAfter = true, p.Left-1
		}
	}
	for _, g := range t.Games {
		if r, ok := scoringResult(g); ok {
			e.Games = append(e.Games, scoring.Game{Round: g.Round, Black: g.Black, White: g.White, Result: r})
		}
	}
	return e
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
	rows, err := t.Event().AfterRound(r)
	if err != nil {
		return nil, fmt.Errorf("standings after round %d: %w", r, err)
	}
	return rows, nil
}

// View is the standings as the director asks for them after a round.
type View struct {
	Asked       int           // the round asked for
	Round       int           // the round the standings are after: Asked, or the last round before it with a result if it has none yet
	Provisional bool          // some game of Round has no result yet: the standings will change
	Pending     int           // the games of Round without a result
	Games       int           // the games of Round, byes not counted
	Rows        []scoring.Row // the players entered by Round (a late entry from their first round on), in standings order
}

// View returns the standings after round r (0: before the first round) as a
// director reads them: a round that has no result yet is not counted (the
// standings are after the round before), a round with some results missing
// is provisional, and the players who entered after round r are not listed.
func (t *Tournament) View(r int) (View, error) {
	if r < 0 || r > t.Rounds {
		return View{}, fmt.Errorf("round %d: %w (the tournament has %d rounds)", r, ErrNoRound, t.Rounds)
	}
	if r > t.Paired() {
		return View{}, t.CheckPaired(r)
	}
	v := View{Asked: r, Round: r}
	for ; v.Round > 0; v.Round-- {
		games, pending := 0, 0
		for _, g := range t.Round(v.Round) {
			if !g.IsBye() {
				games++
				if g.Result == nil {
					pending++
				}
			}
		}
		if pending < games { // some result: this round counts
			v.Games, v.Pending = games, pending
			break
		}
	}
	v.Provisional = v.Pending > 0
	full := t.Event()
	e := scoring.Event{Rounds: full.Rounds, Rules: full.Rules}
	played := map[int]bool{}
	for _, g := range full.Games {
		if g.Round <= v.Round {
			e.Games = append(e.Games, g)
			played[g.Black], played[g.White] = true, true
		}
	}
	for i, p := range t.Players {
		if p.FirstRound <= max(v.Round, 1) || played[p.Number] {
			e.Players = append(e.Players, full.Players[i])
		}
	}
	rows, err := e.AfterRound(v.Round)
	if err != nil {
		return View{}, fmt.Errorf("standings after round %d: %w", v.Round, err)
	}
	v.Rows = rows
	return v, nil
}

// rankOrder returns the player numbers in standings order after round r
// (before round 1: by rating, then number).
func (t *Tournament) rankOrder(r int) ([]int, error) {
	order := make([]int, len(t.Players))
	if r == 0 {
		for i := range order {
			order[i] = i + 1
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(t.Players[b-1].Rating, t.Players[a-1].Rating) })
		return order, nil
	}
	rows, err := t.Standings(r)
	if err != nil {
		return nil, err
	}
	if len(rows) != len(order) {
		return nil, fmt.Errorf("standings after round %d rank %d of %d players: %w", r, len(rows), len(order), ErrInconsistent)
	}
	for i, row := range rows {
		order[i] = row.Player
	}
	return order, nil
}

// PointsAfter returns every player's half-points after round r (none before round 1).
func (t *Tournament) PointsAfter(r int) (map[int]scoring.HalfPoints, error) {
	pts := map[int]scoring.HalfPoints{}
	if r <= 0 {
		return pts, nil
	}
	rows, err := t.Standings(r)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		pts[row.Player] = row.Points
	}
	return pts, nil
}

// gamePoints returns the half-points a finished game gave black and white.
func gamePoints(g Game, rules scoring.Rules) (int, int, error) {
	r, ok := scoringResult(g)
	if !ok {
		return 0, 0, nil
	}
	s, err := scoring.ScoreGame(r, rules)
	if err != nil {
		return 0, 0, fmt.Errorf("round %d table %d: %w: %w", g.Round, g.Table, ErrInconsistent, err)
	}
	return int(s.BlackPoints), int(s.WhitePoints), nil
}

// ResultInput is a result as the director enters it.
type ResultInput struct {
	Black, White int   // discs at the end (for a time default: of the completed game)
	HasScore     bool  // Black and White were given
	TimeDefault  Color // the colour whose flag fell, or ""
	Forfeit      Color // the colour that did not play, or ""
	// Moves: the game's moves come with the result (the caller keeps
	// them): the same result recorded without moves is then no "nothing
	// changed", but the moves added to it.
	Moves bool
}

// String gives the input as 'otd result' takes it: "30-34", "30-34
// --time-default white", "--forfeit black".
func (in ResultInput) String() string {
	var parts []string
	if in.HasScore {
		parts = append(parts, fmt.Sprintf("%d-%d", in.Black, in.White))
	}
	if in.TimeDefault != "" {
		parts = append(parts, "--time-default "+string(in.TimeDefault))
	}
	if in.Forfeit != "" {
		parts = append(parts, "--forfeit "+string(in.Forfeit))
	}
	return strings.Join(parts, " ")
}

// GameRef names a game as the director does: the table of a round (Round,
// Table), or game Game of a final match (Match, its code: "SF1",
// "women:F").
type GameRef struct {
	Round, Table int
	Match        string
	Game         int
}

// At names the game at table of round r.
func At(r, table int) GameRef { return GameRef{Round: r, Table: table} }

// Ref names game g.
func (g Game) Ref() GameRef {
	if g.IsFinal() {
		return GameRef{Match: g.Code(), Game: g.Game}
	}
	return At(g.Round, g.Table)
}

// Find returns the game ref names.
func (t *Tournament) Find(ref GameRef) (*Game, error) {
	if ref.Match != "" {
		return t.FinalGame(ref.Match, ref.Game)
	}
	return t.Game(ref.Round, ref.Table)
}

// RecordResult records a result for the game ref names (a round's or a
// final's), under the tournament's rules; a game that has one is changed
// only with correct. Whether final games paired rest on the result is the
// action's to check (Unfounded), as for every change.
func (t *Tournament) RecordResult(ref GameRef, in ResultInput, correct bool) (Change, error) {
	g, err := t.Find(ref)
	if err != nil {
		return Change{}, err
	}
	where := g.Where()
	if g.IsBye() {
		return Change{}, invalidf("%s is player %d's bye: it needs no result", where, g.Black)
	}

	sr := scoring.Result{BlackDiscs: in.Black, WhiteDiscs: in.White}
	rec := Result{Kind: Normal}
	switch {
	case in.TimeDefault != "":
		sr.Kind, rec.Kind, rec.Loser = scoring.TimeDefault, TimeDefault, in.TimeDefault
	case in.Forfeit != "":
		sr.Kind, rec.Kind, rec.Loser = scoring.Forfeit, Forfeit, in.Forfeit
	}
	if in.Forfeit != "" && in.HasScore {
		return Change{}, invalidf("%s: a forfeit has no score (%d-%d): the game was not played", where, in.Black, in.White)
	}
	if rec.Loser != "" {
		sr.Outcome = scoring.BlackWins
		if rec.Loser == Black {
			sr.Outcome = scoring.WhiteWins
		}
		if !in.HasScore && sr.Kind == scoring.TimeDefault && t.TimeDefault == scoring.TimeComplete {
			err := invalidf("a time default under the 'complete' policy needs the completed game's score B-W (or the board as it stood when the flag fell)")
			if g.IsFinal() {
				err = fmt.Errorf("%s: %w", where, err)
			}
			return Change{}, err
		}
	}
	if in.HasScore && sr.Kind == scoring.TimeDefault {
		if err := t.Rules().CheckBoard(in.Black, in.White); err != nil {
			return Change{}, fmt.Errorf("%s: the board of the time default: %w", where, err)
		}
	}
	s, err := scoring.ScoreGame(sr, t.Rules())
	if err != nil {
		return Change{}, fmt.Errorf("%s: %w", where, err)
	}
	rec.Black, rec.White = s.BlackDiscs, s.WhiteDiscs
	if t.Rules().Anti && in.HasScore {
		// Anti-Othello keeps the discs on the board, as entered and shown;
		// scoring reads them as disc scores (scoring.Rules.Anti).
		rec.Black, rec.White = in.Black, in.White
	}
	old := *g
	added := false
	switch before := g.Result; {
	case before == nil:
	case before.Kind == rec.Kind && before.Black == rec.Black && before.White == rec.White && before.Loser == rec.Loser && before.Moves == "":
		if !in.Moves {
			// The same result again is no change: said, not refused.
			return Change{}, &SameResultError{Where: where, Result: *before}
		}
		rec, added = *before, true // the same result, its moves added: no correction
	case !correct:
		return Change{}, fmt.Errorf("%s: %w (%s): to change it, add --correct", where, ErrHasResult, before)
	}
	g.Result = &rec
	c := t.resultChange(old, *g)
	if added {
		c.Notes = append(c.Notes, "moves added to the result recorded")
		return c, nil
	}
	if !g.IsFinal() && old.Result != nil && t.Paired() > g.Round {
		c.Notes = t.pairedOnOld(g.Round, g.Table, in)
	}
	return c, nil
}

// resultChange is the change of game before's result to after's: a
// round's as its result, a final game's as the game.
func (t *Tournament) resultChange(before, after Game) Change {
	action := ActResult
	if before.Result != nil {
		action = ActResultCorrect
	}
	b, w := t.Players[after.Black-1], t.Players[after.White-1]
	subject := fmt.Sprintf("%s (%d %s - %d %s)", after.Where(), b.Number, b.Name, w.Number, w.Name)
	if after.IsFinal() {
		return t.change(action, subject, State{FinalGames: []Game{before}}, State{FinalGames: []Game{after}})
	}
	return t.change(action, subject, State{Results: []GameResult{{before.Round, before.Table, before.Result}}},
		State{Results: []GameResult{{after.Round, after.Table, after.Result}}})
}

// pairedOnOld says which rounds after r were paired on the result of round
// r's table before its correction, and what the director can do.
func (t *Tournament) pairedOnOld(r, table int, in ResultInput) []string {
	rounds := fmt.Sprintf("round %d was", r+1)
	if t.Paired() > r+1 {
		rounds = fmt.Sprintf("rounds %d to %d were", r+1, t.Paired())
	}
	s := rounds + " paired on the result before this correction"
	if err := t.canRepair(r); err != nil {
		return []string{s, fmt.Sprintf("it stands (%v)", err)}
	}
	return []string{s, fmt.Sprintf("it has no result yet: 'otd result %d %d %s --correct --repair' pairs it again on the corrected scores", r, table, in)}
}

// canRepair tells whether the rounds after r can be paired again: only
// round r+1, the last paired, with no result yet, and not paired by hand.
func (t *Tournament) canRepair(r int) error {
	next := r + 1
	switch {
	case t.Paired() < next:
		return fmt.Errorf("no round after round %d is paired: nothing to pair again", r)
	case t.Paired() > next:
		return fmt.Errorf("rounds %d to %d are paired, and round %d has results", next, t.Paired(), next)
	case slices.ContainsFunc(t.Round(next), func(g Game) bool { return g.Result != nil }):
		return fmt.Errorf("round %d has results", next)
	case t.rulesOf(next).Manual:
		return fmt.Errorf("round %d was paired by hand: unpair it and pair it yourself", next)
	}
	return nil
}

// CorrectAndRepair corrects the result of round r's table (as RecordResult
// with correct) and pairs round r+1, the last paired and without a result
// yet, again on the corrected scores, under the director's rules it was
// paired with: one change, which undo reverts as a whole.
func (t *Tournament) CorrectAndRepair(r, table int, in ResultInput) (Change, error) {
	if err := t.canRepair(r); err != nil {
		return Change{}, fmt.Errorf("round %d table %d: cannot pair again: %w", r, table, err)
	}
	saved := t.clone()
	fail := func(err error) (Change, error) {
		*t = saved
		return Change{}, err
	}
	rules := t.rulesOf(r + 1)
	oldGames := t.Round(r + 1)
	fix, err := t.RecordResult(At(r, table), in, true)
	if err != nil {
		return fail(err)
	}
	if _, err := t.Unpair(); err != nil {
		return fail(err)
	}
	paired, err := t.Pair(PairOptions{Forced: rules.Forced, Forbidden: rules.Forbidden, Bye: rules.Bye})
	if err != nil {
		return fail(fmt.Errorf("round %d paired again: %w", r+1, err))
	}
	before, after := fix.Before, fix.After
	before.Games, after.Games = oldGames, paired.After.Games
	if !rules.IsZero() {
		before.RoundRules = []RoundRules{rules}
	}
	after.RoundRules = paired.After.RoundRules
	c := t.change(ActResultCorrect, fix.Subject, before, after)
	c.Notes = append([]string{fmt.Sprintf("round %d paired again on the corrected scores", r+1)}, paired.Notes...)
	return c, nil
}
