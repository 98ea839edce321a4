package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"

	"github.com/otd-project/otd/tournament"
)

// Engine rounds across machines (DESIGN.md, "Automated rounds"): the
// director's 'otd round play --distributed' queues the engine games of a
// round as jobs of a queue over the database (PlayDistributed), and 'otd
// worker' processes on any number of machines take them (Work), play each
// with PlayRound's match code and clocks, and record each result in the
// transaction that completes its job. The queue is the Storage's
// (Distributor): PostgreSQL's, with River.

// GameJob is an engine game of a round, queued for the workers: which game
// it is, the pairing it was queued for, the engines it needs and the clocks
// it is played with.
type GameJob struct {
	Tournament int64              `json:"tournament"`
	Event      string             `json:"event"` // the tournament's name, for what a worker says
	Round      int                `json:"round"`
	Table      int                `json:"table"`
	Black      int                `json:"black"` // the players' numbers
	White      int                `json:"white"`
	Names      [2]string          `json:"names"`   // the entrants' names, black first: the engines a worker needs
	Engines    [2]string          `json:"engines"` // their engines as registered (ParseEngine)
	Time       engine.TimeControl `json:"time"`
	Moves      int                `json:"moves"` // the most moves the game can have: the empty squares at its start
}

// Longest is the longest a worker can take over the game: both engines'
// starts, both clocks used up (or every move at its limit), the completion
// of a default, and a minute more. A worker that holds a game longer is
// taken for lost, and the game is played again elsewhere.
func (j GameJob) Longest() time.Duration {
	moves := time.Duration(max(j.Moves, 1))
	return 2*engineStartTimeout + 2*j.Time.Base + moves*(j.Time.Increment+j.Time.PerMove+time.Second) + time.Minute
}

func (j GameJob) String() string {
	return fmt.Sprintf("%s round %d table %d (%s - %s)", j.Event, j.Round, j.Table, j.Names[0], j.Names[1])
}

// Distributor is a Storage with a job queue over it, which hands engine
// games to workers on other machines (store/postgres, with River).
type Distributor interface {
	// Enqueue runs fn in a write transaction and queues the games it
	// returns in the same transaction, each unless a job of that game
	// (tournament, round and table) waits or is being played already.
	Enqueue(ctx context.Context, fn func(tournament.Tx) ([]GameJob, error)) error
	// Jobs returns where the newest job of each game of round r of
	// tournament id is.
	Jobs(ctx context.Context, id int64, r int) ([]JobState, error)
	// Waiting returns the games queued that no worker plays now.
	Waiting(ctx context.Context) ([]GameJob, error)
	// Work takes games from the queue and plays them with w until ctx ends;
	// the games it plays then go back to the queue at once.
	Work(ctx context.Context, w QueueWorker) error
}

// JobState is where the job of a game queued is.
type JobState struct {
	Table   int
	Running bool
	Done    bool  // its result recorded (a result undone since leaves its game without one)
	Err     error // the job was given up (its tries used up, or the game changed): its last error
}

// QueueWorker is a worker as a Distributor's Work runs it.
type QueueWorker struct {
	Concurrency int // games at once
	// Can tells whether the worker has both engines of a game: one it lacks
	// an engine for is left in the queue for another worker.
	Can func(GameJob) bool
	// Play plays a game and records its result with commit, which runs fn
	// with the Storage of the transaction that completes the game's job:
	// the actions of a Director over it commit with that completion.
	// After an error the game is tried again
	// later, by any worker, but after ErrChanged (the round was paired
	// again): it is given up.
	Play func(ctx context.Context, j GameJob, commit func(fn func(tournament.Storage) error) error) error
	// Note, if set, is told what the queue does beyond the games played: a
	// game of a worker that is gone given back, the queue's own warnings.
	Note func(string)
}

// ErrNotMine: a worker has no engine for a game's entrants as they are
// registered now (they changed since the game was queued): it leaves the
// game to the others.
var ErrNotMine = errors.New("this worker has no engine for the game's entrants as registered now")

// ErrWorkerEngine: a worker could not start an engine of a game: the game
// is not recorded (a default would blame the entrant for the machine) but
// tried again, on another worker or later.
var ErrWorkerEngine = errors.New("this worker could not start an engine of the game")

// ErrQueued: a game that round play would play here is queued for the
// workers.
var ErrQueued = errors.New("games queued for the workers are not played here too")

// ErrNoQueue: the database has no job queue (an SQLite file).
var ErrNoQueue = errors.New("games are played across machines from a PostgreSQL database only (--db postgres://...): an SQLite file has no job queue for workers")

// PlayDistributed queues the engine games of tournament id's current round
// that have no result, for the workers ('otd worker', Work) to play, and
// follows them until every one has its result or was given up, telling
// o.Progress when a worker starts one and when its result is recorded, as
// PlayRound does. A game queued or being played already is not queued
// again: running it again only follows the round. When ctx ends it stops
// following, and the workers go on.
func (d *Director) PlayDistributed(ctx context.Context, id int64, o PlayOptions) (PlayReport, error) {
	q := d.db.Queue
	if q == nil {
		return PlayReport{}, ErrNoQueue
	}
	var rep PlayReport
	var todo []tournament.Game
	err := q.Enqueue(ctx, func(tx tournament.Tx) ([]GameJob, error) {
		t, err := load(tx, id)
		if err != nil {
			return nil, err
		}
		if err := o.timeFor(t); err != nil {
			return nil, err
		}
		r := t.Paired()
		if r == 0 {
			return nil, fmt.Errorf("%w: pair round 1 first ('otd round pair')", tournament.ErrNoRound)
		}
		rep = PlayReport{Round: r, Time: o.Time}
		todo = engineGames(t, r, &rep)
		jobs := make([]GameJob, len(todo))
		for i, g := range todo {
			b, w := t.Players[g.Black-1], t.Players[g.White-1]
			jobs[i] = GameJob{Tournament: t.ID, Event: t.Name, Round: r, Table: g.Table, Black: g.Black, White: g.White,
				Names: [2]string{b.Name, w.Name}, Engines: [2]string{b.Engine, w.Engine}, Time: o.Time, Moves: t.GameRules().Squares() - 4}
		}
		return jobs, nil
	})
	if err != nil {
		return rep, err
	}
	if len(todo) == 0 {
		return rep, roundPlayed(rep, 0)
	}
	changes, err := d.Changes(ctx)
	if err != nil {
		return rep, err
	}
	var recorded []int
	event := counter(o, len(todo), &rep, &recorded)
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	started, done := map[int]bool{}, map[int]bool{}
	for len(done) < len(todo) {
		// The jobs first: a job seen complete has its result in the
		// tournament read after it (they commit together).
		states, err := q.Jobs(ctx, id, rep.Round)
		if err != nil && ctx.Err() == nil {
			return rep, err
		}
		var t *tournament.Tournament
		if err == nil {
			t, err = d.Tournament(ctx, id)
		}
		if err != nil && ctx.Err() == nil {
			return rep, err
		}
		for _, g := range todo {
			if err != nil {
				break
			}
			if done[g.Table] {
				continue
			}
			e := GameEvent{Round: rep.Round, Table: g.Table, Black: t.Players[g.Black-1], White: t.Players[g.White-1]}
			var s JobState
			if i := slices.IndexFunc(states, func(s JobState) bool { return s.Table == g.Table }); i >= 0 {
				s = states[i]
			}
			h, herr := t.Game(rep.Round, g.Table)
			switch {
			case herr == nil && (h.Black != g.Black || h.White != g.White):
				herr = fmt.Errorf("round %d table %d: %w: the round was paired again", rep.Round, g.Table, tournament.ErrChanged)
			case herr == nil && h.Result == nil && s.Done:
				herr = fmt.Errorf("round %d table %d: its result was undone after a worker recorded it: 'otd round play --distributed' queues it again", rep.Round, g.Table)
			case herr == nil && h.Result == nil && s.Err == nil:
				if s.Running && !started[g.Table] {
					started[g.Table] = true
					event(e)
				}
				continue
			}
			if !started[g.Table] { // the bar counts a game's start before its end
				started[g.Table] = true
				event(e)
			}
			done[g.Table] = true
			e.Done, e.Err = true, cmp.Or(herr, s.Err)
			if herr == nil && h.Result != nil {
				e.Err = nil // recorded, whatever became of its newest job
			}
			if e.Err == nil {
				e.Result = h.Result
			}
			event(e)
		}
		if ctx.Err() != nil {
			return rep, fmt.Errorf("stopped following round %d (%d of %s recorded): %w; the workers go on with the others, and 'otd round play --distributed' follows them again",
				rep.Round, len(recorded), tournament.Plural(len(todo), "engine game"), ctx.Err())
		}
		if len(done) < len(todo) {
			select {
			case <-ctx.Done():
			case <-changes:
			case <-tick.C:
			}
		}
	}
	return rep, roundPlayed(rep, len(todo))
}

// followEvery is how often PlayDistributed looks at the queue when no
// change to the tournament wakes it (a worker starting a game changes no
// tournament).
var followEvery = time.Second

// WorkOptions says how Work plays the games of the queue.
type WorkOptions struct {
	// Engines are the engines of this worker, each "NAME=ARGV": the
	// entrant NAME (FoldName) is played by the program ARGV (a command
	// line, split as ParseEngine splits it), whatever its tournament
	// registered, with the protocol registered. Empty: every engine as
	// registered whose program is found here. A built-in player is played
	// by every worker.
	Engines     []string
	Concurrency int       // games at once; 0 is 1
	Start       StartFunc // starts an engine player; nil: StartEngine
	// CompleteMove is the time the winner of a default has for each move of
	// the completion; 0 is one second.
	CompleteMove time.Duration
	// Progress, if set, is told when a game starts and ends (Event names
	// its tournament; Running and Total are not set).
	Progress func(GameEvent)
	// Note, if set, is told why the worker waits (nothing queued, or only
	// games it lacks an engine for), and what the queue notes.
	Note func(string)
}

// waitNoteEvery is how often an idle worker looks at the queue to say why
// it waits.
var waitNoteEvery = 2 * time.Second

// Work plays the games that PlayDistributed queues, Concurrency at a time,
// until ctx ends: the games it has both engines of (WorkOptions.Engines),
// each played as PlayRound plays it and recorded with the completion of its
// job. A game that has its result already is not played again; when ctx
// ends, the games running are stopped and go back to the queue at once, and
// Work returns nil, a stop as asked (even while it starts: making the
// queue's tables, connecting).
func (d *Director) Work(ctx context.Context, o WorkOptions) error {
	err := d.work(ctx, o)
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// EngineNames are the names of the entrants that o.Engines gives programs
// for, in order, as Work will read them; none: every engine as registered.
func (o WorkOptions) EngineNames() []string {
	var names []string
	for _, e := range o.Engines {
		name, _, _ := strings.Cut(e, "=")
		names = append(names, strings.TrimSpace(name))
	}
	return names
}

func (d *Director) work(ctx context.Context, o WorkOptions) error {
	q := d.db.Queue
	if q == nil {
		return ErrNoQueue
	}
	mine, err := parseWorkerEngines(o.Engines)
	if err != nil {
		return err
	}
	if o.Start == nil {
		o.Start = StartEngine
	}
	note := func(s string) {
		if o.Note != nil {
			o.Note(s)
		}
	}
	w := worker{d: d, o: o, mine: mine}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go w.sayWhy(ctx, q, note)
	return q.Work(ctx, QueueWorker{Concurrency: max(o.Concurrency, 1), Can: w.can, Play: w.play, Note: note})
}

// worker is Work's state.
type worker struct {
	d    *Director
	o    WorkOptions
	mine map[string][]string // argv by FoldName of the entrant; nil: the engines as registered

	mu      sync.Mutex
	running int
	started int // games started, ever
}

// parseWorkerEngines reads WorkOptions.Engines.
func parseWorkerEngines(specs []string) (map[string][]string, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	m := map[string][]string{}
	for _, s := range specs {
		name, cmd, ok := strings.Cut(s, "=")
		name = strings.TrimSpace(name)
		argv, err := tournament.SplitArgs(cmd)
		switch {
		case !ok || name == "":
			return nil, invalidf("--engines %q: write NAME=PROGRAM ARGS..., NAME an engine entrant's name (e.g. \"Rhino 2=/usr/games/gtp-rhino -l 2\")", s)
		case err != nil:
			return nil, invalidf("--engines %q: %v", s, err)
		case len(argv) == 0:
			return nil, invalidf("--engines %q: no program after the '='", s)
		case m[tournament.FoldName(name)] != nil:
			return nil, invalidf("--engines %q: %s is given twice", s, name)
		}
		if _, err := exec.LookPath(argv[0]); err != nil {
			return nil, invalidf("--engines %q: this machine has no program %s (%v)", s, argv[0], err)
		}
		m[tournament.FoldName(name)] = argv
	}
	return m, nil
}

// invalidf formats an error that is tournament.ErrInvalid.
func invalidf(format string, a ...any) error { return tournament.Invalid(fmt.Errorf(format, a...)) }

// engine returns the engine this worker plays entrant name with, whose
// engine is registered as spec, and false if it has none.
func (w *worker) engine(name, spec string) (tournament.Engine, bool) {
	e, err := tournament.ParseEngine(spec)
	switch {
	case err != nil:
		return tournament.Engine{}, false
	case e.Protocol == tournament.Builtin:
		return e, true
	case w.mine != nil:
		argv, ok := w.mine[tournament.FoldName(name)]
		e.Argv = argv
		return e, ok
	}
	_, err = exec.LookPath(e.Argv[0])
	return e, err == nil
}

func (w *worker) can(j GameJob) bool {
	_, b := w.engine(j.Names[0], j.Engines[0])
	_, wh := w.engine(j.Names[1], j.Engines[1])
	return b && wh
}

// play plays game j and records it with commit (QueueWorker.Play).
func (w *worker) play(ctx context.Context, j GameJob, commit func(func(tournament.Storage) error) error) error {
	t, err := w.d.Tournament(ctx, j.Tournament)
	if err != nil {
		return err
	}
	g, err := t.Game(j.Round, j.Table)
	switch {
	case err != nil || g.Black != j.Black || g.White != j.White:
		return fmt.Errorf("%s: %w: the round was paired again after the game was queued", j, tournament.ErrChanged)
	case g.Result != nil: // recorded already: the job is done
		return commit(func(tournament.Storage) error { return nil })
	}
	b, wh := t.Players[g.Black-1], t.Players[g.White-1]
	if !w.can(GameJob{Names: [2]string{b.Name, wh.Name}, Engines: [2]string{b.Engine, wh.Engine}}) {
		return fmt.Errorf("%s: %w", j, ErrNotMine)
	}
	w.mu.Lock()
	w.running++
	w.started++
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.running--
		w.mu.Unlock()
	}()
	var failed []error // engines this worker could not start: its fault, not the entrant's
	var fmu sync.Mutex
	o := PlayOptions{Time: j.Time, CompleteMove: w.o.CompleteMove, Start: func(ctx context.Context, p tournament.Player, r engine.Rules) (player.Player, error) {
		e, ok := w.engine(p.Name, p.Engine)
		if !ok {
			return nil, fmt.Errorf("this worker has no engine for %s", p.Name)
		}
		p.Engine = e.String()
		pl, err := w.o.Start(ctx, p, r)
		if err != nil {
			fmu.Lock()
			failed = append(failed, fmt.Errorf("%s: %w", p.Name, err))
			fmu.Unlock()
		}
		return pl, err
	}}
	e := GameEvent{Event: t.Name, Round: j.Round, Table: j.Table, Black: t.Players[g.Black-1], White: t.Players[g.White-1]}
	if w.o.Progress != nil {
		w.o.Progress(e)
	}
	var again bool // another worker recorded the game meanwhile
	res, stop, err := w.d.playGame(ctx, t, g.Black, g.White, o, func(p tournament.Played) (res *tournament.Result, err error) {
		fmu.Lock()
		ferr := errors.Join(failed...)
		fmu.Unlock()
		if ferr != nil { // not recorded: another worker, or this one later, tries again
			return nil, fmt.Errorf("%w: %w", ErrWorkerEngine, ferr)
		}
		err = commit(func(in tournament.Storage) error {
			res, err = New(Store{Storage: in}).As(w.d.actor).recordWith(ctx, t.ID, recordPlayed(*g))(p)
			if errors.Is(err, tournament.ErrHasResult) {
				again = true
				return nil // the job is done all the same
			}
			return err
		})
		return res, err
	})
	stop()
	e.Done, e.Result, e.Err = true, res, err
	if again {
		e.Err = fmt.Errorf("round %d table %d: %w: another worker recorded it meanwhile; this play is dropped", j.Round, j.Table, tournament.ErrHasResult)
	}
	if err != nil && ctx.Err() != nil {
		e.Err = ErrStopped
	}
	if w.o.Progress != nil {
		w.o.Progress(e)
	}
	return err
}

// sayWhy tells note why the worker waits, when it has had no game to play
// for waitNoteEvery, and again when the reason changes.
func (w *worker) sayWhy(ctx context.Context, q Distributor, note func(string)) {
	tick := time.NewTicker(waitNoteEvery)
	defer tick.Stop()
	said, seen := "", -1
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		w.mu.Lock()
		idle := w.running == 0 && w.started == seen
		seen = w.started
		w.mu.Unlock()
		if !idle {
			said = ""
			continue
		}
		jobs, err := q.Waiting(ctx)
		if err != nil {
			continue
		}
		why := "waiting for games: none is queued ('otd round play --distributed' queues a round's)"
		var lack []string
		for _, j := range jobs {
			for i := range 2 {
				if _, ok := w.engine(j.Names[i], j.Engines[i]); !ok && !slices.Contains(lack, j.Names[i]) {
					lack = append(lack, j.Names[i])
				}
			}
		}
		if len(jobs) > 0 && len(lack) == 0 {
			continue // games it plays: it takes them next
		}
		if len(jobs) > 0 {
			slices.Sort(lack)
			why = fmt.Sprintf("waiting: the %s queued need engines this worker lacks (%s): they are left to other workers; give this one their programs with --engines NAME=PROGRAM",
				tournament.Plural(len(jobs), "game"), strings.Join(lack, ", "))
		}
		if why != said {
			note(why)
			said = why
		}
	}
}

// notQueued refuses to play here the games of round r that are queued for
// the workers ('round play --distributed'): they would be played twice, and
// one of the two results refused.
func (d *Director) notQueued(ctx context.Context, id int64, r int, todo []tournament.Game) error {
	q := d.db.Queue
	if q == nil || len(todo) == 0 {
		return nil
	}
	states, err := q.Jobs(ctx, id, r)
	if err != nil {
		return err
	}
	var queued []int
	for _, s := range states {
		if !s.Done && s.Err == nil && slices.ContainsFunc(todo, func(g tournament.Game) bool { return g.Table == s.Table }) {
			queued = append(queued, s.Table)
		}
	}
	if len(queued) > 0 {
		return fmt.Errorf("%w: round %d, %s: the workers play them ('otd worker'), and 'otd round play --distributed' follows the round", ErrQueued, r, tableList(queued))
	}
	return nil
}
