package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// TestDemoOwnDatabase: 'otd demo' writes its own file, in a new folder of
// the temporary directory, whatever OTD_DB says, and prints its path; with
// --db, the file named.
func TestDemoOwnDatabase(t *testing.T) {
	for _, tc := range []struct {
		name  string
		otdDB bool   // OTD_DB names a director's event
		db    string // --db, relative to a fresh folder; "": none
	}{
		{name: "default"},
		{name: "OTD_DB set", otdDB: true},
		{name: "explicit --db", otdDB: true, db: "mine.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp, work := t.TempDir(), t.TempDir()
			t.Setenv("TMPDIR", tmp)
			event := filepath.Join(work, "event.db")
			t.Setenv("OTD_DB", "")
			if tc.otdDB {
				t.Setenv("OTD_DB", event)
			}
			args := []string{"demo", "--simulated", "--players", "4", "--rounds", "1"}
			want := ""
			if tc.db != "" {
				want = filepath.Join(work, tc.db)
				args = append([]string{"--db", want}, args...)
			}
			var out, errb bytes.Buffer
			if code := Run(args, nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			made, _ := filepath.Glob(filepath.Join(tmp, "otd-demo-*", "otd-demo.db"))
			if want == "" {
				if len(made) != 1 {
					t.Fatalf("files %q in TMPDIR; want one otd-demo-*/otd-demo.db", made)
				}
				want = made[0]
			} else if len(made) != 0 {
				t.Errorf("files %q in TMPDIR; want none with --db", made)
			}
			if !strings.Contains(out.String(), "Database: "+want+" ") {
				t.Errorf("output does not name the database %s:\n%s", want, out.String())
			}
			if _, err := os.Stat(want); err != nil {
				t.Error(err)
			}
			if _, err := os.Stat(event); err == nil {
				t.Errorf("the demo wrote %s, OTD_DB", event)
			}
		})
	}
}

// TestEngineDemo runs the default demo, as the README's first command does:
// a Swiss among engines, every game played by otd, recorded with its
// transcript and replayed; GRhino plays when it is installed (and must be
// under CI).
func TestEngineDemo(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	out, d, rhino := playDemo(t, "demo")
	players := 8
	if rhino {
		players++
	}
	games := 5 * (players / 2) // five rounds, a bye when odd
	want := fmt.Sprintf("%d players, 5 rounds, %d games played by otd, every transcript replayed to its recorded score", players, games)
	if !strings.Contains(out, want) {
		t.Errorf("the demo does not say %q:\n%s", want, out)
	}
	for r := 1; r <= 5; r++ {
		for _, gm := range roundGames(d, r) {
			if gm.Bye {
				continue
			}
			if gm.End == "" || gm.Moves == "" {
				t.Errorf("round %d table %d was not played by otd: %+v", r, gm.Table, gm)
			}
			verifyTranscript(t, gm)
		}
	}
	if rhino && !strings.Contains(out, "GRhino") {
		t.Error("GRhino did not play")
	}
}

// TestChampionshipDemo runs 'otd demo --championship', shortened to 3
// rounds, beside the other tests: the Swiss, then the final phases, every
// game played by otd. What it must show follows from RULES.md section 7,
// whatever the engines play: the final ranking is the final's winner and
// loser, the 3rd-place game's, then the Swiss order; each category's final
// phase is played, or not played because one of its members is in the open
// semi-finals; each team's points are the sum of its best 3 members' Swiss
// points, no youth counted, and equal points share a place.
func TestChampionshipDemo(t *testing.T) {
	t.Parallel() // no fake engine, no global state: beside the demo
	out, d, rhino := playDemo(t, "demo", "--championship", "--rounds", "3")
	players := len(app.ChampionEngines)
	if rhino {
		players++
	}
	want := fmt.Sprintf("%d players, 3 rounds, %d Swiss games and ", players, 3*(players/2))
	for _, s := range []string{want, "final-phase games played by otd, every transcript replayed to its recorded score",
		"\nFinal ranking: the final phase's places, then the Swiss order\n", "\nCategory women: ", "\nCategory youth: ", "\nTeams: "} {
		if !strings.Contains(out, s) {
			t.Errorf("the demo does not say %q:\n%s", s, out)
		}
	}
	var phases []phaseJSON
	d.json(&phases, "final", "show", "--json")
	var final []rankJSON
	d.json(&final, "standings", "--final", "--json")
	var swiss []standingJSON
	d.json(&swiss, "standings", "--json")
	points := map[int]string{}
	for _, r := range swiss {
		points[r.Number] = r.Points.String()
	}
	matches := map[string]matchJSON{}
	semis := map[int]bool{}
	for _, ph := range phases {
		for _, m := range ph.Matches {
			if m.Winner == 0 {
				t.Errorf("%s %s: not decided: %+v", ph.Category, m.Code, m)
			}
			matches[ph.Category+":"+m.Code] = m
			if ph.Category == "" && strings.HasPrefix(m.Code, "SF") {
				semis[m.A], semis[m.B] = true, true
			}
		}
	}
	loser := func(m matchJSON) int { return m.A + m.B - m.Winner }
	f, third := matches[":F"], matches[":3P"]
	for i, n := range []int{f.Winner, loser(f), third.Winner, loser(third)} {
		if final[i].Number != n || !final[i].Final {
			t.Errorf("final ranking %d: player %d (final phase %v); want %d, from the final phase", i+1, final[i].Number, final[i].Final, n)
		}
	}
	for i := 4; i < len(final); i++ {
		if final[i].Final || i > 4 && final[i].SwissRank < final[i-1].SwissRank {
			t.Errorf("final ranking %d: Swiss rank %d after %d (final phase %v): not the Swiss order", i+1, final[i].SwissRank, final[i-1].SwissRank, final[i].Final)
		}
	}
	members := map[string][]int{} // the categories' members: the roster's women, and youths (at most 15 in the event's year)
	for i, e := range app.ChampionEngines {
		if e.Woman {
			members["women"] = append(members["women"], i+1)
		}
		if e.Age != 0 && e.Age <= tournament.DefaultYouthAge {
			members["youth"] = append(members["youth"], i+1)
		}
	}
	for _, ph := range phases[1:] {
		inSemis := slices.ContainsFunc(members[ph.Category], func(n int) bool { return semis[n] })
		if inSemis != (ph.Skipped != "") || !inSemis && !ph.Over {
			t.Errorf("%s's final phase: skipped %q, over %v; its members %v, the open semi-finalists %v", ph.Category, ph.Skipped, ph.Over, members[ph.Category], semis)
		}
	}
	var teams []teamJSON
	d.json(&teams, "teams", "--json")
	half := func(s string) scoring.HalfPoints {
		p, err := scoring.ParseHalfPoints(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for i, tm := range teams {
		var sum scoring.HalfPoints
		for j, n := range tm.Counted {
			sum += half(points[n])
			if n != tm.Members[j] || slices.Contains(members["youth"], n) {
				t.Errorf("team %s counts %d: members %v, youth %v", tm.Name, n, tm.Members, members["youth"])
			}
		}
		rank := i + 1
		if i > 0 && tm.Points == teams[i-1].Points {
			rank = teams[i-1].Rank
		}
		if len(tm.Counted) != min(3, len(tm.Members)) || sum != half(tm.Points.String()) || tm.Rank != rank || i > 0 && sum > half(teams[i-1].Points.String()) {
			t.Errorf("team %s: rank %d, %s points, counted %v of %v; want rank %d, %s points, the best 3, in order", tm.Name, tm.Rank, tm.Points, tm.Counted, tm.Members, rank, sum)
		}
	}
}

// playDemo runs otd with args, a demo among engines, in a database of
// the test's; GRhino plays when it is installed (and must be under CI).
func playDemo(t *testing.T, args ...string) (out string, d *testDB, rhino bool) {
	t.Helper()
	_, err := os.Stat(app.GTPRhino)
	rhino = err == nil
	if !rhino && os.Getenv("CI") == "true" {
		t.Fatalf("%s is missing: required under CI ('make test' installs grhino)", app.GTPRhino)
	}
	d = &testDB{t: t, path: filepath.Join(t.TempDir(), "demo.db")}
	stdout, stderr, code := d.run(args...)
	if code != 0 {
		t.Fatalf("otd %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stdout, d, rhino
}
