package postgres

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/otd-project/otd/internal/testenv"
)

// TestOnceARoundLooksUp: the rule "a player plays once a round" looks the
// game's players up (schema 3), instead of reading every game of the round
// for each game written, which made a round of 50,000 games quadratic
// (issue 28): a game added to a round of 2,000 games reads a handful of
// rows of game, counted by PostgreSQL in the transaction.
func TestOnceARoundLooksUp(t *testing.T) {
	ctx := context.Background()
	url := testenv.Postgres(t)
	s, err := Open(url, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	const round = `INSERT INTO tournament (id, settings_version, settings, created, name_key) VALUES (1, 2, '{"name":"T"}', 'now', 'T');
	INSERT INTO player (tournament_id, number, name) SELECT 1, n, 'P' || n FROM generate_series(1, 4002) n;
	INSERT INTO game (tournament_id, round, board, black, white) SELECT 1, 1, k, 2 * k - 1, 2 * k FROM generate_series(1, 2000) k`
	if _, err := tx.Exec(ctx, round); err != nil {
		t.Fatal(err)
	}
	read := func() (n int64) {
		t.Helper()
		if err := tx.QueryRow(ctx, "SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables WHERE relname = 'game'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// The counts are the transaction's as it goes: reading the round
	// counts its 2,000 games.
	before := read()
	var games int64
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM game WHERE tournament_id = 1 AND round = 1 AND note = ''").Scan(&games); err != nil {
		t.Fatal(err)
	}
	if d := read() - before; games != 2000 || d < games {
		t.Fatalf("reading %d games of the round counted %d rows read: the test tests nothing", games, d)
	}
	before = read()
	if _, err := tx.Exec(ctx, "INSERT INTO game (tournament_id, round, board, black, white) VALUES (1, 1, 2001, 4001, 4002)"); err != nil {
		t.Fatal(err)
	}
	if d := read() - before; d > 10 {
		t.Errorf("a game added to a round of 2,000 read %d rows of game; want a handful (the players' games)", d)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO game (tournament_id, round, board, black, white) VALUES (1, 1, 2002, 4002, 1)"); err == nil {
		t.Error("a player paired twice in the round was let in")
	}
}
