-- otd schema 2: the audit trail's payloads are versioned. Rows of schema 1
-- (untagged Go structs) are version 0; tournament.DecodeChange reads both.
ALTER TABLE audit ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
