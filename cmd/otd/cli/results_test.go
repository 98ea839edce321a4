package cli

import (
	"strings"
	"testing"
)

// TestResultEntry: what a director types at the results table (issue 21):
// a score in two words, a time default without a score under fixed, the
// same result twice, and a correction once the next round is paired (said,
// and with --repair the round paired again, undone as a whole).
func TestResultEntry(t *testing.T) {
	d := newTestDB(t)
	d.must("tournament", "new", "Club", "--rounds", "3", "--time-default", "fixed")
	for _, n := range []string{"Ann", "Bob", "Cid", "Dan", "Eve", "Fay"} {
		d.must("player", "add", n)
	}
	d.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4", "--force", "5-6")
	if _, errs, code := d.run("result", "1", "1", "40", "24"); code != exitUsage || !strings.Contains(errs, "write the score as 40-24 (black's discs, a hyphen, white's): 'otd result 1 1 40-24'") {
		t.Errorf("a score in two words: exit %d, %q", code, errs)
	}
	if out := d.must("result", "1", "1", "--time-default", "white"); !strings.Contains(out, "33-31 (white lost on time)") {
		t.Errorf("a time default without a score under fixed: %q", out)
	}
	if _, errs, code := d.run("result", "1", "2", "0-0", "--time-default", "white"); code != exitFailure || !strings.Contains(errs, "0-0") {
		t.Errorf("0-0 as a time default's board: exit %d, %q", code, errs)
	}
	d.must("result", "1", "2", "40-24")
	d.must("result", "1", "3", "40-24")
	if out, errs, code := d.run("result", "1", "2", "40-24"); code != 0 || !strings.Contains(out, "40-24 is recorded already; nothing changed") {
		t.Errorf("the same result again: exit %d, %q %q", code, out, errs)
	}
	d.must("round", "pair")
	before := tables(t, d.path)
	_, errs, code := d.run("result", "1", "2", "24-40", "--correct")
	if code != 0 || !strings.Contains(errs, "otd: note: round 2 was paired on the result before this correction") ||
		!strings.Contains(errs, "'otd result 1 2 24-40 --correct --repair'") {
		t.Errorf("a correction under round 2: exit %d, %q", code, errs)
	}
	d.must("undo")
	if _, errs, code := d.run("result", "1", "2", "24-40", "--repair"); code != exitUsage || !strings.Contains(errs, "add --correct") {
		t.Errorf("--repair without --correct: exit %d, %q", code, errs)
	}
	_, errs, code = d.run("result", "1", "2", "24-40", "--correct", "--repair")
	if code != 0 || !strings.Contains(errs, "round 2 paired again on the corrected scores") {
		t.Errorf("--correct --repair: exit %d, %q", code, errs)
	}
	d.must("undo")
	if after := tables(t, d.path); after != before {
		t.Errorf("undo of --correct --repair did not restore both:\n%s\nwant\n%s", after, before)
	}
}
