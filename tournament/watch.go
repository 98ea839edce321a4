package tournament

import (
	"context"
	"errors"
	"time"
)

// Watcher is a Storage that can report changes made to it by others (another
// process recording a result); package store implements it.
type Watcher interface {
	// Changes sends on the channel it returns after each change it finds,
	// looking every interval, until ctx ends and it closes the channel.
	Changes(ctx context.Context, every time.Duration) (<-chan struct{}, error)
}

// ErrNoWatch reports a Storage that cannot report changes.
var ErrNoWatch = errors.New("the storage cannot report changes")

// Changes reports the changes to the database made by others (see Watcher),
// looking every interval, until ctx ends: what a live results page follows.
func (d *Director) Changes(ctx context.Context, every time.Duration) (<-chan struct{}, error) {
	w, ok := d.db.(Watcher)
	if !ok {
		return nil, ErrNoWatch
	}
	return w.Changes(ctx, every)
}
