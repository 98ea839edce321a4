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

// Syncer is a Watcher that can look for changes now rather than when it
// next would (SQLite's, which polls): a change just committed is then sent
// on the channels of Changes before Sync returns. A Watcher told of each
// change as it is made (PostgreSQL's notifications) needs none.
type Syncer interface {
	Sync(ctx context.Context) error
}

// Sync makes the changes committed so far reported now on the channels of
// Changes, if the storage can (Syncer); else they come as they would. So
// a server's own write (a report, a console's action) reaches its live
// pages at once.
func (d *Director) Sync(ctx context.Context) error {
	if s, ok := d.db.Watch.(Syncer); ok {
		return s.Sync(ctx)
	}
	return nil
}
