-- otd schema 14: the WOF ids of new players (issue 21). tournament.new_ids
-- is the range of ids for new players that the WOF gives the sending
-- federation, from the first not yet given ("50321-59999", or "50321": no
-- end; '' for none), from which 'otd export elo' numbers the players without
-- a WOF id; player.new_id marks a WOF id new to the rating list (an .ELO
-- file's "+"), as read from such a file.
ALTER TABLE tournament ADD COLUMN new_ids TEXT NOT NULL DEFAULT '';
ALTER TABLE player ADD COLUMN new_id INTEGER NOT NULL DEFAULT 0 CHECK (new_id IN (0, 1));
