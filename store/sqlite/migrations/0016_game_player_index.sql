-- otd schema 16 (issue 28): the game rules without reading every game of the
-- round, nor building a table of their own each time they are checked.
-- "A player plays once a round" read every game of the round for each game
-- written (importing a round of 50,000 games read 1.25 billion rows, and
-- 'otd import elo' of 100,000 players took minutes): each player is now
-- looked up alone in indexes of the round's blacks and whites. A list ("black
-- IN (NEW.black, NEW.white)", "kind NOT IN (four kinds)") made SQLite build a
-- temporary b-tree for every game, half the cost of inserting one: the kinds
-- are compared one by one. The same rules, in the same order, with the same
-- messages as schema 15.
CREATE INDEX game_round_black ON game (tournament_id, round, black);
CREATE INDEX game_round_white ON game (tournament_id, round, white);

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
