-- otd archive schema 1 (OpenArchive): the .ELO files of a folder, their tournaments, the players in
-- their standings and their games. A file's tournament, standings and games go with it (ON DELETE CASCADE).

-- Every .ELO file of the folder indexed: read (its tournament below) or refused (problem says why).
CREATE TABLE file (
    id      INTEGER PRIMARY KEY,
    path    TEXT    NOT NULL UNIQUE CHECK (path <> ''), -- below the folder, '/'-separated
    hash    TEXT    NOT NULL,                           -- SHA-256 of the content, hex
    size    INTEGER NOT NULL,
    reading TEXT    NOT NULL DEFAULT '',                -- how it was read: the --lenient rules and --bye-discs ('' none)
    problem TEXT    NOT NULL DEFAULT ''                 -- why it could not be read; '' when indexed
);

CREATE TABLE tournament (
    id        INTEGER PRIMARY KEY,
    file_id   INTEGER NOT NULL UNIQUE REFERENCES file (id) ON DELETE CASCADE,
    name      TEXT    NOT NULL,
    place     TEXT    NOT NULL, -- %%Country
    start_day TEXT    NOT NULL CHECK (start_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'), -- YYYY-MM-DD
    end_day   TEXT    NOT NULL CHECK (end_day >= start_day),
    rounds    INTEGER NOT NULL
);
CREATE INDEX tournament_start ON tournament (start_day);

-- A line of a tournament's standings: a player by WOF id, named as that file names them.
CREATE TABLE entry (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    rank          INTEGER NOT NULL CHECK (rank > 0), -- place in the published standings
    player        INTEGER NOT NULL CHECK (player >= 0), -- WOF id; 0: the file gives none (??????)
    new           INTEGER NOT NULL DEFAULT 0,        -- written '+': new to the rating list
    last          TEXT    NOT NULL,
    first         TEXT    NOT NULL,
    country       TEXT    NOT NULL,
    score         INTEGER NOT NULL,                  -- half points
    discs         INTEGER NOT NULL,
    rating        INTEGER NOT NULL DEFAULT 0,        -- the rating the file publishes; 0: none
    PRIMARY KEY (tournament_id, rank)
) WITHOUT ROWID;
CREATE INDEX entry_player ON entry (player);

-- A rated game: the Swiss rounds' in order, then those added after them (round 0).
CREATE TABLE game (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    round         INTEGER NOT NULL CHECK (round >= 0),
    black         INTEGER NOT NULL CHECK (black >= 0), -- WOF ids; 0: the file gives none (??????), not rated
    white         INTEGER NOT NULL CHECK (white >= 0 AND white <> black),
    black_discs   INTEGER, -- NULL both: the file gives the result only
    white_discs   INTEGER,
    result        INTEGER NOT NULL CHECK (result IN (1, 2, 3)), -- black's: 1 win, 2 draw, 3 loss
    PRIMARY KEY (tournament_id, seq),
    CHECK ((black_discs IS NULL) = (white_discs IS NULL))
) WITHOUT ROWID;
CREATE INDEX game_black ON game (black, white);
CREATE INDEX game_white ON game (white, black);
