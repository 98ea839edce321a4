-- otd schema 5 on PostgreSQL, SQLite's 18 (issue 31): the venue's keys of a
-- tournament and the players' reports (see SQLite's step).
CREATE TABLE venue_keys (
    tournament_id bigint PRIMARY KEY REFERENCES tournament (id) ON DELETE CASCADE,
    secret        text NOT NULL DEFAULT '',
    password_hash text NOT NULL DEFAULT '',
    cert_pem      text NOT NULL DEFAULT '',
    key_pem       text NOT NULL DEFAULT ''
);

CREATE TABLE report (
    tournament_id bigint NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    round         bigint NOT NULL CHECK (round >= 0),
    board         bigint NOT NULL CHECK (board >= 0),
    match         text   NOT NULL DEFAULT '',
    game          bigint NOT NULL DEFAULT 0,
    side          text   NOT NULL CHECK (side IN ('black', 'white')),
    black_discs   bigint NOT NULL DEFAULT 0,
    white_discs   bigint NOT NULL DEFAULT 0,
    moves         text   NOT NULL DEFAULT '',
    called        bigint NOT NULL DEFAULT 0 CHECK (called IN (0, 1)),
    for_black     bigint NOT NULL,
    for_white     bigint NOT NULL,
    address       text   NOT NULL DEFAULT '',
    at            text   NOT NULL,
    PRIMARY KEY (tournament_id, round, board, match, game, side)
);
