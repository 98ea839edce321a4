package sqlite

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/storetest"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/rating"
	"github.com/otd-project/otd/tournament"
)

// eloFile is a small .ELO file: players (id, "SURNAME, First, CTY") and
// one game a round.
func eloFile(date string, players map[int]string, games ...string) string {
	s := "%%Tournament: T " + date + "\n%%Country: France\n%%Date: " + date + "\n"
	for _, id := range slices.Sorted(maps.Keys(players)) {
		s += "%_% " + strconv.Itoa(id) + ", " + players[id] + "\n" // no score, no discs
	}
	for i, g := range games {
		s += "%Round: " + strconv.Itoa(i+1) + "\n" + g + "\n"
	}
	return s
}

// writeFiles writes name: content into dir ("" content removes the file).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if content == "" {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openArchiveT(t *testing.T) *Archive {
	t.Helper()
	st, err := OpenArchive(filepath.Join(t.TempDir(), "archive.db"), Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var (
	ann, bea, cid = "ARCHER, Ann, FRA", "BOND, Bea, GBR", "CRUZ, Cíd, ESP"
	fileA         = eloFile("01/12/2024", map[int]string{1: ann, 2: bea}, "1 (40)>(24) 2", "2 (40)>(24) 1")
	fileB         = eloFile("15/12/2024", map[int]string{1: ann, 3: cid}, "1 (33)>(31) 3")
	fileC         = eloFile("20/12/2024", map[int]string{2: bea, 3: cid}, "3 (32)=(32) 2")
	fileBad       = eloFile("20/12/2024", map[int]string{1: ann, 2: bea}, "1 >> 2")
)

// problems gives a report's problems as path: the start of why.
func problems(r *archive.Report) map[string]string {
	m := map[string]string{}
	for _, p := range r.Problems {
		m[p.Path] = p.Problem
	}
	return m
}

// TestArchiveIndex: a folder indexed, then indexed again after each change:
// files added, changed, removed, refused and mended.
func TestArchiveIndex(t *testing.T) {
	ctx := context.Background()
	st := openArchiveT(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.ELO": fileA, "b.ELO": fileB, "sub/c.elo": fileC, "bad.ELO": fileBad, "copy.ELO": fileA,
		"notes.txt": "not an .ELO file"})
	type want struct {
		files, unchanged, games  int
		added, replaced, removed []string
		problems                 map[string]string // path: a part of why
		tournaments              []string          // the archive's files afterwards, by day
	}
	for _, step := range []struct {
		name   string
		change map[string]string
		again  bool
		want   want
	}{
		{"first", nil, false, want{files: 5, games: 4, added: []string{"a.ELO", "b.ELO", "sub/c.elo"},
			problems:    map[string]string{"bad.ELO": `line 7: a game line is`, "copy.ELO": "the same content as a.ELO"},
			tournaments: []string{"a.ELO", "b.ELO", "sub/c.elo"}}},
		{"unchanged", nil, false, want{files: 5, unchanged: 3,
			problems:    map[string]string{"bad.ELO": `line 7`, "copy.ELO": "the same content as a.ELO"},
			tournaments: []string{"a.ELO", "b.ELO", "sub/c.elo"}}},
		{"b changed, a removed: its copy indexed", map[string]string{"a.ELO": "", "b.ELO": fileB + "%Round: 2\n3 (40)>(24) 1\n"}, false,
			want{files: 4, unchanged: 1, games: 4, added: []string{"copy.ELO"}, replaced: []string{"b.ELO"}, removed: []string{"a.ELO"},
				problems: map[string]string{"bad.ELO": "line 7"}, tournaments: []string{"copy.ELO", "b.ELO", "sub/c.elo"}}},
		{"bad mended", map[string]string{"bad.ELO": strings.Replace(fileBad, "1 >> 2", "1 (64)>(00) 2", 1)}, false,
			want{files: 4, unchanged: 3, games: 1, added: []string{"bad.ELO"}, problems: map[string]string{},
				tournaments: []string{"copy.ELO", "b.ELO", "bad.ELO", "sub/c.elo"}}},
		{"b broken: dropped, reported", map[string]string{"b.ELO": strings.Replace(fileB, "%%Date: 15/12/2024", "%%Date: 15 December", 1)}, false,
			want{files: 4, unchanged: 3, removed: []string{"b.ELO"}, problems: map[string]string{"b.ELO": `%%Date: "15 December": not a day`},
				tournaments: []string{"copy.ELO", "bad.ELO", "sub/c.elo"}}},
		{"again", nil, true, want{files: 4, unchanged: 3, games: 4, problems: map[string]string{"b.ELO": "not a day"},
			tournaments: []string{"copy.ELO", "bad.ELO", "sub/c.elo"}}},
	} {
		writeFiles(t, dir, step.change)
		rep, err := archive.Index(ctx, st, dir, archive.Options{Build: interchange.ArchiveGames, Again: step.again})
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		w := step.want
		if rep.Files != w.files || rep.Unchanged != w.unchanged || rep.Games != w.games || !slices.Equal(rep.Added, w.added) ||
			!slices.Equal(rep.Replaced, w.replaced) || !slices.Equal(rep.Removed, w.removed) {
			t.Errorf("%s: files %d, unchanged %d, games %d, added %v, replaced %v, removed %v;\nwant %d, %d, %d, %v, %v, %v", step.name,
				rep.Files, rep.Unchanged, rep.Games, rep.Added, rep.Replaced, rep.Removed, w.files, w.unchanged, w.games, w.added, w.replaced, w.removed)
		}
		got := problems(rep)
		if len(got) != len(w.problems) {
			t.Errorf("%s: problems %v, want %v", step.name, got, w.problems)
		}
		for p, why := range w.problems {
			if !strings.Contains(got[p], why) {
				t.Errorf("%s: %s: problem %q, want one saying %q", step.name, p, got[p], why)
			}
		}
		list, err := st.Tournaments(ctx, archive.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, s := range list {
			files = append(files, s.File)
		}
		if !slices.Equal(files, w.tournaments) {
			t.Errorf("%s: the archive holds %v, want %v", step.name, files, w.tournaments)
		}
		stored, err := st.Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored) != w.files {
			t.Errorf("%s: %d files stored, want %d", step.name, len(stored), w.files)
		}
	}

	// A folder without an .ELO file changes nothing.
	before, _ := st.Files(ctx)
	_, err := archive.Index(ctx, st, t.TempDir(), archive.Options{Build: interchange.ArchiveGames})
	if !errors.Is(err, archive.ErrNoFiles) {
		t.Errorf("an empty folder: err = %v, want ErrNoFiles", err)
	}
	if _, err := archive.Index(ctx, st, filepath.Join(dir, "missing"), archive.Options{Build: interchange.ArchiveGames}); err == nil {
		t.Error("a missing folder: no error")
	}
	if after, _ := st.Files(ctx); !reflect.DeepEqual(after, before) {
		t.Errorf("files after the refused index %v, want %v", after, before)
	}
}

// TestArchiveQueries: what a rating officer asks of an indexed folder.
func TestArchiveQueries(t *testing.T) {
	ctx := context.Background()
	st := openArchiveT(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"2024/a.ELO": fileA, "2024/b.ELO": fileB, "2024/sub/c.elo": fileC, "bad.ELO": fileBad})
	if _, err := archive.Index(ctx, st, dir, archive.Options{Build: interchange.ArchiveGames}); err != nil {
		t.Fatal(err)
	}

	h, err := archive.PlayerHistory(ctx, st, 1)
	if err != nil {
		t.Fatal(err)
	}
	if h.Record != (archive.Record{Won: 2, Lost: 1}) || len(h.Tournaments) != 2 || h.Latest().Name() != "ARCHER, Ann" {
		t.Errorf("player 1: %+v, %d tournaments; want 2 won, 1 lost in 2", h.Record, len(h.Tournaments))
	}
	if a := h.Tournaments[0]; a.File != "2024/a.ELO" || a.Entry == nil || a.Entry.Rank != 1 || a.Record != (archive.Record{Won: 1, Lost: 1}) ||
		!a.Start.Equal(time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC)) || a.Players != 2 || a.Games != 2 {
		t.Errorf("player 1's first tournament: %+v", a)
	}
	if _, err := archive.PlayerHistory(ctx, st, 4); !errors.Is(err, archive.ErrNotFound) {
		t.Errorf("player 4: err = %v, want ErrNotFound", err)
	}

	m, err := archive.HeadToHead(ctx, st, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Record != (archive.Record{Won: 1, Lost: 1}) || len(m.Games) != 2 || m.Games[0].Black != 1 || m.Games[0].Name != "T 01/12/2024" {
		t.Errorf("2 against 1: %+v, games %+v", m.Record, m.Games)
	}
	if m, err := archive.HeadToHead(ctx, st, 3, 2); err != nil || m.Record != (archive.Record{Drawn: 1}) || !m.Games[0].HasDiscs {
		t.Errorf("3 against 2: %+v, %v; want a draw", m, err)
	}

	for text, want := range map[string][]int{"bond": {2}, "cid": {3}, "CRUZ, Cid": {3}, "cíd cruz": {3}, "a": {1, 2}, "3": {3}, "zed": nil} {
		people, err := archive.FindPlayers(ctx, st, text)
		var ids []int
		for _, p := range people {
			ids = append(ids, p.ID)
		}
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("FindPlayers(%q) = %v, %v; want %v", text, ids, err, want)
		}
	}

	for text, want := range map[string]string{"c.elo": "2024/sub/c.elo", "sub/c.elo": "2024/sub/c.elo", "T 15/12/2024": "2024/b.ELO", "t 01/12/2024": "2024/a.ELO"} {
		tm, err := archive.FindTournament(ctx, st, text)
		if err != nil || tm.File != want {
			t.Errorf("FindTournament(%q): %v, want %s", text, err, want)
		}
	}
	tm, err := archive.FindTournament(ctx, st, "a.ELO")
	if err != nil {
		t.Fatal(err)
	}
	byID, err := archive.FindTournament(ctx, st, strconv.Itoa(int(tm.ID)))
	if err != nil || !reflect.DeepEqual(byID, tm) {
		t.Errorf("by id: %+v, %v; want %+v", byID, err, tm)
	}
	read, _ := archive.ReadELO("2024/a.ELO", []byte(fileA), archive.Reading{}, interchange.ArchiveGames)
	read.ID = tm.ID
	if !reflect.DeepEqual(tm, read) {
		t.Errorf("stored\n%+v\nread\n%+v", tm, read)
	}
	for text, want := range map[string]string{"bad.ELO": "the file could not be read: line 7", "999": "no tournament has that id", "nothing": "no tournament has that id, file or name"} {
		if _, err := archive.FindTournament(ctx, st, text); !errors.Is(err, archive.ErrNotFound) || !strings.Contains(err.Error(), want) {
			t.Errorf("FindTournament(%q): err = %v, want ErrNotFound saying %q", text, err, want)
		}
	}

	list, err := st.Tournaments(ctx, archive.Filter{Player: 3, From: time.Date(2024, 12, 16, 0, 0, 0, 0, time.UTC)})
	if err != nil || len(list) != 1 || list[0].File != "2024/sub/c.elo" || list[0].Entry == nil || list[0].Entry.ID != 3 {
		t.Errorf("player 3's from 2024-12-16: %+v, %v", list, err)
	}
}

// TestArchiveStoreMatchesFolder: the database gives what the folder read
// into memory gives (the two implementations of People and RatingGames),
// and the same rating list, on real files of the WOF archive.
func TestArchiveStoreMatchesFolder(t *testing.T) {
	ctx := context.Background()
	dir := archive2023(t, 120)
	st := openArchiveT(t)
	rep, err := archive.Index(ctx, st, dir, archive.Options{Build: interchange.ArchiveGames})
	if err != nil {
		t.Fatal(err)
	}
	folder, err := archive.ReadDir(dir, archive.Options{Build: interchange.ArchiveGames})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Added)+len(rep.Problems) != 120 || len(folder.Tournaments) != len(rep.Added) || len(rep.Added) < 20 {
		t.Fatalf("%d indexed, %d refused, %d read into memory, of 120", len(rep.Added), len(rep.Problems), len(folder.Tournaments))
	}
	fromDB, err := st.People(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fromFolder, _ := folder.People(ctx)
	if !reflect.DeepEqual(fromDB, fromFolder) {
		t.Errorf("People: the database gives %d players, the folder %d, not the same", len(fromDB), len(fromFolder))
	}
	dbGames, _ := st.RatingGames(ctx)
	folderGames, _ := folder.RatingGames(ctx)
	order := func(a, b rating.Game) int {
		return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B), cmp.Compare(a.Result, b.Result))
	}
	slices.SortFunc(dbGames, order)
	slices.SortFunc(folderGames, order)
	if !slices.Equal(dbGames, folderGames) {
		t.Errorf("RatingGames: %d from the database, %d from the folder, not the same", len(dbGames), len(folderGames))
	}
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	a, err := archive.Rate(ctx, st, at, rating.Options{MinPart: 4})
	if err != nil {
		t.Fatal(err)
	}
	b, err := archive.Rate(ctx, folder, at, rating.Options{MinPart: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Entries) != len(b.Entries) || a.Games != len(dbGames) {
		t.Fatalf("%d and %d entries; %d games counted of %d", len(a.Entries), len(b.Entries), a.Games, len(dbGames))
	}
	rated := 0
	for i := range a.Entries {
		x, y := a.Entries[i], b.Entries[i]
		if x.ID != y.ID || x.Name != y.Name || x.Rated != y.Rated || max(x.Rating-y.Rating, y.Rating-x.Rating) > 1e-6 {
			t.Fatalf("entry %d: %+v from the database, %+v from the folder", i, x, y)
		}
		rated += btoi(x.Rated)
	}
	if rated < 20 {
		t.Errorf("only %d rated", rated)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestOpenArchiveKinds: an archive is not a tournament database, nor the
// other way round, and each says what the file is.
func TestOpenArchiveKinds(t *testing.T) {
	dir := t.TempDir()
	events, archivePath := filepath.Join(dir, "otd.db"), filepath.Join(dir, "archive.db")
	s, err := Open(events, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	storetest.Create(t, s, tournament.DefaultSettings("Open", 5))
	s.Close()
	a, err := OpenArchive(archivePath, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	if _, err := OpenArchive(events, Options{Create: true}); !errors.Is(err, ErrNotArchive) || !strings.Contains(err.Error(), "it is an otd tournament database") {
		t.Errorf("a tournament database opened as an archive: %v", err)
	}
	if _, err := Open(archivePath, Options{Create: true}); !errors.Is(err, ErrNotOTD) || !strings.Contains(err.Error(), "it is an otd archive") {
		t.Errorf("an archive opened as a tournament database: %v", err)
	}
	if _, err := OpenArchive(filepath.Join(dir, "none.db"), Options{}); !errors.Is(err, ErrNoDatabase) {
		t.Errorf("no file: %v, want ErrNoDatabase", err)
	}
}

// archive2023 copies the first n files of the shared archive's 2023 folder
// into a folder of the test's, which it returns.
func archive2023(t *testing.T, n int) string {
	src := testenv.SharedFile(t, "wof-archive/2023")
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries[:n] {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{e.Name(): string(data)})
	}
	return dir
}
