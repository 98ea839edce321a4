package sqlite

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"
)

// Changes watches the database for commits by other connections (another
// otd's 'otd result'), looking every Options.Poll; after each change it finds it
// sends on the channel it returns (at most one waiting; a reader that falls
// behind sees one for many). The channel is closed when ctx ends.
//
// A database opened in the usual way is watched through SQLite's PRAGMA
// data_version, on one connection of its own. One opened in SQLite's
// immutable mode (otd may not write the file or its folder) is read without
// locks and SQLite sees no change to it: the file itself is watched instead
// (see fileState), and the change reported once it is whole in the file,
// no -wal file holding part of it (the otd that made it has ended). Each
// transaction of such a store reads the file anew (openDB).
func (s *Store) Changes(ctx context.Context) (<-chan struct{}, error) {
	every := s.poll
	if s.immutable {
		last, err := statFile(s.path)
		if err != nil {
			return nil, err
		}
		return s.watching.poll(ctx, every, func() bool {
			now, err := statFile(s.path)
			if err != nil || now.walSize > 0 || now.same(last) {
				return false // changes still in the -wal file are seen when it is merged in
			}
			last = now
			return true
		}, func() {}), nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, s.translate(err)
	}
	version := func() (v int64, err error) {
		return v, conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
	}
	last, err := version()
	if err != nil {
		conn.Close()
		return nil, s.translate(err)
	}
	return s.watching.poll(ctx, every, func() bool {
		// An error (the database busy for a moment) is tried again at the next tick.
		v, err := version()
		if err != nil || v == last {
			return false
		}
		last = v
		return true
	}, func() { conn.Close() }), nil
}

// Sync makes every Changes of the store look at the database now, in the
// caller's goroutine, rather than at its next tick: a change this process
// just committed (serve's own write) is sent on their channels before Sync
// returns, and once only (the tick that follows finds nothing new).
func (s *Store) Sync(context.Context) error {
	s.watching.mu.Lock()
	looks := make([]*look, 0, len(s.watching.looks))
	for l := range s.watching.looks {
		looks = append(looks, l)
	}
	s.watching.mu.Unlock()
	for _, l := range looks {
		l.check()
	}
	return nil
}

// watchers are the looks of a store's Changes at its database.
type watchers struct {
	mu    sync.Mutex
	looks map[*look]bool
}

// look is one Changes's way of looking: changed reports a change since
// its last call; one look at a time (mu), whether its tick or a Sync makes it.
type look struct {
	mu      sync.Mutex
	changed func() bool
	ch      chan struct{}
	done    bool // stopped: its connection is closed
}

// check looks now, and sends on the channel if the database changed (at
// most one waiting).
func (l *look) check() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done && l.changed() {
		select {
		case l.ch <- struct{}{}:
		default:
		}
	}
}

// poll looks with changed every interval until ctx ends, then calls stop;
// it sends on the channel it returns when changed reports a change (at
// most one waiting). The look is among w's (Sync) meanwhile.
func (w *watchers) poll(ctx context.Context, every time.Duration, changed func() bool, stop func()) <-chan struct{} {
	l := &look{changed: changed, ch: make(chan struct{}, 1)}
	w.mu.Lock()
	if w.looks == nil {
		w.looks = map[*look]bool{}
	}
	w.looks[l] = true
	w.mu.Unlock()
	go func() {
		defer close(l.ch)
		defer func() {
			w.mu.Lock()
			delete(w.looks, l)
			w.mu.Unlock()
			l.mu.Lock()
			l.done = true
			stop()
			l.mu.Unlock()
		}()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			l.check()
		}
	}()
	return l.ch
}

// fileState tells whether a database file changed without reading it: which
// file the path names (one copied or moved over it is another), its size
// and time, and the size of its -wal file. Not the change counter of
// SQLite's header: a database in WAL mode, as otd's are, keeps it when a
// commit and its checkpoint leave the first page alone (a result does).
type fileState struct {
	db      os.FileInfo
	walSize int64 // 0 if there is no -wal file
}

func statFile(path string) (fileState, error) {
	db, err := os.Stat(path)
	if err != nil {
		return fileState{}, err
	}
	st := fileState{db: db}
	wal, err := os.Stat(path + "-wal")
	switch {
	case err == nil:
		st.walSize = wal.Size()
	case !errors.Is(err, fs.ErrNotExist):
		return fileState{}, err
	}
	return st, nil
}

// same tells whether the database file is as it was at o.
func (f fileState) same(o fileState) bool {
	return os.SameFile(f.db, o.db) && f.db.Size() == o.db.Size() && f.db.ModTime().Equal(o.db.ModTime())
}
