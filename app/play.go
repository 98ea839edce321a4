package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/match"
	"github.com/otd-project/otd/engine/player"
	"github.com/otd-project/otd/scoring"

	"github.com/otd-project/otd/tournament"
)

// StartFunc starts the program of an engine player for one game under the
// rules r; Close ends it. StartEngine is the one otd plays with.
type StartFunc func(ctx context.Context, p tournament.Player, r engine.Rules) (player.Player, error)

// PlayOptions says how PlayRound plays a round's engine games, and Run
// the rounds left.
type PlayOptions struct {
	Time        engine.TimeControl // zero: the tournament's (Settings.PlayTime)
	Concurrency int                // games at once; 0 is 1
	Start       StartFunc          // starts an engine player; nil: StartEngine
	// Progress, if set, is told when a game starts and ends; calls come one
	// at a time, from any goroutine.
	Progress func(GameEvent)
	// CompleteMove is the time the winner of a default has for each move of
	// the completion; 0 is one second.
	CompleteMove time.Duration
	// Paired, if set, is told by Run of each round it pairs: its number and
	// the last resorts the pairing took (PairNotes).
	Paired func(round int, notes []string)
	// Played, if set, is told by Run of each round whose engine games it
	// played: PlayRound's report.
	Played func(PlayReport)
}

// GameEvent is a game of PlayRound starting (Done false) or ending.
type GameEvent struct {
	Event        string // the tournament's name: set by Work, whose games come from any tournament
	Round, Table int
	Match        string // a final game's match code ("SF1", "women:F"), Table then its number; "" a round's game
	Black, White tournament.Player
	Done         bool
	Result       *tournament.Result // the result recorded, when Done and Err is nil
	Err          error              // the game could not be played or recorded; ErrStopped: stopped by the context's end
	Running      int                // games running after this event
	Total        int                // games this PlayRound plays
}

// PlayReport is what PlayRound did.
type PlayReport struct {
	Round    int                // 0 for the final phase (PlayFinal)
	Played   int                // games played and recorded by this call
	Recorded int                // engine games of the round with a result before this call
	Humans   []int              // tables with a person, left for 'otd result'
	Finals   []string           // final games with a person, left for 'otd result' ("SF1 2")
	Failed   int                // games not played or not recorded (see the events' errors)
	Time     engine.TimeControl // the time control the games were played with
}

// Errors of PlayRound and Run.
var (
	// ErrNoEngineGames: the round has no engine-versus-engine game left to play.
	ErrNoEngineGames = errors.New("no engine game left to play in the round")
	// ErrHumanGames: Run met a round whose games with a person have no
	// result yet.
	ErrHumanGames = errors.New("games with a person wait for their results")
	// ErrStopped: a game was stopped before its end, when PlayRound's
	// context ended, and not recorded.
	ErrStopped = errors.New("stopped before its end, not recorded")
)

// StoppedError is PlayRound's error when its context ends (Ctrl-C) before
// the round's engine games are all played: what is kept, and what the next
// PlayRound plays. errors.Is finds ErrStopped and the context's error in it.
type StoppedError struct {
	Round    int
	Recorded []int // the tables of the games this PlayRound played and recorded: kept
	Left     []int // the tables of the engine games without a result: stopped, or not started
	cause    error // the context's
}

func (e *StoppedError) Error() string {
	kept := "no game recorded"
	if len(e.Recorded) > 0 {
		kept = fmt.Sprintf("%s played and recorded, kept (%s)", tournament.Plural(len(e.Recorded), "game"), tableList(e.Recorded))
	}
	return fmt.Sprintf("round %d stopped: %s; %s without a result (%s): the games running were stopped, not recorded",
		e.Round, kept, tournament.Plural(len(e.Left), "engine game"), tableList(e.Left))
}

func (e *StoppedError) Unwrap() []error { return []error{ErrStopped, e.cause} }

// tableList names tables: "table 3", "tables 1, 4 and 5".
func tableList(tables []int) string {
	if len(tables) == 1 {
		return fmt.Sprintf("table %d", tables[0])
	}
	s := make([]string, len(tables))
	for i, t := range tables {
		s[i] = strconv.Itoa(t)
	}
	return "tables " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// PlayRound plays every engine-versus-engine game of tournament id's current
// round (the last one paired) that has no result, Concurrency at a time, and records each as soon as it ends.
// A game with a person is left for the director. When ctx is cancelled the
// games running are stopped and not recorded (their events' error is
// ErrStopped), and PlayRound returns a *StoppedError that says what is kept:
// running PlayRound again plays the games left (and only them) from the
// start. A game that cannot be played (both
// engines fail to start) or recorded is reported and counted in Failed, and
// the other games carry on; PlayRound then returns an error.
func (d *Director) PlayRound(ctx context.Context, id int64, o PlayOptions) (PlayReport, error) {
	t, err := d.toPlay(ctx, id, &o)
	if err != nil {
		return PlayReport{}, err
	}
	r := t.Paired()
	if r == 0 {
		return PlayReport{}, fmt.Errorf("%w: pair round 1 first ('otd round pair')", tournament.ErrNoRound)
	}
	rep := PlayReport{Round: r, Time: o.Time}
	todo := engineGames(t, r, &rep)
	if err := d.notQueued(ctx, t.ID, r, todo); err != nil {
		return PlayReport{}, err
	}
	var jobs []playJob
	for _, g := range todo {
		jobs = append(jobs, playJob{event: GameEvent{Round: r, Table: g.Table, Black: t.Players[g.Black-1], White: t.Players[g.White-1]},
			play: func() (*tournament.Result, func(), error) {
				return d.playGame(ctx, t, g.Black, g.White, o, d.recordWith(ctx, t.ID, recordPlayed(g)))
			}})
	}
	recorded := d.playAll(ctx, jobs, o, &rep)
	var left []int
	for _, g := range todo {
		if !slices.Contains(recorded, g.Table) {
			left = append(left, g.Table)
		}
	}
	if ctx.Err() != nil && len(left) > 0 {
		return rep, &StoppedError{Round: r, Recorded: slices.Sorted(slices.Values(recorded)), Left: left, cause: ctx.Err()}
	}
	return rep, roundPlayed(rep, len(todo))
}

// engineGames returns the engine-versus-engine games of round r of t that
// have no result, counting in rep those that have one (Recorded) and the
// tables with a person and no result (Humans).
func engineGames(t *tournament.Tournament, r int, rep *PlayReport) (todo []tournament.Game) {
	for _, g := range t.Round(r) {
		if g.IsBye() {
			continue
		}
		b, w := t.Players[g.Black-1], t.Players[g.White-1]
		switch {
		case b.Engine == "" || w.Engine == "":
			if g.Result == nil {
				rep.Humans = append(rep.Humans, g.Table)
			}
		case g.Result != nil:
			rep.Recorded++
		default:
			todo = append(todo, g)
		}
	}
	return todo
}

// roundPlayed is the error of a round's play that ended with rep, of the
// games it had to play: some failed, or there were none.
func roundPlayed(rep PlayReport, todo int) error {
	switch {
	case rep.Failed > 0:
		return fmt.Errorf("round %d: %d of %d engine games could not be played or recorded", rep.Round, rep.Failed, todo)
	case todo == 0 && rep.Recorded == 0:
		return fmt.Errorf("round %d: %w (tables with a person are entered with 'otd result')", rep.Round, ErrNoEngineGames)
	}
	return nil
}

// playJob is a game to play: its event, and how to play and record it.
type playJob struct {
	event GameEvent
	play  func() (*tournament.Result, func(), error)
}

// playAll plays jobs, o.Concurrency at a time, until ctx ends, reporting
// each game's start and end to o.Progress and counting them in rep.
func (d *Director) playAll(ctx context.Context, jobs []playJob, o PlayOptions, rep *PlayReport) (recorded []int) {
	event := counter(o, len(jobs), rep, &recorded)
	queue := make(chan playJob)
	var wg sync.WaitGroup
	for range max(o.Concurrency, 1) {
		wg.Go(func() {
			for j := range queue {
				event(j.event)
				res, stop, err := j.play()
				if err != nil && ctx.Err() != nil {
					err = ErrStopped // the end of ctx stopped it, whatever the players said then
				}
				e := j.event
				e.Done, e.Result, e.Err = true, res, err
				event(e)
				stop()
			}
		})
	}
send:
	for _, j := range jobs {
		select {
		case queue <- j:
		case <-ctx.Done():
			break send
		}
	}
	close(queue)
	wg.Wait()
	return recorded
}

// counter returns the function that tells o.Progress of the events of total
// games, one at a time, with the games running, counting in rep the games
// played and failed and adding the tables recorded to recorded.
func counter(o PlayOptions, total int, rep *PlayReport, recorded *[]int) func(GameEvent) {
	var mu sync.Mutex
	running := 0
	return func(e GameEvent) {
		mu.Lock()
		defer mu.Unlock()
		if e.Done {
			running--
			switch {
			case e.Err == nil:
				rep.Played++
				*recorded = append(*recorded, e.Table)
			case !errors.Is(e.Err, ErrStopped):
				rep.Failed++
			}
		} else {
			running++
		}
		if o.Progress != nil {
			e.Running, e.Total = running, total
			o.Progress(e)
		}
	}
}

// recordPlayed records game g (a round's or a final's) that otd played.
func recordPlayed(g tournament.Game) func(*tournament.Tournament, tournament.Played) (*tournament.Result, tournament.Change, error) {
	return func(t *tournament.Tournament, p tournament.Played) (*tournament.Result, tournament.Change, error) {
		if h, err := t.Find(g.Ref()); !g.IsFinal() && (err != nil || h.Black != g.Black || h.White != g.White) {
			return nil, tournament.Change{}, fmt.Errorf("round %d table %d: %w: the round was paired again while the game was played", g.Round, g.Table, tournament.ErrChanged)
		}
		c, err := t.RecordGame(g.Ref(), p)
		if err != nil {
			return nil, c, err
		}
		h, _ := t.Find(g.Ref())
		return h.Result, c, nil
	}
}

// playGame plays a game of t between players black and white and records
// it with save; stop ends the players' programs (the caller calls it once
// the result is out).
func (d *Director) playGame(ctx context.Context, t *tournament.Tournament, black, white int, o PlayOptions, save func(tournament.Played) (*tournament.Result, error)) (res *tournament.Result, stop func(), err error) {
	entrants := [2]tournament.Player{t.Players[black-1], t.Players[white-1]}
	var ps [2]player.Player
	var startErr [2]error
	for i, e := range entrants {
		ps[i], startErr[i] = o.Start(ctx, e, t.GameRules())
		if startErr[i] != nil {
			startErr[i] = fmt.Errorf("%s did not start: %w", e.Name, startErr[i])
		}
	}
	stop = func() {
		for _, p := range ps {
			if p != nil {
				p.Close()
			}
		}
	}
	res, err = play(ctx, t, o, ps, startErr, save)
	return res, stop, err
}

// play plays a game between ps (either may have failed to start: startErr)
// and records it with save.
func play(ctx context.Context, t *tournament.Tournament, o PlayOptions, ps [2]player.Player, startErr [2]error,
	save func(tournament.Played) (*tournament.Result, error)) (*tournament.Result, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var res match.Result
	switch {
	case startErr[0] != nil && startErr[1] != nil:
		return nil, errors.Join(startErr[0], startErr[1])
	case startErr[0] != nil || startErr[1] != nil:
		fault := engine.Black
		if startErr[0] == nil {
			fault = engine.White
		}
		pos, err := engine.NewPosition(t.GameRules())
		if err != nil {
			return nil, err
		}
		res = match.Result{Position: pos, Score: pos.Score(), End: match.Crash, Fault: fault, Err: startErr[fault]}
	default:
		var err error
		if res, err = match.Play(ctx, t.GameRules(), ps[0], ps[1], o.Time); err != nil {
			return nil, err
		}
	}
	p := played(res)
	if res.End != match.Normal && t.TimeDefault == scoring.TimeComplete {
		limit := o.CompleteMove
		if limit == 0 {
			limit = time.Second
		}
		if _, s, err := match.Complete(ctx, ps[res.Fault.Opponent()], res, limit); err == nil {
			p.Completed = &s
		}
	}
	return save(p)
}

// played gives the domain's record of a game engine/match played: its
// moves and final position, how it ended and, after a default, the side at
// fault and why (an illegal move with its number).
func played(res match.Result) tournament.Played {
	p := tournament.Played{Moves: res.Moves, Position: res.Position, End: res.End.String(), Fault: res.Fault}
	if res.End != match.Normal {
		p.Reason = res.Err.Error()
		if res.End == match.Illegal {
			p.Reason = fmt.Sprintf("%s (move %d)", p.Reason, len(res.Moves)+1)
		}
	}
	return p
}

// recordWith returns the function that records a game played in tournament
// id with record, in one action of d: a finished game is recorded even if
// ctx ends meanwhile.
func (d *Director) recordWith(ctx context.Context, id int64, record func(*tournament.Tournament, tournament.Played) (*tournament.Result, tournament.Change, error)) func(tournament.Played) (*tournament.Result, error) {
	return func(p tournament.Played) (res *tournament.Result, err error) {
		_, _, err = d.do(context.WithoutCancel(ctx), id, func(t *tournament.Tournament) (c tournament.Change, err error) {
			res, c, err = record(t, p)
			return c, err
		})
		return res, err
	}
}

// timeFor completes o with t's time control (PlayTime), unless o has one,
// and checks it.
func (o *PlayOptions) timeFor(t *tournament.Tournament) error {
	if o.Time == (engine.TimeControl{}) {
		o.Time = t.PlayTime()
	}
	return o.Time.Valid()
}

// toPlay loads tournament id for playing its games under o, completing o
// with the tournament's time control and the engines' starter.
func (d *Director) toPlay(ctx context.Context, id int64, o *PlayOptions) (*tournament.Tournament, error) {
	t, err := d.Tournament(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := o.timeFor(t); err != nil {
		return nil, err
	}
	if o.Start == nil {
		o.Start = StartEngine
	}
	return t, nil
}

// PlayFinal plays every final game of tournament id (the open's and the
// categories') paired between two engines and without a result, as
// PlayRound plays a round's; a game with a person is left for 'otd result'
// (PlayReport.Finals).
func (d *Director) PlayFinal(ctx context.Context, id int64, o PlayOptions) (PlayReport, error) {
	t, err := d.toPlay(ctx, id, &o)
	if err != nil {
		return PlayReport{}, err
	}
	rep := PlayReport{Time: o.Time}
	var jobs []playJob
	for _, g := range t.FinalGames {
		if g.Result != nil || g.Match == "" {
			continue
		}
		b, w := t.Players[g.Black-1], t.Players[g.White-1]
		if b.Engine == "" || w.Engine == "" {
			rep.Finals = append(rep.Finals, fmt.Sprintf("%s %d", g.Code(), g.Game))
			continue
		}
		jobs = append(jobs, playJob{event: GameEvent{Match: g.Code(), Table: g.Game, Black: b, White: w},
			play: func() (*tournament.Result, func(), error) {
				return d.playGame(ctx, t, g.Black, g.White, o, d.recordWith(ctx, t.ID, recordPlayed(g)))
			}})
	}
	d.playAll(ctx, jobs, o, &rep)
	switch {
	case ctx.Err() != nil:
		return rep, fmt.Errorf("the final phase stopped: %d games recorded, the others are played again by the next 'otd tournament run': %w", rep.Played, ctx.Err())
	case rep.Failed > 0:
		return rep, fmt.Errorf("the final phase: %d of %d engine games could not be played or recorded", rep.Failed, len(jobs))
	}
	return rep, nil
}

// Run finishes tournament id, an event whose games otd plays: it plays the
// engine games of the current round that have no result (PlayRound), pairs
// the next round, plays it, and so on to the last round. It stops with
// ErrHumanGames at a round with a game involving a person that has no
// result: once the director has entered it, Run goes on where it stopped, as
// it does after ctx is cancelled (the games running then are played again).
// o.Paired and o.Played are told of each round paired and played.
func (d *Director) Run(ctx context.Context, id int64, o PlayOptions) error {
	for {
		t, err := d.Tournament(ctx, id)
		if err != nil {
			return err
		}
		// Every round before the last paired has its results (Validate).
		if r := t.Paired(); r == 0 || t.Finished() == r {
			if r == t.Rounds {
				return d.runFinal(ctx, id, o)
			}
			_, changes, err := d.do(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) { return t.Pair(tournament.PairOptions{}) })
			if err != nil {
				return err
			}
			if o.Paired != nil {
				o.Paired(r+1, tournament.PairNotes(changes[0]))
			}
		}
		rep, err := d.PlayRound(ctx, id, o)
		if err != nil && !errors.Is(err, ErrNoEngineGames) {
			return err
		}
		if o.Played != nil {
			o.Played(rep)
		}
		if len(rep.Humans) > 0 {
			return fmt.Errorf("round %d: %w: enter %s", rep.Round, ErrHumanGames, tournament.Plural(len(rep.Humans), "result"))
		}
	}
}

// runFinal plays the final phases of tournament id (after its Swiss): it
// pairs the next games and plays them, until every phase is over or a game
// with a person waits (ErrHumanGames).
func (d *Director) runFinal(ctx context.Context, id int64, o PlayOptions) error {
	for {
		_, changes, err := d.do(ctx, id, func(t *tournament.Tournament) (tournament.Change, error) {
			return t.FinalNext(tournament.FinalOptions{})
		})
		switch {
		case errors.Is(err, tournament.ErrAllPaired), errors.Is(err, tournament.ErrInvalid): // over, or no final phase
			return nil
		case errors.Is(err, tournament.ErrFinalWaiting): // games paired wait: play them below
		case err != nil:
			return err
		case o.Paired != nil:
			o.Paired(0, []string{changes[0].Subject})
		}
		paired := err == nil
		rep, err := d.PlayFinal(ctx, id, o)
		if err != nil {
			return err
		}
		if o.Played != nil {
			o.Played(rep)
		}
		if len(rep.Finals) > 0 {
			return fmt.Errorf("the final phase: %w: enter %s (%s)", ErrHumanGames, tournament.Plural(len(rep.Finals), "result"), strings.Join(rep.Finals, ", "))
		}
		if rep.Played == 0 && !paired {
			return fmt.Errorf("the final phase: games wait and none could be played")
		}
	}
}
