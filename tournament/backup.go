package tournament

import (
	"context"
	"errors"
	"io"
)

// Backuper is a Storage that can copy its whole content while in use, and
// replace it with such a copy; package store implements it.
type Backuper interface {
	// Backup writes a consistent copy of the whole database to w.
	Backup(ctx context.Context, w io.Writer) error
	// Restore replaces the whole database with the copy at path, in one
	// transaction that others see as any other change, and returns the
	// number of tournaments it holds. It checks path first, then calls
	// before (if not nil), whose error stops it.
	Restore(ctx context.Context, path string, before func() error) (int, error)
}

// ErrNoBackup reports a Storage that cannot make or restore backups.
var ErrNoBackup = errors.New("the storage cannot make or restore backups")

// Backup writes a consistent copy of the whole database (every tournament,
// its audit trail included) to w, while others read and write it.
func (d *Director) Backup(ctx context.Context, w io.Writer) error {
	b, ok := d.db.(Backuper)
	if !ok {
		return ErrNoBackup
	}
	return b.Backup(ctx, w)
}

// Restore replaces the whole database with the backup at path (see
// Backuper), once path is found good and before (if not nil) has run
// without error, and returns the number of tournaments restored.
func (d *Director) Restore(ctx context.Context, path string, before func() error) (int, error) {
	b, ok := d.db.(Backuper)
	if !ok {
		return 0, ErrNoBackup
	}
	return b.Restore(ctx, path, before)
}
