-- otd schema 12: the director's pairing rules (issue 21). forbidden_pair
-- holds the pairs forbidden to meet for the rest of the event (otd pair
-- forbid); round_rules the rules each round was paired under (its forced
-- and forbidden pairs, the bye given by hand, a pairing by hand), which the
-- pairing checker prices it with. Pairs are written "1-2 3-4" (black first
-- for a forced pair, the lower number first for a forbidden one).
CREATE TABLE forbidden_pair (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    a             INTEGER NOT NULL,
    b             INTEGER NOT NULL,
    reason        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, a, b),
    CHECK (0 < a AND a < b)
);
CREATE TABLE round_rules (
    tournament_id INTEGER NOT NULL REFERENCES tournament (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round > 0),
    manual        INTEGER NOT NULL DEFAULT 0 CHECK (manual IN (0, 1)),
    forced        TEXT NOT NULL DEFAULT '',
    forbidden     TEXT NOT NULL DEFAULT '',
    bye           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round)
);
