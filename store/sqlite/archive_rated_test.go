package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/rating"
)

// TestArchiveRatedGames: the rating list reads each tournament's games from
// its column rated, which holds the game table's games of two players with
// an id in their order (that of the fit's sums), in an archive indexed at
// this schema and in one indexed at schema 3 and upgraded; a damaged column
// is said, not read as other games.
func TestArchiveRatedGames(t *testing.T) {
	ctx := context.Background()
	dir := archive2023(t, 60)
	index := func(path string) *Archive {
		st, err := OpenArchive(path, Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if _, err := archive.Index(ctx, st, dir, archive.Options{Build: interchange.ArchiveGames}); err != nil {
			t.Fatal(err)
		}
		return st
	}
	// The games as the game table holds them (with '??????', id 0), in order.
	table := func(st *Archive) []rating.Game {
		var games []rating.Game
		err := st.query(ctx, func(r *sql.Rows) error {
			var g rating.Game
			var start string
			if err := r.Scan(&g.A, &g.B, &g.Result, &start); err != nil {
				return err
			}
			var err error
			g.Date, err = days{}.parse(start)
			games = append(games, g)
			return err
		}, `SELECT black, white, result, start_day FROM game JOIN tournament ON id = tournament_id
			WHERE black > 0 AND white > 0 ORDER BY tournament_id, seq`)
		if err != nil {
			t.Fatal(err)
		}
		return games
	}

	current := index(filepath.Join(t.TempDir(), "a.db"))
	// An archive of schema 3: without the column.
	path := filepath.Join(t.TempDir(), "three.db")
	three := index(path)
	if _, err := three.s.db.Exec(`ALTER TABLE tournament DROP COLUMN rated; ALTER TABLE file DROP COLUMN copy_of; PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	three.Close()
	upgraded, err := OpenArchive(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer upgraded.Close()

	for name, st := range map[string]*Archive{"indexed": current, "upgraded": upgraded} {
		want := table(st)
		got, err := st.RatingGames(ctx)
		if err != nil || len(want) < 1000 || !slices.Equal(got, want) {
			t.Errorf("%s: %d games read, %v; the game table has %d: not the same, in order", name, len(got), err, len(want))
		}
	}
	if _, err := current.s.db.Exec(`UPDATE tournament SET rated = '12 34' WHERE id = (SELECT min(id) FROM tournament)`); err != nil {
		t.Fatal(err)
	}
	if _, err := current.RatingGames(ctx); !errors.Is(err, ErrDamaged) {
		t.Errorf("a column rated of two numbers: %v, want %v", err, ErrDamaged)
	}
}
