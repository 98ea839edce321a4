package archive_test

import (
	"context"
	"testing"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/rating"
)

// BenchmarkReadDir reads the whole shared archive (7,305 .ELO files) as
// 'otd rating --archive DIR' does: the list's reading (issue 32, point 4).
func BenchmarkReadDir(b *testing.B) {
	dir := testenv.SharedFile(b, "wof-archive")
	for b.Loop() {
		if _, err := archive.ReadDir(dir, archive.Options{Reading: archive.ListReading, Build: interchange.ArchiveGames}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRate computes the list at 2024-11-30 from the whole shared
// archive read into memory: the games taken, the fit, the names.
func BenchmarkRate(b *testing.B) {
	f, err := archive.ReadDir(testenv.SharedFile(b, "wof-archive"), archive.Options{Reading: archive.ListReading, Build: interchange.ArchiveGames})
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2024, 11, 30, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		if _, err := archive.Rate(context.Background(), f, at, rating.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
