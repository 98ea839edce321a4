package app

import (
	"context"
	"errors"
)

// Table is one table of a database's whole content, the same whatever the
// engine that holds it: its name, its columns in order of name, and its rows
// in order of primary key, each value an int64, a string or nil.
type Table struct {
	Name    string
	Columns []string
	Rows    [][]any
}

// Mover is a Storage whose whole content can be read as Tables and replaced
// by such Tables: how a database moves from one engine to another (SQLite,
// PostgreSQL) exactly, its ids, times and audit trail as they are. Package
// store implements it.
type Mover interface {
	// Tables reads the whole database as it stands at one moment.
	Tables(ctx context.Context) ([]Table, error)
	// Replace replaces the whole content of the database with tables, in
	// one transaction that others see as any other change, and returns the
	// number of tournaments it holds. It calls before first (if not nil),
	// within that transaction, once no other may write until it commits
	// (others still read): what before reads is exactly what is replaced.
	// before's error stops it.
	Replace(ctx context.Context, tables []Table, before func() error) (int, error)
}

// ErrNoMove reports a Storage that cannot give or take its whole content.
var ErrNoMove = errors.New("the storage cannot copy its whole content")

// CopyTo copies the whole database (every tournament, its audit trail
// included) into to's, replacing everything to holds, exactly: ids, times
// and audit rows as they are. It reads d's content at one moment while
// others use it, then calls before (if not nil) once no other may write to's
// (Mover.Replace), whose error stops it before to is changed. It returns the number of tournaments copied.
func (d *Director) CopyTo(ctx context.Context, to *Director, before func() error) (int, error) {
	from, dst := d.db.Move, to.db.Move
	if from == nil || dst == nil {
		return 0, ErrNoMove
	}
	tables, err := from.Tables(ctx)
	if err != nil {
		return 0, err
	}
	return dst.Replace(ctx, tables, before)
}
