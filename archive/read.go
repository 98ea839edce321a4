package archive

import (
	"bytes"
	"cmp"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/internal/txt"
)

// Reading is how the archive reads a file, as 'otd import elo' reads one:
// how to take a file that contradicts itself (elo.Lenient, none: the
// file is refused; ListReading: as the rating list does) and the discs a
// bye counts, as Settings.ByeDiscs (0: what the published totals show,
// else 32; scoring.NoByeDiscs: its point alone; it matters only to check
// the published disc totals).
type Reading struct {
	Lenient  elo.Lenient
	ByeDiscs int
}

// ListReading is the rating list's reading of the archive (RULES.md
// section 8, elo.ListReading): every game counts, the contradictions of a
// file set aside (File.SetAside), not the file. 'otd archive index' and
// 'otd rating' read so unless told otherwise (--strict, --lenient).
var ListReading = Reading{Lenient: elo.ListReading}

// ParseReading is the reading of --lenient (elo.ParseLenient) and
// --bye-discs.
func ParseReading(lenient string, byeDiscs int) (Reading, error) {
	l, err := elo.ParseLenient(lenient)
	return Reading{Lenient: l, ByeDiscs: byeDiscs}, err
}

// String is the reading as the archive records it with each file, to read
// the file again when the reading changes: "" for the strict reading,
// "sign=discs,totals=games bye-discs=40".
func (r Reading) String() string {
	s := r.Lenient.String()
	if r.ByeDiscs != 0 {
		s = strings.TrimSpace(s + " bye-discs=" + strconv.Itoa(r.ByeDiscs))
	}
	return s
}

// Build builds the tournament of an .ELO file as 'otd import elo' builds
// it, named title (the file's %%Tournament, else its name) and read as r
// says, and returns its Swiss rounds, its rated games (Tournament.Games:
// its rounds' and its final phase's, Round 0, with a result, the byes and
// forfeits left out) and the contradictions of the file that the reading
// set aside (File.SetAside), or the error that refuses the file. The archive reads
// files through package elo and is handed the builder of tournaments
// (interchange.ArchiveGames) by its caller: it imports no adapter.
type Build func(f *elo.File, title string, r Reading) (rounds int, games []Game, setAside []string, err error)

// ReadELO reads a tournament from the content of an .ELO file as 'otd
// import elo' reads it (elo.ReadWith, then build: the tournament built and
// validated), so that a file is in the archive exactly when it can be
// imported; name is the file's path below the folder (the tournament's
// name when the file has no %%Tournament line). A file that is refused
// gives the reader's error, which names the line and what is wrong; so
// does one without a %%Date day (the rating list weighs a game by its
// tournament's age).
//
// The archive keeps the file's own figures: its published standings (a
// player listed twice, taken with --lenient listed=first, once), and each
// game's discs as written. A game's result for the rating list is the one
// its tournament counted: by the discs, or by the sign where the file says
// who lost a game tied on the board or gives no discs. A game of the final
// phase (Round 0) tied on the board is a draw whoever went through: a rule
// decided the match, not the game. A forfeit (otd's own files) is not a
// game, and a bye is none; a player the file gives no id ("??????", ID 0)
// is kept with their games, which the rating list cannot take.
func ReadELO(name string, data []byte, r Reading, build Build) (*Tournament, error) {
	f, err := elo.ReadWith(bytes.NewReader(data), elo.Options{Sign: r.Lenient.Sign})
	if err != nil {
		return nil, err
	}
	start, end, _, err := f.Days(r.Lenient) // build sets aside what Days does
	if err != nil {
		return nil, err
	}
	base := path.Base(name)
	title := cmp.Or(f.Value("Tournament"), strings.TrimSuffix(base, path.Ext(base)))
	rounds, games, setAside, err := build(f, title, r)
	if err != nil {
		return nil, err
	}
	t := &Tournament{File: name, Name: title, Place: f.Value("Country"), Start: start, End: end, Rounds: rounds, Games: games, SetAside: setAside}
	if f.Windows1252 {
		t.Notes = append(t.Notes, txt.Windows1252Note)
	}
	listed := map[int]bool{}
	for i, p := range f.Standings {
		if p.ID != 0 && listed[p.ID] {
			continue // listed twice: the first line counts (--lenient listed=first)
		}
		listed[p.ID] = true
		e := Entry{Rank: len(t.Players) + 1, ID: p.ID, New: p.New, Last: txt.CleanName(p.Last), First: txt.CleanName(p.First),
			Country: p.Country, Score: p.Score, Discs: p.Discs, Rating: p.Rating}
		if txt.CheckName(e.Name()) != nil { // two parts that pass may be too long together
			e.Last, e.First, _ = strings.Cut(txt.CleanName(e.Name()), ", ")
		}
		if e.Last != p.Last || e.First != p.First {
			was := Entry{Last: p.Last, First: p.First}.Name()
			t.Notes = append(t.Notes, fmt.Sprintf("line %d: the name %s is not one otd keeps (%v): kept as %q", f.StandingsLines[i], elo.QuoteCut(was), txt.CheckName(was), e.Name()))
		}
		t.Players = append(t.Players, e)
	}
	return t, nil
}
