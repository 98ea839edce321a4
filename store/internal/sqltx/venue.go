package sqltx

import (
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/otd-project/otd/tournament"
)

// VenueKeys returns tournament id's venue keys, zero if none made.
func (t *Tx) VenueKeys(id int64) (tournament.VenueKeys, error) {
	var k tournament.VenueKeys
	var secret, hash, cert, key string
	err := t.tx.QueryRow("SELECT secret, password_hash, cert_pem, key_pem FROM venue_keys WHERE tournament_id = ?", id).Scan(&secret, &hash, &cert, &key)
	if errors.Is(err, sql.ErrNoRows) {
		return k, nil
	}
	if err != nil {
		return k, err
	}
	if k.Secret, err = hex.DecodeString(secret); err != nil {
		return k, fmt.Errorf("tournament %d: %w: the venue's secret", id, t.eng.Damaged)
	}
	k.PasswordHash, k.CertPEM, k.KeyPEM = bytesOrNil(hash), bytesOrNil(cert), bytesOrNil(key)
	if len(k.Secret) == 0 {
		k.Secret = nil
	}
	return k, nil
}

func bytesOrNil(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

// PutVenueKeys replaces tournament id's venue keys with k.
func (t *Tx) PutVenueKeys(id int64, k tournament.VenueKeys) error {
	_, err := t.tx.Exec(`INSERT INTO venue_keys (tournament_id, secret, password_hash, cert_pem, key_pem) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (tournament_id) DO UPDATE SET secret = excluded.secret, password_hash = excluded.password_hash,
		cert_pem = excluded.cert_pem, key_pem = excluded.key_pem`,
		id, hex.EncodeToString(k.Secret), string(k.PasswordHash), string(k.CertPEM), string(k.KeyPEM))
	return err
}

// reportKey is game g's key in the report table: round, board, match, game.
func reportKey(g tournament.GameRef) []any { return []any{g.Round, g.Table, g.Match, g.Game} }

// Reports returns tournament id's reports, by game and side.
func (t *Tx) Reports(id int64) ([]tournament.Report, error) {
	rows, err := t.tx.Query(`SELECT round, board, match, game, side, black_discs, white_discs, moves, called, for_black, for_white, address, at
		FROM report WHERE tournament_id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []tournament.Report
	for rows.Next() {
		var r tournament.Report
		var called int
		var at string
		if err := rows.Scan(&r.Game.Round, &r.Game.Table, &r.Game.Match, &r.Game.Game, &r.Side, &r.Black, &r.White, &r.Moves, &called,
			&r.ForBlack, &r.ForWhite, &r.Address, &at); err != nil {
			return nil, err
		}
		r.Call = called != 0
		if r.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, fmt.Errorf("tournament %d: a report: %w: time %q", id, t.eng.Damaged, at)
		}
		out = append(out, r)
	}
	tournament.SortReports(out) // in Go: the engines' collations differ
	return out, rows.Err()
}

// PutReport stores r, replacing the report of its game and side.
func (t *Tx) PutReport(id int64, r tournament.Report) error {
	args := append(append([]any{id}, reportKey(r.Game)...), string(r.Side), r.Black, r.White, r.Moves, boolInt(r.Call), r.ForBlack, r.ForWhite,
		r.Address, r.At.UTC().Format(time.RFC3339Nano))
	_, err := t.tx.Exec(`INSERT INTO report (tournament_id, round, board, match, game, side, black_discs, white_discs, moves, called, for_black, for_white, address, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tournament_id, round, board, match, game, side) DO UPDATE SET black_discs = excluded.black_discs,
		white_discs = excluded.white_discs, moves = excluded.moves, called = excluded.called, for_black = excluded.for_black,
		for_white = excluded.for_white, address = excluded.address, at = excluded.at`, args...)
	return err
}

// DeleteReports deletes the reports of game g.
func (t *Tx) DeleteReports(id int64, g tournament.GameRef) error {
	_, err := t.tx.Exec("DELETE FROM report WHERE tournament_id = ? AND round = ? AND board = ? AND match = ? AND game = ?",
		append([]any{id}, reportKey(g)...)...)
	return err
}
