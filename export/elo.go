// Package export reads and writes a tournament's data in other formats: the
// WOF rating file (.ELO), and (later) XLSX, CSV and HTML.
package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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
	// Otd is what otd adds to its own files in "% otd:" comment lines, which
	// the rating list reads as comments: nil in other programs' files.
	Otd *ELOOtd
}

// ELOOtd is what an .ELO file cannot say and otd needs to rebuild the
// tournament exactly: the games that were not played (forfeits, byes), which
// the rating list must not count, how games ended, and the players' entries,
// absences and withdrawals. Ids are the file's.
type ELOOtd struct {
	Rounds       int // rounds planned
	BQ           scoring.BQRule
	TimeDefault  scoring.TimePolicy
	ByePoints    scoring.HalfPoints
	TieBreaks    scoring.TieBreaks
	Players      map[int]ELOStatus // by id; players not listed entered for round 1 and played every round
	Forfeits     [][]ELOForfeit    // Forfeits[r-1]: round r's
	Byes         [][]int           // Byes[r-1]: the ids with round r's bye
	TimeDefaults [][]ELOForfeit    // Rounds[r-1] games that were time defaults
	// Names are the players' names as otd keeps them, by id, where the
	// standings line cannot hold them: a name with commas other than the one
	// after the surname ("SMITH, John, Jr.", written SMITH, John Jr.).
	Names map[int]string
}

// ELOStatus is a player's entry, withdrawal and absences, as tournament.Player has them.
type ELOStatus struct {
	FirstRound, Left int
	Absent           []int
	NoID             bool // written with a stand-in id: the player has no WOF id
}

// ELOForfeit is a forfeit (or, in TimeDefaults, a time default): the players
// paired and the colour that lost.
type ELOForfeit struct {
	Black, White int
	Loser        tournament.Color
}

// Settings returns s with the tournament rules written in the file by otd
// (unchanged for other programs' files).
func (f *ELO) Settings(s tournament.Settings) tournament.Settings {
	if o := f.Otd; o != nil {
		s.Rounds = max(o.Rounds, len(f.Rounds))
		s.BQ, s.TimeDefault, s.ByePoints, s.TieBreaks = o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks
	}
	return s
}

// ELOHeader is a "%%Key: value" line.
type ELOHeader struct{ Key, Value string }

// ELOPlayer is a "%_%" standings line.
type ELOPlayer struct {
	ID                   int
	New                  bool // written "+": a new player for the rating list
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

// ErrELOValue is wrapped by the error of a value that an .ELO file cannot
// hold: a line break or a control character in any value, which would start
// a line of its own (a fake standings or %Round line), or a comma in a field
// of a standings line.
var ErrELOValue = errors.New("cannot be written in an .ELO file")

// MaxELOLine is the longest line ReadELO reads, in bytes: the longest real
// line is under 200.
const MaxELOLine = 64 << 10

// CheckELOText returns an error wrapping ErrELOValue if s has a line break
// or a control character (C0, C1, Unicode line and paragraph separators,
// format characters such as bidirectional overrides).
func CheckELOText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("not valid UTF-8: %w", ErrELOValue)
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cf) {
			return fmt.Errorf("character %U, a line break or control character, %w", r, ErrELOValue)
		}
	}
	return nil
}

// Check refuses a file whose values would not be read back as written (a
// line break in a name would inject lines), with an error wrapping ErrELOValue.
func (f *ELO) Check() error {
	for _, h := range f.Header {
		if err := CheckELOText(h.Key); err != nil || strings.Contains(h.Key, ":") {
			return fmt.Errorf("header key %s: a line break, control character or colon %w", QuoteCut(h.Key), ErrELOValue)
		}
		if err := CheckELOText(h.Value); err != nil {
			return fmt.Errorf("header %s %s: %w", h.Key, QuoteCut(h.Value), err)
		}
	}
	for _, p := range f.Standings {
		vs := []string{p.Last, p.First, p.Country}
		if f.Otd != nil {
			vs = append(vs, f.Otd.Names[p.ID]) // written quoted, but a name is one line of text
		}
		for i, v := range vs {
			err := CheckELOText(v)
			if err == nil && i < 3 && strings.Contains(v, ",") {
				err = fmt.Errorf("a comma in a field of a standings line %w", ErrELOValue)
			}
			if err != nil {
				return fmt.Errorf("player id %d: %s: %w", p.ID, QuoteCut(v), err)
			}
		}
	}
	return nil
}

// text is a name from a file for a message: as it is if it is short text,
// else quoted and cut.
func text(s string) string {
	if CheckELOText(s) == nil && utf8.RuneCountInString(s) <= 80 {
		return s
	}
	return QuoteCut(s)
}

// QuoteCut quotes a value for a message (%q), cut to 80 characters of the
// quoted form with "…": what every error line of otd quotes a value with.
func QuoteCut(s string) string {
	const max = 80
	q := strconv.Quote(s)
	if utf8.RuneCountInString(q) <= max+2 {
		return q
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, n := 0, 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		e := strconv.Quote(s[i : i+size]) // one character, escaped if it is not text
		e = e[1 : len(e)-1]
		if n += utf8.RuneCountInString(e); n > max {
			break
		}
		b.WriteString(e)
		i += size
	}
	b.WriteString("…\"")
	return b.String()
}

var gameLine = regexp.MustCompile(`^\s*(\d+)\s*\(\s*(\d+)\)\s*([<>=])\s*\(\s*(\d+)\)\s*(\d+)\s*B?\s*$`)

// ReadELO reads an .ELO file.
func ReadELO(r io.Reader) (*ELO, error) {
	f := &ELO{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), MaxELOLine+2) // the line and its CR LF
	var cur *[]ELOGame
	n := 1
	tooLong := func() error {
		return fmt.Errorf("line %d: longer than %d KiB, the longest line an .ELO file may have: %w", n, MaxELOLine>>10, ErrELO)
	}
	for ; sc.Scan(); n++ {
		if len(bytes.TrimRight(sc.Bytes(), "\r")) > MaxELOLine {
			return nil, tooLong()
		}
		line := strings.TrimRight(sc.Text(), "\r ")
		bad := func(what string) error {
			return fmt.Errorf("line %d: %s: %s: %w", n, what, QuoteCut(line), ErrELO)
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
			id, isNew := strings.CutPrefix(fs[0], "+") // "+": a new player
			p.New = isNew
			p.ID, e1 = strconv.Atoi(strings.TrimSpace(id))
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
		case strings.HasPrefix(line, otdPrefix):
			if f.Otd == nil {
				f.Otd = newELOOtd()
			}
			if err := f.Otd.read(line[len(otdPrefix):], len(f.Rounds)); err != nil {
				return nil, bad(err.Error())
			}
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
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, tooLong()
	} else if err != nil {
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
// and the games added after them. Other programs' files list neither byes,
// forfeits, absences nor withdrawals: a player without a game in a round gets
// the bye there when the published score exceeds the points of their games; a
// player whose games stop early withdrew after their last game; other rounds
// without a game are absences. otd's own files say all of that in their
// "% otd:" lines, which rebuild the tournament exactly (pass the settings
// through f.Settings to use the rules written there).
func (f *ELO) Tournament(s tournament.Settings) (*tournament.Tournament, error) {
	o := f.Otd
	s.Rounds = len(f.Rounds)
	if o != nil {
		s.Rounds = max(s.Rounds, o.Rounds)
	}
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
		name := joinName(p.Last, p.First)
		pl := tournament.Player{Number: i + 1, ID: p.ID, Name: name, Rating: p.Rating, Country: p.Country, FirstRound: 1}
		if o != nil {
			if n, ok := o.Names[p.ID]; ok {
				pl.Name = n
			}
			st := o.Players[p.ID]
			if st.NoID {
				pl.ID = 0
			}
			pl.FirstRound, pl.Left, pl.Absent = max(st.FirstRound, 1), st.Left, st.Absent
		}
		t.Players = append(t.Players, pl)
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
	// pair places a game of round r (1-based) between the file's ids b and w.
	pair := func(r, b, w int) (int, int, error) {
		where := fmt.Sprintf("round %d", r)
		bn, err := lookup(b, where)
		if err != nil {
			return 0, 0, err
		}
		wn, err := lookup(w, where)
		if err != nil {
			return 0, 0, err
		}
		if bn == wn {
			return 0, 0, fmt.Errorf("%s: player %d plays against themselves: %w", where, b, ErrELO)
		}
		if played[bn-1][r-1] || played[wn-1][r-1] {
			return 0, 0, fmt.Errorf("%s: a player has two games: %w", where, ErrELO)
		}
		played[bn-1][r-1], played[wn-1][r-1] = true, true
		last[bn-1], last[wn-1] = r, r
		return bn, wn, nil
	}
	var all []tournament.Game
	for r, games := range f.Rounds {
		var round []tournament.Game
		for _, g := range games {
			b, w, err := pair(r+1, g.Black, g.White)
			if err != nil {
				return nil, err
			}
			switch {
			case g.BlackDiscs > g.WhiteDiscs:
				points[b-1] += scoring.Point
			case g.WhiteDiscs > g.BlackDiscs:
				points[w-1] += scoring.Point
			default:
				points[b-1] += scoring.Half
				points[w-1] += scoring.Half
			}
			res := &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal}
			if o != nil && r < len(o.TimeDefaults) {
				for _, d := range o.TimeDefaults[r] {
					if d.Black == g.Black && d.White == g.White {
						res.Kind, res.Loser = tournament.TimeDefault, d.Loser
					}
				}
			}
			round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: b, White: w, Result: res})
		}
		if o != nil && r < len(o.Forfeits) {
			for _, d := range o.Forfeits[r] {
				b, w, err := pair(r+1, d.Black, d.White)
				if err != nil {
					return nil, err
				}
				sr := scoring.Result{Kind: scoring.Forfeit, Outcome: scoring.BlackWins}
				winner := b
				if d.Loser == tournament.Black {
					sr.Outcome, winner = scoring.WhiteWins, w
				}
				sc, err := scoring.ScoreGame(sr, s.Rules())
				if err != nil {
					return nil, fmt.Errorf("round %d: forfeit: %w", r+1, err)
				}
				points[winner-1] += scoring.Point
				round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: b, White: w,
					Result: &tournament.Result{Black: sc.BlackDiscs, White: sc.WhiteDiscs, Kind: tournament.Forfeit, Loser: d.Loser}})
			}
		}
		if o != nil && r < len(o.Byes) {
			for _, id := range o.Byes[r] {
				n, err := lookup(id, fmt.Sprintf("round %d", r+1))
				if err != nil {
					return nil, err
				}
				if played[n-1][r] {
					return nil, fmt.Errorf("round %d: player id %d has a game and the bye: %w", r+1, id, ErrELO)
				}
				played[n-1][r], last[n-1] = true, r+1
				points[n-1] += s.ByePoints
				round = append(round, tournament.Game{Round: r + 1, Table: len(round) + 1, Black: n})
			}
		}
		all = append(all, round...)
	}
	t.Games = all
	if o == nil {
		f.inferByes(t, played, points, last)
	} else if err := checkStatuses(t, o, num); err != nil {
		return nil, err
	}
	for i, p := range f.Standings {
		if p.Score != points[i] {
			return nil, fmt.Errorf("%s %s: published score %v, but the games and byes give %v: %w", text(p.Last), text(p.First), p.Score, points[i], ErrELO)
		}
	}
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

// checkStatuses checks the entries, absences and withdrawals of otd's lines
// against the rounds and the games.
func checkStatuses(t *tournament.Tournament, o *ELOOtd, num map[int]int) error {
	for id := range o.Players {
		if num[id] == 0 {
			return fmt.Errorf("otd line: player id %d is not in the standings: %w", id, ErrELO)
		}
	}
	for id := range o.Names {
		if num[id] == 0 {
			return fmt.Errorf("otd line: name: player id %d is not in the standings: %w", id, ErrELO)
		}
	}
	for _, p := range t.Players {
		bad := p.FirstRound > t.Rounds+1 || p.Left < 0 || p.Left > t.Rounds+1
		for i, a := range p.Absent {
			bad = bad || a < 1 || a > t.Rounds || i > 0 && a <= p.Absent[i-1]
		}
		if bad {
			return fmt.Errorf("otd line: player %s: entry, withdrawal or absences outside rounds 1 to %d: %w", text(p.Name), t.Rounds, ErrELO)
		}
	}
	for _, g := range t.Games {
		for _, n := range []int{g.Black, g.White} {
			if n != 0 && !t.Players[n-1].Active(g.Round) {
				return fmt.Errorf("round %d: %s has a game but is not in the round (late entry, absence or withdrawal): %w", g.Round, text(t.Players[n-1].Name), ErrELO)
			}
		}
	}
	return nil
}

// inferByes completes a tournament read from another program's file: a
// player short of their published score gets the bye in their first rounds
// without a game, as many as the score needs; a player whose games stop
// before the last round withdrew after their last game; the other rounds
// without a game are absences.
func (f *ELO) inferByes(t *tournament.Tournament, played [][]bool, points []scoring.HalfPoints, last []int) {
	bye := t.ByePoints
	byes := make([][]int, len(f.Rounds)) // players with the bye, by round
	for i, p := range f.Standings {
		for r := 0; r < len(f.Rounds) && p.Score-points[i] >= bye && bye > 0; r++ {
			if !played[i][r] {
				byes[r] = append(byes[r], i+1)
				played[i][r] = true
				last[i] = max(last[i], r+1)
				points[i] += bye
			}
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
}

// ELOMeta are the values of an .ELO file's header lines: what Papp asks the
// director for when it writes the file.
type ELOMeta struct {
	Tournament string    // the event's name
	Country    string    // the host country, as the director writes it ("France", "FRA"); "" is written "??"
	Start, End time.Time // the days of the event (End zero or equal: one day); zero is written "??"
	Sender     string    // who sends the file to the rating officer; "" is written "??"
	Creator    string    // the program: "otd v1.2"
	Created    time.Time // when the file was made; zero: no %%CreationDate line
}

// MetaOf returns the header values that the tournament itself knows: its
// name, dates, country, and its director as the sender ('otd export elo'
// flags still win when given).
func MetaOf(t *tournament.Tournament) ELOMeta {
	return ELOMeta{Tournament: t.Name, Country: t.Country, Sender: t.Director, Start: t.Start.Time(), End: t.End.Time()}
}

// Headers returns the %% lines of the meta, in the order of Papp's files.
func (m ELOMeta) Headers() []ELOHeader {
	unknown := func(s string) string {
		if s = strings.TrimSpace(s); s == "" {
			return "??"
		}
		return s
	}
	date := "??"
	if !m.Start.IsZero() {
		date = m.Start.Format("02/01/2006")
		if !m.End.IsZero() && !m.End.Equal(m.Start) {
			date += " - " + m.End.Format("02/01/2006")
		}
	}
	h := []ELOHeader{{"Tournament", m.Tournament}, {"Country", unknown(m.Country)}, {"Date", date},
		{"Sender", unknown(m.Sender)}, {"Creator", m.Creator}}
	if !m.Created.IsZero() {
		h = append(h, ELOHeader{"CreationDate", m.Created.Format("2006/01/02 15:04")})
	}
	return h
}

// ErrDuplicateID is returned when two players have the same WOF id.
var ErrDuplicateID = errors.New("two players have the same WOF id")

// FromTournament makes the .ELO file of a tournament: the header, the
// standings after the last finished round in rank order, each of those
// rounds' games played on the board (normal games and time defaults), and
// the games after the Swiss rounds. A forfeit and a bye are not games for
// the rating list: they are left out of the game lines (Papp writes only
// games with discs) and written, with the entries, absences and withdrawals,
// in "% otd:" comment lines for otd's own import. Players are written
// "SURNAME, First" with their WOF id and three-letter country; a player
// without a WOF id is marked new ("+") with a stand-in id unique in the file.
// A name with more commas ("SMITH, John, Jr.") is written SMITH, John Jr.,
// and as it is, quoted, in an otd line ("% otd: name 12 \"SMITH, John, Jr.\"").
func FromTournament(t *tournament.Tournament, meta ELOMeta) (*ELO, error) {
	done := t.Finished()
	rows, err := t.Standings(done)
	if err != nil {
		return nil, err
	}
	ids := make([]int, len(t.Players)+1) // by player number
	used := map[int]int{}
	for _, p := range t.Players {
		if p.ID == 0 {
			continue
		}
		if n := used[p.ID]; n != 0 {
			return nil, fmt.Errorf("players %d and %d: WOF id %d: %w; correct one with 'otd player edit N --wof-id'", n, p.Number, p.ID, ErrDuplicateID)
		}
		used[p.ID], ids[p.Number] = p.Number, p.ID
	}
	// A player without an id stands in as their number, or past every id if a WOF id is that number.
	next := len(t.Players) + 1
	for n := range used {
		next = max(next, n+1)
	}
	for _, p := range t.Players {
		if p.ID == 0 && used[p.Number] == 0 {
			ids[p.Number] = p.Number
		}
	}
	for _, p := range t.Players {
		if p.ID == 0 {
			if ids[p.Number] == 0 {
				ids[p.Number] = next
				next++
			}
			used[ids[p.Number]] = p.Number
		}
	}
	f := &ELO{Header: meta.Headers(), Otd: newELOOtd()}
	o := f.Otd
	o.Rounds, o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks = t.Rounds, t.BQ, t.TimeDefault, t.ByePoints, t.TieBreaks
	for _, row := range rows {
		p := t.Players[row.Player-1]
		last, first := SplitName(p.Name)
		f.Standings = append(f.Standings, ELOPlayer{ID: ids[p.Number], New: p.ID == 0, Last: last, First: first,
			Country: eloCountry(p.Country), Score: row.Points, Discs: row.Discs, Rating: p.Rating})
		if strings.Count(p.Name, ",") > 1 { // "SMITH, John, Jr.": the standings line cannot hold it
			o.Names[ids[p.Number]] = p.Name
		}
		st := ELOStatus{Left: p.Left, Absent: p.Absent, NoID: p.ID == 0}
		if p.FirstRound > 1 {
			st.FirstRound = p.FirstRound
		}
		if st.FirstRound != 0 || st.Left != 0 || len(st.Absent) > 0 || st.NoID {
			o.Players[ids[p.Number]] = st
		}
	}
	for r := 1; r <= done; r++ {
		var games []ELOGame
		var forfeits, timeDefaults []ELOForfeit
		var byes []int
		for _, g := range t.Round(r) {
			switch {
			case g.IsBye():
				byes = append(byes, ids[g.Black])
			case g.Result == nil: // not in a finished round
			case g.Result.Kind == tournament.Forfeit:
				forfeits = append(forfeits, ELOForfeit{ids[g.Black], ids[g.White], g.Result.Loser})
			default:
				games = append(games, ELOGame{ids[g.Black], g.Result.Black, ids[g.White], g.Result.White})
				if g.Result.Kind == tournament.TimeDefault {
					timeDefaults = append(timeDefaults, ELOForfeit{ids[g.Black], ids[g.White], g.Result.Loser})
				}
			}
		}
		f.Rounds = append(f.Rounds, games)
		o.Forfeits, o.TimeDefaults, o.Byes = append(o.Forfeits, forfeits), append(o.TimeDefaults, timeDefaults), append(o.Byes, byes)
	}
	for _, g := range t.Finals {
		f.Added = append(f.Added, ELOGame{ids[g.Black], g.Result.Black, ids[g.White], g.Result.White})
	}
	return f, nil
}

// eloCountry gives a stored country code as the rating list writes it: the
// three-letter code (codes stored before otd normalised them may have two).
func eloCountry(c string) string {
	if n, err := tournament.NormalizeCountry(c); err == nil {
		return n
	}
	return strings.ToUpper(c)
}

// SplitName splits a player's name into the rating list's SURNAME and first
// name: "Leader, Imre", "Imre LEADER" and "Imre Leader" all give LEADER and
// Imre. Without a comma, the words written in capitals are the surname, or
// else the last word. Commas cannot be in a field of the file: they become
// spaces.
func SplitName(name string) (last, first string) {
	if l, f, ok := strings.Cut(name, ","); ok {
		last, first = l, f
	} else {
		words := strings.Fields(name)
		var caps, rest []string
		for _, w := range words {
			if isCapsWord(w) {
				caps = append(caps, w)
			} else {
				rest = append(rest, w)
			}
		}
		switch {
		case len(caps) > 0 && len(rest) > 0:
			last, first = strings.Join(caps, " "), strings.Join(rest, " ")
		case len(words) > 1:
			last, first = words[len(words)-1], strings.Join(words[:len(words)-1], " ")
		default:
			last = name
		}
	}
	clean := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ") }
	return strings.ToUpper(clean(last)), clean(first)
}

// joinName is the name of a standings line's SURNAME and First: "SURNAME, First".
func joinName(last, first string) string {
	if first == "" {
		return last
	}
	return last + ", " + first
}

// isCapsWord reports whether w is written in capitals and has two letters
// or more (an initial, "C.", is not a surname).
func isCapsWord(w string) bool {
	letters := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			if !unicode.IsUpper(r) {
				return false
			}
			letters++
		}
	}
	return letters > 1
}

// Write writes the file in the layout of Papp's .ELO files, with otd's
// comment lines after the standings and in each round.
// A value that the file cannot hold (ErrELOValue) is refused before any
// line is written.
func (f *ELO) Write(w io.Writer) error {
	if err := f.Check(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, h := range f.Header {
		fmt.Fprintf(bw, "%%%%%s: %s\n", h.Key, h.Value)
		if h.Key == "Sender" {
			bw.WriteString("\n")
		}
	}
	fmt.Fprintf(bw, "\n%%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating\n")
	for _, p := range f.Standings {
		mark := ' '
		if p.New {
			mark = '+'
		}
		score := fmt.Sprintf("%2d", p.Score/2)
		if p.Score%2 != 0 {
			score += ".5"
		}
		fmt.Fprintf(bw, "%%_%% %c%6d, %s, %s, %s, %s, %d, %d\n", mark, p.ID, p.Last, p.First, p.Country, score, p.Discs, p.Rating)
	}
	o := f.Otd
	if o != nil {
		fmt.Fprintf(bw, "\n%s these lines are for otd: forfeits and byes (not games for the rating list), entries, absences, withdrawals\n", otdPrefix)
		fmt.Fprintf(bw, "%s rounds %d\n", otdPrefix, o.Rounds)
		fmt.Fprintf(bw, "%s rules bq=%v time-default=%v bye-points=%v tiebreaks=%v\n", otdPrefix, o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks)
		for _, p := range f.Standings {
			st, ok := o.Players[p.ID]
			if !ok {
				continue
			}
			fmt.Fprintf(bw, "%s player %d", otdPrefix, p.ID)
			if st.FirstRound != 0 {
				fmt.Fprintf(bw, " first %d", st.FirstRound)
			}
			if st.Left != 0 {
				fmt.Fprintf(bw, " left %d", st.Left)
			}
			if len(st.Absent) > 0 {
				a := make([]string, len(st.Absent))
				for i, r := range st.Absent {
					a[i] = strconv.Itoa(r)
				}
				fmt.Fprintf(bw, " absent %s", strings.Join(a, ","))
			}
			if st.NoID {
				bw.WriteString(" no-id")
			}
			bw.WriteString("\n")
		}
		for _, p := range f.Standings {
			if name, ok := o.Names[p.ID]; ok {
				fmt.Fprintf(bw, "%s name %d %s\n", otdPrefix, p.ID, strconv.Quote(name))
			}
		}
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
		if o == nil {
			continue
		}
		if r < len(o.TimeDefaults) {
			for _, d := range o.TimeDefaults[r] {
				fmt.Fprintf(bw, "%s time-default %d %d %s\n", otdPrefix, d.Black, d.White, d.Loser)
			}
		}
		if r < len(o.Forfeits) {
			for _, d := range o.Forfeits[r] {
				fmt.Fprintf(bw, "%s forfeit %d %d %s\n", otdPrefix, d.Black, d.White, d.Loser)
			}
		}
		if r < len(o.Byes) {
			for _, id := range o.Byes[r] {
				fmt.Fprintf(bw, "%s bye %d\n", otdPrefix, id)
			}
		}
	}
	if len(f.Added) > 0 {
		fmt.Fprintf(bw, "\n%%%%Added results\n\n")
		games(f.Added)
	}
	return bw.Flush()
}

// otdPrefix starts the comment lines that otd writes for its own import.
const otdPrefix = "% otd:"

func newELOOtd() *ELOOtd {
	d := tournament.DefaultSettings("", 1)
	return &ELOOtd{BQ: d.BQ, TimeDefault: d.TimeDefault, ByePoints: d.ByePoints, TieBreaks: d.TieBreaks,
		Players: map[int]ELOStatus{}, Names: map[int]string{}}
}

// read reads what follows "% otd:" on a line; round is the round section it
// is in (0 before the first).
func (o *ELOOtd) read(text string, round int) error {
	w := strings.Fields(text)
	if len(w) == 0 {
		return nil // the explanation line has words; an empty one says nothing
	}
	atoi := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("otd line: %s is not a whole number", QuoteCut(s))
		}
		return n, nil
	}
	inRound := func() error {
		if round == 0 {
			return fmt.Errorf("otd line: %s before the first %%Round line", QuoteCut(w[0]))
		}
		for len(o.Forfeits) < round {
			o.Forfeits, o.TimeDefaults, o.Byes = append(o.Forfeits, nil), append(o.TimeDefaults, nil), append(o.Byes, nil)
		}
		return nil
	}
	pair := func() (ELOForfeit, error) {
		if len(w) != 4 || w[3] != string(tournament.Black) && w[3] != string(tournament.White) {
			return ELOForfeit{}, fmt.Errorf("otd line: %s is: black-id white-id black|white (the colour that lost)", w[0])
		}
		b, e1 := atoi(w[1])
		wh, e2 := atoi(w[2])
		if e1 == nil {
			e1 = e2 // one error, one line
		}
		return ELOForfeit{b, wh, tournament.Color(w[3])}, e1
	}
	switch w[0] {
	case "rounds":
		if len(w) != 2 {
			return errors.New("otd line: rounds is: rounds N")
		}
		n, err := atoi(w[1])
		o.Rounds = n
		return err
	case "rules":
		for _, kv := range w[1:] {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "bq":
				o.BQ, err = scoring.ParseBQRule(v)
			case "time-default":
				o.TimeDefault, err = scoring.ParseTimePolicy(v)
			case "bye-points":
				o.ByePoints, err = scoring.ParseByePoints(v)
			case "tiebreaks":
				o.TieBreaks, err = scoring.ParseTieBreaks(v)
			default: // a rule of a later otd: the reader does without
			}
			if err != nil {
				return fmt.Errorf("otd line: rules: %v", err)
			}
		}
	case "player":
		if len(w) < 2 {
			return errors.New("otd line: player is: player ID [first N] [left N] [absent N,N...] [no-id]")
		}
		id, err := atoi(w[1])
		if err != nil {
			return err
		}
		st := o.Players[id]
		for i := 2; i < len(w); i++ {
			switch {
			case w[i] == "no-id":
				st.NoID = true
			case i+1 < len(w) && (w[i] == "first" || w[i] == "left"):
				n, err := atoi(w[i+1])
				if err != nil {
					return err
				}
				if w[i] == "first" {
					st.FirstRound = n
				} else {
					st.Left = n
				}
				i++
			case i+1 < len(w) && w[i] == "absent":
				for _, a := range strings.Split(w[i+1], ",") {
					n, err := atoi(a)
					if err != nil {
						return err
					}
					st.Absent = append(st.Absent, n)
				}
				i++
			default:
				return fmt.Errorf("otd line: player %d: %s is not first N, left N, absent N,N... or no-id", id, QuoteCut(w[i]))
			}
		}
		o.Players[id] = st
	case "name":
		// name ID "the name, as a Go string": the name as otd keeps it.
		_, rest, _ := strings.Cut(strings.TrimSpace(text), "name")
		id, q, _ := strings.Cut(strings.TrimSpace(rest), " ")
		n, err := atoi(id)
		if err != nil {
			return err
		}
		name, err := strconv.Unquote(strings.TrimSpace(q))
		if err != nil {
			return fmt.Errorf("otd line: name is: name ID \"the name\" (quoted)")
		}
		if _, dup := o.Names[n]; dup {
			return fmt.Errorf("otd line: player id %d has two names", n)
		}
		o.Names[n] = name
	case "forfeit", "time-default":
		if err := inRound(); err != nil {
			return err
		}
		g, err := pair()
		if err != nil {
			return err
		}
		if w[0] == "forfeit" {
			o.Forfeits[round-1] = append(o.Forfeits[round-1], g)
		} else {
			o.TimeDefaults[round-1] = append(o.TimeDefaults[round-1], g)
		}
	case "bye":
		if err := inRound(); err != nil {
			return err
		}
		if len(w) != 2 {
			return errors.New("otd line: bye is: bye ID")
		}
		id, err := atoi(w[1])
		if err != nil {
			return err
		}
		o.Byes[round-1] = append(o.Byes[round-1], id)
	default: // an explanation, or a line of a later otd
	}
	return nil
}
