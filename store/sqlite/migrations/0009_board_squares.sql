-- otd schema 9: a score adds up to the board's playable squares, up to 256
-- on 16x16 (schema 7's variants): the game tables' CHECKs of 64 squares
-- become 256 (the tournament checks its own board's count). SQLite changes no
-- CHECK in place: the tables are rebuilt, and the triggers that name them are
-- dropped and made again as schema 4 wrote them. (A migration of its own:
-- schema 7 was first written without it.)
DROP TRIGGER game_insert_rules;
DROP TRIGGER game_update_rules;
DROP TRIGGER player_delete_rules;
DROP TRIGGER player_renumber_rules;

CREATE TABLE game_new (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round > 0),
    board         INTEGER NOT NULL CHECK (board > 0),
    black         INTEGER NOT NULL,
    white         INTEGER NOT NULL, -- 0 for the bye
    black_discs   INTEGER,          -- NULL until a result is recorded
    white_discs   INTEGER,
    kind          TEXT,             -- normal, time-default, forfeit
    loser         TEXT,             -- black or white, for a time default or a forfeit
    moves         TEXT NOT NULL DEFAULT '',
    ending        TEXT NOT NULL DEFAULT '',
    note          TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round, board),
    CHECK ((black_discs IS NULL) = (white_discs IS NULL)),
    CHECK (black_discs IS NULL OR (black_discs BETWEEN 0 AND 256 AND white_discs BETWEEN 0 AND 256 AND black_discs + white_discs <= 256))
);
INSERT INTO game_new (tournament_id, round, board, black, white, black_discs, white_discs, kind, loser, moves, ending, note)
    SELECT tournament_id, round, board, black, white, black_discs, white_discs, kind, loser, moves, ending, note FROM game;
DROP TABLE game;
ALTER TABLE game_new RENAME TO game;

CREATE TABLE final_game_new (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    black         INTEGER NOT NULL,
    white         INTEGER NOT NULL,
    black_discs   INTEGER NOT NULL CHECK (black_discs BETWEEN 0 AND 256),
    white_discs   INTEGER NOT NULL CHECK (white_discs BETWEEN 0 AND 256),
    PRIMARY KEY (tournament_id, seq)
);
INSERT INTO final_game_new SELECT tournament_id, seq, black, white, black_discs, white_discs FROM final_game;
DROP TABLE final_game;
ALTER TABLE final_game_new RENAME TO final_game;

CREATE TRIGGER game_insert_rules BEFORE INSERT ON game
BEGIN
    SELECT RAISE(ABORT, 'otd: a game needs two different players (white 0 for a bye)')
    WHERE NEW.black < 1 OR NEW.white < 0 OR NEW.black = NEW.white;
    SELECT RAISE(ABORT, 'otd: a game''s players must be registered')
    WHERE NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.black)
       OR (NEW.white <> 0 AND NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.white));
    SELECT RAISE(ABORT, 'otd: a player plays once a round')
    WHERE EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND board <> NEW.board
        AND (black IN (NEW.black, NEW.white) OR (white <> 0 AND white IN (NEW.black, NEW.white))));
    SELECT RAISE(ABORT, 'otd: a result is normal, time-default or forfeit, with its loser')
    WHERE NEW.kind IS NOT NULL AND (NEW.kind NOT IN ('normal', 'time-default', 'forfeit')
        OR (NEW.kind = 'normal') <> (NEW.loser IS NULL) OR coalesce(NEW.loser, 'black') NOT IN ('black', 'white'));
END;

CREATE TRIGGER game_update_rules BEFORE UPDATE ON game
BEGIN
    SELECT RAISE(ABORT, 'otd: a game needs two different players (white 0 for a bye)')
    WHERE NEW.black < 1 OR NEW.white < 0 OR NEW.black = NEW.white;
    SELECT RAISE(ABORT, 'otd: a game''s players must be registered')
    WHERE NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.black)
       OR (NEW.white <> 0 AND NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.white));
    SELECT RAISE(ABORT, 'otd: a player plays once a round')
    WHERE EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round
        AND NOT (round = OLD.round AND board = OLD.board)
        AND (black IN (NEW.black, NEW.white) OR (white <> 0 AND white IN (NEW.black, NEW.white))));
    SELECT RAISE(ABORT, 'otd: a result is normal, time-default or forfeit, with its loser')
    WHERE NEW.kind IS NOT NULL AND (NEW.kind NOT IN ('normal', 'time-default', 'forfeit')
        OR (NEW.kind = 'normal') <> (NEW.loser IS NULL) OR coalesce(NEW.loser, 'black') NOT IN ('black', 'white'));
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
