-- otd schema 6: engine entrants. A player may be a program otd starts
-- ("gtp:ARGV", "nboard:ARGV", "builtin:NAME"; '' for a person), and a game
-- otd played itself keeps its transcript (a move list, passes implicit), how
-- it ended (normal, time, crash, illegal, no reply) and why, in words.
ALTER TABLE player ADD COLUMN engine TEXT NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN moves TEXT NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN ending TEXT NOT NULL DEFAULT '';
ALTER TABLE game ADD COLUMN note TEXT NOT NULL DEFAULT '';
