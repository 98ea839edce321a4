-- otd schema 3: what the rating list and reports say of an event: its dates
-- (YYYY-MM-DD, '' for none), city, country and director.
ALTER TABLE tournament ADD COLUMN start_date TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament ADD COLUMN end_date TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament ADD COLUMN city TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament ADD COLUMN country TEXT NOT NULL DEFAULT '';
ALTER TABLE tournament ADD COLUMN director TEXT NOT NULL DEFAULT '';
