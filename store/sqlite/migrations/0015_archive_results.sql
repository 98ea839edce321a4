-- otd schema 15: the results of the WOF archive's files (issue 23). A
-- result without discs ('no-discs', 0-0: older events' files write only who
-- won), with the colour that lost or none for a draw; a tie on the board may
-- say who lost it (a Japanese file's "(32)>(32)"), as a final game's does.
-- tournament.bye_discs: the discs a bye counts, 0 for otd's 32 (Papp counts
-- 40).
ALTER TABLE tournament ADD COLUMN bye_discs INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER game_insert_rules;
DROP TRIGGER game_update_rules;

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
    SELECT RAISE(ABORT, 'otd: a result is normal (a tie may say who lost it), time-default or forfeit with its loser, or no-discs (0-0, its loser or none)')
    WHERE NEW.kind IS NOT NULL AND (NEW.kind NOT IN ('normal', 'time-default', 'forfeit', 'no-discs')
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
    WHERE EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round
        AND NOT (round = OLD.round AND board = OLD.board)
        AND (black IN (NEW.black, NEW.white) OR (white <> 0 AND white IN (NEW.black, NEW.white))));
    SELECT RAISE(ABORT, 'otd: a result is normal (a tie may say who lost it), time-default or forfeit with its loser, or no-discs (0-0, its loser or none)')
    WHERE NEW.kind IS NOT NULL AND (NEW.kind NOT IN ('normal', 'time-default', 'forfeit', 'no-discs')
        OR NEW.kind IN ('time-default', 'forfeit') AND NEW.loser IS NULL
        OR NEW.kind = 'normal' AND NEW.loser IS NOT NULL AND NEW.black_discs <> NEW.white_discs
        OR NEW.kind = 'no-discs' AND (NEW.black_discs <> 0 OR NEW.white_discs <> 0)
        OR coalesce(NEW.loser, 'black') NOT IN ('black', 'white'));
    SELECT RAISE(ABORT, 'otd: a bye has no result')
    WHERE NEW.white = 0 AND NEW.black_discs IS NOT NULL;
END;

