package archive_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/rating"
)

// FuzzReadELO: any content is read into a tournament the archive can
// store, or refused in one line, never a panic: its days in order, its
// standings ranked from 1, each game between two players (a WOF id, or 0
// for one the file gives none), with a result, discs only from 0 to 64,
// and a game of the standings' players when the file has standings.
func FuzzReadELO(f *testing.F) {
	f.Add([]byte(club), "")
	f.Add([]byte(strings.Replace(club, "15 (33)>(31)     16", "15 > 16", 1)), "sign=sign,totals=games")
	f.Add([]byte("%%Date: 01/02/2024\n%Round: 1\n99 (40)>(24) 79\n"), "")
	f.Add([]byte("%%Date: 01/02/2024 - 03/02/2024\n%_% ??????, X, y, FRA\n%_% 7, Z, w, FRA\n%Round PO\n?????? < 7\n"), "rounds=split,listed=first")
	f.Fuzz(func(t *testing.T, data []byte, lenient string) {
		l, err := elo.ParseLenient(lenient)
		if err != nil {
			return
		}
		tm, err := archive.ReadELO("f.ELO", data, archive.Reading{Lenient: l}, interchange.ArchiveGames)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("not one line: %q", err)
			}
			return
		}
		if tm.End.Before(tm.Start) || tm.Start.IsZero() {
			t.Fatalf("days %v to %v", tm.Start, tm.End)
		}
		in := map[int]bool{}
		for i, e := range tm.Players {
			if e.Rank != i+1 || e.ID < 0 {
				t.Fatalf("standings line %d: %+v", i+1, e)
			}
			in[e.ID] = true
		}
		for _, g := range tm.Games {
			switch {
			case g.Black == g.White || g.Black < 0 || g.White < 0:
				t.Fatalf("game %+v: two players by id", g)
			case g.Result < rating.Win || g.Result > rating.Loss:
				t.Fatalf("game %+v: no result", g)
			case g.HasDiscs && (g.BlackDiscs < 0 || g.WhiteDiscs < 0 || g.BlackDiscs+g.WhiteDiscs > 64):
				t.Fatalf("game %+v: discs", g)
			case len(tm.Players) > 0 && (!in[g.Black] || !in[g.White]):
				t.Fatalf("game %+v: a player not in the standings %v", g, in)
			}
		}
		for _, g := range tm.RatingGames() {
			if g.A <= 0 || g.B <= 0 || !g.Date.Equal(tm.Start) {
				t.Fatalf("rating game %+v", g)
			}
		}
	})
}

// FuzzReadList: any content is a rating list of players by WOF id, each
// once, with a finite rating when rated, or refused in one line wrapping
// ErrListFile, never a panic.
func FuzzReadList(f *testing.F) {
	f.Add("Rank,WOF id,Name,Country,Rating,Uncertainty\n1,79,\"LEADER, Imre\",GBR,2157.43,45.2\n,12,x,FRA,,\n")
	f.Add("\uFEFFWOF id;Rating;Name;Country;Why not rated\n79;2157,43;LEADER, Imre;GBR;\n12;;x;FRA;in a linked part of 1 player\n")
	f.Add("WOF id,Name,Country,Rating\n79,x,GBR,NaN\n")
	f.Fuzz(func(t *testing.T, text string) {
		list, _, err := archive.ReadList(strings.NewReader(text))
		if err != nil {
			if !errors.Is(err, archive.ErrListFile) && !strings.Contains(err.Error(), "line") {
				t.Fatalf("%v: neither ErrListFile nor a line", err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("not one line: %q", err)
			}
			return
		}
		for id, p := range list {
			if id != p.ID || id < 1 || math.IsNaN(p.Rating) || math.IsInf(p.Rating, 0) || !p.Rated && p.Rating != 0 {
				t.Fatalf("player %d: %+v", id, p)
			}
		}
	})
}
