package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// reconnectEvery is how often Changes tries to connect again after losing
// its connection (a variable so that tests can shorten it).
var reconnectEvery = time.Second

// Changes reports the commits to the database, by whatever otd, as they are
// announced (LISTEN to the NOTIFY of each write transaction), on a
// connection of its own: no polling. It sends on the channel it returns after
// each (at most one waiting: a reader that falls behind sees one for many),
// and once more after it has connected again when the connection was lost
// (changes may have been missed meanwhile). The channel is closed when ctx
// ends.
func (s *Store) Changes(ctx context.Context) (<-chan struct{}, error) {
	conn, err := s.listen(ctx)
	if err != nil {
		return nil, err
	}
	ch := make(chan struct{}, 1)
	send := func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	go func() {
		defer close(ch)
		for {
			if conn == nil {
				select {
				case <-ctx.Done():
					return
				case <-time.After(reconnectEvery):
				}
				if conn, err = s.listen(ctx); err != nil {
					conn = nil
					continue
				}
				send()
			}
			if _, err := conn.WaitForNotification(ctx); err != nil {
				conn.Close(context.Background())
				conn = nil
				if ctx.Err() != nil {
					return
				}
				continue
			}
			send()
		}
	}()
	return ch, nil
}

// listen opens a connection that listens to the announcements of changes.
func (s *Store) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.conn.Copy())
	if err != nil {
		return nil, s.translate(err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+changesChannel); err != nil {
		conn.Close(ctx)
		return nil, s.translate(err)
	}
	return conn, nil
}
