-- otd archive schema 3: each file's contradictions that its reading set aside rather than refuse the
-- file (the rating list's reading, RULES.md section 8), one a line, each with the file's line: what
-- 'otd archive problems' lists beside the files refused. A file indexed before has none and was read
-- under another reading: it is read again at the next index.
ALTER TABLE file ADD COLUMN set_aside TEXT NOT NULL DEFAULT '';
