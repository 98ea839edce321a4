package postgres

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/otd-project/otd/app"
	"log/slog"
	mrand "math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/otd-project/otd/tournament"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
)

// The job queue of engine games (app.Distributor) is River's, in the
// otd database: its tables are made or upgraded by rivermigrate, under otd's
// migration lock, the first time a command uses the queue ('otd round play
// --distributed', 'otd worker'); the other commands never touch them.
//
// Which worker plays a game: every game is a job of one queue, its args
// naming the two entrants and their engines, and a worker that lacks one of
// them snoozes the job (cannotPlaySnooze, which costs it none of its tries):
// it is back in the queue for the others. Queues per engine pair
// would need a worker to listen to n(n-1)/2 queues and could not serve the
// engines as registered; with one queue nothing needs to be known of the
// workers in advance, and a game that no worker can play waits, as it should.
//
// A game is never recorded twice: its job is unique by tournament, round and
// table while it waits or runs (a round queued again queues only the games
// not queued), its result is recorded in the transaction that completes the
// job (JobCompleteTx), and the record refuses a game that has a result.
//
// A worker killed mid-game loses that game only: River rescues a job whose
// worker has held it longer than its game can last (its Timeout, from the
// game's clocks: GameJob.Longest), and the game is played again from the
// start by another worker. River's rescuer runs every 30 seconds, after that
// timeout: minutes for a game that a killed process dropped. But a process
// that dies closes its connections, and every worker's connections carry its
// River client id as their application_name: each worker looks every
// giveBackEvery for games running under a worker that has no connection
// left, and gives them back to the queue at once (giveBack). River's rescue
// stays for a machine that vanished without closing its connections.

// Names of the queue's jobs.
const (
	gameKind  = "otd_game"
	gameQueue = "otd_games"
)

// gameAttempts is how many times a game is tried (an engine that does not
// start on a machine, a server gone for a while) before it is given up.
const gameAttempts = 10

// retryDelay is how long a game that failed waits before its next try.
const retryDelay = 5 * time.Second

// cannotPlaySnooze is how long a game that a worker lacks an engine for is
// left to the others before that worker looks at it again: a random time
// between one and two seconds, so that the worker does not take it back
// before the others, polling, see it.
func cannotPlaySnooze() time.Duration { return time.Second + mrand.N(time.Second) }

// Tunables of the workers (variables so that tests can change them).
var (
	// giveBackEvery is how often a worker looks for the games of workers
	// gone (giveBack).
	giveBackEvery = 500 * time.Millisecond
	// fetchEvery is how often a worker looks for games when no notification
	// of a new one reaches it (a game given back sends none).
	fetchEvery = 250 * time.Millisecond
	// fetchCooldown is the least time between two looks of a worker for
	// games (River's default, 100 ms, is a tenth of a game that an engine
	// answering at once plays).
	fetchCooldown = 10 * time.Millisecond
)

// rescueAfter is River's RescueStuckJobsAfter: the least a game can last
// (GameJob.Longest); each game is rescued after its own Longest (the
// worker's Timeout), which River's rescuer honours.
const rescueAfter = 30 * time.Second

// gameArgs is a game's job: unique by tournament, round, table and pairing.
type gameArgs struct {
	Tournament int64 `json:"tournament" river:"unique"`
	Round      int   `json:"round" river:"unique"`
	Table      int   `json:"table" river:"unique"`
	// The pairing too: a round paired again after its games were queued
	// has new games at the same tables, queued beside the old jobs (which
	// are cancelled, the pairing changed).
	Black int         `json:"black" river:"unique"`
	White int         `json:"white" river:"unique"`
	Game  app.GameJob `json:"game"`
}

func (gameArgs) Kind() string { return gameKind }

// liveStates are the states in which a game's job keeps another job of the
// same game out; not completed: a result undone is played again by a new job.
var liveStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
	rivertype.JobStateRetryable, rivertype.JobStateRunning, rivertype.JobStateScheduled}

// roundTag is the metadata of the jobs of round r of tournament id, by which
// Jobs finds them.
func roundTag(id int64, r int) string {
	return fmt.Sprintf(`{"otd_round": "%d/%d"}`, id, r)
}

// queue is the store's client of the queue (insert-only), made at its first use.
type queue struct {
	once   sync.Once
	client *river.Client[pgx.Tx]
	err    error
}

// queueClient returns the store's client of the queue, making or upgrading
// River's tables first.
func (s *Store) queueClient(ctx context.Context) (*river.Client[pgx.Tx], error) {
	s.q.once.Do(func() {
		if s.q.err = s.migrateQueue(ctx); s.q.err != nil {
			return
		}
		s.q.client, s.q.err = river.NewClient(riverpgxv5.New(s.pool), &river.Config{Logger: quietLogger(nil)})
	})
	return s.q.client, s.q.err
}

// migrateQueue makes or upgrades River's tables under otd's migration lock
// (two workers starting at once upgrade once), each of River's migrations
// in a transaction of its own (one adds a value to a type that the next
// uses, which PostgreSQL allows only once the first has committed).
func (s *Store) migrateQueue(ctx context.Context) error {
	if s.readOnly {
		return s.readOnlyError()
	}
	m, err := rivermigrate.New(riverpgxv5.New(s.pool), &rivermigrate.Config{Logger: quietLogger(nil)})
	if err != nil {
		return err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return s.translate(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return s.translate(err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		if translated(s.translate(err)) {
			return s.translate(err)
		}
		return fmt.Errorf("%s: making or upgrading the tables of the job queue (River's): %w", s.name, err)
	}
	return nil
}

// Enqueue runs fn in a write transaction and queues the games it returns in
// it (app.Distributor).
func (s *Store) Enqueue(ctx context.Context, fn func(tournament.Tx) ([]app.GameJob, error)) error {
	c, err := s.queueClient(ctx) // refused on a store opened read-only (migrateQueue)
	if err != nil {
		return err
	}
	return s.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var games []app.GameJob
		err := s.update(ctx, tx, func(t tournament.Tx) (err error) {
			games, err = fn(t)
			return err
		})
		if err != nil || len(games) == 0 {
			return err
		}
		params := make([]river.InsertManyParams, len(games))
		for i, g := range games {
			params[i] = river.InsertManyParams{Args: gameArgs{Tournament: g.Tournament, Round: g.Round, Table: g.Table, Black: g.Black, White: g.White, Game: g},
				InsertOpts: &river.InsertOpts{Queue: gameQueue, MaxAttempts: gameAttempts, Metadata: []byte(roundTag(g.Tournament, g.Round)),
					UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: liveStates}}}
		}
		_, err = c.InsertManyTx(ctx, tx, params)
		return err
	})
}

// Jobs returns where the newest job of each game of round r of tournament
// id is (app.Distributor).
func (s *Store) Jobs(ctx context.Context, id int64, r int) ([]app.JobState, error) {
	// A local round play asks too: without the queue's tables no game is
	// queued, and they are not made for it.
	var made bool
	if err := s.pool.QueryRow(ctx, "SELECT to_regclass('river_job') IS NOT NULL").Scan(&made); err != nil {
		return nil, s.translate(err)
	}
	if !made {
		return nil, nil
	}
	c, err := s.queueClient(ctx)
	if err != nil {
		return nil, err
	}
	res, err := c.JobList(ctx, river.NewJobListParams().Kinds(gameKind).Metadata(roundTag(id, r)).First(10_000))
	if err != nil {
		return nil, s.translate(err)
	}
	newest := map[int]app.JobState{} // the jobs come oldest first
	var tables []int
	for _, j := range res.Jobs {
		var a gameArgs
		if err := json.Unmarshal(j.EncodedArgs, &a); err != nil {
			return nil, fmt.Errorf("%s: job %d of the queue: %w", s.name, j.ID, err)
		}
		st := app.JobState{Table: a.Table, Running: j.State == rivertype.JobStateRunning, Done: j.State == rivertype.JobStateCompleted}
		if j.State == rivertype.JobStateDiscarded || j.State == rivertype.JobStateCancelled {
			st.Err = fmt.Errorf("given up after %s", tournament.Plural(j.Attempt, "try"))
			if n := len(j.Errors); n > 0 {
				st.Err = fmt.Errorf("%w: %s", st.Err, j.Errors[n-1].Error)
			}
		}
		if _, ok := newest[a.Table]; !ok {
			tables = append(tables, a.Table)
		}
		newest[a.Table] = st
	}
	states := make([]app.JobState, len(tables))
	for i, t := range tables {
		states[i] = newest[t]
	}
	return states, nil
}

// Waiting returns the games queued that no worker plays now
// (app.Distributor).
func (s *Store) Waiting(ctx context.Context) ([]app.GameJob, error) {
	c, err := s.queueClient(ctx)
	if err != nil {
		return nil, err
	}
	res, err := c.JobList(ctx, river.NewJobListParams().Kinds(gameKind).
		States(rivertype.JobStateAvailable, rivertype.JobStateRetryable, rivertype.JobStateScheduled).First(10_000))
	if err != nil {
		return nil, s.translate(err)
	}
	games := make([]app.GameJob, 0, len(res.Jobs))
	for _, j := range res.Jobs {
		var a gameArgs
		if err := json.Unmarshal(j.EncodedArgs, &a); err != nil {
			return nil, fmt.Errorf("%s: job %d of the queue: %w", s.name, j.ID, err)
		}
		games = append(games, a.Game)
	}
	return games, nil
}

// Work runs a River client that plays the games of the queue with w until
// ctx ends, then gives the games running back to the queue
// (app.Distributor). Its connections are a pool of their own, named
// after the client (application_name), one of them held all along: while
// the worker lives, its name is among the server's sessions.
func (s *Store) Work(ctx context.Context, w app.QueueWorker) error {
	if _, err := s.queueClient(ctx); err != nil {
		return err
	}
	id := workerID()
	cfg := s.pool.Config().Copy()
	cfg.ConnConfig.RuntimeParams["application_name"] = id
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return s.translate(err)
	}
	defer pool.Close()
	here, err := pool.Acquire(ctx)
	if err != nil {
		return s.translate(err)
	}
	defer here.Release()
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &gameWorker{s: s, pool: pool, w: w}); err != nil {
		return err
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		ID:                   id,
		Queues:               map[string]river.QueueConfig{gameQueue: {MaxWorkers: max(w.Concurrency, 1)}},
		Workers:              workers,
		FetchCooldown:        fetchCooldown,
		FetchPollInterval:    fetchEvery,
		JobTimeout:           -1, // each game's own (gameWorker.Timeout)
		RescueStuckJobsAfter: rescueAfter,
		Logger:               quietLogger(w.Note),
	})
	if err != nil {
		return err
	}
	if err := client.Start(ctx); err != nil {
		return s.translate(err)
	}
	tick := time.NewTicker(giveBackEvery)
	defer tick.Stop()
	said := "" // the last error said: said once, not every giveBackEvery
	for ctx.Err() == nil {
		games, err := s.giveBack(ctx, here.Conn())
		for _, g := range games {
			if w.Note != nil {
				w.Note(fmt.Sprintf("%s given back to the queue: the worker playing it is gone (%s); it is played again from the start", g.Game, g.by))
			}
		}
		switch {
		case err == nil:
			said = ""
		case ctx.Err() == nil && w.Note != nil && err.Error() != said:
			said = err.Error()
			w.Note(fmt.Sprintf("looking for the games of workers gone: %v", s.translate(err)))
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	// The games running are cancelled, and go back to the queue at once
	// (gameWorker.Work snoozes them).
	stop, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return client.StopAndCancel(stop)
}

// workerID names a worker: its River client id and its connections'
// application_name (at most 63 bytes, PostgreSQL's limit).
func workerID() string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if r < ' ' || r > '~' {
			return '_'
		}
		return r
	}, host)
	if len(host) > 32 {
		host = host[:32]
	}
	return "otd worker " + host + " " + strconv.Itoa(os.Getpid()) + " " + strings.ToLower(rand.Text()[:6])
}

// givenBack is a game given back by giveBack, and the worker it was taken from.
type givenBack struct {
	gameArgs
	by string
}

// giveBack gives the games running under a worker that has no connection
// to the server left back to the queue, to be played again at once, as
// River's rescuer would (an error in the job's list, its rescue count one
// more), and returns them.
func (s *Store) giveBack(ctx context.Context, conn *pgx.Conn) ([]givenBack, error) {
	rows, err := conn.Query(ctx, `UPDATE river_job SET state = 'available', scheduled_at = now(),
		errors = array_append(errors, jsonb_build_object('at', now(), 'attempt', attempt,
			'error', 'its worker (' || attempted_by[cardinality(attempted_by)] || ') is gone: it has no connection to the database', 'trace', '')),
		metadata = metadata || jsonb_build_object('river:rescue_count', coalesce((metadata ->> 'river:rescue_count')::int, 0) + 1)
		WHERE state = 'running' AND kind = $1 AND cardinality(attempted_by) > 0
		AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = attempted_by[cardinality(attempted_by)])
		RETURNING args, attempted_by[cardinality(attempted_by)]`, gameKind)
	if err != nil {
		return nil, err
	}
	var games []givenBack
	for rows.Next() {
		var args []byte
		var g givenBack
		if err := rows.Scan(&args, &g.by); err != nil {
			rows.Close()
			return games, err
		}
		if err := json.Unmarshal(args, &g.gameArgs); err != nil {
			rows.Close()
			return games, err
		}
		games = append(games, g)
	}
	return games, rows.Err()
}

// gameWorker plays the games of the queue (River's Worker).
type gameWorker struct {
	river.WorkerDefaults[gameArgs]
	s    *Store
	pool *pgxpool.Pool
	w    app.QueueWorker
}

// Timeout is the longest the game can last, from its clocks: River stops
// it then, and its rescuer gives it to another worker then.
func (g *gameWorker) Timeout(job *river.Job[gameArgs]) time.Duration { return job.Args.Game.Longest() }

// NextRetry: a game that failed (a worker that could not start an engine,
// the server gone a moment) is tried again after retryDelay, not after
// River's attempt^4 seconds (hours by the tenth try).
func (g *gameWorker) NextRetry(*river.Job[gameArgs]) time.Time { return time.Now().Add(retryDelay) }

func (g *gameWorker) Work(ctx context.Context, job *river.Job[gameArgs]) error {
	if !g.w.Can(job.Args.Game) {
		return river.JobSnooze(cannotPlaySnooze())
	}
	err := g.w.Play(ctx, job.Args.Game, func(fn func(tournament.Storage) error) error {
		// A finished game is recorded even if the worker is stopping.
		ctx := context.WithoutCancel(ctx)
		return g.s.txOn(ctx, g.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
			if err := fn(g.s.InTx(tx)); err != nil {
				return err
			}
			_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
			return err
		})
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(ctx.Err(), context.Canceled): // the worker stops: the game goes back at once, no try lost
		return river.JobSnooze(0)
	case errors.Is(err, tournament.ErrChanged):
		return river.JobCancel(err)
	case errors.Is(err, app.ErrNotMine): // its entrants changed since it was queued
		return river.JobSnooze(cannotPlaySnooze())
	}
	return err
}

// quietLogger is River's logger: its warnings and errors told to note (nil:
// none), the rest dropped.
func quietLogger(note func(string)) *slog.Logger {
	return slog.New(slog.NewTextHandler(noteWriter(note), &slog.HandlerOptions{Level: slog.LevelWarn,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
}

// noteWriter tells note each line written to it.
type noteWriter func(string)

func (n noteWriter) Write(p []byte) (int, error) {
	if n != nil {
		n("queue: " + strings.TrimSpace(string(p)))
	}
	return len(p), nil
}

var _ app.Distributor = (*Store)(nil)
