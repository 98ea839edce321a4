package app_test

import (
	"slices"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

// TestDemoYouthFollowsTheEventsYear builds the championship demo's
// tournament on days of several years: its youth (RULES.md section 7: at most
// 15 years old in the event's year) are the three young entrants of the
// roster, Tess, Gwen and Rolf, whatever the year.
func TestDemoYouthFollowsTheEventsYear(t *testing.T) {
	for _, day := range []string{"2026-11-21", "2031-06-01", "2050-01-01"} {
		t.Run(day, func(t *testing.T) {
			date, err := tournament.ParseDate(day)
			if err != nil {
				t.Fatal(err)
			}
			o := app.DemoOptions{Players: len(app.ChampionEngines), Rounds: 13, Seed: 1, Championship: true, Date: date}
			tr := &tournament.Tournament{Settings: app.DemoSettings(o)}
			if err := tr.Validate(); err != nil {
				t.Fatal(err)
			}
			es, _ := app.DemoEntrants(o)
			for _, e := range es {
				if _, err := tr.AddPlayer(e.PlayerInput); err != nil {
					t.Fatal(err)
				}
				if e.Entry != (tournament.PlayerEntry{}) {
					if _, err := tr.EnterPlayer(len(tr.Players), e.Entry); err != nil {
						t.Fatalf("%s: %v", e.Name, err)
					}
				}
			}
			var youth []string
			for _, n := range tr.Members("youth") {
				youth = append(youth, tr.Players[n-1].Name)
			}
			slices.Sort(youth)
			if want := []string{"Gwen (greedy)", "Rolf (random)", "Tess (a-b 3)"}; !slices.Equal(youth, want) {
				t.Errorf("the youth of a demo on %s: %q; want %q", day, youth, want)
			}
		})
	}
}
