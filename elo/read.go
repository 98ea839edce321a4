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

// Read reads an .ELO file. A file it refuses gives a *ParseError wrapping
// ErrInvalid; an error of r is returned as it is.
func Read(r io.Reader) (*File, error) {
	f := &File{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), MaxLine+2) // the line and its CR LF
	var cur *[]Game
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
			cur = &f.Added
		case strings.HasPrefix(line, "%%"):
			k, v, _ := strings.Cut(line[2:], ":")
			f.Header = append(f.Header, Header{strings.TrimSpace(k), strings.TrimSpace(v)})
		case strings.HasPrefix(line, "%_%"):
			fs := strings.Split(line[3:], ",")
			if len(fs) == 1 {
				continue // a separator such as %_%______
			}
			if len(fs) != 7 {
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
			if fs[6] != "-" && fs[6] != "" { // "-": not rated
				p.Rating, errs[3] = strconv.Atoi(fs[6])
			}
			for i, field := range []int{0, 4, 5, 6} {
				if errs[i] != nil {
					return nil, bad(cols[field], "id, score, discs and rating must be numbers")
				}
			}
			f.Standings = append(f.Standings, p)
		case strings.HasPrefix(line, "%Round:"):
			num := line[len("%Round:"):]
			r, err := strconv.Atoi(strings.TrimSpace(num))
			if err != nil || r != len(f.Rounds)+1 {
				return nil, bad(len(line)-len(strings.TrimLeft(num, " \t"))+1, fmt.Sprintf("expected %%Round: %d", len(f.Rounds)+1))
			}
			f.Rounds = append(f.Rounds, nil)
			cur = &f.Rounds[r-1]
		case strings.HasPrefix(line, otdPrefix):
			if f.Otd == nil {
				f.Otd = NewOtd()
			}
			if err := f.Otd.read(line[len(otdPrefix):], len(f.Rounds)); err != nil {
				return nil, bad(0, err.Error())
			}
		case strings.HasPrefix(line, "%"): // a comment
		default:
			m := gameLine.FindStringSubmatchIndex(line)
			if m == nil {
				return nil, bad(0, "a game line is: black-id (discs)<(discs) white-id B")
			}
			if cur == nil {
				return nil, bad(0, "a game before the first %Round line")
			}
			group := func(i int) int { v, _ := strconv.Atoi(line[m[2*i]:m[2*i+1]]); return v }
			g := Game{Black: group(1), BlackDiscs: group(2), WhiteDiscs: group(4), White: group(5)}
			sign := line[m[6]]
			signOK := (sign == '>') == (g.BlackDiscs > g.WhiteDiscs) && (sign == '=') == (g.BlackDiscs == g.WhiteDiscs)
			// A final-phase tie may be written < or >: who went through.
			if g.BlackDiscs+g.WhiteDiscs > 64 || !signOK && (cur != &f.Added || g.BlackDiscs != g.WhiteDiscs) {
				return nil, bad(m[6]+1, "the discs do not match the sign between them")
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
