package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/testenv"
)

// TestWOFArchive2024 indexes the WOF archive's files of 2024 (the whole
// archive is BenchmarkArchiveIndex's): each file is indexed exactly when
// 'otd import elo' imports it, and refused with the same reason otherwise,
// as interchange's TestWOFArchive lists them (interchange/testdata/wof-archive.golden,
// each kind of refusal read against its file); then indexed again after a
// file is removed, added back and changed. The figures of KURITA Seiya
// (5577) were counted by hand in the files: 7 tournaments of 2024; at WOC
// 2024 first with 11.5 points and 579 discs, 13 Swiss games (11 won, 1
// drawn, 1 lost) and 5 of the final phase (4 won, 1 lost), 4 of them
// against SONG Yan (4097): 3 won, 1 lost.
func TestWOFArchive2024(t *testing.T) {
	src := testenv.SharedFile(t, "wof-archive/2024")
	golden, err := os.ReadFile(filepath.Join("..", "..", "interchange", "testdata", "wof-archive.golden"))
	if err != nil {
		t.Fatal(err)
	}
	var imported []string
	refused := map[string]string{}
	for _, line := range strings.Split(string(golden), "\n") {
		name, outcome, _ := strings.Cut(strings.TrimPrefix(line, "2024/"), ": ")
		switch {
		case !strings.HasPrefix(line, "2024/"):
		case strings.HasPrefix(outcome, "imported"):
			imported = append(imported, name)
		default:
			refused[name] = strings.TrimPrefix(outcome, "refused: ")
		}
	}
	// A file 'otd import elo' imports, which the archive refuses: the games
	// of another file of 2024 under another name (its games would count
	// twice).
	const copied, of = "20241119_16_Chansaa_children_222.ELO", "20241019_16_Chansaa_children_2.ELO"
	if i := slices.Index(imported, copied); i >= 0 {
		imported = slices.Delete(imported, i, i+1)
		refused[copied] = "the same games as " + of + " (another name or header): a copy, whose games would count twice; delete one"
	}
	// The folder: links to the files, so that one can be removed and changed.
	dir := t.TempDir()
	names, err := filepath.Glob(filepath.Join(src, "*.ELO"))
	if err != nil || len(names) != 347 || len(imported)+len(refused) != 347 {
		t.Fatalf("%d files, %d in the golden file, %v: want 347", len(names), len(imported)+len(refused), err)
	}
	for _, n := range names {
		if err := os.Symlink(n, filepath.Join(dir, filepath.Base(n))); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	st := openArchiveT(t)
	rep, err := archive.Index(ctx, st, dir, archive.Options{Build: interchange.ArchiveGames})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Added, imported) {
		t.Errorf("%d files indexed, %d imported by 'otd import elo'; first difference: %v",
			len(rep.Added), len(imported), firstDifference(rep.Added, imported))
	}
	if got := problems(rep); !reflect.DeepEqual(got, refused) {
		for name, why := range refused {
			if got[name] != why {
				t.Errorf("%s: refused with %q, want %q", name, got[name], why)
			}
		}
		t.Errorf("%d files refused, want %d", len(got), len(refused))
	}
	// The copy names the file whose games it repeats, as the archive keeps
	// it; a file refused or read names none.
	files, err := st.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if want := map[string]string{copied: of}[f.Path]; f.CopyOf != want {
			t.Errorf("%s: copy of %q, want %q", f.Path, f.CopyOf, want)
		}
	}

	const woc = "20241025_WOC_2024.ELO"
	h, err := archive.PlayerHistory(ctx, st, 5577)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Tournaments) != 7 || h.Latest().Name() != "KURITA, Seiya" {
		t.Fatalf("5577: %s, %d tournaments; want KURITA, Seiya in 7", h.Latest().Name(), len(h.Tournaments))
	}
	last := h.Tournaments[6]
	if last.File != woc || last.Record != (archive.Record{Won: 15, Drawn: 1, Lost: 2}) || last.Entry == nil ||
		last.Entry.Rank != 1 || last.Entry.Score != 23 || last.Entry.Discs != 579 || last.Players != 74 || last.Games != 494 {
		t.Errorf("5577 at WOC 2024: %+v (entry %+v); want first of 74, 11.5 points, 579 discs, 15-1-2, 494 games", last, last.Entry)
	}
	m, err := archive.HeadToHead(ctx, st, 5577, 4097)
	if err != nil || m.Record != (archive.Record{Won: 3, Lost: 1}) {
		t.Errorf("5577 against 4097: %+v, %v; want 3 won, 1 lost", m, err)
	}

	// Incremental: WOC 2024 removed, added back, changed.
	link := filepath.Join(dir, woc)
	os.Remove(link)
	step := func(name string, added, replaced, removed []string) {
		t.Helper()
		rep, err := archive.Index(ctx, st, dir, archive.Options{Build: interchange.ArchiveGames})
		if err != nil {
			t.Fatal(err)
		}
		want := len(imported) - len(added) - len(replaced) - len(removed)
		if !slices.Equal(rep.Added, added) || !slices.Equal(rep.Replaced, replaced) || !slices.Equal(rep.Removed, removed) ||
			rep.Unchanged != want || len(rep.Problems) != len(refused) {
			t.Errorf("%s: added %v, replaced %v, removed %v, %d unchanged, %d not read; want %v, %v, %v, %d, %d",
				name, rep.Added, rep.Replaced, rep.Removed, rep.Unchanged, len(rep.Problems), added, replaced, removed, want, len(refused))
		}
	}
	step("removed", nil, nil, []string{woc})
	if err := os.Symlink(filepath.Join(src, woc), link); err != nil {
		t.Fatal(err)
	}
	step("added back", []string{woc}, nil, nil)
	data, err := os.ReadFile(link)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(link)
	if err := os.WriteFile(link, []byte(strings.Replace(string(data), "%%Tournament: WOC 2024", "%%Tournament: WOC 2024 (Riga)", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	step("changed", nil, []string{woc}, nil)
	tm, err := archive.FindTournament(ctx, st, "WOC 2024 (Riga)")
	if err != nil || len(tm.Games) != 494 {
		t.Errorf("the changed file's tournament: %v; want WOC 2024 (Riga) with 494 games", err)
	}
}

// firstDifference is where two lists of names part.
func firstDifference(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return a[i] + " / " + b[i]
		}
	}
	return "one list is longer"
}
