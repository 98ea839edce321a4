package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/rating"
	"github.com/otd-project/otd/scoring"
)

// Archive is an otd archive (package archive's Store) in one SQLite file
// of its own, marked "otda" in its header: a tournament database is not an
// archive, nor the other way round. Its schema is in the embedded
// migrations_archive.
type Archive struct{ s *Store }

var _ archive.Store = (*Archive)(nil)

// OpenArchive opens the archive database at path (with o.Create, creates
// it), as Open opens a tournament database.
func OpenArchive(path string, o Options) (*Archive, error) {
	o.schema = &archiveSchema
	s, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	return &Archive{s}, nil
}

// Close closes the database.
func (a *Archive) Close() error { return a.s.Close() }

// query runs a query and calls scan on each row.
func (a *Archive) query(ctx context.Context, scan func(*sql.Rows) error, query string, args ...any) error {
	rows, err := a.s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return a.s.translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return a.s.translate(rows.Err())
}

// Files returns every file indexed or refused, by path.
func (a *Archive) Files(ctx context.Context) ([]archive.File, error) {
	var files []archive.File
	err := a.query(ctx, func(r *sql.Rows) error {
		var f archive.File
		var setAside string
		if err := r.Scan(&f.Path, &f.Hash, &f.Size, &f.Reading, &f.Problem, &f.Tournament, &f.Games, &setAside, &f.CopyOf); err != nil {
			return err
		}
		if setAside != "" {
			f.SetAside = strings.Split(setAside, "\n")
		}
		files = append(files, f)
		return nil
	}, `SELECT f.path, f.hash, f.size, f.reading, f.problem, coalesce(t.id, 0), f.games, f.set_aside, f.copy_of FROM file f LEFT JOIN tournament t ON t.file_id = f.id ORDER BY f.path`)
	return files, err
}

// Update drops the files of remove, and puts each of put in place of what
// the archive held for its path, in one transaction. It sets the ID of each
// tournament put.
func (a *Archive) Update(ctx context.Context, remove []string, put []archive.Indexed) error {
	return a.s.tx(ctx, func(tx *sql.Tx) error {
		var stmts []*sql.Stmt
		prepare := func(q string) *sql.Stmt {
			st, err := tx.PrepareContext(ctx, q)
			if err != nil {
				panic(fmt.Sprintf("archive: preparing %q: %v", q, err)) // a statement of ours that SQLite refuses
			}
			stmts = append(stmts, st)
			return st
		}
		defer func() {
			for _, st := range stmts {
				st.Close()
			}
		}()
		del := prepare(`DELETE FROM file WHERE path = ?`)
		insFile := prepare(`INSERT INTO file (path, hash, size, reading, problem, games, set_aside, copy_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		insTournament := prepare(`INSERT INTO tournament (file_id, name, place, start_day, end_day, rounds, rated) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		insEntry := prepare(`INSERT INTO entry (tournament_id, rank, player, new, last, first, country, score, discs, rating)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		insGame := prepare(`INSERT INTO game (tournament_id, seq, round, black, white, black_discs, white_discs, result)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		for _, p := range remove {
			if _, err := del.Exec(p); err != nil {
				return err
			}
		}
		for _, in := range put {
			f := in.File
			if _, err := del.Exec(f.Path); err != nil {
				return err
			}
			res, err := insFile.Exec(f.Path, f.Hash, f.Size, f.Reading, f.Problem, f.Games, strings.Join(f.SetAside, "\n"), f.CopyOf)
			if err != nil {
				return fmt.Errorf("archive file %s: %w", f.Path, err)
			}
			t := in.Tournament
			if t == nil {
				continue
			}
			fileID, _ := res.LastInsertId()
			if res, err = insTournament.Exec(fileID, t.Name, t.Place, day(t.Start), day(t.End), t.Rounds, rated(t.Games)); err != nil {
				return fmt.Errorf("archive file %s: %w", f.Path, err)
			}
			t.ID, _ = res.LastInsertId()
			for _, e := range t.Players {
				if _, err := insEntry.Exec(t.ID, e.Rank, e.ID, e.New, e.Last, e.First, e.Country, int(e.Score), e.Discs, e.Rating); err != nil {
					return fmt.Errorf("archive file %s: player %d: %w", f.Path, e.ID, err)
				}
			}
			for i, g := range t.Games {
				var bd, wd any
				if g.HasDiscs {
					bd, wd = g.BlackDiscs, g.WhiteDiscs
				}
				if _, err := insGame.Exec(t.ID, i+1, g.Round, g.Black, g.White, bd, wd, int(g.Result)); err != nil {
					return fmt.Errorf("archive file %s: game %d: %w", f.Path, i+1, err)
				}
			}
		}
		return nil
	})
}

// day writes a day as the archive stores it, YYYY-MM-DD.
func day(t time.Time) string { return t.Format(time.DateOnly) }

// days reads the days of a query, each text parsed once.
type days map[string]time.Time

func (d days) parse(s string) (time.Time, error) {
	t, ok := d[s]
	if !ok {
		var err error
		if t, err = time.Parse(time.DateOnly, s); err != nil {
			return t, fmt.Errorf("archive: a day %q in the database: %w", s, ErrDamaged)
		}
		d[s] = t
	}
	return t, nil
}

// summaryColumns are those of scanSummary, over tournament t and file f.
const summaryColumns = `t.id, f.path, t.name, t.place, t.start_day, t.end_day, t.rounds,
	(SELECT count(*) FROM entry e WHERE e.tournament_id = t.id), (SELECT count(*) FROM game g WHERE g.tournament_id = t.id)`

func scanSummary(r *sql.Rows, d days) (archive.Summary, error) {
	var s archive.Summary
	var start, end string
	err := r.Scan(&s.ID, &s.File, &s.Name, &s.Place, &start, &end, &s.Rounds, &s.Players, &s.Games)
	if err == nil {
		s.Start, err = d.parse(start)
	}
	if err == nil {
		s.End, err = d.parse(end)
	}
	return s, err
}

// Tournaments returns the tournaments that f chooses, by Start then file.
func (a *Archive) Tournaments(ctx context.Context, f archive.Filter) ([]archive.Summary, error) {
	var list []archive.Summary
	d := days{}
	from, to := "", ""
	if !f.From.IsZero() {
		from = day(f.From)
	}
	if !f.To.IsZero() {
		to = day(f.To)
	}
	err := a.query(ctx, func(r *sql.Rows) error {
		s, err := scanSummary(r, d)
		list = append(list, s)
		return err
	}, `SELECT `+summaryColumns+` FROM tournament t JOIN file f ON f.id = t.file_id
		WHERE (?1 = '' OR t.start_day >= ?1) AND (?2 = '' OR t.start_day <= ?2)
		AND (?3 = 0 OR t.id IN (SELECT tournament_id FROM entry WHERE player = ?3
			UNION SELECT tournament_id FROM game WHERE black = ?3 UNION SELECT tournament_id FROM game WHERE white = ?3))
		ORDER BY t.start_day, f.path`, from, to, f.Player)
	if err != nil || f.Player == 0 {
		return list, err
	}
	entries := map[int64]*archive.Entry{}
	err = a.query(ctx, func(r *sql.Rows) error {
		var id int64
		e, err := scanEntry(r, &id)
		if entries[id] == nil {
			entries[id] = &e
		}
		return err
	}, `SELECT tournament_id, `+entryColumns+` FROM entry WHERE player = ? ORDER BY tournament_id, rank`, f.Player)
	for i := range list {
		list[i].Entry = entries[list[i].ID]
	}
	return list, err
}

const entryColumns = `rank, player, new, last, first, country, score, discs, rating`

func scanEntry(r *sql.Rows, before ...any) (archive.Entry, error) {
	var e archive.Entry
	var score int64
	err := r.Scan(append(before, &e.Rank, &e.ID, &e.New, &e.Last, &e.First, &e.Country, &score, &e.Discs, &e.Rating)...)
	e.Score = scoring.HalfPoints(score)
	return e, err
}

// Tournament returns one tournament whole.
func (a *Archive) Tournament(ctx context.Context, id int64) (*archive.Tournament, error) {
	var t *archive.Tournament
	d := days{}
	err := a.query(ctx, func(r *sql.Rows) error {
		s, err := scanSummary(r, d)
		t = &archive.Tournament{ID: s.ID, File: s.File, Name: s.Name, Place: s.Place, Start: s.Start, End: s.End, Rounds: s.Rounds}
		return err
	}, `SELECT `+summaryColumns+` FROM tournament t JOIN file f ON f.id = t.file_id WHERE t.id = ?`, id)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return nil, fmt.Errorf("tournament %d: %w: no tournament has that id ('otd archive tournaments' lists them)", id, archive.ErrNotFound)
	}
	err = a.query(ctx, func(r *sql.Rows) error {
		e, err := scanEntry(r)
		t.Players = append(t.Players, e)
		return err
	}, `SELECT `+entryColumns+` FROM entry WHERE tournament_id = ? ORDER BY rank`, id)
	if err != nil {
		return nil, err
	}
	err = a.query(ctx, func(r *sql.Rows) error {
		g, err := scanGame(r)
		t.Games = append(t.Games, g)
		return err
	}, `SELECT `+gameColumns+` FROM game g WHERE tournament_id = ? ORDER BY seq`, id)
	return t, err
}

const gameColumns = `g.round, g.black, g.white, g.black_discs, g.white_discs, g.result`

func scanGame(r *sql.Rows, before ...any) (archive.Game, error) {
	var g archive.Game
	var bd, wd sql.NullInt64
	var result int64
	err := r.Scan(append(before, &g.Round, &g.Black, &g.White, &bd, &wd, &result)...)
	g.HasDiscs, g.BlackDiscs, g.WhiteDiscs, g.Result = bd.Valid, int(bd.Int64), int(wd.Int64), rating.Result(result)
	return g, err
}

// People returns the players of these ids (all with none; a player
// without an id is none), by id, with the names seen.
func (a *Archive) People(ctx context.Context, ids ...int) ([]archive.Person, error) {
	where, in, args := "WHERE e.player > 0", "", make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	if len(ids) > 0 {
		in = "IN (?" + strings.Repeat(", ?", len(ids)-1) + ")"
		where += " AND e.player " + in
	}
	byID := map[int][]archive.Seen{}
	d := days{}
	err := a.query(ctx, func(r *sql.Rows) error {
		var id int
		var s archive.Seen
		var from, to string
		err := r.Scan(&id, &s.Last, &s.First, &s.Country, &from, &to, &s.Tournaments)
		if err == nil {
			s.From, err = d.parse(from)
		}
		if err == nil {
			s.To, err = d.parse(to)
		}
		byID[id] = append(byID[id], s)
		return err
	}, `SELECT e.player, e.last, e.first, e.country, min(t.start_day), max(t.start_day), count(*)
		FROM entry e JOIN tournament t ON t.id = e.tournament_id `+where+`
		GROUP BY e.player, e.last, e.first, e.country`, args...)
	if err != nil {
		return nil, err
	}
	// Players in games but in no standings.
	var inGames []int
	scanID := func(r *sql.Rows) error {
		var id int
		err := r.Scan(&id)
		inGames = append(inGames, id)
		return err
	}
	if len(ids) == 0 {
		err = a.query(ctx, scanID, `SELECT black FROM game WHERE black > 0 UNION SELECT white FROM game WHERE white > 0`)
	} else {
		err = a.query(ctx, scanID, `SELECT black FROM game WHERE black > 0 AND black `+in+` UNION SELECT white FROM game WHERE white > 0 AND white `+in, append(args, args...)...)
	}
	if err != nil {
		return nil, err
	}
	for _, id := range inGames {
		if _, ok := byID[id]; !ok {
			byID[id] = nil
		}
	}
	people := make([]archive.Person, 0, len(byID))
	for id, names := range byID {
		people = append(people, archive.Person{ID: id, Names: archive.SortSeen(names)})
	}
	slices.SortFunc(people, func(a, b archive.Person) int { return cmp.Compare(a.ID, b.ID) })
	return people, nil
}

// Games returns the games of a player (against opponent, if not 0), by
// their tournament's Start, then tournament, then order in the file.
func (a *Archive) Games(ctx context.Context, player, opponent int) ([]archive.Played, error) {
	var games []archive.Played
	d := days{}
	err := a.query(ctx, func(r *sql.Rows) error {
		var p archive.Played
		var start string
		var seq int
		var err error
		p.Game, err = scanGame(r, &p.Tournament, &p.Name, &start, &seq)
		if err == nil {
			p.Start, err = d.parse(start)
		}
		games = append(games, p)
		return err
	}, `SELECT g.tournament_id, t.name, t.start_day, g.seq, `+gameColumns+` FROM game g JOIN tournament t ON t.id = g.tournament_id
		WHERE g.black = ?1 AND (?2 = 0 OR g.white = ?2)
		UNION ALL
		SELECT g.tournament_id, t.name, t.start_day, g.seq, `+gameColumns+` FROM game g JOIN tournament t ON t.id = g.tournament_id
		WHERE g.white = ?1 AND (?2 = 0 OR g.black = ?2)
		ORDER BY 3, 1, 4`, player, opponent)
	return games, err
}

// rated writes the games of two players with an id as the column
// tournament.rated holds them: 'black white result' of each, separated by
// spaces.
func rated(games []archive.Game) string {
	var b []byte
	for _, g := range games {
		if g.Black > 0 && g.White > 0 {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(g.Black), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(g.White), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(g.Result), 10)
		}
	}
	return string(b)
}

// RatingGames returns every game as the rating list takes it (those of a
// player without an id left out), from each tournament's column rated, by
// tournament then order in the file: the list of the whole WOF archive
// reads 390,000 games in 7,000 rows.
func (a *Archive) RatingGames(ctx context.Context) ([]rating.Game, error) {
	var games []rating.Game
	d := days{}
	err := a.query(ctx, func(r *sql.Rows) error {
		var id int64
		var start string
		var text sql.RawBytes
		if err := r.Scan(&id, &start, &text); err != nil {
			return err
		}
		date, err := d.parse(start)
		if err != nil {
			return err
		}
		bad := func() error {
			return fmt.Errorf("%s: archive tournament %d: rated games %.40q...: %w: index the folder again into a new archive", a.s.path, id, text, ErrDamaged)
		}
		var n [3]int
		f := 0
		for i, c := range text {
			if c != ' ' {
				if c < '0' || c > '9' {
					return bad()
				}
				n[f] = 10*n[f] + int(c-'0')
			}
			if c == ' ' || i == len(text)-1 {
				if f++; f == 3 {
					games = append(games, rating.Game{A: n[0], B: n[1], Result: rating.Result(n[2]), Date: date})
					n, f = [3]int{}, 0
				}
			}
		}
		if f != 0 {
			return bad()
		}
		return nil
	}, `SELECT id, start_day, rated FROM tournament ORDER BY id`)
	return games, err
}

// Starts returns the first day of every tournament.
func (a *Archive) Starts(ctx context.Context) ([]time.Time, error) {
	var starts []time.Time
	d := days{}
	err := a.query(ctx, func(r *sql.Rows) error {
		var s string
		if err := r.Scan(&s); err != nil {
			return err
		}
		t, err := d.parse(s)
		starts = append(starts, t)
		return err
	}, `SELECT start_day FROM tournament`)
	return starts, err
}
