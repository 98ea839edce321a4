-- otd schema 17: the game rules of schema 16 without a list that SQLite
-- makes into a table of its own each time a rule is checked (issue 28): "black
-- IN (NEW.black, NEW.white)", looked up in an index, and "kind NOT IN (four
-- kinds)" built a temporary b-tree for every game inserted or updated, half
-- the cost of inserting a game. The same rules, in the same order, with the
-- same messages: each player is looked up alone in the round's blacks and
-- whites, and the kinds are compared one by one.
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
    WHERE EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.black AND board <> NEW.board)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.white AND board <> NEW.board)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.black
            AND white <> 0 AND board <> NEW.board)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.white
            AND white <> 0 AND board <> NEW.board);
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
    WHERE EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.black
            AND NOT (round = OLD.round AND board = OLD.board))
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND black = NEW.white
            AND NOT (round = OLD.round AND board = OLD.board))
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.black
            AND white <> 0 AND NOT (round = OLD.round AND board = OLD.board))
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND round = NEW.round AND white = NEW.white
            AND white <> 0 AND NOT (round = OLD.round AND board = OLD.board));
    SELECT RAISE(ABORT, 'otd: a result is normal (a tie may say who lost it), time-default or forfeit with its loser, or no-discs (0-0, its loser or none)')
    WHERE NEW.kind IS NOT NULL AND (NEW.kind <> 'normal' AND NEW.kind <> 'time-default' AND NEW.kind <> 'forfeit' AND NEW.kind <> 'no-discs'
        OR NEW.kind IN ('time-default', 'forfeit') AND NEW.loser IS NULL
        OR NEW.kind = 'normal' AND NEW.loser IS NOT NULL AND NEW.black_discs <> NEW.white_discs
        OR NEW.kind = 'no-discs' AND (NEW.black_discs <> 0 OR NEW.white_discs <> 0)
        OR coalesce(NEW.loser, 'black') NOT IN ('black', 'white'));
    SELECT RAISE(ABORT, 'otd: a bye has no result')
    WHERE NEW.white = 0 AND NEW.black_discs IS NOT NULL;
END;
