package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/rating"
)

// The figures of issue 23's done-when on the whole WOF archive (7,305
// files, 1977-2024): index it, add one file, the rating list at
// 2025-01-01. BENCHMARKS.md has the figures.

// readings are the ways the benchmarks read the archive: as 'otd
// import elo' does (a file that contradicts itself refused), with
// every --lenient rule (all but 99 files read), and as the rating list
// does, the default of 'otd archive index' and 'otd rating' (every game).
var readings = []struct {
	name    string
	reading archive.Reading
}{
	{"strict", archive.Reading{}},
	{"lenient", must(archive.ParseReading("sign=discs,rounds=split,totals=games,listed=first", 0))},
	{"list", archive.ListReading},
}

func must(r archive.Reading, err error) archive.Reading {
	if err != nil {
		panic(err)
	}
	return r
}

// wholeArchive is the WOF archive's folder.
func wholeArchive(b *testing.B) string { return testenv.SharedFile(b, "wof-archive") }

// BenchmarkArchiveIndex indexes the whole archive into a new database.
func BenchmarkArchiveIndex(b *testing.B) {
	dir := wholeArchive(b)
	for _, r := range readings {
		b.Run(r.name, func(b *testing.B) {
			var rep *archive.Report
			for b.Loop() {
				b.StopTimer()
				st, err := OpenArchive(filepath.Join(b.TempDir(), "archive.db"), Options{Create: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if rep, err = archive.Index(context.Background(), st, dir, archive.Options{Reading: r.reading, Build: interchange.ArchiveGames}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				st.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(len(rep.Added)), "files")
			b.ReportMetric(float64(len(rep.Problems)), "refused")
			b.ReportMetric(float64(rep.Games), "games")
		})
	}
}

// BenchmarkArchiveAddOne indexes the whole archive (outside the timing),
// then times the index of the folder with one file more: WOC 2024's, the
// archive's largest of 2024.
func BenchmarkArchiveAddOne(b *testing.B) {
	src := wholeArchive(b)
	const added = "2024/20241025_WOC_2024.ELO"
	if _, err := os.Stat(filepath.Join(src, added)); err != nil {
		testenv.Missing(b, filepath.Join(src, added))
	}
	// The folder: links to every file of the archive but the one added.
	dir := b.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if filepath.ToSlash(rel) == added {
			return nil
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.Symlink(p, filepath.Join(dir, rel))
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	st, err := OpenArchive(filepath.Join(b.TempDir(), "archive.db"), Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	o := archive.Options{Build: interchange.ArchiveGames}
	if _, err := archive.Index(ctx, st, dir, o); err != nil {
		b.Fatal(err)
	}
	link := filepath.Join(dir, filepath.FromSlash(added))
	for b.Loop() {
		b.StopTimer()
		if err := os.Symlink(filepath.Join(src, added), link); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep, err := archive.Index(ctx, st, dir, o)
		if err != nil || len(rep.Added) != 1 {
			b.Fatalf("%+v, %v: want one file added", rep, err)
		}
		b.StopTimer()
		os.Remove(link)
		if _, err := archive.Index(ctx, st, dir, o); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkArchiveRating computes the rating list of the whole archive at
// 2025-01-01: straight from the folder (every file read, then the fit), and
// from the archive's database (its games read, then the fit; the index
// outside the timing).
func BenchmarkArchiveRating(b *testing.B) {
	dir := wholeArchive(b)
	ctx := context.Background()
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	report := func(b *testing.B, l *archive.List) {
		listed := 0
		for _, e := range l.Entries {
			listed += btoi(e.Listed)
		}
		b.ReportMetric(float64(l.Games), "games")
		b.ReportMetric(float64(len(l.Entries)), "players")
		b.ReportMetric(float64(listed), "listed")
	}
	for _, r := range readings {
		o := archive.Options{Reading: r.reading, Build: interchange.ArchiveGames}
		b.Run("folder/"+r.name, func(b *testing.B) {
			var l *archive.List
			for b.Loop() {
				f, err := archive.ReadDir(dir, o)
				if err != nil {
					b.Fatal(err)
				}
				if l, err = archive.Rate(ctx, f, at, rating.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			report(b, l)
		})
		b.Run("database/"+r.name, func(b *testing.B) {
			st, err := OpenArchive(filepath.Join(b.TempDir(), "archive.db"), Options{Create: true})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			if _, err := archive.Index(ctx, st, dir, o); err != nil {
				b.Fatal(err)
			}
			var l *archive.List
			for b.Loop() {
				if l, err = archive.Rate(ctx, st, at, rating.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			report(b, l)
		})
	}
}
