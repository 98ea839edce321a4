-- otd schema 6 on PostgreSQL, SQLite's 19 (issue 30): a player's birth as
-- given, a year or a date. born keeps the year (the categories by age and
-- the youth go by it); the date, YYYY-MM-DD of that year, is born_date, ''
-- when only the year was given. The players of an older database keep their
-- years.
ALTER TABLE player ADD COLUMN born_date text NOT NULL DEFAULT ''
    CHECK (born_date = '' OR born_date LIKE lpad(born::text, 4, '0') || '-__-__');
