-- otd schema 8: the engines' time control of a tournament (match.TimeControl
-- as ParseTimeControl reads it: "5m+2s", "10m", "10s/move"), used by 'round
-- play' and 'tournament run'; '' is otd's default, a minute a side.
ALTER TABLE tournament ADD COLUMN time_control TEXT NOT NULL DEFAULT '';
