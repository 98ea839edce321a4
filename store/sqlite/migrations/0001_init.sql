-- otd schema 1: tournaments, players, games with their results, an audit trail.
CREATE TABLE tournament (
    id             INTEGER PRIMARY KEY,
    name           TEXT    NOT NULL,
    rounds         INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 99),
    system         TEXT    NOT NULL CHECK (system IN ('swiss', 'roundrobin')),
    bq             TEXT    NOT NULL,
    time_default   TEXT    NOT NULL CHECK (time_default IN ('complete', 'fixed', 'wipeout')),
    bye_half_points INTEGER NOT NULL CHECK (bye_half_points IN (1, 2)),
    tiebreaks      TEXT    NOT NULL,
    first_round    TEXT    NOT NULL CHECK (first_round IN ('rating', 'random')),
    seed           INTEGER NOT NULL,
    created        TEXT    NOT NULL
);

CREATE TABLE player (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL CHECK (number > 0),
    name          TEXT    NOT NULL CHECK (name <> ''),
    fed_id        INTEGER NOT NULL DEFAULT 0, -- the federation's (WOF) id, 0 if none
    rating        INTEGER NOT NULL DEFAULT 0,
    country       TEXT    NOT NULL DEFAULT '',
    first_round   INTEGER NOT NULL DEFAULT 1,
    left_round    INTEGER NOT NULL DEFAULT 0, -- 0, or the first round missed after withdrawing
    absent        TEXT    NOT NULL DEFAULT '', -- rounds missed, comma-separated
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE game (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round > 0),
    board         INTEGER NOT NULL CHECK (board > 0),
    black         INTEGER NOT NULL,
    white         INTEGER NOT NULL, -- 0 for the bye
    black_discs   INTEGER,          -- NULL until a result is recorded
    white_discs   INTEGER,
    kind          TEXT,             -- normal, time-default, forfeit
    loser         TEXT,             -- black or white, for a time default or a forfeit
    PRIMARY KEY (tournament_id, round, board),
    CHECK ((black_discs IS NULL) = (white_discs IS NULL)),
    CHECK (black_discs IS NULL OR (black_discs BETWEEN 0 AND 64 AND white_discs BETWEEN 0 AND 64 AND black_discs + white_discs <= 64))
);

-- Games played after the Swiss rounds (semi-finals, finals), in order.
CREATE TABLE final_game (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    black         INTEGER NOT NULL,
    white         INTEGER NOT NULL,
    black_discs   INTEGER NOT NULL CHECK (black_discs BETWEEN 0 AND 64),
    white_discs   INTEGER NOT NULL CHECK (white_discs BETWEEN 0 AND 64),
    PRIMARY KEY (tournament_id, seq)
);

CREATE TABLE audit (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournament (id) ON DELETE CASCADE,
    at            TEXT    NOT NULL,
    action        TEXT    NOT NULL, -- e.g. "result", "result undo", "player add", "round pair"
    subject       TEXT    NOT NULL, -- what it changed, in words
    before        TEXT    NOT NULL DEFAULT '', -- JSON, '' when nothing was there
    after         TEXT    NOT NULL DEFAULT '',
    undone        INTEGER NOT NULL DEFAULT 0  -- the id of the audit row that undid it
);

CREATE TABLE setting (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
