package cli

import (
	"io"
	"os"
	"path/filepath"
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
	unlock, err := lockPlay(d.path, "play", io.Discard)
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

	// The lock's file is never written through a symbolic link.
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious"), 0o644)
	os.Remove(d.path + "-play.lock")
	if err := os.Symlink(victim, d.path+"-play.lock"); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := d.run("round", "play"); code == 0 || !strings.Contains(errs, "play lock") {
		t.Errorf("round play with a symbolic link as its lock: exit %d, %s", code, errs)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// TestTimeControlSetting: the tournament keeps the engines' time control;
// round play uses it unless --time says otherwise, and otd's default is a
// minute a side.
func TestTimeControlSetting(t *testing.T) {
	d := newTestDB(t)
	d.must("tournament", "new", "Bots", "--rounds", "3", "--time", "3s/move")
	d.must("player", "add", "A", "--engine", "builtin:greedy")
	d.must("player", "add", "B", "--engine", "builtin:random")
	if out := d.must("tournament", "show"); !strings.Contains(out, "engines' time control: 3s/move") {
		t.Errorf("tournament show:\n%s", out)
	}
	d.must("round", "pair")
	if out := d.must("round", "play"); !strings.Contains(out, "(time control 3s/move)") {
		t.Errorf("round play with the tournament's time control said:\n%s", out)
	}
	d.must("round", "pair")
	if out := d.must("round", "play", "--time", "2m+1s"); !strings.Contains(out, "(time control 2m+1s)") {
		t.Errorf("round play --time said:\n%s", out)
	}
	if _, errs, code := d.run("tournament", "edit", "--time", "fast"); code != exitUsage || !strings.Contains(errs, `"fast"`) {
		t.Errorf("a bad time control: exit %d, %s", code, errs)
	}
	d.must("tournament", "edit", "--time", "")
	d.must("round", "pair")
	if out := d.must("round", "play"); !strings.Contains(out, "(time control 1m)") {
		t.Errorf("round play with otd's default said:\n%s", out)
	}
}
