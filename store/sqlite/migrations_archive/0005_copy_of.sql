-- otd archive schema 5: for a file not read because it repeats another's games (a copy), the path of
-- that file: its games count once, from there, and 'otd archive problems' tells it from a file
-- refused, whose games are not in the archive. Copies refused before are recognised by their problem.
ALTER TABLE file ADD COLUMN copy_of TEXT NOT NULL DEFAULT '';
UPDATE file SET copy_of = substr(problem, 21, instr(problem, ': a copy, ') - 21)
    WHERE problem LIKE 'the same content as %: a copy, %';
UPDATE file SET copy_of = substr(problem, 19, instr(problem, ' (another name or header): a copy, ') - 19)
    WHERE problem LIKE 'the same games as % (another name or header): a copy, %';
