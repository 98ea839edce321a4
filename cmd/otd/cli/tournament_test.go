package cli

import (
	"testing"

	"github.com/otd-project/otd/tournament"
)

// settingsWith is the zero edit of 'tournament edit' (DefaultSettings("",
// 0)) with the settings edit changes.
func settingsWith(t *testing.T, edit func(*tournament.Settings) error) tournament.Settings {
	t.Helper()
	s := tournament.DefaultSettings("", 0)
	if err := edit(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestTournamentEditFlags(t *testing.T) {
	type o = tournamentEditOptions
	othello := rulesFlags{name: "othello"}
	checkFlags(t, newTournamentEditCmd, []flagCase[o]{
		{args: []string{"tournament", "edit", "--bq", "wof"},
			want: o{Edit: settingsWith(t, func(s *tournament.Settings) error { return s.BQ.UnmarshalText([]byte("wof")) }), Rules: othello, Given: []string{"bq"}}},
		// The country as FRA, the flags given by name in order.
		{args: []string{"tournament", "edit", "--name", "Paris Open 2026", "--city", "Paris", "--country", "FR"},
			want: o{Edit: settingsWith(t, func(s *tournament.Settings) error {
				s.Name, s.City, s.Country = "Paris Open 2026", "Paris", "FRA"
				return nil
			}),
				Rules: othello, Given: []string{"city", "country", "name"}}},
		// A country otd does not know is the tournament's to refuse.
		{args: []string{"tournament", "set", "--country", "Narnia", "--rounds", "9"},
			want: o{Edit: settingsWith(t, func(s *tournament.Settings) error { s.Country, s.Rounds = "Narnia", 9; return nil }),
				Rules: othello, Given: []string{"country", "rounds"}}},
		// The rules are applied to the settings as they are when the action runs.
		{args: []string{"tournament", "edit", "--rules", "anti", "--size", "10"},
			want: o{Edit: tournament.DefaultSettings("", 0), Rules: rulesFlags{name: "anti", size: 10}, Given: []string{"rules", "size"}}},
		{args: []string{"tournament", "edit"}, code: exitUsage, err: "tournament edit: nothing to change: name a setting, e.g. --bq wof"},
		{args: []string{"tournament", "edit", "--rounds", "x"}, code: exitUsage, err: `--rounds "x": not a whole number`},
		{args: []string{"tournament", "edit", "--bq", "sometimes"}, code: exitUsage, err: "sometimes"},
		{args: []string{"tournament", "edit", "7"}, code: exitUsage, err: `unknown command "7"`},
	})
}

func TestTournamentDeleteFlags(t *testing.T) {
	type o = tournamentDeleteOptions
	checkFlags(t, newTournamentDeleteCmd, []flagCase[o]{
		{args: []string{"tournament", "delete", "2"}, want: o{ID: 2}},
		{args: []string{"tournament", "delete", "12", "--yes"}, want: o{ID: 12, Yes: true}},
		{args: []string{"tournament", "delete", "Paris"}, code: exitUsage, err: `tournament delete: ID is a number from 'otd tournament list', not "Paris"`},
		{args: []string{"tournament", "delete"}, code: exitUsage, err: "accepts 1 arg(s), received 0"},
	})
}
