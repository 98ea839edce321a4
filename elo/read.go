package elo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
)

var gameLine = regexp.MustCompile(`^\s*(\d+)\s*\(\s*(\d+)\)\s*([<>=])\s*\(\s*(\d+)\)\s*(\d+)\s*B?\s*$`)

// roundLabel reads a line that starts a round, "%Round: 3" (or "%Round 3",
// as some converted files write it) or a block of final games (finalBlock):
// its label and the column where the label starts; ok is false for a line
// that is not a %Round line (a comment such as "%Rounds").
func isRoundLine(line string) bool { _, _, _, ok := roundLabel(line); return ok }

func roundLabel(line string) (label string, col int, colon, ok bool) {
	rest, ok := strings.CutPrefix(line, "%Round")
	colon = strings.HasPrefix(rest, ":")
	if !ok || !colon && (rest == "" || rest[0] != ' ' && rest[0] != '\t') {
		return "", 0, false, false
	}
	label = strings.TrimLeft(strings.TrimPrefix(rest, ":"), " \t")
	return label, len(line) - len(label) + 1, colon, true
}

// finalBlock is the label of a block of final-phase games in converted
// files: "%Round SF1", "%Round 3P", "%Round F" (the WOC 1988-1990 files of
// the WOF archive), "%Round: 3-4". Their games are added results, and those
// files count them in the published scores, unlike Papp. ("%Round PO" of
// the WOC 1977-1986 files is a pool, not a final phase.)
var finalBlock = regexp.MustCompile(`(?i)^(QF[1-4]?|SF[12]?|F|3P|3-4)$`)

// readGame reads a game line: false if it is not one, or its sign does not
// match its discs (then g is the game as the discs say), or the discs are
// more than the board's 64.
func readGame(line string) (g Game, ok bool) {
	m := gameLine.FindStringSubmatchIndex(line)
	if m == nil {
		return Game{}, false
	}
	group := func(i int) int { v, _ := strconv.Atoi(line[m[2*i]:m[2*i+1]]); return v }
	g = Game{Black: group(1), BlackDiscs: group(2), WhiteDiscs: group(4), White: group(5)}
	sign := line[m[6]]
	signOK := (sign == '>') == (g.BlackDiscs > g.WhiteDiscs) && (sign == '=') == (g.BlackDiscs == g.WhiteDiscs)
	return g, signOK && g.BlackDiscs+g.WhiteDiscs <= 64
}

// Read reads an .ELO file. A file it refuses gives a *ParseError wrapping
// ErrInvalid; an error of r is returned as it is.
func Read(r io.Reader) (*File, error) {
	f := &File{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), MaxLine+2) // the line and its CR LF
	var cur *[]Game
	block := "" // the label of the final block being read
	n := 1
	tooLong := func() error {
		return &ParseError{Line: n, Col: MaxLine + 1, Err: fmt.Errorf("longer than %d KiB, the longest line an .ELO file may have: %w", MaxLine>>10, ErrInvalid)}
	}
	for ; sc.Scan(); n++ {
		if len(bytes.TrimRight(sc.Bytes(), "\r")) > MaxLine {
			return nil, tooLong()
		}
		line := strings.TrimRight(sc.Text(), "\r ")
		bad := func(col int, what string) error {
			return &ParseError{Line: n, Col: col, Err: fmt.Errorf("%s: %s: %w", what, QuoteCut(line), ErrInvalid)}
		}
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, addedResults):
			cur, block = &f.Added, ""
		case strings.HasPrefix(line, "%%"):
			k, v, _ := strings.Cut(line[2:], ":")
			f.Header = append(f.Header, Header{strings.TrimSpace(k), strings.TrimSpace(v)})
		case strings.HasPrefix(line, "%_%"):
			fs := strings.Split(line[3:], ",")
			if len(fs) == 1 {
				continue // a separator such as %_%______
			}
			if len(fs) != 7 && len(fs) != 6 { // converted files may have no rating
				return nil, bad(0, "a standings line is %_% id, surname, first name, country, score, discs, rating")
			}
			col, cols := len("%_%")+1, make([]int, len(fs)) // where each field's text starts
			for i, s := range fs {
				cols[i] = col + len(s) - len(strings.TrimLeft(s, " \t"))
				col += len(s) + 1
				fs[i] = strings.TrimSpace(s)
			}
			p := Player{Last: fs[1], First: fs[2], Country: fs[3]}
			var errs [4]error
			id, isNew := strings.CutPrefix(fs[0], "+") // "+": a new player
			p.New = isNew
			p.ID, errs[0] = strconv.Atoi(strings.TrimSpace(id))
			p.Score, errs[1] = scoring.ParseHalfPoints(fs[4])
			p.Discs, errs[2] = strconv.Atoi(fs[5])
			if len(fs) == 7 && fs[6] != "-" && fs[6] != "" { // "-": not rated
				p.Rating, errs[3] = strconv.Atoi(fs[6])
			}
			for i, field := range []int{0, 4, 5, 6} {
				if errs[i] != nil {
					return nil, bad(cols[field], "id, score, discs and rating must be numbers")
				}
			}
			f.Standings = append(f.Standings, p)
		case isRoundLine(line):
			label, col, colon, _ := roundLabel(line)
			r, err := strconv.Atoi(label)
			switch {
			case finalBlock.MatchString(label):
				cur, block = &f.Added, label
			case err == nil && r == len(f.Rounds)+1:
				f.Rounds = append(f.Rounds, nil)
				cur = &f.Rounds[r-1]
			case colon || err == nil:
				return nil, bad(col, fmt.Sprintf("expected %%Round: %d", len(f.Rounds)+1))
			} // "%Round 1 Semi-finals", without a colon: a comment
		case strings.HasPrefix(line, otdPrefix):
			if f.Otd == nil {
				f.Otd = NewOtd()
			}
			if err := f.Otd.read(line[len(otdPrefix):], len(f.Rounds)); err != nil {
				return nil, bad(0, err.Error())
			}
		case strings.HasPrefix(line, "%"): // a comment, perhaps a game left out
			if g, ok := readGame(line[1:]); ok {
				f.Commented = append(f.Commented, Commented{Line: n, Game: g})
			}
		default:
			m := gameLine.FindStringSubmatchIndex(line)
			if m == nil {
				return nil, bad(0, "a game line is: black-id (discs)<(discs) white-id B")
			}
			if cur == nil {
				return nil, bad(0, "a game before the first %Round line")
			}
			g, ok := readGame(line)
			// A final-phase tie may be written < or >: who went through.
			if !ok && (cur != &f.Added || g.BlackDiscs != g.WhiteDiscs || g.BlackDiscs+g.WhiteDiscs > 64) {
				return nil, bad(m[6]+1, "the discs do not match the sign between them")
			}
			if cur == &f.Added {
				if g.BlackDiscs == g.WhiteDiscs {
					g.Loser = map[byte]Color{'<': Black, '>': White}[line[m[6]]]
				}
				f.AddedFrom = append(f.AddedFrom, Source{Line: n, Block: block})
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
		return nil, &ParseError{Err: fmt.Errorf("no %%Round line: %w", ErrInvalid)}
	}
	return f, nil
}
