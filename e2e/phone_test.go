//go:build e2e

package e2e

import (
	"path/filepath"
	"testing"
)

// TestPhonePagesNoSideScroll opens every public page of the championship
// demo ('otd demo --championship': 13 rounds, final phases, categories,
// teams) on a 360-pixel phone: none may scroll sideways (issue 31, point 4).
// A wide table may scroll inside its own box: the test lists those boxes.
func TestPhonePagesNoSideScroll(t *testing.T) {
	e := build(t)
	e.db = filepath.Join(e.dir, "demo.db")
	e.run("demo", "--championship")
	url := serve(t, e)
	b := newBrowser(t)
	for _, p := range []struct{ name, path string }{
		{"home", ""},
		{"round pairings", "round/1"},
		{"standings", "standings"},
		{"crosstable", "crosstable"},
		{"final", "final"},
		{"categories", "categories"},
		{"teams", "teams"},
		{"player", "player/1"},
		{"game", "round/1/table/1"},
		{"final game", "final/game/1"},
	} {
		t.Run(p.name, func(t *testing.T) {
			tab := b.open(t, url+p.path, phone, "")
			page, window := tab.scrollWidth()
			t.Logf("/%s: %d px wide in a %d px window; boxes that scroll sideways inside it: %q", p.path, page, window, tab.sideBoxes())
			tab.noSideScroll("/" + p.path)
			tab.close()
		})
	}
}
