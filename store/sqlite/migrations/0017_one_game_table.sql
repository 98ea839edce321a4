-- otd schema 17 (issue 29): one games table and the settings as one record.
-- A game is a round's (round 1, 2, ...; board its table) or a final phase's
-- (round 0; board its place in the order paired, the old final_game's seq;
-- its category, match and number in the match): final_game's rows move into
-- game, with game's rules (the once-a-round rule for the rounds' games only).
-- The tournament's settings, one column each until now, become one record
-- (settings, read by tournament.DecodeSettings by its settings_version):
-- version 1 holds each old column's value under the column's name, as this
-- step writes it; otd writes the later versions. Only what SQL must see
-- stays a column: the id, the name's key (unique), the creation time.
DROP TRIGGER game_insert_rules;
DROP TRIGGER game_update_rules;
DROP TRIGGER player_delete_rules;
DROP TRIGGER player_renumber_rules;

CREATE TABLE game_new (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 0), -- 0: a final phase's game
    board         INTEGER NOT NULL CHECK (board > 0),  -- a final phase's game: its place in the order paired
    category      TEXT NOT NULL DEFAULT '', -- a final phase's game: its category ('' the open),
    match         TEXT NOT NULL DEFAULT '', -- its match ('' for a file's added result of no known match)
    game          INTEGER NOT NULL DEFAULT 0, -- and its number in the match
    black         INTEGER NOT NULL,
    white         INTEGER NOT NULL, -- 0 for the bye
    black_discs   INTEGER,          -- NULL until a result is recorded
    white_discs   INTEGER,
    kind          TEXT,             -- normal, time-default, forfeit, no-discs
    loser         TEXT,             -- black or white
    moves         TEXT NOT NULL DEFAULT '',
    ending        TEXT NOT NULL DEFAULT '',
    note          TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, board),
    CHECK (round = 0 AND game > 0 OR round > 0 AND category = '' AND match = '' AND game = 0),
    CHECK ((black_discs IS NULL) = (white_discs IS NULL)),
    CHECK (black_discs IS NULL OR (black_discs BETWEEN 0 AND 256 AND white_discs BETWEEN 0 AND 256 AND black_discs + white_discs <= 256))
);
INSERT INTO game_new (tournament_id, round, board, black, white, black_discs, white_discs, kind, loser, moves, ending, note)
    SELECT tournament_id, round, board, black, white, black_discs, white_discs, kind, loser, moves, ending, note FROM game;
INSERT INTO game_new (tournament_id, round, board, category, match, game, black, white, black_discs, white_discs, kind, loser, moves, ending, note)
    SELECT tournament_id, 0, seq, category, match, game, black, white, black_discs, white_discs, kind, loser, moves, ending, note FROM final_game;
DROP TABLE game;
DROP TABLE final_game;
ALTER TABLE game_new RENAME TO game;
CREATE INDEX game_round_black ON game (tournament_id, round, black);
CREATE INDEX game_round_white ON game (tournament_id, round, white);
CREATE UNIQUE INDEX game_final_match ON game (tournament_id, category, match, game) WHERE round = 0 AND match <> '';

-- Schema 16's rules, the once-a-round rule for the rounds' games (round > 0).
CREATE TRIGGER game_insert_rules BEFORE INSERT ON game
BEGIN
    SELECT RAISE(ABORT, 'otd: a game needs two different players (white 0 for a bye)')
    WHERE NEW.black < 1 OR NEW.white < 0 OR NEW.black = NEW.white;
    SELECT RAISE(ABORT, 'otd: a game''s players must be registered')
    WHERE NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.black)
       OR (NEW.white <> 0 AND NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.white));
    SELECT RAISE(ABORT, 'otd: a player plays once a round')
    WHERE NEW.round > 0 AND (EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.black AND board <> NEW.board)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.white AND board <> NEW.board)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.black
            AND white <> 0 AND board <> NEW.board)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.white
            AND white <> 0 AND board <> NEW.board));
    SELECT RAISE(ABORT, 'otd: a result is normal (a tie may say who lost it), time-default or forfeit with its loser, or no-discs (0-0, its loser or none)')
    WHERE NEW.kind IS NOT NULL AND (NEW.kind <> 'normal' AND NEW.kind <> 'time-default' AND NEW.kind <> 'forfeit' AND NEW.kind <> 'no-discs'
        OR NEW.kind IN ('time-default', 'forfeit') AND NEW.loser IS NULL
        OR NEW.kind = 'normal' AND NEW.loser IS NOT NULL AND NEW.black_discs <> NEW.white_discs
        OR NEW.kind = 'no-discs' AND (NEW.black_discs <> 0 OR NEW.white_discs <> 0)
        OR coalesce(NEW.loser, 'black') NOT IN ('black', 'white'));
END;

CREATE TRIGGER game_update_rules BEFORE UPDATE ON game
BEGIN
    SELECT RAISE(ABORT, 'otd: a game needs two different players (white 0 for a bye)')
    WHERE NEW.black < 1 OR NEW.white < 0 OR NEW.black = NEW.white;
    SELECT RAISE(ABORT, 'otd: a game''s players must be registered')
    WHERE NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.black)
       OR (NEW.white <> 0 AND NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.white));
    SELECT RAISE(ABORT, 'otd: a player plays once a round')
    WHERE NEW.round > 0 AND (EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.black
            AND NOT (round = OLD.round AND board = OLD.board))
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.white
            AND NOT (round = OLD.round AND board = OLD.board))
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.black
            AND white <> 0 AND NOT (round = OLD.round AND board = OLD.board))
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.white
            AND white <> 0 AND NOT (round = OLD.round AND board = OLD.board)));
    SELECT RAISE(ABORT, 'otd: a result is normal (a tie may say who lost it), time-default or forfeit with its loser, or no-discs (0-0, its loser or none)')
    WHERE NEW.kind IS NOT NULL AND (NEW.kind <> 'normal' AND NEW.kind <> 'time-default' AND NEW.kind <> 'forfeit' AND NEW.kind <> 'no-discs'
        OR NEW.kind IN ('time-default', 'forfeit') AND NEW.loser IS NULL
        OR NEW.kind = 'normal' AND NEW.loser IS NOT NULL AND NEW.black_discs <> NEW.white_discs
        OR NEW.kind = 'no-discs' AND (NEW.black_discs <> 0 OR NEW.white_discs <> 0)
        OR coalesce(NEW.loser, 'black') NOT IN ('black', 'white'));
    SELECT RAISE(ABORT, 'otd: a bye has no result')
    WHERE NEW.white = 0 AND NEW.black_discs IS NOT NULL;
END;

CREATE TRIGGER player_delete_rules BEFORE DELETE ON player
WHEN EXISTS (SELECT 1 FROM game WHERE tournament_id = OLD.tournament_id AND (black = OLD.number OR white = OLD.number))
BEGIN
    SELECT RAISE(ABORT, 'otd: the player has games: withdraw them instead');
END;

CREATE TRIGGER player_renumber_rules BEFORE UPDATE OF number, tournament_id ON player
WHEN (NEW.number <> OLD.number OR NEW.tournament_id <> OLD.tournament_id)
    AND EXISTS (SELECT 1 FROM game WHERE tournament_id = OLD.tournament_id AND (black = OLD.number OR white = OLD.number))
BEGIN
    SELECT RAISE(ABORT, 'otd: the player has games: their number cannot change');
END;

ALTER TABLE tournament ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament ADD COLUMN settings TEXT NOT NULL DEFAULT '';
UPDATE tournament SET settings_version = 1, settings = json_object('name', name, 'rounds', rounds, 'system', system, 'bq', bq,
    'time_default', time_default, 'bye_half_points', bye_half_points, 'tiebreaks', tiebreaks, 'first_round', first_round, 'seed', seed,
    'start_date', start_date, 'end_date', end_date, 'city', city, 'country', country, 'director', director, 'pairing', pairing,
    'rules', rules, 'time_control', time_control, 'new_ids', new_ids, 'final', final, 'categories', categories, 'teams', teams,
    'bye_discs', bye_discs);
ALTER TABLE tournament DROP COLUMN name;
ALTER TABLE tournament DROP COLUMN rounds;
ALTER TABLE tournament DROP COLUMN system;
ALTER TABLE tournament DROP COLUMN bq;
ALTER TABLE tournament DROP COLUMN time_default;
ALTER TABLE tournament DROP COLUMN bye_half_points;
ALTER TABLE tournament DROP COLUMN tiebreaks;
ALTER TABLE tournament DROP COLUMN first_round;
ALTER TABLE tournament DROP COLUMN seed;
ALTER TABLE tournament DROP COLUMN start_date;
ALTER TABLE tournament DROP COLUMN end_date;
ALTER TABLE tournament DROP COLUMN city;
ALTER TABLE tournament DROP COLUMN country;
ALTER TABLE tournament DROP COLUMN director;
ALTER TABLE tournament DROP COLUMN pairing;
ALTER TABLE tournament DROP COLUMN rules;
ALTER TABLE tournament DROP COLUMN time_control;
ALTER TABLE tournament DROP COLUMN new_ids;
ALTER TABLE tournament DROP COLUMN final;
ALTER TABLE tournament DROP COLUMN categories;
ALTER TABLE tournament DROP COLUMN teams;
ALTER TABLE tournament DROP COLUMN bye_discs;
