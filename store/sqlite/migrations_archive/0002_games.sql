-- otd archive schema 2: each file's fingerprint of its games (SHA-256 of
-- its tournament's games in order: round, players, discs, result), so that
-- a copy under another name or another %%Tournament line is refused as a
-- copy of the same content is: its games would count twice. A file indexed
-- before has none ('') and is read again at the next index.
ALTER TABLE file ADD COLUMN games TEXT NOT NULL DEFAULT '';
