// Package export reads and writes a tournament's data in other formats: the
// WOF rating file (.ELO), and (later) XLSX, CSV and HTML.
package export

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// ELO is a WOF rating-submission file: the header, the final standings in
// published order, every Swiss round's games (byes are not written) and the
// games added after the Swiss rounds (semi-finals, finals).
type ELO struct {
	Header    []ELOHeader
	Standings []ELOPlayer
	Rounds    [][]ELOGame // Rounds[r-1]: the games of round r
	Added     []ELOGame
}

// ELOHeader is a "%%Key: value" line.
type ELOHeader struct{ Key, Value string }

// ELOPlayer is a "%_%" standings line.
type ELOPlayer struct {
	ID                   int
	Last, First, Country string
	Score                scoring.HalfPoints
	Discs, Rating        int
}

// ELOGame is a game line: black's id and discs, then white's.
type ELOGame struct {
	Black, BlackDiscs, White, WhiteDiscs int
}

// ErrELO is wrapped by every reading error of an .ELO file.
var ErrELO = errors.New("not a valid .ELO file")

var gameLine = regexp.MustCompile(`^\s*(\d+)\s*\(\s*(\d+)\)\s*([<>=])\s*\(\s*(\d+)\)\s*(\d+)\s*B?\s*$`)

// ReadELO reads an .ELO file.
func ReadELO(r io.Reader) (*ELO, error) {
	f := &ELO{}
	sc := bufio.NewScanner(r)
	var cur *[]ELOGame
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r ")
		bad := func(what string) error {
			return fmt.Errorf("line %d: %s: %q: %w", n, what, line, ErrELO)
		}
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "%%Added results"):
			cur = &f.Added
		case strings.HasPrefix(line, "%%"):
			k, v, _ := strings.Cut(line[2:], ":")
			f.Header = append(f.Header, ELOHeader{strings.TrimSpace(k), strings.TrimSpace(v)})
		case strings.HasPrefix(line, "%_%"):
			fs := strings.Split(line[3:], ",")
			if len(fs) == 1 {
				continue // a separator such as %_%______
			}
			if len(fs) != 7 {
				return nil, bad("a standings line is %_% id, surname, first name, country, score, discs, rating")
			}
			for i := range fs {
				fs[i] = strings.TrimSpace(fs[i])
			}
			p := ELOPlayer{Last: fs[1], First: fs[2], Country: fs[3]}
			var err error
			var e1, e2, e3 error
			p.ID, e1 = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(fs[0], "+"))) // "+": a new player
			p.Score, err = scoring.ParseHalfPoints(fs[4])
			p.Discs, e2 = strconv.Atoi(fs[5])
			if fs[6] != "-" && fs[6] != "" { // "-": not rated
				p.Rating, e3 = strconv.Atoi(fs[6])
			}
			if err := errors.Join(e1, err, e2, e3); err != nil {
				return nil, bad("id, score, discs and rating must be numbers")
			}
			f.Standings = append(f.Standings, p)
		case strings.HasPrefix(line, "%Round:"):
			r, err := strconv.Atoi(strings.TrimSpace(line[len("%Round:"):]))
			if err != nil || r != len(f.Rounds)+1 {
				return nil, bad(fmt.Sprintf("expected %%Round: %d", len(f.Rounds)+1))
			}
			f.Rounds = append(f.Rounds, nil)
			cur = &f.Rounds[r-1]
		case strings.HasPrefix(line, "%"): // a comment
		default:
			m := gameLine.FindStringSubmatch(line)
			if m == nil {
				return nil, bad("a game line is: black-id (discs)<(discs) white-id B")
			}
			if cur == nil {
				return nil, bad("a game before the first %Round line")
			}
			g := ELOGame{}
			g.Black, _ = strconv.Atoi(m[1])
			g.BlackDiscs, _ = strconv.Atoi(m[2])
			g.WhiteDiscs, _ = strconv.Atoi(m[4])
			g.White, _ = strconv.Atoi(m[5])
			signOK := (m[3] == ">") == (g.BlackDiscs > g.WhiteDiscs) && (m[3] == "=") == (g.BlackDiscs == g.WhiteDiscs)
			// A final-phase tie may be written < or >: who went through.
			if g.BlackDiscs+g.WhiteDiscs > 64 || !signOK && (cur != &f.Added || g.BlackDiscs != g.WhiteDiscs) {
				return nil, bad("the discs do not match the sign between them")
			}
			*cur = append(*cur, g)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(f.Rounds) == 0 {
		return nil, fmt.Errorf("no %%Round line: %w", ErrELO)
	}
	return f, nil
}

// Value returns the value of a header line ("" if absent).
func (f *ELO) Value(key string) string {
	for _, h := range f.Header {
		if strings.EqualFold(h.Key, key) {
			return h.Value
		}
	}
	return ""
}

// Tournament builds a tournament from the file: players in published order
// (numbered from 1, keeping their WOF ids), every Swiss round with its games,
// and the games added after them. Byes are not written in .ELO files: a player
// without a game in a round gets the bye there when the published score
// exceeds the points of their games; a player whose games stop early
// withdrew after their last game.
func (f *ELO) Tournament(s tournament.Settings) (*tournament.Tournament, error) {
	s.Rounds = len(f.Rounds)
	if s.Name == "" {
		s.Name = f.Value("Tournament")
	}
	t := &tournament.Tournament{Settings: s}
	num := map[int]int{}
	for i, p := range f.Standings {
		if num[p.ID] != 0 {
			return nil, fmt.Errorf("player id %d is listed twice: %w", p.ID, ErrELO)
		}
		num[p.ID] = i + 1
		name := p.Last
		if p.First != "" {
			name += ", " + p.First
		}
		t.Players = append(t.Players, tournament.Player{Number: i + 1, ID: p.ID, Name: name, Rating: p.Rating, Country: p.Country, FirstRound: 1})
	}
	lookup := func(id int, where string) (int, error) {
		if n := num[id]; n != 0 {
			return n, nil
		}
		return 0, fmt.Errorf("%s: player id %d is not in the standings: %w", where, id, ErrELO)
	}
	played := make([][]bool, len(t.Players)) // played[n-1][r-1]
	points := make([]scoring.HalfPoints, len(t.Players))
	last := make([]int, len(t.Players))
	for i := range played {
		played[i] = make([]bool, len(f.Rounds))
	}
	for r, games := range f.Rounds {
		for k, g := range games {
			where := fmt.Sprintf("round %d", r+1)
			b, err := lookup(g.Black, where)
			if err != nil {
				return nil, err
			}
			w, err := lookup(g.White, where)
			if err != nil {
				return nil, err
			}
			if played[b-1][r] || played[w-1][r] {
				return nil, fmt.Errorf("%s: a player has two games: %w", where, ErrELO)
			}
			played[b-1][r], played[w-1][r] = true, true
			last[b-1], last[w-1] = r+1, r+1
			switch {
			case g.BlackDiscs > g.WhiteDiscs:
				points[b-1] += scoring.Point
			case g.WhiteDiscs > g.BlackDiscs:
				points[w-1] += scoring.Point
			default:
				points[b-1] += scoring.Half
				points[w-1] += scoring.Half
			}
			t.Games = append(t.Games, tournament.Game{Round: r + 1, Table: k + 1, Black: b, White: w,
				Result: &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal}})
		}
	}
	bye := s.ByePoints
	byes := make([][]int, len(f.Rounds)) // players with the bye, by round
	for i, p := range f.Standings {
		missing := p.Score - points[i]
		for r := 0; r < len(f.Rounds) && missing >= bye; r++ {
			if !played[i][r] {
				byes[r] = append(byes[r], i+1)
				played[i][r] = true
				last[i] = max(last[i], r+1)
				missing -= bye
			}
		}
		if missing != 0 {
			return nil, fmt.Errorf("%s %s: published score %v, but the games and byes give %v: %w", p.Last, p.First, p.Score, p.Score-missing, ErrELO)
		}
		if last[i] < len(f.Rounds) {
			t.Players[i].Left = last[i] + 1
		}
		for r := 0; r < last[i]; r++ {
			if !played[i][r] {
				t.Players[i].Absent = append(t.Players[i].Absent, r+1)
			}
		}
	}
	// Byes go after the round's games; keep the games in round order.
	var all []tournament.Game
	for r := 1; r <= len(f.Rounds); r++ {
		games := t.Round(r)
		for _, n := range byes[r-1] {
			games = append(games, tournament.Game{Round: r, Table: len(games) + 1, Black: n})
		}
		all = append(all, games...)
	}
	t.Games = all
	for _, g := range f.Added {
		b, err := lookup(g.Black, "added results")
		if err != nil {
			return nil, err
		}
		w, err := lookup(g.White, "added results")
		if err != nil {
			return nil, err
		}
		t.Finals = append(t.Finals, tournament.Game{Table: len(t.Finals) + 1, Black: b, White: w, Result: &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal}})
	}
	return t, nil
}

// FromTournament makes the .ELO file of a tournament: standings in rank
// order (rows from the tournament's standings), each round's games (byes
// left out), and the games after the Swiss rounds.
func FromTournament(t *tournament.Tournament, rows []scoring.Row, creator string) *ELO {
	f := &ELO{Header: []ELOHeader{{"Tournament", t.Name}, {"Creator", creator}}}
	id := func(n int) int {
		if p := t.Players[n-1]; p.ID != 0 {
			return p.ID
		}
		return n
	}
	for _, row := range rows {
		p := t.Players[row.Player-1]
		last, first, _ := strings.Cut(p.Name, ", ")
		f.Standings = append(f.Standings, ELOPlayer{ID: id(p.Number), Last: last, First: first, Country: p.Country,
			Score: row.Points, Discs: row.Discs, Rating: p.Rating})
	}
	for r := 1; r <= t.Paired(); r++ {
		var games []ELOGame
		for _, g := range t.Round(r) {
			if g.IsBye() || g.Result == nil {
				continue
			}
			games = append(games, ELOGame{id(g.Black), g.Result.Black, id(g.White), g.Result.White})
		}
		f.Rounds = append(f.Rounds, games)
	}
	for _, g := range t.Finals {
		f.Added = append(f.Added, ELOGame{id(g.Black), g.Result.Black, id(g.White), g.Result.White})
	}
	return f
}

// Write writes the file in the layout of Papp's .ELO files.
func (f *ELO) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, h := range f.Header {
		fmt.Fprintf(bw, "%%%%%s: %s\n", h.Key, h.Value)
	}
	fmt.Fprintf(bw, "\n%%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating\n")
	for _, p := range f.Standings {
		fmt.Fprintf(bw, "%%_%% %7d, %s, %s, %s, %2s, %d, %d\n", p.ID, p.Last, p.First, p.Country, p.Score, p.Discs, p.Rating)
	}
	games := func(gs []ELOGame) {
		for _, g := range gs {
			op := '='
			if g.BlackDiscs > g.WhiteDiscs {
				op = '>'
			} else if g.BlackDiscs < g.WhiteDiscs {
				op = '<'
			}
			fmt.Fprintf(bw, "%6d (%02d)%c(%02d) %6d B\n", g.Black, g.BlackDiscs, op, g.WhiteDiscs, g.White)
		}
	}
	for r, gs := range f.Rounds {
		fmt.Fprintf(bw, "\n%%Round: %d\n\n", r+1)
		games(gs)
	}
	if len(f.Added) > 0 {
		fmt.Fprintf(bw, "\n%%%%Added results\n\n")
		games(f.Added)
	}
	return bw.Flush()
}
