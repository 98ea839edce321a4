-- otd schema 4 on PostgreSQL, SQLite's 17 (issue 29): one games table and
-- the settings as one record. A final phase's game is a game of round 0
-- whose board is its place in the order paired (final_game's seq), with its
-- category, match and number in the match; final_game's rows move into
-- game. The once-a-round rule is the rounds' games' (round > 0). The
-- tournament's settings columns become one record (settings, read by
-- tournament.DecodeSettings by its settings_version): version 1 holds each
-- old column's value under the column's name, as this step writes it.
ALTER TABLE game DROP CONSTRAINT game_round_check;
ALTER TABLE game ADD CHECK (round >= 0);
ALTER TABLE game ADD COLUMN category text NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN match text NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN game bigint NOT NULL DEFAULT 0;
ALTER TABLE game ADD CHECK (round = 0 AND game > 0 OR round > 0 AND category = '' AND match = '' AND game = 0);
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
    -- NEW.white)") may make the planner read the round by its key instead;
    -- the round's test apart, for the same reason.
    IF NEW.round > 0 THEN
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

-- The rule's lookups are planned for each row written, with the table's
-- size then: a plan cached while the table was small (a first round, an
-- import's first rows) may read the round by its key through the other
-- colour's index, whose cost ties with its own on a small table, for every
-- later game (2,000 rows read per game added: TestOnceARoundLooksUp).
ALTER FUNCTION otd_game_rules() SET plan_cache_mode = force_custom_plan;

-- The final games move in under the new rule (the old one held them to
-- once a round, round 0 being theirs).
INSERT INTO game (tournament_id, round, board, category, match, game, black, white, black_discs, white_discs, kind, loser, moves, ending, note)
    SELECT tournament_id, 0, seq, category, match, game, black, white, black_discs, white_discs, kind, loser, moves, ending, note FROM final_game;
DROP TABLE final_game;
CREATE UNIQUE INDEX game_final_match ON game (tournament_id, category, match, game) WHERE round = 0 AND match <> '';


ALTER TABLE tournament ADD COLUMN settings_version bigint NOT NULL DEFAULT 0;
ALTER TABLE tournament ADD COLUMN settings text NOT NULL DEFAULT '';
UPDATE tournament SET settings_version = 1, settings = json_build_object('name', name, 'rounds', rounds, 'system', system, 'bq', bq,
    'time_default', time_default, 'bye_half_points', bye_half_points, 'tiebreaks', tiebreaks, 'first_round', first_round, 'seed', seed,
    'start_date', start_date, 'end_date', end_date, 'city', city, 'country', country, 'director', director, 'pairing', pairing,
    'rules', rules, 'time_control', time_control, 'new_ids', new_ids, 'final', final, 'categories', categories, 'teams', teams,
    'bye_discs', bye_discs)::text;
ALTER TABLE tournament DROP COLUMN name, DROP COLUMN rounds, DROP COLUMN system, DROP COLUMN bq, DROP COLUMN time_default,
    DROP COLUMN bye_half_points, DROP COLUMN tiebreaks, DROP COLUMN first_round, DROP COLUMN seed, DROP COLUMN start_date,
    DROP COLUMN end_date, DROP COLUMN city, DROP COLUMN country, DROP COLUMN director, DROP COLUMN pairing, DROP COLUMN rules,
    DROP COLUMN time_control, DROP COLUMN new_ids, DROP COLUMN final, DROP COLUMN categories, DROP COLUMN teams, DROP COLUMN bye_discs;
