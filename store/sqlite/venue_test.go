package sqlite

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

// TestReportsSurviveReopening: the venue's reports live in the database
// (issue 31): a file closed and opened again, as by a restart of serve or a
// laptop that slept, holds them, and the tokens still work.
func TestReportsSurviveReopening(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "otd.db")
	s, err := Open(path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	d := app.New(s.App())
	tm, err := d.Create(ctx, tournament.DefaultSettings("Venue", 3))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.RegisterAll(ctx, tm.ID, []app.Entrant{{PlayerInput: tournament.PlayerInput{Name: "Ann"}}, {PlayerInput: tournament.PlayerInput{Name: "Bob"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pair(ctx, tm.ID, tournament.PairOptions{}); err != nil {
		t.Fatal(err)
	}
	links, err := d.ReportLinks(ctx, tm.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 14, 2, 11, 0, time.UTC)
	before, err := d.Report(ctx, tm.ID, links[0].Black.Long, app.ReportInput{Black: 40, White: 24}, "10.0.0.1", at)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d = app.New(s.App())
	r, err := d.Reporting(ctx, tm.ID, links[0].Black.Short)
	if err != nil || r.Reported == nil || !reflect.DeepEqual(r.Table, before.Table) {
		t.Fatalf("after reopening: %+v, %v; want %+v", r, err, before.Table)
	}
	if v, err := d.Report(ctx, tm.ID, links[0].White.Long, app.ReportInput{Black: 40, White: 24}, "10.0.0.2", at); err != nil || v.Table.State != app.Recorded {
		t.Errorf("white's report after reopening: %+v, %v; want recorded", v, err)
	}
}
