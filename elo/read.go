package elo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/scoring"
)

// gameText is one game as the files of the WOF archive write it: black's id,
// the discs in brackets (both or neither: "id > id" is a result without
// discs), the sign, white's id, and perhaps a mark B or W (Papp writes B;
// what other programs' W says varies from file to file: the first id is read
// as black's, as the format says). An id unknown to the file is "??????".
const gameText = `(\d+|\?+)\s*(?:\(\s*(\d+)\s*\)\s*([<>=])\s*\(\s*(\d+)\s*\)|([<>=]))\s*(\d+|\?+)(?:\s+[BWbw])?`

var (
	gameLine  = regexp.MustCompile(`^\s*` + gameText + `\s*$`)
	gamesLine = regexp.MustCompile(`^\s*(?:` + gameText + `\s*)+$`) // a line with several games: a line break lost
	oneGame   = regexp.MustCompile(gameText)
)

// matchGameLine is gameLine.FindStringSubmatchIndex(s) without the regexp
// where the line is a game as the archive's files write them, else nil (and
// its caller asks the regexp): the lines of games are most of a file, and
// the regexp's backtracking was a tenth of reading the whole WOF archive.
// FuzzGameLine checks that it never differs from the regexp where it answers.
func matchGameLine(s string) []int {
	space := func(i int) int {
		for i < len(s) && strings.IndexByte(" \t\n\f\r", s[i]) >= 0 {
			i++
		}
		return i
	}
	run := func(i int, digitsOnly bool) int { // the end of \d+, or of \?+ too
		j := i
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		if j == i && !digitsOnly {
			for j < len(s) && s[j] == '?' {
				j++
			}
		}
		return j
	}
	sign := func(i int) bool { return i < len(s) && strings.IndexByte("<>=", s[i]) >= 0 }
	m := []int{0, len(s), -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
	i := space(0)
	j := run(i, false)
	if j == i {
		return nil
	}
	m[2], m[3] = i, j
	i = space(j)
	switch {
	case i < len(s) && s[i] == '(':
		for k, g := range []int{4, 8} { // (discs) sign (discs)
			if k == 1 {
				if i = space(i); !sign(i) {
					return nil
				}
				m[6], m[7] = i, i+1
				if i = space(i + 1); i >= len(s) || s[i] != '(' {
					return nil
				}
			}
			i = space(i + 1)
			if j = run(i, true); j == i {
				return nil
			}
			m[g], m[g+1] = i, j
			if i = space(j); i >= len(s) || s[i] != ')' {
				return nil
			}
			i++
		}
	case sign(i):
		m[10], m[11] = i, i+1
		i++
	default:
		return nil
	}
	i = space(i)
	if j = run(i, false); j == i {
		return nil
	}
	m[12], m[13] = i, j
	i = space(j)
	if i > j && i < len(s) && strings.IndexByte("BWbw", s[i]) >= 0 {
		i = space(i + 1)
	}
	if i != len(s) {
		return nil
	}
	return m
}

// addedLine starts the added results: "%%Added results", as Papp writes
// it, and "% Added results", "%Added results: Semi-Finals".
var addedLine = regexp.MustCompile(`(?i)^%%?\s*added results\b`)

// roundLine reads a line that starts a block of games: "%Round: 3", and as
// other programs and hand-made files write it, "%Round 3", "%%Round: 3", "%
// Round 3", "%round3:", "%ROUND 3 (day 1)", "% Ronde 3" (Dutch); "%Rounds" and "% round robin"
// are comments. It returns the label after "round" and the column where it
// starts.
var roundLine = regexp.MustCompile(`(?i)^%%?\s*(?:round|ronde)(?:\s*:\s*|\s+|(\d))(.*)$`)

// finalBlock is a block of final-phase games: "%Round SF1", "%Round 3P",
// "%Round F" (the WOC 1988-1990 files of the WOF archive), "%Round: 3-4",
// "%Round 1 Semi-finals", "%Round Play-off 3rd-4th", "%Round: Finals".
// Their games are added results, and those files count them in the
// published scores, unlike Papp. ("%Round PO" of the WOC 1977-1986 files is
// a pool, not a final phase.)
var finalBlock = regexp.MustCompile(`(?i)^(QF[1-4]?|SF[12]?|F|3P|3-4)\b|semi|final(e|s)?\b[^:]*$|play-?off|quarter`)

// finalWords are the words of a comment that labels a block of
// final-phase games, as files other than Papp's write it: "%Semi-finals",
// "%%Finale", "%% Match 3/4", "%%match 3/4", "%3/4 playoff", "%DIV I SEMIS",
// "%Women final", "%finals:", "%Finals: 1", "%1/2finals", "%Playoffs:",
// "% 1st place play-off:", "%5th/6th Play off".
var finalWords = regexp.MustCompile(`(?i)semi|quarter|final(e|es|s)?\b|play[- ]?offs?\b|\bmatch\s*\d\s*[/_]\s*\d\b|^\d\s*[/_]\s*\d\b|\d(st|nd|rd|th)\s+place`)

// finalComment reports whether a line is a comment that labels a block of
// final-phase games (finalWords), not a header "%%Key: value" whose key
// says nothing of a final ("%%Tournament: Final of the cup"). "%Final
// round" is one: Thailand 2013 writes its final so, before "%3/4 playoff".
func finalComment(line string) bool {
	if !strings.HasPrefix(line, "%") || strings.HasPrefix(line, "%_%") {
		return false
	}
	label := strings.TrimSpace(strings.TrimLeft(line, "%"))
	key, val, colon := strings.Cut(label, ":")
	if strings.HasPrefix(line, "%%") && colon && strings.TrimSpace(val) != "" && !finalWords.MatchString(key) {
		return false
	}
	return finalWords.MatchString(label)
}

// roundNumber is the number a round's label starts with: "3", "3 (day 1)",
// "3:", "4+ (missing matches)".
var roundNumber = regexp.MustCompile(`^(\d+)\b`)

// game reads the game at m (submatch indexes of gameText in line, from
// index 0 of m being the whole game): ok is false if its sign does not fit
// its discs, or the discs are more than the board's 64; then g is the game as
// the discs say, and sign is the sign's column.
func game(line string, m []int) (g Game, sign int, ok bool) {
	group := func(i int) (int, bool) {
		if m[2*i] < 0 {
			return 0, false
		}
		v, err := strconv.Atoi(line[m[2*i]:m[2*i+1]])
		return v, err == nil
	}
	g.Black, _ = group(1)
	g.White, _ = group(6)
	if _, discs := group(2); !discs {
		g.NoDiscs = true
		sign = m[10]
		switch line[sign] {
		case '>':
			g.Loser = White
		case '<':
			g.Loser = Black
		}
		return g, sign + 1, true
	}
	g.BlackDiscs, _ = group(2)
	g.WhiteDiscs, _ = group(4)
	sign = m[6]
	c := line[sign]
	ok = (c == '>') == (g.BlackDiscs > g.WhiteDiscs) && (c == '=') == (g.BlackDiscs == g.WhiteDiscs)
	if g.BlackDiscs == g.WhiteDiscs && c != '=' {
		// A tie on the board written < or >: who won it (a final-phase
		// game: who went through; a Japanese file: who won the game).
		g.Loser = map[byte]Color{'<': Black, '>': White}[c]
		ok = true
	}
	return g, sign + 1, ok && g.BlackDiscs+g.WhiteDiscs <= 64
}

// readGame reads a game line: false if it is not one, or its sign does not
// match its discs (then g is the game as the discs say), or the discs are
// more than the board's 64.
func readGame(line string) (g Game, ok bool) {
	m := matchGameLine(line)
	if m == nil {
		m = gameLine.FindStringSubmatchIndex(line)
	}
	if m == nil {
		return Game{}, false
	}
	g, _, ok = game(line, m)
	return g, ok
}

// Options say how Read treats a game line that contradicts itself.
type Options struct {
	// Sign is what a sign that contradicts the discs ("11 (25)>(39) 22")
	// means: SignRefuse (the zero value) refuses the file, SignDiscs takes
	// the result as the discs say it, SignSign as the sign says it, without
	// discs (also where the discs add up to more than the board's 64,
	// which the other rules refuse). File.Signs lists those lines.
	Sign SignRule
}

// SignRule is how Read takes a game line whose sign contradicts its discs.
type SignRule string

// The rules of a sign that contradicts the discs.
const (
	SignRefuse SignRule = ""
	SignDiscs  SignRule = "discs"
	SignSign   SignRule = "sign"
)

// Read reads an .ELO file, refusing one with a game line that contradicts
// itself. A file it refuses gives a *ParseError wrapping ErrInvalid; an error
// of r is returned as it is.
func Read(r io.Reader) (*File, error) { return ReadWith(r, Options{}) }

// ReadWith reads an .ELO file as Read does, a game line whose sign
// contradicts its discs as o says.
//
// It reads every layout of the WOF archive's files: Papp's; standings
// without a rating or with fields left empty (NoScore, NoDiscs); ids
// "??????" (0: the file gives none); game lines with any spacing, with or
// without Papp's mark B, without discs ("11 > 22", NoDiscs), several on a
// line, a comment after them; round lines written "%Round 3", "%%Round:
// 3", "% Round 3", "%round3:" and with words after the number; games
// before the first round line and in blocks without a number ("%Round PO",
// "%Round RR"), which are Unrounded. The file is read as UTF-8 when it is
// valid UTF-8, else as Windows-1252 (File.Windows1252), a byte-order mark at
// its start left out.
func ReadWith(r io.Reader, o Options) (*File, error) {
	if o.Sign != SignRefuse && o.Sign != SignDiscs && o.Sign != SignSign {
		return nil, fmt.Errorf("sign rule %q: want %q or %q", o.Sign, SignDiscs, SignSign)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, &ParseError{Err: fmt.Errorf("larger than %d MiB, the largest .ELO file otd reads: %w", MaxSize>>20, ErrInvalid)}
	}
	text, cp1252 := txt.Decode(data)
	f := &File{Windows1252: cp1252}
	if n := strings.Count(text, "%_%"); n > 0 { // the standings lines, or about: room for them
		f.Standings, f.StandingsLines = make([]Player, 0, n), make([]int, 0, n)
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 4096), MaxLine+2) // the line and its CR LF
	cur, lines := &f.Unrounded, (*[]int)(nil)
	block := ""               // the label of the block being read: a final block, or one without a number
	figures := defaultFigures // what the standings' figures are, after the names and country
	n := 1
	tooLong := func() error {
		return &ParseError{Line: n, Col: MaxLine + 1, Err: fmt.Errorf("longer than %d KiB, the longest line an .ELO file may have: %w", MaxLine>>10, ErrInvalid)}
	}
	for ; sc.Scan(); n++ {
		if len(bytes.TrimRight(sc.Bytes(), "\r")) > MaxLine {
			return nil, tooLong()
		}
		line := strings.TrimRight(sc.Text(), "\r \t")
		if t := strings.TrimLeft(line, " \t"); strings.HasPrefix(t, "%") {
			line = t // " %Round 1"
		}
		bad := func(col int, what string) error {
			return &ParseError{Line: n, Col: col, Err: fmt.Errorf("%s: %s: %w", what, QuoteCut(line), ErrInvalid)}
		}
		// Only a comment may start a block (not a game line, not a
		// standings line): the expressions are not tried on the others.
		starts := strings.HasPrefix(line, "%") && !strings.HasPrefix(line, "%_%")
		var rm []int
		if starts {
			rm = roundLine.FindStringSubmatchIndex(line)
		}
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, otdPrefix): // before the labels: "% otd: final woc" labels no block
			if f.Otd == nil {
				f.Otd = NewOtd()
			}
			if err := f.Otd.read(line[len(otdPrefix):], len(f.Rounds), len(f.Added)); err != nil {
				return nil, bad(0, err.Error())
			}
		case starts && addedLine.MatchString(line):
			cur, lines, block = &f.Added, nil, ""
		case rm != nil:
			start := rm[4]
			if rm[2] >= 0 { // "%round3"
				start = rm[2]
			}
			label := strings.TrimSpace(line[start:])
			src := Source{Line: n, Block: label}
			switch {
			case finalBlock.MatchString(label):
				cur, lines, block = &f.Added, nil, label
			case roundNumber.MatchString(label):
				// Each numbered block is the file's next round, whatever
				// its number: RoundFrom keeps the label.
				f.Rounds, f.GameLines, f.RoundFrom = append(f.Rounds, nil), append(f.GameLines, nil), append(f.RoundFrom, src)
				cur, lines, block = &f.Rounds[len(f.Rounds)-1], &f.GameLines[len(f.Rounds)-1], ""
				rest := strings.TrimLeft(label[len(roundNumber.FindString(label)):], " \t:.-+")
				if ms := games(rest); ms != nil {
					// "%round3:1234 > 5678": a game on the round line
					if err := f.addGames(rest, ms, n, cur, lines, "", o, func(col int, what string) error { return bad(len(line)-len(rest)+col, what) }); err != nil {
						return nil, err
					}
				}
			default: // "%Round PO", "%Round RR": games without a round
				cur, lines, block = &f.Unrounded, nil, label
			}
		case finalComment(line):
			// "%Semi-finals", "%% Finale", "%%3/4 playoff": the file's
			// label of a block of final-phase games
			cur, lines, block = &f.Added, nil, strings.TrimSpace(strings.TrimLeft(line, "%"))
		case strings.HasPrefix(line, "%%"):
			k, v, _ := strings.Cut(line[2:], ":")
			f.Header, f.HeaderLines = append(f.Header, Header{strings.TrimSpace(k), strings.TrimSpace(v)}), append(f.HeaderLines, n)
		case strings.HasPrefix(line, "%_%"):
			if cs, ok := columnNames(line); ok {
				figures = cs
				continue
			}
			p, ok, err := readPlayer(line, figures, bad)
			if err != nil {
				return nil, err
			}
			if ok {
				f.Standings = append(f.Standings, p)
				f.StandingsLines = append(f.StandingsLines, n)
			}
		case strings.HasPrefix(line, "%"): // a comment, perhaps a game left out, or the columns' names
			if cs, ok := columnNames(line); ok {
				figures = cs
				continue
			}
			if g, ok := readGame(line[1:]); ok {
				f.Commented = append(f.Commented, Commented{Line: n, Game: g})
			}
		default:
			text, _, _ := strings.Cut(line, "%") // "11 > 22 %Tucci - Perotti 2-0": a comment after the game
			ms := games(text)
			if ms == nil {
				return nil, bad(0, "a game line is: black-id (discs)<(discs) white-id B")
			}
			if err := f.addGames(text, ms, n, cur, lines, block, o, bad); err != nil {
				return nil, err
			}
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, tooLong()
	} else if err != nil {
		return nil, err
	}
	if len(f.Rounds) == 0 && len(f.Unrounded) == 0 && len(f.Added) == 0 {
		return nil, &ParseError{Err: fmt.Errorf("no game and no %%Round line: %w", ErrInvalid)}
	}
	return f, nil
}

// games are the games of text, a line of games, as the indexes in text of
// gameText's groups (game reads them), nil if text is not a line of games.
func games(text string) [][]int {
	m := matchGameLine(text)
	if m == nil {
		m = gameLine.FindStringSubmatchIndex(text)
	}
	if m != nil {
		return [][]int{m} // a line of one game, the usual: one reading
	}
	if !gamesLine.MatchString(text) {
		return nil
	}
	return oneGame.FindAllStringSubmatchIndex(text, -1)
}

// addGames adds the games of text, line n, at ms (games), to cur (their
// lines to lines, the added results' sources to f.AddedFrom, the
// unrounded's to f.UnroundedFrom, with the block's label).
func (f *File) addGames(text string, ms [][]int, n int, cur *[]Game, lines *[]int, block string, o Options, bad func(int, string) error) error {
	for _, m := range ms {
		g, col, ok := game(text, m)
		if !ok {
			over := g.BlackDiscs+g.WhiteDiscs > 64
			switch {
			case over && o.Sign != SignSign:
				return bad(col, fmt.Sprintf("the discs add up to %d, more than the board's 64 squares", g.BlackDiscs+g.WhiteDiscs))
			case o.Sign == SignRefuse:
				return bad(col, "the discs do not match the sign between them")
			}
			f.Signs = append(f.Signs, Commented{Line: n, Game: g})
			if o.Sign == SignSign { // the sign wins: a result without discs
				g = Game{Black: g.Black, White: g.White, NoDiscs: true, Loser: map[byte]Color{'<': Black, '>': White}[text[col-1]]}
			}
		}
		*cur = append(*cur, g)
		switch {
		case lines != nil:
			*lines = append(*lines, n)
		case cur == &f.Added:
			f.AddedFrom = append(f.AddedFrom, Source{Line: n, Block: block})
		default:
			f.UnroundedFrom = append(f.UnroundedFrom, Source{Line: n, Block: block})
		}
	}
	return nil
}

// idField reads an id: digits, or "?..." for an id the file does not give
// (0).
var idField = regexp.MustCompile(`^(\+?)\s*(\d+|\?+)$`)

// number is a score, disc or rating field as the files write it.
var number = regexp.MustCompile(`^-?\d*(\.\d+)?$|^\d+-\d+$`)

// The kinds of a standings line's figures, after the names and the country.
const (
	figScore  = "score"
	figDiscs  = "discs"
	figRating = "rating"
	figOther  = "" // a BQ, MBQ, a rank, another federation's rating: not read
)

var defaultFigures = []string{figScore, figDiscs, figRating}

// columnNames reads a comment that names the standings' columns ("% ID,
// NAME, Firstname, COUNTRY, score, BQ"; "%_% ID, ..."), and returns the
// kinds of the figures, those from the score (or rank) on.
func columnNames(line string) ([]string, bool) {
	fs := strings.Split(strings.TrimLeft(line, "%_ \t"), ",")
	if len(fs) < 2 || !strings.EqualFold(strings.TrimSpace(fs[0]), "id") {
		return nil, false
	}
	known := map[string]string{"score": figScore, "rank": figOther, "disc-count": figDiscs, "discs": figDiscs, "disc count": figDiscs,
		"rating": figRating, "bq": figOther, "mbq": figOther, "bwell": figOther}
	var kinds []string
	for _, f := range fs[1:] {
		c := strings.ToLower(strings.TrimSpace(f))
		cols := []string{c}
		if ws := strings.Fields(c); len(ws) > 1 && !slices.ContainsFunc(ws, func(w string) bool { _, ok := known[w]; return !ok }) {
			cols = ws // "Score MBQ": two columns without a comma
		}
		for _, c := range cols {
			kind, ok := known[c]
			switch {
			case c == "score" || c == "rank":
				kinds = []string{kind}
			case kinds == nil: // the names and the country
			case ok:
				kinds = append(kinds, kind)
			default: // "prev BOF rating"
				kinds = append(kinds, figOther)
			}
		}
	}
	if kinds == nil {
		return defaultFigures, true // "% ID, NAME, Firstname": no figures named
	}
	return kinds, true
}

// readPlayer reads a standings line: "%_% id, SURNAME, First, country,
// figures...", the figures those that the columns' names say (columnNames;
// by default score, discs, rating, as Papp writes them). A figure may be
// left out or empty ("-" too for a rating), and so may the country; a
// figure that is not a number is not given, quoted in Unread; ok is false
// for a separator ("%_%______"). Fields after the figures are not read.
func readPlayer(line string, figures []string, bad func(int, string) error) (p Player, ok bool, err error) {
	text := line
	if i := strings.Index(line[3:], "%"); i >= 0 {
		text = line[:3+i] // "617   %Champion": a comment after the fields
	}
	fs := strings.Split(text[3:], ",")
	for i := 4; i+1 < len(fs); i++ {
		// "NL, 4,5, 264": a decimal comma, no space after it
		if a, b := fs[i], fs[i+1]; (b == "5" || strings.HasPrefix(b, "5 ")) && a != "" && a[len(a)-1] >= '0' && a[len(a)-1] <= '9' && !strings.Contains(a, ".") {
			more := []string{} // "SGP, 4,5 439.0": the next figure after a space
			if b != "5" {
				more = append(more, b[1:])
			}
			fs = slices.Concat(fs[:i], []string{a + ".5"}, more, fs[i+2:])
			break
		}
	}
	if len(fs) == 1 {
		return Player{}, false, nil // a separator such as %_%______, or a note
	}
	col, cols := len("%_%")+1, make([]int, len(fs)) // where each field's text starts
	for i, s := range fs {
		cols[i] = col + len(s) - len(strings.TrimLeft(s, " \t"))
		col += len(s) + 1
		fs[i] = strings.TrimSpace(s)
	}
	if len(fs) < 3 {
		return Player{}, false, bad(0, "a standings line is %_% id, surname, first name, country, score, discs, rating")
	}
	m := idField.FindStringSubmatch(fs[0])
	if m == nil {
		return Player{}, false, bad(cols[0], "the id is a number")
	}
	p = Player{New: m[1] == "+", Last: fs[1], First: fs[2], NoScore: true, NoDiscs: true}
	if m[2][0] != '?' {
		if p.ID, err = strconv.Atoi(m[2]); err != nil {
			return Player{}, false, bad(cols[0], "the id is a number")
		}
	}
	// The fields after the names, those written without a comma between
	// them ("SGP 6 416") apart.
	var rest []string
	var rcols []int
	for i := 3; i < len(fs); i++ {
		ws := strings.Fields(fs[i])
		if len(ws) > 1 && number.MatchString(ws[len(ws)-1]) {
			for _, w := range ws {
				rest, rcols = append(rest, w), append(rcols, cols[i]+strings.Index(fs[i], w))
			}
			continue
		}
		rest, rcols = append(rest, fs[i]), append(rcols, cols[i])
	}
	if len(rest) > 1 && rest[0] == "" && rest[1] != "" && !number.MatchString(rest[1]) {
		rest, rcols = rest[1:], rcols[1:] // "Max, ,ARG, 3, 178"
	}
	if len(rest) > 0 && (rest[0] == "" || !number.MatchString(rest[0])) { // the country, perhaps empty
		p.Country, rest, rcols = rest[0], rest[1:], rcols[1:]
	}
	var unread []string
	for i, s := range rest[:min(len(figures), len(rest))] {
		if s == "" || figures[i] == figRating && s == "-" {
			continue // not given; "-": not rated
		}
		var err error
		switch figures[i] {
		case figScore:
			if strings.HasPrefix(s, ".") {
				s = "0" + s // ".5"
			}
			p.Score, err = scoring.ParseHalfPoints(s)
			p.NoScore = err != nil
		case figDiscs:
			// "453.0"; "262-186": the discs and those of the opponents
			d, _, _ := strings.Cut(strings.TrimSuffix(s, ".0"), "-")
			p.Discs, err = strconv.Atoi(d)
			p.NoDiscs = err != nil
		case figRating:
			p.Rating, err = strconv.Atoi(s)
		}
		if err != nil {
			unread = append(unread, strconv.Quote(s))
		}
	}
	p.Unread = strings.Join(unread, ", ")
	return p, true, nil
}
