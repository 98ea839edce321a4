-- otd schema 5: the Swiss pairing's cost model (RULES.md section 4), as
-- tournament.PairingModel writes it: a preset (papp, plain) and the weights
-- changed from it. Tournaments created before it paired with plain, otd's
-- model until then, and keep it; new ones default to papp.
ALTER TABLE tournament ADD COLUMN pairing TEXT NOT NULL DEFAULT 'plain';
