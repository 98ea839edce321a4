package cli

import (
	"bufio"
	"bytes"
	"encoding"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/store/sqlite"
	"github.com/otd-project/otd/tournament"
)

// laterColumns are the columns that schemas after the first added, empty
// unless set (the pairing model: plain, the model of the otd of schema 1;
// the rules: othello; the time control: none):
// left out of the dumps, to compare with the states that the otd of schema 1
// wrote.
var laterColumns = map[string]*regexp.Regexp{
	"tournament:": regexp.MustCompile(` (start_date|end_date|city|country|director)=""| pairing="plain"| rules="othello"| time_control=""| name_key="[^"]*"| (final|categories|teams|new_ids)=""| bye_discs=0`),
	"player:":     regexp.MustCompile(` (engine|team|categories|born_date)=""| born=0| new_id=0`),
	"game:":       regexp.MustCompile(` (category|match)=""| game=0| (moves|ending|note)=""`),
}

// recordLine is a tournament's row since schema 17: its settings one
// record, which oldColumns writes as schema 1's columns.
var recordLine = regexp.MustCompile(`^tournament: id=(\d+) created=("[^"]*") settings_version=(\d+) settings=(".*")$`)

// oldColumns writes a tournament's row of schema 17 or later as schema 1's
// columns, to compare with the states that the otd of schema 1 wrote.
func oldColumns(t *testing.T, l string) string {
	m := recordLine.FindStringSubmatch(l)
	if m == nil {
		return l
	}
	record, err := strconv.Unquote(m[4])
	v, _ := strconv.Atoi(m[3])
	var s tournament.Settings
	if err == nil {
		s, err = tournament.DecodeSettings(v, []byte(record))
	}
	if err != nil {
		t.Fatalf("%s: %v", l, err)
	}
	text := func(m encoding.TextMarshaler) string {
		b, err := m.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return fmt.Sprintf("tournament: id=%s name=%q rounds=%d system=%q bq=%q time_default=%q bye_half_points=%d tiebreaks=%q first_round=%q seed=%d created=%s",
		m[1], s.Name, s.Rounds, s.System, text(s.BQ), text(s.TimeDefault), s.ByePoints, text(s.TieBreaks), text(s.FirstRound), int64(s.Seed), m[2])
}

// tables is the dump of a database's tables less the audit trail: what undo
// must restore exactly.
func tables(t *testing.T, db string) string {
	t.Helper()
	s, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var b bytes.Buffer
	if err := s.Dump(&b); err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(b.String(), "\n") {
		for _, p := range []string{"tournament:", "player:", "game:", "final_game:"} {
			if strings.HasPrefix(l, p) {
				if re := laterColumns[p]; re != nil {
					l = re.ReplaceAllString(l, "")
				}
				keep = append(keep, oldColumns(t, l))
			}
		}
	}
	return strings.Join(keep, "\n")
}

// otdRun runs otd on db and fails the test unless it exits 0.
func otdRun(t testing.TB, db string, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := Run(append([]string{"--db", db}, args...), nil, &out, &errb); code != 0 {
		t.Fatalf("otd %v: exit status %d: %s", args, code, errb.String())
	}
	return out.String()
}

// goldenSteps reads testdata/audit-v0/steps.txt: the commands that built
// golden.db with the otd of schema 1, and the tables after each.
func goldenSteps(t *testing.T) (cmds, states []string) {
	f, err := os.Open("testdata/audit-v0/steps.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var cur []string
	for sc.Scan() {
		if cmd, ok := strings.CutPrefix(sc.Text(), "== "); ok {
			if len(cmds) > 0 {
				states = append(states, strings.Join(cur, "\n"))
			}
			cmds, cur = append(cmds, cmd), nil
			continue
		}
		cur = append(cur, sc.Text())
	}
	return cmds, append(states, strings.Join(cur, "\n"))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUndoGoldenV0 undoes, one by one, the audit rows that the otd of schema
// 1 wrote (testdata/audit-v0, never regenerated), and checks that each undo
// gives back the tables exactly as that otd left them before the command.
func TestUndoGoldenV0(t *testing.T) {
	cmds, states := goldenSteps(t)
	if len(cmds) != 19 || len(states) != 19 {
		t.Fatalf("steps.txt: %d commands, %d states; want 19", len(cmds), len(states))
	}
	db := filepath.Join(t.TempDir(), "golden.db")
	copyFile(t, "testdata/audit-v0/golden.db", db)
	if got := tables(t, db); got != states[18] {
		t.Fatalf("the golden database is not the state after the last step:\n%s\nwant\n%s", got, states[18])
	}
	// undos: how many to run, then the step (1-based) whose state they give
	// back. The old 'result undo' (step 11) and the correction it undid (10)
	// are skipped: undone already. The three rows of 'player import' (step 4)
	// take three undos.
	for _, u := range []struct{ undos, step int }{
		{1, 18}, {1, 17}, {1, 16}, {1, 15}, {1, 14}, {1, 13}, {1, 12}, {1, 11}, {1, 8}, {1, 7},
		{1, 6}, {1, 5}, {1, 4}, {3, 3}, {1, 2}, {1, 1},
	} {
		for range u.undos {
			otdRun(t, db, "undo")
		}
		if got := tables(t, db); got != states[u.step-1] {
			t.Fatalf("after undoing back to '%s':\n%s\nwant\n%s", cmds[u.step-1], got, states[u.step-1])
		}
	}
	var out, errb bytes.Buffer
	if code := Run([]string{"--db", db, "undo"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "nothing to undo") {
		t.Errorf("undo of the tournament's creation: exit %d, %q", code, errb.String())
	}
	// The log shows the old rows with their two sides.
	log := otdRun(t, db, "log")
	for _, want := range []string{"3 Cat Cole, 1800, NL", "40-24", "undone by", "round 1: 3 tables"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

// TestUndoGoldenImportV0: an "import elo" row of schema 1 is read, shown,
// and not undone.
func TestUndoGoldenImportV0(t *testing.T) {
	db := filepath.Join(t.TempDir(), "import.db")
	copyFile(t, "testdata/audit-v0/import.db", db)
	before := tables(t, db)
	if log := otdRun(t, db, "log", "--json"); !strings.Contains(log, `"action": "import"`) {
		t.Errorf("log --json: %s", log)
	}
	var out, errb bytes.Buffer
	if code := Run([]string{"--db", db, "undo"}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "nothing to undo") {
		t.Errorf("undo of an import: exit %d, %q", code, errb.String())
	}
	if tables(t, db) != before {
		t.Error("a refused undo changed the tables")
	}
}

// TestUndoRestoresExactly: each kind of change, made by this otd and undone,
// gives back the tables exactly as they were before it.
func TestUndoRestoresExactly(t *testing.T) {
	t.Parallel() // databases of its own
	db := filepath.Join(t.TempDir(), "t.db")
	otdRun(t, db, "tournament", "new", "Undo Open", "--rounds", "4")
	for _, p := range []string{"Ann", "Ben", "Cat", "Dan", "Eve"} {
		otdRun(t, db, "player", "add", p, "--rating", "1500", "--country", "FR")
	}
	for _, tc := range []struct {
		name  string
		setup [][]string // commands run before the change, and not undone
		args  []string   // the change
	}{
		{"player added by mistake", nil, []string{"player", "add", "Mistake"}},
		{"player edited", nil, []string{"player", "edit", "2", "--name", "Ben Brook", "--rating", "1900", "--country", "GB"}},
		{"player removed, the later ones renumbered", nil, []string{"player", "remove", "2"}},
		{"settings changed", nil, []string{"tournament", "set", "--bq", "wof", "--tiebreaks", "points,bq,discs,h2h", "--seed", "9"}},
		{"player absent", nil, []string{"player", "absent", "3", "--round", "2"}},
		{"round paired", nil, []string{"round", "pair"}},
		{"result recorded", nil, []string{"result", "1", "1", "40-22"}},
		{"result corrected", nil, []string{"result", "1", "1", "20-44", "--correct"}},
		{"time default", nil, []string{"result", "1", "2", "30-20", "--time-default", "white"}},
		{"withdrawal", [][]string{{"result", "1", "2", "40-24", "--correct"}}, []string{"player", "withdraw", "4"}},
		{"late entry", nil, []string{"player", "add", "Late Comer"}},
		{"next round paired", nil, []string{"round", "pair"}},
		{"round unpaired", nil, []string{"round", "unpair"}},
		{"forfeit", [][]string{{"round", "pair"}}, []string{"result", "2", "1", "--forfeit", "black"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range tc.setup {
				otdRun(t, db, s...)
			}
			before := tables(t, db)
			otdRun(t, db, tc.args...)
			if tables(t, db) == before {
				t.Fatalf("otd %v changed nothing", tc.args)
			}
			otdRun(t, db, "undo")
			if got := tables(t, db); got != before {
				t.Fatalf("after otd %v and undo:\n%s\nwant\n%s", tc.args, got, before)
			}
			otdRun(t, db, tc.args...) // done again, for the next case to build on
		})
	}
}

// TestUndoSaysWhat: undo says which entry it reverts and what it changes
// back, before -> after; --dry-run says it and changes nothing, exit 0,
// and refuses what undo would refuse (issue 21, item 10).
func TestUndoSaysWhat(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "2")
	db.must("player", "add", "Ann")
	db.must("player", "add", "Ben")
	db.must("round", "pair", "--manual", "--force", "1-2")
	db.must("result", "1", "1", "40-24")
	db.must("result", "1", "1", "24-40", "--correct")
	// Entries: 1 tournament new, 2 and 3 player add, 4 round pair, 5 result, 6 its correction.
	const would = "Would undo: entry 6, result correct: round 1 table 1 (1 Ann - 2 Ben)\n    24-40 -> 40-24\nNothing is changed: a dry run.\n"
	before, log := tables(t, db.path), db.must("log", "--json")
	for _, args := range [][]string{{"undo", "--dry-run"}, {"result", "undo", "--dry-run"}} {
		if out := db.must(args...); out != would {
			t.Errorf("otd %s: %q; want %q", strings.Join(args, " "), out, would)
		}
	}
	if tables(t, db.path) != before || db.must("log", "--json") != log {
		t.Fatal("undo --dry-run changed the database")
	}
	if out, want := db.must("undo"), "Undone: entry 6, result correct: round 1 table 1 (1 Ann - 2 Ben)\n    24-40 -> 40-24\n"; out != want {
		t.Errorf("undo: %q; want %q", out, want)
	}
	if out, want := db.must("undo", "--dry-run"), "Would undo: entry 5, result: round 1 table 1 (1 Ann - 2 Ben)\n    40-24 -> no result\n"; !strings.HasPrefix(out, want) {
		t.Errorf("undo --dry-run: %q; want %q...", out, want)
	}
	// What undo refuses, the dry run refuses alike.
	db.must("round", "pair")
	_, dryErr, dryCode := db.run("result", "undo", "--dry-run")
	_, realErr, realCode := db.run("result", "undo")
	if dryCode != 1 || realCode != 1 || dryErr != realErr || !strings.Contains(dryErr, "nothing to undo of that kind: the last change is entry") {
		t.Errorf("result undo --dry-run after round pair: exit %d, %q; result undo: exit %d, %q; want both exit 1, nothing to undo of that kind", dryCode, dryErr, realCode, realErr)
	}
}
