package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/otd-project/otd/tournament"
)

// TestLogFits80: 'otd log' reads at 80 columns (issue 21, item 10: lines of
// about 340 characters): each entry its number, time, action and subject,
// then who made it ("by ..."), then "before -> after", long lines wrapped at
// spaces, a word longer than a line cut; --wide is the table of one row an
// entry; --json is unchanged.
func TestLogFits80(t *testing.T) {
	t.Setenv("USER", "alice")
	db := newTestDB(t)
	db.must("tournament", "new", "Open", "--rounds", "3")
	long := strings.Repeat("Featherstonehaugh", 6) // 102 characters, no space
	names := []string{"Hansen, Bartholomew Christoffer", "Van der Berg, Johannes Petrus", "Ødegaard, Kristian", long}
	for _, n := range names {
		db.must("player", "add", n, "--country", "NOR")
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	db.must("result", "1", "1", "40-24")
	db.must("player", "withdraw", "1")
	db.must("undo")
	out := db.must("log")
	// Each entry: its first line, then who made it and its two sides, each
	// on a line indented 4; a line indented 6 goes on the one before.
	type entry struct{ head, by, change string }
	var got []entry
	head := regexp.MustCompile(`^(\d+)  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+  (.*)$`)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if w := twwidth.Width(l); w > termWidth {
			t.Errorf("a line of %d columns: %q", w, l)
		}
		m := head.FindStringSubmatch(l)
		switch {
		case m != nil:
			got = append(got, entry{head: m[1] + " " + m[2]})
		case len(got) == 0:
			t.Fatalf("the log starts with %q", l)
		case strings.HasPrefix(l, "      ") && got[len(got)-1].change != "":
			got[len(got)-1].change += " " + l[6:]
		case strings.HasPrefix(l, "      "):
			got[len(got)-1].head += " " + l[6:]
		case strings.HasPrefix(l, "    by ") && got[len(got)-1].by == "":
			got[len(got)-1].by = l[7:]
		case strings.HasPrefix(l, "    ") && got[len(got)-1].by != "" && got[len(got)-1].change == "":
			got[len(got)-1].change = l[4:]
		default:
			t.Errorf("a line neither an entry's first nor indented: %q", l)
		}
	}
	want := []entry{
		{"1 tournament new: Open", "command line (alice)", "- -> name Open, rounds 3, system swiss, bq nearest, time-default complete, bye-points 1, tiebreaks points,bq,discs, first-round rating, seed 1, pairing papp"},
		{"2 player add: player 1 (Hansen, Bartholomew Christoffer)", "command line (alice)", "- -> 1 Hansen, Bartholomew Christoffer, NOR"},
		{"3 player add: player 2 (Van der Berg, Johannes Petrus)", "command line (alice)", "- -> 2 Van der Berg, Johannes Petrus, NOR"},
		{"4 player add: player 3 (Ødegaard, Kristian)", "command line (alice)", "- -> 3 Ødegaard, Kristian, NOR"},
		{"5 player add: player 4 (" + long + ")", "command line (alice)", "- -> 4 " + long[:69] + " " + long[69:] + ", NOR"}, // cut where the line ends
		{"6 round pair: round 1", "command line (alice)", "- -> round 1 table 1: 1-2; round 1 table 2: 3-4; "},               // and the rules of the round
		{"7 result: round 1 table 1 (1 Hansen, Bartholomew Christoffer - 2 Van der Berg, Johannes Petrus)", "command line (alice)", "no result -> 40-24"},
		{"8 player withdraw (undone by 9): player 1 (Hansen, Bartholomew Christoffer)", "command line (alice)",
			"1 Hansen, Bartholomew Christoffer, NOR -> 1 Hansen, Bartholomew Christoffer, NOR, withdrawn before round 2"},
		{"9 undo (undoes 8): player withdraw: player 1 (Hansen, Bartholomew Christoffer)", "command line (alice)",
			"1 Hansen, Bartholomew Christoffer, NOR, withdrawn before round 2 -> 1 Hansen, Bartholomew Christoffer, NOR"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries; want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		switch i + 1 {
		case 5: // the name is cut where the heading's line ends, after a time of any zone
			for k := range len(long) {
				got[i].head = strings.Replace(got[i].head, long[:k]+" "+long[k:], long, 1)
			}
		case 6:
			got[i].change, _, _ = strings.Cut(got[i].change, "round 1 rules")
		}
		if got[i] != want[i] {
			t.Errorf("entry %d:\n%q\n%q\n%q\nwant\n%q\n%q\n%q", i+1, got[i].head, got[i].by, got[i].change, want[i].head, want[i].by, want[i].change)
		}
	}
	// A short entry is two lines; the long name is cut at column 80: 11
	// columns of "    - -> 4 ", then 69 of the name.
	for _, w := range []string{"  result: round", "\n    no result -> 40-24\n", "\n    - -> 4 " + long[:69] + "\n      " + long[69:] + ", NOR\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("log lacks %q:\n%s", w, out)
		}
	}
	const entries = 9

	wide := db.must("log", "--wide")
	rows := 0
	for _, l := range strings.Split(wide, "\n") {
		if strings.HasPrefix(l, "│") {
			rows++
		}
	}
	if rows != entries+1 || !strings.Contains(wide, "│ no result ") {
		t.Errorf("log --wide: %d rows; want a header and %d entries:\n%s", rows, entries, wide)
	}
	var js []map[string]any
	if err := json.Unmarshal([]byte(db.must("log", "--json")), &js); err != nil || len(js) != entries {
		t.Errorf("log --json: %d entries, %v; want %d", len(js), err, entries)
	}
}

// TestWrap: wrap breaks at spaces within 80 columns, keeps runs of spaces
// and the text's indent, and cuts a word longer than a line.
func TestWrap(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"short", "short\n"},
		{"1  two  spaces kept", "1  two  spaces kept\n"},
		{"    " + strings.Repeat("abcd ", 16) + "end", "    " + strings.Repeat("abcd ", 14) + "abcd\n  abcd end\n"}, // 4 + 74 columns, and 5 more would be 83
		{strings.Repeat("x", 170), strings.Repeat("x", 80) + "\n  " + strings.Repeat("x", 78) + "\n  " + strings.Repeat("x", 12) + "\n"},
		{"a " + strings.Repeat("é", 85), "a " + strings.Repeat("é", 78) + "\n  " + strings.Repeat("é", 7) + "\n"}, // cut where the line ends: no line of "a" alone
		{strings.Repeat("漢", 41), strings.Repeat("漢", 40) + "\n  漢\n"},                                            // 2 columns each
	} {
		var b strings.Builder
		wrap(&b, tc.text, "  ")
		if b.String() != tc.want {
			t.Errorf("wrap(%q):\n%s\nwant\n%s", tc.text, b.String(), tc.want)
		}
	}
}

// TestLogNamesEveryActor: every change, of every kind (the creation, an
// import, each player, pairing and result action, the final phase, an
// undo), names who made it in 'otd log' and 'otd log --json': at the
// command line, its user ($USER).
func TestLogNamesEveryActor(t *testing.T) {
	t.Setenv("USER", "alice")
	db := newTestDB(t)
	for _, args := range [][]string{
		{"tournament", "new", "A", "--rounds", "1", "--final", "top=2,bestof=1"},
		{"player", "add", "Ann"}, {"player", "add", "Bob"}, {"player", "add", "Cy"}, {"player", "add", "Di"}, {"player", "add", "Eve"},
		{"player", "edit", "4", "--rating", "1500"}, {"player", "absent", "4", "--round", "1"}, {"player", "remove", "5"},
		{"player", "withdraw", "3"}, {"tournament", "set", "--bq", "wof"}, {"tournament", "edit", "--new-ids", "50321-59999"},
		{"pair", "forbid", "1", "2"}, {"pair", "allow", "1", "2"},
		{"round", "pair"}, {"round", "unpair"}, {"player", "edit", "4", "--rating", "1400"}, {"undo"}, {"round", "pair"},
		{"result", "1", "1", "40-24"}, {"result", "1", "1", "24-40", "--correct"},
		{"final", "start"}, {"result", "PO", "1", "40-24"}, {"result", "undo"},
	} {
		db.must(args...)
	}
	elo := filepath.Join(filepath.Dir(db.path), "a.elo")
	db.must("export", "elo", elo)
	db.must("import", "elo", elo, "--name", "B")
	seen := map[tournament.Action]bool{}
	for _, id := range []string{"1", "2"} {
		var log []logJSON
		db.json(&log, "log", "--json", "--tournament", id)
		for _, e := range log {
			seen[tournament.Action(e.Action)] = true
			if e.Actor == nil || !reflect.DeepEqual(*e.Actor, actorJSON{Kind: "command line", Name: "alice", Text: "command line (alice)"}) {
				t.Errorf("tournament %s, entry %d (%s %s): actor %+v; want the command line of alice", id, e.ID, e.Action, e.Subject, e.Actor)
			}
		}
		text := db.must("log", "--tournament", id)
		if by := strings.Count(text, "\n    by command line (alice)\n"); by != len(log) {
			t.Errorf("tournament %s: 'otd log' names the actor of %d entries of %d:\n%s", id, by, len(log), text)
		}
	}
	for _, a := range []tournament.Action{tournament.ActTournamentNew, tournament.ActImport, tournament.ActSettings, tournament.ActPlayerAdd,
		tournament.ActPlayerEdit, tournament.ActPlayerWithdraw, tournament.ActPlayerAbsent, tournament.ActPlayerRemove, tournament.ActRoundPair,
		tournament.ActRoundUnpair, tournament.ActPairForbid, tournament.ActPairAllow, tournament.ActFinalNext, tournament.ActResult,
		tournament.ActResultCorrect, tournament.ActUndo} {
		if !seen[a] {
			t.Errorf("no %s in the logs: the test misses a kind of change", a)
		}
	}
}
