package cli

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPlayLock: while one otd plays a database's games, another is refused
// (it would play the same games again); the lock goes with the first.
func TestPlayLock(t *testing.T) {
	d := newTestDB(t)
	d.must("tournament", "new", "Bots", "--rounds", "1")
	d.must("player", "add", "A", "--engine", "builtin:greedy")
	d.must("player", "add", "B", "--engine", "builtin:random")
	d.must("round", "pair")
	unlock, err := lockPlay(d.path)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"round", "play"}, {"tournament", "run"}} {
		if _, errs, code := d.run(cmd...); code != 1 || !strings.Contains(errs, "is playing this database's games (pid "+strconv.Itoa(os.Getpid())) {
			t.Errorf("otd %s while another plays: exit %d, %s", strings.Join(cmd, " "), code, errs)
		}
	}
	unlock()
	d.must("round", "play")
}
