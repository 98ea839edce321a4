-- otd schema 7: variants. A tournament is played under one rule set, its
-- canonical name (engine.Rules.String: "othello", "othello:10", "anti",
-- "reversi", "8stars"); a tournament of an older otd is standard Othello.
ALTER TABLE tournament ADD COLUMN rules TEXT NOT NULL DEFAULT 'othello';
