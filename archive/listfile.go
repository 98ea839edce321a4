package archive

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/otd-project/otd/internal/txt"
)

// Listed is a player of a rating list as a director needs it: to register
// them and seed round 1.
type Listed struct {
	ID            int
	Name, Country string
	Rated         bool
	Rating        float64 // when Rated
	Why           string  // why not rated, when the list says
	// Unlisted: rated, but not among the players the WOF publishes (no
	// rated tournament in the 38 months before the list's day): a rating
	// from games long ago, often of a large uncertainty, not one to seed by.
	Unlisted bool
}

// Players returns the players of the list by WOF id.
func (l *List) Players() map[int]Listed {
	m := make(map[int]Listed, len(l.Entries))
	for _, e := range l.Entries {
		m[e.ID] = Listed{ID: e.ID, Name: e.Name, Country: e.Country, Rated: e.Rated, Rating: e.Rating, Why: e.Why, Unlisted: e.Rated && !e.Listed}
	}
	return m
}

// ListColumns are the titles of the columns of a rating list as 'otd
// rating --csv' writes it that ReadList reads.
var ListColumns = struct{ ID, Name, Country, Rating, Why, Listed string }{"WOF id", "Name", "Country", "Rating", "Why not rated", "Listed"}

// ErrListFile is wrapped by the errors of a file that is not a rating list
// ReadList reads.
var ErrListFile = errors.New("not a rating list of otd's")

// ReadList reads a rating list as 'otd rating --csv' writes it, for
// programs or for Excel (--excel: a byte-order mark, ';' between fields,
// decimal commas): the columns WOF id, Name, Country and Rating (empty for
// a player not rated), found by their titles in the first row, in any
// order; Why not rated if there is one; the others are not read. The file
// is read as UTF-8, else as Windows-1252 (txt.Decode: Excel writes the
// computer's code page unless told UTF-8), which the notes say.
func ReadList(r io.Reader) (list map[int]Listed, notes []string, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	text, windows1252 := txt.Decode(data)
	if windows1252 {
		notes = append(notes, txt.Windows1252Note)
	}
	first, _, _ := strings.Cut(text, "\n")
	cr := csv.NewReader(strings.NewReader(text))
	if strings.Count(first, ";") > strings.Count(first, ",") {
		cr.Comma = ';'
	}
	cr.FieldsPerRecord = -1
	titles, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("line 1: %w: %w (a header row of WOF id, Name, Country, Rating)", ErrListFile, err)
	}
	col := map[string]int{}
	for i, t := range titles {
		col[strings.TrimSpace(t)] = i
	}
	c := ListColumns
	for _, want := range []string{c.ID, c.Name, c.Country, c.Rating} {
		if _, ok := col[want]; !ok {
			return nil, nil, fmt.Errorf("line 1: %w: no column %q (the columns of 'otd rating --csv': WOF id, Name, Country, Rating...)", ErrListFile, want)
		}
	}
	list = map[int]Listed{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return list, notes, nil
		}
		if err != nil { // a csv.ParseError, which says the line
			return nil, nil, fmt.Errorf("%w: %w", ErrListFile, err)
		}
		line, _ := cr.FieldPos(0)
		field := func(name string) string {
			if i, ok := col[name]; ok && i < len(rec) {
				return strings.TrimPrefix(strings.TrimSpace(rec[i]), "'") // TextCell's quote
			}
			return ""
		}
		p := Listed{Name: field(c.Name), Country: field(c.Country), Why: field(c.Why)}
		if p.ID, err = strconv.Atoi(field(c.ID)); err != nil || p.ID <= 0 {
			return nil, nil, fmt.Errorf("line %d: %w: WOF id %q is not a number from 1", line, ErrListFile, field(c.ID))
		}
		if s := field(c.Rating); s != "" {
			p.Rating, err = strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
			if err != nil || math.IsNaN(p.Rating) || math.IsInf(p.Rating, 0) {
				return nil, nil, fmt.Errorf("line %d: %w: rating %q is not a number", line, ErrListFile, s)
			}
			p.Rated = true
		}
		// 'otd rating --all --csv' says who is not listed; a list without
		// the column is the published one.
		p.Unlisted = p.Rated && strings.EqualFold(field(c.Listed), "false")
		if _, dup := list[p.ID]; dup {
			return nil, nil, fmt.Errorf("line %d: %w: WOF id %d is on two lines", line, ErrListFile, p.ID)
		}
		list[p.ID] = p
	}
}
