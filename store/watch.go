package store

import (
	"context"
	"fmt"
	"time"
)

// Changes watches the database for commits by other connections (another
// otd's 'otd result'): on one connection of its own it reads SQLite's
// PRAGMA data_version every interval, and after each change it finds it sends
// on the channel it returns (at most one waiting; a reader that falls behind
// sees one for many). The channel is closed when ctx ends. A database opened
// in SQLite's immutable mode (one otd may not write) sees no change: Changes
// refuses it with ErrReadOnly.
func (s *Store) Changes(ctx context.Context, every time.Duration) (<-chan struct{}, error) {
	if s.immutable {
		return nil, fmt.Errorf("%s: %w: otd may not write the file or its folder, so it reads it without locks and cannot see changes to it", s.path, ErrReadOnly)
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, s.damaged(err)
	}
	version := func() (v int64, err error) {
		return v, conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
	}
	last, err := version()
	if err != nil {
		conn.Close()
		return nil, s.damaged(err)
	}
	ch := make(chan struct{}, 1)
	go func() {
		defer close(ch)
		defer conn.Close()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			// An error (the database busy for a moment) is tried again at the next tick.
			if v, err := version(); err == nil && v != last {
				last = v
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	return ch, nil
}
