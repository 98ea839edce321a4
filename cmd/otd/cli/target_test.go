package cli

import (
	"strings"
	"testing"
	"time"
)

// TestRoundPlayKeepsItsTournament: while 'round play' plays tournament A's
// slow engine games, the director creates tournament B (which becomes the
// current one), registers two people and pairs B's round 1, whose table 1 has
// the same round, table and player numbers as A's. Every game of A must be
// recorded in A, with exit status 0, and nothing in B: the round being played
// keeps the tournament it started with.
func TestRoundPlayKeepsItsTournament(t *testing.T) {
	t.Parallel() // its fakes are marked with its name: it waits for its own alone
	mark := "test=" + t.Name()
	d := newTestDB(t)
	d.must("tournament", "new", "A", "--rounds", "1")
	// The slow engine's second move comes after a second: the game lasts
	// long enough for B to be made meanwhile.
	d.must("player", "add", "Slow", "--engine", engineSpec("gtp", "late", 2, "delay=1s", "quiet", mark), "--no-check")
	d.must("player", "add", "Quick", "--engine", engineSpec("gtp", "good", 0, "quiet", mark), "--no-check")
	d.must("round", "pair")
	type played struct {
		out, errs string
		code      int
	}
	done := make(chan played, 1)
	go func() {
		out, errs, code := d.run("round", "play", "--time", "20s/move", "--concurrency", "2")
		done <- played{out, errs, code}
	}()
	// B is made once the engines run (the games have started).
	for deadline := time.Now().Add(hang); len(fakeProcesses(t, mark)) == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("the engines of round play did not start within %v", hang)
		}
		time.Sleep(20 * time.Millisecond)
	}
	d.must("tournament", "new", "B", "--rounds", "1")
	d.must("player", "add", "Alice")
	d.must("player", "add", "Bob")
	d.must("round", "pair")
	var p played
	select {
	case p = <-done:
	case <-time.After(hang):
		t.Fatalf("round play did not end within %v", hang)
	}
	if p.code != 0 || !strings.Contains(p.out, "round 1: 1 engine games played") {
		t.Errorf("round play: exit %d:\n%s%s", p.code, p.out, p.errs)
	}
	// B is the current tournament now: its round has no result.
	for _, gm := range roundGames(d, 1) {
		if gm.BlackDiscs != nil || gm.Moves != "" {
			t.Errorf("tournament B got a result: %+v", gm)
		}
	}
	d.must("tournament", "use", "1")
	games := roundGames(d, 1)
	if len(games) != 1 {
		t.Fatalf("tournament A has %d games in round 1; want 1", len(games))
	}
	for _, gm := range games {
		if gm.BlackDiscs == nil || gm.Moves == "" {
			t.Errorf("tournament A's game not recorded: %+v", gm)
			continue
		}
		verifyTranscript(t, gm)
	}
}

// TestTournamentFlag: --tournament (or OTD_TOURNAMENT) names the tournament
// a command acts on, by id or by name in any case, whatever the current one
// is; an unknown one is wrong usage that says where to look.
func TestTournamentFlag(t *testing.T) {
	d := newTestDB(t)
	d.must("tournament", "new", "Paris Open", "--rounds", "3")
	d.must("tournament", "new", "Club Night", "--rounds", "2")
	d.must("--tournament", "paris open", "player", "add", "Ann Archer")
	d.must("--tournament", "1", "player", "add", "Bob Baker")
	t.Setenv("OTD_TOURNAMENT", "2")
	d.must("player", "add", "Cy Cole")
	t.Setenv("OTD_TOURNAMENT", "")
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"--tournament", "Paris Open", "player", "list", "--json"}, 2},
		{[]string{"player", "list", "--json"}, 1}, // the current one: Club Night
	} {
		var players []map[string]any
		d.json(&players, c.args...)
		if len(players) != c.want {
			t.Errorf("otd %s: %d players; want %d", strings.Join(c.args, " "), len(players), c.want)
		}
	}
	for _, bad := range []string{"3", "Lyon Open", "0"} {
		if _, errs, code := d.run("--tournament", bad, "standings"); code != exitUsage || !strings.Contains(errs, "--tournament \""+bad+"\": no tournament") ||
			!strings.Contains(errs, "otd tournament list") {
			t.Errorf("--tournament %s: exit %d, %q", bad, code, errs)
		}
	}
}
