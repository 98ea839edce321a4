package archive

import (
	"bytes"
	"cmp"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/rating"
)

// ReadELO reads a tournament from the content of an .ELO file, by
// elo.Read; name is the file's path below the folder (the tournament's name
// when the file has no %%Tournament line). A file that elo refuses gives
// elo's error (a *elo.ParseError naming the line); one that the rating
// list cannot take (FromELO), an error saying why.
func ReadELO(name string, data []byte) (*Tournament, error) {
	f, err := elo.Read(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return FromELO(name, f)
}

// FromELO makes the archive's tournament of an .ELO file: its name, place
// and days from the header (%%Tournament, %%Country, %%Date), its
// standings, the games of its Swiss rounds and those added after them (the
// final phase: their result on the board, a tie a draw, whoever went
// through). Commented-out games are not rated and not taken. It refuses a
// file without a day (the rating list weighs a game by its tournament's
// age), and a game the list cannot take: a player against themself, a
// player without a WOF id (0).
func FromELO(name string, f *elo.File) (*Tournament, error) {
	start, end, err := parseDays(f.Value("Date"))
	if err != nil {
		return nil, err
	}
	base := path.Base(name)
	t := &Tournament{File: name, Name: cmp.Or(f.Value("Tournament"), strings.TrimSuffix(base, path.Ext(base))),
		Place: f.Value("Country"), Start: start, End: end, Rounds: len(f.Rounds)}
	for i, p := range f.Standings {
		t.Players = append(t.Players, Entry{Rank: i + 1, ID: p.ID, New: p.New, Last: p.Last, First: p.First, Country: p.Country,
			Score: p.Score, Discs: p.Discs, Rating: p.Rating})
	}
	add := func(round int, g elo.Game) error {
		where := "after the Swiss rounds"
		if round > 0 {
			where = fmt.Sprintf("round %d", round)
		}
		switch {
		case g.Black == g.White:
			return fmt.Errorf("%s: player %d plays themself: the rating list cannot take such a game; correct the file", where, g.Black)
		case g.Black <= 0 || g.White <= 0:
			return fmt.Errorf("%s: the game %d against %d: a WOF id is a number from 1: correct the file", where, g.Black, g.White)
		}
		t.Games = append(t.Games, Game{Round: round, Black: g.Black, White: g.White, HasDiscs: true,
			BlackDiscs: g.BlackDiscs, WhiteDiscs: g.WhiteDiscs, Result: result(g)})
		return nil
	}
	for r, games := range f.Rounds {
		for _, g := range games {
			if err := add(r+1, g); err != nil {
				return nil, err
			}
		}
	}
	for _, g := range f.Added {
		if err := add(0, g); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// result is black's result of a game line: by the discs (a tie in the final
// phase that a rule settled is a draw for the rating list: only the board
// counts).
func result(g elo.Game) rating.Result {
	switch {
	case g.BlackDiscs > g.WhiteDiscs:
		return rating.Win
	case g.BlackDiscs < g.WhiteDiscs:
		return rating.Loss
	}
	return rating.Draw
}

// parseDays reads the value of a %%Date line: DD/MM/YYYY, or DD/MM/YYYY -
// DD/MM/YYYY for an event of several days (as Papp writes them; the day and
// month may have one digit), or YYYY-MM-DD.
func parseDays(s string) (start, end time.Time, err error) {
	from, to, several := strings.Cut(s, " - ")
	start, err = parseDay(from)
	end = start
	if err == nil && several {
		end, err = parseDay(to)
	}
	switch {
	case strings.TrimSpace(s) == "":
		return start, end, fmt.Errorf("no %%%%Date line: the rating list weighs a game by its tournament's day; add one (%%%%Date: DD/MM/YYYY)")
	case err != nil:
		return start, end, fmt.Errorf("%%%%Date: %s: not a day DD/MM/YYYY, or DD/MM/YYYY - DD/MM/YYYY; correct it", elo.QuoteCut(s))
	case end.Before(start):
		return start, end, fmt.Errorf("%%%%Date: %s: the last day is before the first; correct it", elo.QuoteCut(s))
	}
	return start, end, nil
}

func parseDay(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	d, err := time.Parse("2/1/2006", s)
	if err != nil {
		d, err = time.Parse(time.DateOnly, s)
	}
	return d, err
}
