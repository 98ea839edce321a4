-- otd schema 13: the championship (issue 22, RULES.md section 7). The
-- tournament keeps its final phase's rules, its categories and how teams
-- rank (settings: the rules as text, categories and teams as JSON); a player
-- a team (blank: the country's; "-": none), a year of birth (0: not given)
-- and the categories entered by name (JSON, blank for none). final_game,
-- which held a file's added results by place, holds the games of the final
-- phases: by Seq, the order paired, with their category, match and number
-- in it, and a result only once played.
ALTER TABLE tournament ADD COLUMN final TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament ADD COLUMN categories TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament ADD COLUMN teams TEXT NOT NULL DEFAULT '';
ALTER TABLE player ADD COLUMN team TEXT NOT NULL DEFAULT '';
ALTER TABLE player ADD COLUMN born INTEGER NOT NULL DEFAULT 0;
ALTER TABLE player ADD COLUMN categories TEXT NOT NULL DEFAULT '';

CREATE TABLE final_game_new (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq > 0),
    category      TEXT NOT NULL DEFAULT '',
    match         TEXT NOT NULL DEFAULT '', -- '' for a file's added result of no known match
    game          INTEGER NOT NULL CHECK (game > 0),
    black         INTEGER NOT NULL,
    white         INTEGER NOT NULL,
    black_discs   INTEGER,          -- NULL until played
    white_discs   INTEGER,
    kind          TEXT,             -- normal, time-default, forfeit
    loser         TEXT,
    moves         TEXT NOT NULL DEFAULT '', -- a game otd played: its transcript, how it ended, why
    ending        TEXT NOT NULL DEFAULT '',
    note          TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, seq),
    CHECK ((black_discs IS NULL) = (white_discs IS NULL)),
    CHECK (black_discs IS NULL OR (black_discs BETWEEN 0 AND 256 AND white_discs BETWEEN 0 AND 256 AND black_discs + white_discs <= 256))
);
INSERT INTO final_game_new (tournament_id, seq, game, black, white, black_discs, white_discs, kind)
    SELECT tournament_id, seq, seq, black, white, black_discs, white_discs, 'normal' FROM final_game;
DROP TABLE final_game;
ALTER TABLE final_game_new RENAME TO final_game;
CREATE UNIQUE INDEX final_game_match ON final_game (tournament_id, category, match, game) WHERE match <> '';
