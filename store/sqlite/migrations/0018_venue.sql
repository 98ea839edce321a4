-- otd schema 18 (issue 31): the venue. A tournament's keys (made on first
-- use): the secret its report tokens are derived from (hex), the director's
-- password (bcrypt's hash, '' for none), the console's TLS certificate and
-- key (PEM). The players' reports from their phones: one a game and side,
-- replaced when the side reports again, deleted when the game's result is
-- recorded or the director rejects them; each names the game as the
-- director does (a round's by round and table; a final's by match and game,
-- round 0), and the players it was made for.
CREATE TABLE venue_keys (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournament (id) ON DELETE CASCADE,
    secret        TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL DEFAULT '',
    cert_pem      TEXT NOT NULL DEFAULT '',
    key_pem       TEXT NOT NULL DEFAULT ''
);

CREATE TABLE report (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 0), -- 0: a final phase's game
    board         INTEGER NOT NULL CHECK (board >= 0), -- a round's table; 0 for a final's game
    match         TEXT NOT NULL DEFAULT '',
    game          INTEGER NOT NULL DEFAULT 0,
    side          TEXT NOT NULL CHECK (side IN ('black', 'white')),
    black_discs   INTEGER NOT NULL DEFAULT 0,
    white_discs   INTEGER NOT NULL DEFAULT 0,
    moves         TEXT NOT NULL DEFAULT '',
    called        INTEGER NOT NULL DEFAULT 0 CHECK (called IN (0, 1)),
    for_black     INTEGER NOT NULL, -- the players it was made for
    for_white     INTEGER NOT NULL,
    address       TEXT NOT NULL DEFAULT '',
    at            TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round, board, match, game, side)
);
