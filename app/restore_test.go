package app_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/tournament"
)

// restorer is a store's own restore that says it replaced n tournaments
// once before has run.
type restorer struct{ n int }

func (restorer) Backup(context.Context, string) error { return tournament.ErrNoBackup }

func (r restorer) Restore(_ context.Context, _ tournament.Storage, before func() error) (int, error) {
	if err := before(); err != nil {
		return 0, err
	}
	return r.n, nil
}

// TestRestoreDecides: which way Restore goes for each state of the backup
// and of the database restored into, what it calls of the adapters, what it
// reports, and its refusals (the words 'otd restore' has always said).
func TestRestoreDecides(t *testing.T) {
	var errBroken = errors.New("broken link")
	noTarget := fmt.Errorf("no database: %w", app.ErrNoTarget)
	damaged := fmt.Errorf("file is not a database: %w", app.ErrTargetDamaged)
	cases := []struct {
		name    string
		same    string
		openErr error
		file    bool    // the backup is a file restored into an SQLite file: Open gives replace
		target  []error // Target's errors, in the order of its calls
		keepErr error
		want    app.Restored
		calls   []string
		err     string
	}{
		{name: "into itself", same: "the database itself", calls: []string{"same"},
			err: "club.db: not a backup otd can restore: it is the database itself; nothing was changed: name a backup of it"},
		{name: "unreadable", openErr: errBroken, calls: []string{"same", "open"}, err: "broken link; nothing was changed"},
		{name: "not a backup", openErr: fmt.Errorf("club.db: %w: the file is empty", app.ErrNotBackup), calls: []string{"same", "open"},
			err: "club.db: not a backup otd can restore: the file is empty"},
		{name: "into a database", target: []error{nil}, want: app.Restored{Tournaments: 3, Kept: "otd.before-restore.db"},
			calls: []string{"same", "open", "target false", "keep", "close target", "close backup"}},
		{name: "a file into a database", file: true, target: []error{nil}, want: app.Restored{Tournaments: 3, Kept: "otd.before-restore.db"},
			calls: []string{"same", "open", "target false", "keep", "close target", "close backup"}},
		{name: "keeping fails", target: []error{nil}, keepErr: errBroken,
			calls: []string{"same", "open", "target false", "keep", "close target", "close backup"},
			err:   "restore refused: keeping what it would replace: broken link; nothing was changed"},
		{name: "a file into no database", file: true, target: []error{noTarget}, want: app.Restored{Tournaments: 3, File: true},
			calls: []string{"same", "open", "target false", "replace ", "close backup"}},
		{name: "a file into a damaged database", file: true, target: []error{damaged},
			want:  app.Restored{Tournaments: 3, File: true, Damaged: "otd.damaged.db"},
			calls: []string{"same", "open", "target false", "aside", "replace otd.damaged.db", "close backup"}},
		{name: "a database into no database", target: []error{noTarget, nil}, want: app.Restored{Tournaments: 3, Kept: "otd.before-restore.db"},
			calls: []string{"same", "open", "target false", "target true", "keep", "close target", "close backup"}},
		{name: "a database into a damaged one", target: []error{damaged}, calls: []string{"same", "open", "target false", "close backup"},
			err: "file is not a database: the database is damaged"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var calls []string
			call := func(s string) { calls = append(calls, s) }
			o := app.RestoreOptions{
				Name: "club.db",
				Same: func(context.Context) (string, error) { call("same"); return tc.same, nil },
				Open: func() (*app.Director, func(context.Context, string) (int, error), func(), error) {
					call("open")
					if tc.openErr != nil {
						return nil, nil, nil, tc.openErr
					}
					var replace func(context.Context, string) (int, error)
					if tc.file {
						replace = func(_ context.Context, aside string) (int, error) { call("replace " + aside); return 3, nil }
					}
					return app.New(app.Store{Storage: memstore.New()}), replace, func() { call("close backup") }, nil
				},
				Target: func(create bool) (*app.Director, func(), error) {
					call(fmt.Sprint("target ", create))
					err := tc.target[0]
					tc.target = tc.target[1:]
					if err != nil {
						return nil, nil, err
					}
					return app.New(app.Store{Storage: memstore.New(), Backup: restorer{3}}), func() { call("close target") }, nil
				},
				Keep: func(context.Context, *app.Director) (string, error) {
					call("keep")
					return "otd.before-restore.db", tc.keepErr
				},
				Aside: func() string { call("aside"); return "otd.damaged.db" },
			}
			got, err := app.Restore(context.Background(), o)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.err != "" && (err == nil || err.Error() != tc.err):
				t.Errorf("error %v; want %q", err, tc.err)
			case got != tc.want:
				t.Errorf("restored %+v; want %+v", got, tc.want)
			}
			if !slices.Equal(calls, tc.calls) {
				t.Errorf("calls %q; want %q", calls, tc.calls)
			}
			if tc.same != "" && !errors.Is(err, app.ErrNotBackup) {
				t.Errorf("error %v is not ErrNotBackup", err)
			}
		})
	}
}
