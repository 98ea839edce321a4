-- otd schema 3 on PostgreSQL, SQLite's 16 and 17: the rule "a player plays
-- once a round" looks a game's players up in indexes of the games' blacks
-- and whites, instead of reading every game of the round for each game
-- written (issue 28: importing a round of 50,000 games read 1.25 billion
-- rows). The round comes after the player in these indexes, so that the
-- rule of a player's deletion or renumbering (their games in any round)
-- finds them there too. The same rules, in the same order, with the same
-- messages; the once-a-round rule as four lookups, each player in each index.
CREATE INDEX game_black ON game (tournament_id, black, round);
CREATE INDEX game_white ON game (tournament_id, white, round);

CREATE OR REPLACE FUNCTION otd_game_rules() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.black < 1 OR NEW.white < 0 OR NEW.black = NEW.white THEN
        RAISE EXCEPTION 'otd: a game needs two different players (white 0 for a bye)';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.black)
       OR (NEW.white <> 0 AND NOT EXISTS (SELECT 1 FROM player WHERE tournament_id = NEW.tournament_id AND number = NEW.white)) THEN
        RAISE EXCEPTION 'otd: a game''s players must be registered';
    END IF;
    -- Each player looked up alone: a list ("black IN (NEW.black,
    -- NEW.white)") may make the planner read the round by its key instead.
    IF EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND black = NEW.black AND round = NEW.round
            AND CASE WHEN TG_OP = 'INSERT' THEN board <> NEW.board ELSE NOT (round = OLD.round AND board = OLD.board) END)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND black = NEW.white AND round = NEW.round
            AND CASE WHEN TG_OP = 'INSERT' THEN board <> NEW.board ELSE NOT (round = OLD.round AND board = OLD.board) END)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND white = NEW.black AND round = NEW.round
            AND white <> 0 AND CASE WHEN TG_OP = 'INSERT' THEN board <> NEW.board ELSE NOT (round = OLD.round AND board = OLD.board) END)
       OR EXISTS (SELECT 1 FROM game WHERE tournament_id = NEW.tournament_id AND white = NEW.white AND round = NEW.round
            AND white <> 0 AND CASE WHEN TG_OP = 'INSERT' THEN board <> NEW.board ELSE NOT (round = OLD.round AND board = OLD.board) END) THEN
        RAISE EXCEPTION 'otd: a player plays once a round';
    END IF;
    IF NEW.kind IS NOT NULL AND (NEW.kind NOT IN ('normal', 'time-default', 'forfeit', 'no-discs')
        OR NEW.kind IN ('time-default', 'forfeit') AND NEW.loser IS NULL
        OR NEW.kind = 'normal' AND NEW.loser IS NOT NULL AND NEW.black_discs <> NEW.white_discs
        OR NEW.kind = 'no-discs' AND (NEW.black_discs <> 0 OR NEW.white_discs <> 0)
        OR coalesce(NEW.loser, 'black') NOT IN ('black', 'white')) THEN
        RAISE EXCEPTION 'otd: a result is normal (a tie may say who lost it), time-default or forfeit with its loser, or no-discs (0-0, its loser or none)';
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.white = 0 AND NEW.black_discs IS NOT NULL THEN
        RAISE EXCEPTION 'otd: a bye has no result';
    END IF;
    RETURN NEW;
END $$;
