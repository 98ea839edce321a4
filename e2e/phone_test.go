//go:build e2e

package e2e

import (
	"path/filepath"
	"testing"
)

// TestPhonePagesNoSideScroll opens every public page of the championship
// demo ('otd demo --championship': 13 rounds, final phases, categories,
// teams) on a 360-pixel phone: none may scroll sideways (issue 31, point 4).
// Nor may a table be cut inside a box that scrolls sideways (the White
// column cut at the edge, as issue 31 found): tables become cards. Only the
// crosstable, a grid of every player against every player, scrolls in its
// own box. In English, French and Japanese.
func TestPhonePagesNoSideScroll(t *testing.T) {
	e := build(t)
	e.db = filepath.Join(e.dir, "demo.db")
	e.run("demo", "--championship")
	url := serve(t, e)
	b := newBrowser(t)
	for _, p := range []struct {
		name, path string
		grid       bool // may scroll sideways inside its own box
	}{
		{"home", "", false},
		{"round pairings", "round/1", false},
		{"standings", "standings", false},
		{"crosstable", "crosstable", true},
		{"final", "final", false},
		{"categories", "categories", false},
		{"teams", "teams", false},
		{"player", "player/1", false},
		{"game", "round/1/table/1", false},
		{"final game", "final/game/1", false},
	} {
		for _, lang := range []string{"en", "fr", "ja"} {
			t.Run(p.name+"/"+lang, func(t *testing.T) {
				tab := b.open(t, url+p.path, phone, lang)
				page, window := tab.scrollWidth()
				boxes := tab.sideBoxes()
				t.Logf("/%s: %d px wide in a %d px window; boxes that scroll sideways inside it: %q", p.path, page, window, boxes)
				tab.noSideScroll("/" + p.path)
				if len(boxes) > 0 && !p.grid {
					t.Errorf("/%s (%s): cut inside a box that scrolls sideways: %q", p.path, lang, boxes)
				}
				tab.close()
			})
		}
	}
}
