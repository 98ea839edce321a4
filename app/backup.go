package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/otd-project/otd/tournament"
)

// Backuper is a Storage that can copy its whole content while in use, and
// replace it with such a copy; package store implements it.
type Backuper interface {
	// Backup writes a consistent copy of the whole database into the file
	// at path, which is empty: an SQLite database of otd's.
	Backup(ctx context.Context, path string) error
	// Restore replaces the whole database with the content of from, in one
	// transaction that others see as any other change, and returns the
	// number of tournaments it holds; it calls before first (if not nil),
	// whose error stops it. It returns ErrNoBackup where it cannot read
	// from itself (another engine's): CopyTo copies it then.
	Restore(ctx context.Context, from tournament.Storage, before func() error) (int, error)
}

// Checker is a Storage that can check that it is what otd makes: its schema
// is exactly the one otd's migrations make at its version (nothing more,
// nothing less) and no row refers to a row that does not exist. Its error
// wraps ErrUnsound and says what differs.
type Checker interface {
	Check(ctx context.Context) error
}

// Backup writes a consistent copy of the whole database (every tournament,
// its audit trail included) into the empty file at path, while others read
// and write it.
func (d *Director) Backup(ctx context.Context, path string) error {
	if d.db.Backup == nil {
		return tournament.ErrNoBackup
	}
	return d.db.Backup.Backup(ctx, path)
}

// Check tells whether the database is sound, as a backup must be to be
// restored: its storage's own check (Checker), then every tournament loads
// and keeps the rules (Validate), its audit trail read. The error wraps
// ErrUnsound and names what is wrong.
func (d *Director) Check(ctx context.Context) error {
	if d.db.Check != nil {
		if err := d.db.Check.Check(ctx); err != nil {
			return err
		}
	}
	list, err := d.Tournaments(ctx)
	if err != nil {
		return fmt.Errorf("%w: %w", tournament.ErrUnsound, err)
	}
	for _, s := range list {
		_, _, err := d.Log(ctx, s.ID)
		if b := (*brokenError)(nil); errors.As(err, &b) {
			return fmt.Errorf("%w: %s: %w", tournament.ErrUnsound, b.tournament, b.err) // the database checked, not the one in use, is at fault
		}
		if err != nil {
			return fmt.Errorf("%w: %w", tournament.ErrUnsound, err)
		}
	}
	return nil
}

// Restore replaces the whole database with the content of from (see
// Backuper.Restore; another engine's is copied, CopyTo), once before (if
// not nil) has run without error, and returns the number of tournaments
// restored. from is taken as it is: Check it first.
func (d *Director) Restore(ctx context.Context, from *Director, before func() error) (int, error) {
	if d.db.Backup != nil {
		n, err := d.db.Backup.Restore(ctx, from.db.Storage, before)
		if !errors.Is(err, tournament.ErrNoBackup) {
			return n, err
		}
	}
	return from.CopyTo(ctx, d, before)
}
