package app

import (
	"context"
	"errors"
)

// Watcher is a Storage that can report changes made to it by others (another
// process recording a result); package store implements it.
type Watcher interface {
	// Changes sends on the channel it returns soon after each change (at
	// most one waiting: a reader that falls behind sees one for many),
	// until ctx ends and it closes the channel. How it learns of them
	// (polling, notifications) is the storage's business.
	Changes(ctx context.Context) (<-chan struct{}, error)
}

// ErrNoWatch reports a Storage that cannot report changes.
var ErrNoWatch = errors.New("the storage cannot report changes")

// Changes reports the changes to the database made by others (see Watcher)
// until ctx ends: what a live results page follows.
func (d *Director) Changes(ctx context.Context) (<-chan struct{}, error) {
	if d.db.Watch == nil {
		return nil, ErrNoWatch
	}
	return d.db.Watch.Changes(ctx)
}
