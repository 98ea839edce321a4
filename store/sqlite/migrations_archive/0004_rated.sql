-- otd archive schema 4: each tournament's rated games (those of two players with an id), in their
-- order, as the rating list reads them: 'black white result' of each, separated by spaces (WOF ids;
-- black's result, 1 win, 2 draw, 3 loss). The same games as the game table, in one value a
-- tournament, so that the list reads the archive's 390,000 games in 7,000 rows rather than as many rows.
ALTER TABLE tournament ADD COLUMN rated TEXT NOT NULL DEFAULT '';
UPDATE tournament SET rated = coalesce((SELECT group_concat(black || ' ' || white || ' ' || result, ' ' ORDER BY seq)
    FROM game WHERE tournament_id = tournament.id AND black > 0 AND white > 0), '');
