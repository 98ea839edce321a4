-- otd schema 4: the rules every game and player row keeps, enforced by SQLite
-- itself, so that an edit by hand (or by another program) cannot leave a game
-- with an unknown player, a player twice in a round, or a player with games
-- deleted or renumbered. Triggers, not table constraints: SQLite adds neither
-- a foreign key nor a CHECK to an existing table, and they fire whatever the
-- session's foreign_keys setting.
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
