-- otd schema 10: tournament names are unique by a constraint, not by a
-- listing inside each write: name_key is the name case-folded as
-- strings.EqualFold folds it (tournament.NameKey), written by the store with
-- the name. Rows of earlier schemas get theirs from the store's migration
-- step in Go (fillNameKeys), in the same transaction.
ALTER TABLE tournament ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX tournament_name_key ON tournament (name_key);
