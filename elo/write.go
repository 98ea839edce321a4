package elo

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Meta are the values of an .ELO file's header lines: what Papp asks the
// director for when it writes the file.
type Meta struct {
	Tournament string    // the event's name
	Country    string    // the host country, as the director writes it ("France", "FRA"); "" is written "??"
	Start, End time.Time // the days of the event (End zero or equal: one day); zero is written "??"
	Sender     string    // who sends the file to the rating officer; "" is written "??"
	Creator    string    // the program: "otd v1.2"
	Created    time.Time // when the file was made; zero: no %%CreationDate line
}

// Headers returns the %% lines of the meta, in the order of Papp's files.
func (m Meta) Headers() []Header {
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
	h := []Header{{"Tournament", m.Tournament}, {"Country", unknown(m.Country)}, {"Date", date},
		{"Sender", unknown(m.Sender)}, {"Creator", m.Creator}}
	if !m.Created.IsZero() {
		h = append(h, Header{"CreationDate", m.Created.Format("2006/01/02 15:04")})
	}
	return h
}

// Write writes the file in the layout of Papp's .ELO files, with otd's
// comment lines after the standings and in each round. A value that the
// file cannot hold (ErrValue) is refused before any line is written.
func (f *File) Write(w io.Writer) error {
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
	id := func(id int) string {
		if id == 0 {
			return "??????" // the file read gave none
		}
		return fmt.Sprintf("%6d", id)
	}
	for _, p := range f.Standings {
		mark := ' '
		if p.New {
			mark = '+'
		}
		score := fmt.Sprintf("%2d", p.Score/2)
		if p.Score%2 != 0 {
			score += ".5"
		}
		discs := strconv.Itoa(p.Discs)
		if p.NoScore {
			score = ""
		}
		if p.NoDiscs {
			discs = ""
		}
		fmt.Fprintf(bw, "%%_%% %c%s, %s, %s, %s, %s, %s, %d\n", mark, id(p.ID), p.Last, p.First, p.Country, score, discs, p.Rating)
	}
	if f.Otd != nil {
		f.Otd.writeHead(bw, f.Standings)
	}
	games := func(gs []Game, after func(i int)) {
		for i, g := range gs {
			op := '='
			if w := g.Winner(); w == Black {
				op = '>'
			} else if w == White {
				op = '<'
			}
			if g.NoDiscs {
				fmt.Fprintf(bw, "%s %c %s\n", id(g.Black), op, id(g.White))
			} else {
				fmt.Fprintf(bw, "%s (%02d)%c(%02d) %s B\n", id(g.Black), g.BlackDiscs, op, g.WhiteDiscs, id(g.White))
			}
			if after != nil {
				after(i)
			}
		}
	}
	if len(f.Unrounded) > 0 { // games without a round: before the first %Round line
		bw.WriteString("\n")
		games(f.Unrounded, nil)
	}
	for r, gs := range f.Rounds {
		fmt.Fprintf(bw, "\n%%Round: %d\n\n", r+1)
		games(gs, nil)
		if f.Otd != nil {
			f.Otd.writeRound(bw, r+1)
		}
	}
	if len(f.Added) > 0 {
		fmt.Fprintf(bw, "\n%s\n\n", addedResults)
		var match func(int)
		if f.Otd != nil {
			match = func(i int) { f.Otd.writeMatch(bw, i) }
		}
		games(f.Added, match)
	}
	return bw.Flush()
}
