package interchange_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

var update = flag.Bool("update", false, "rewrite testdata/wof-archive.golden from this run")

// TestWOFArchive imports every file of ../shared/data/wof-archive (7,305
// files, 1977-2024) as 'otd import elo' does, strictly. A file imported has
// every printed score and disc total reproduced by otd's own standings
// (independently of FromELO's checks: the standings of scoring, plus the
// final games where the file's published scores count them), except where
// otd's rule gives empty squares to the winner and the file does not (the
// import notes those games). Every other file is refused: its reason is
// listed in testdata/wof-archive.golden (go test -run TestWOFArchive
// -update rewrites it), one line a file, and compared. Each refusal is
// confirmed against the file's own lines by confirmRefusal, a reading
// independent of package elo's; those it does not confirm are listed in
// unconfirmed, each with what was found by hand.
func TestWOFArchive(t *testing.T) {
	t.Parallel()
	root := filepath.Join(testenv.SharedData(t), "wof-archive")
	files, err := filepath.Glob(filepath.Join(root, "*", "*.ELO"))
	if err != nil || len(files) != 7305 {
		testenv.Missing(t, fmt.Sprintf("the WOF archive at %s (7,305 .ELO files; found %d, %v)", root, len(files), err))
	}
	out := make([]string, len(files))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				rel, _ := filepath.Rel(root, files[i])
				out[i] = filepath.ToSlash(rel) + ": " + archiveFile(files[i])
				if !strings.Contains(out[i], ": imported") && !strings.Contains(out[i], ": refused: ") {
					t.Errorf("%s", out[i]) // imported, but its figures are not reproduced
				}
				if r, ok := strings.CutPrefix(out[i], filepath.ToSlash(rel)+": refused: "); ok {
					b, _ := os.ReadFile(files[i])
					err := confirmRefusal(string(b), r)
					switch why, listed := unconfirmed[filepath.ToSlash(rel)]; {
					case err != nil && !listed:
						t.Errorf("%s: the refusal is not confirmed by the file's lines: %v\n\t%s", rel, err, r)
					case err == nil && listed:
						t.Errorf("%s: the refusal is confirmed now, not %q: take it out of unconfirmed", rel, why)
					}
				}
			}
		}()
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	for f, why := range unconfirmed {
		if !slices.ContainsFunc(out, func(l string) bool { return strings.HasPrefix(l, f+": refused: ") }) {
			t.Errorf("%s is listed as a refusal not confirmed (%s), and is not refused: take it out of unconfirmed", f, why)
		}
	}
	got := strings.Join(out, "\n") + "\n"
	kinds := map[string]int{}
	for _, l := range out {
		_, r, _ := strings.Cut(l, ": ")
		kinds[kind(r)]++
	}
	t.Logf("the WOF archive: %v", kinds)
	golden := filepath.Join("testdata", "wof-archive.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Errorf("line %d:\n got %s\nwant %s", i+1, g[i], w[i])
				break
			}
		}
		t.Errorf("the archive's imports differ from %s (%d and %d lines)", golden, len(g), len(w))
	}
}

// kind is the kind of an outcome line, for the log.
func kind(r string) string {
	switch {
	case r == "imported":
		return "imported"
	case strings.HasPrefix(r, "imported"):
		return "imported, empties"
	case strings.Contains(r, "sign between"):
		return "sign contradicts discs"
	case strings.Contains(r, "another game in the round"):
		return "paired twice in a round"
	case strings.Contains(r, "published disc total"):
		return "disc total"
	case strings.Contains(r, "published score"):
		return "score"
	case strings.Contains(r, "themselves"):
		return "paired with themselves"
	case strings.Contains(r, "not in the standings"):
		return "player not in the standings"
	}
	return "other"
}

// archiveFile imports one file: "imported", "imported: N disc totals differ
// by the empty squares of lines ...", or "refused: the error".
func archiveFile(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unreadable: " + err.Error()
	}
	f, err := elo.Read(bytes.NewReader(b))
	if err != nil {
		return "refused: " + err.Error()
	}
	s := tournament.DefaultSettings("archive", 1)
	tm, notes, err := interchange.FromELO(f, s)
	if err != nil {
		return "refused: " + err.Error()
	}
	if err := tm.Validate(); err != nil {
		return "INVALID: " + err.Error()
	}
	rows, err := tm.Standings(tm.Rounds)
	if err != nil {
		return "STANDINGS: " + err.Error()
	}
	// The final games count where the file's published scores count them.
	counted := slices.ContainsFunc(notes, func(n string) bool { return strings.HasPrefix(n, "the published scores count the") })
	discsCounted := slices.ContainsFunc(notes, func(n string) bool {
		return strings.HasPrefix(n, "the published scores count the") && !strings.Contains(n, "the disc totals do not") ||
			strings.HasPrefix(n, "the published disc totals count the")
	})
	points, discs := make([]scoring.HalfPoints, len(tm.Players)+1), make([]int, len(tm.Players)+1)
	for _, g := range tm.FinalGames {
		if discsCounted {
			discs[g.Black] += g.Result.Black
			discs[g.White] += g.Result.White
		}
	}
	if counted {
		for _, g := range tm.FinalGames {
			r := g.Result
			switch {
			case r.Kind == tournament.NoDiscs && r.Loser == "" || r.Kind == tournament.Normal && r.Loser == "" && r.Black == r.White:
				points[g.Black] += scoring.Half
				points[g.White] += scoring.Half
			case r.Loser == tournament.White || r.Loser == "" && r.Black > r.White:
				points[g.Black] += scoring.Point
			default:
				points[g.White] += scoring.Point
			}
		}
	}
	// What RULES.md section 2 adds to a game that ends with empty squares:
	// they go to the winner, and a tie is 32-32. A published total that
	// differs from otd's must differ by exactly that.
	extra := make([]int, len(tm.Players)+1)
	for r := 1; r <= tm.Rounds; r++ {
		for _, g := range tm.Round(r) {
			res := g.Result
			if res == nil || res.Kind != tournament.Normal || res.Black+res.White >= 64 {
				continue
			}
			switch {
			case res.Black > res.White:
				extra[g.Black] += 64 - res.White - res.Black
			case res.White > res.Black:
				extra[g.White] += 64 - res.Black - res.White
			default:
				extra[g.Black] += 32 - res.Black
				extra[g.White] += 32 - res.White
			}
		}
	}
	differ := 0
	for _, r := range rows {
		if r.Player > len(f.Standings) {
			continue // a file without standings
		}
		p := f.Standings[r.Player-1]
		if !p.NoScore && r.Points+points[r.Player] != p.Score {
			return fmt.Sprintf("WRONG: %d %s: %v points, published %v", p.ID, p.Last, r.Points+points[r.Player], p.Score)
		}
		if !p.NoDiscs && r.Discs+discs[r.Player] != p.Discs {
			if r.Discs+discs[r.Player] != p.Discs+extra[r.Player] {
				return fmt.Sprintf("WRONG: %d %s: %d discs, published %d (and %d empty squares won)", p.ID, p.Last, r.Discs+discs[r.Player], p.Discs, extra[r.Player])
			}
			differ++
		}
	}
	if differ > 0 {
		return fmt.Sprintf("imported: %s %s by the empty squares otd gives the winner", tournament.Plural(differ, "disc total"), map[bool]string{true: "differs", false: "differ"}[differ == 1])
	}
	return "imported"
}

// TestFromELOAddedCountedLenient: a file whose published scores count its
// %%Added results (Hangzhou 2014: HU's 9 are 7 in the Swiss and 2 final
// wins) is read so with --lenient totals=games too, which then has no
// figure to set aside.
func TestFromELOAddedCountedLenient(t *testing.T) {
	b, err := os.ReadFile(testenv.SharedFile(t, "wof-archive/2014/20140601_1_Hangzhou_Open.ELO"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := elo.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []elo.Lenient{{}, {Totals: "games"}} {
		_, notes, err := interchange.FromELOWith(f, tournament.DefaultSettings("x", 1), l)
		if err != nil {
			t.Fatalf("%+v: %v", l, err)
		}
		all := strings.Join(notes, "\n")
		if !strings.Contains(all, "added after the Swiss (%%Added results)") || strings.Contains(all, "but the games and byes give") {
			t.Errorf("%+v: notes\n%s", l, all)
		}
	}
}
