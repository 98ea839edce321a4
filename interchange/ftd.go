package interchange

// FlipTheDisc's tournament file (package ftd) to a tournament.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/ftd"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// FTDSettings returns s with what a FlipTheDisc file says of the event: its
// name (unless s has one), its Swiss rounds, its city, country and dates,
// and its tie-break: FlipTheDisc's "mbq", c = 64 / rounds unrounded (--bq
// exact, RULES.md section 3), or the constant the file's mbq_coef gives.
func FTDSettings(f *ftd.File, s tournament.Settings) tournament.Settings {
	in := f.Info
	if s.Name == "" {
		s.Name = strings.TrimSpace(in.Name)
	}
	s.Rounds = max(in.Rounds, len(swissRounds(f)))
	s.BQ = scoring.BQRule{Kind: scoring.Exact}
	if c, err := strconv.Atoi(in.MBQCoef); err == nil && c >= 0 && c <= scoring.Squares {
		s.BQ = scoring.BQRule{Kind: scoring.Fixed, C: c}
	}
	s.City = in.City
	if c, err := tournament.NormalizeCountry(in.Country); err == nil {
		s.Country = c // "WO", a world event, is no country
	}
	for _, d := range []struct {
		v  string
		to *tournament.Date
	}{{in.Start, &s.Start}, {in.End, &s.End}} {
		if len(d.v) >= 10 {
			if date, err := tournament.ParseDate(d.v[:10]); err == nil {
				*d.to = date
			}
		}
	}
	if s.End.Time().Before(s.Start.Time()) {
		s.End = tournament.Date{}
	}
	return s
}

// swissRounds returns the Swiss rounds of f (numbered below the final
// phase's), in order.
func swissRounds(f *ftd.File) []ftd.Round {
	var rs []ftd.Round
	for _, r := range f.Rounds {
		if r.Number < 100 {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b ftd.Round) int { return a.Number - b.Number })
	return rs
}

// FromFTD builds a tournament from a FlipTheDisc file (settings from
// FTDSettings, or the director's): the players in the file's order
// (numbered from 1, with their WOF ids, ratings and countries), every Swiss
// round with its games (Black the first-listed player) and byes, the
// withdrawals the file records (left_after_round) and the absences it
// shows (a round without a game), and the final phase. It refuses, with an
// error wrapping ftd.ErrInvalid and where, a file whose published points
// are not those of its games and byes, or that pairs a player after their
// withdrawal.
//
// The final phase (rounds 108 SF, 109 3/4, 110 F) is read as an .ELO's
// games after the Swiss (FromELO): InferFinal gives the games
// their matches and the rules; a category whose games the file labels
// ("women", "division 1") takes the label's name, the open's ("open")
// stays the open's; FlipTheDisc's standings are the Swiss's, as otd's. The
// notes say what could not be read for certain, and where otd's Swiss
// order is not the published one.
func FromFTD(f *ftd.File, s tournament.Settings) (*tournament.Tournament, []string, error) {
	t := &tournament.Tournament{Settings: s}
	rounds := swissRounds(f)
	t.Rounds = max(t.Rounds, len(rounds))
	var notes []string
	if f.Windows1252 {
		notes = append(notes, txt.Windows1252Note)
	}
	num := map[int]int{} // the file's id: player number
	for i, p := range f.Players {
		num[p.ID] = i + 1
		pl := tournament.Player{Number: i + 1, Name: p.FullName(), WOFID: p.WOFID, Rating: p.Rating, FirstRound: 1}
		if err := txt.CheckName(pl.Name); err != nil {
			return nil, nil, fmt.Errorf("%v: the name %s: %v: a name is a player's identity, correct it in the file: %w", p.At, elo.QuoteCut(pl.Name), err, ftd.ErrInvalid)
		}
		if c, err := tournament.NormalizeCountry(p.Country); err == nil {
			pl.Country = c
		} else {
			notes = append(notes, fmt.Sprintf("%s: country %q is not a country code: left out", pl.Name, p.Country))
		}
		if p.Team != "" && !strings.EqualFold(p.Team, p.Country) {
			pl.Team = p.Team
		}
		if p.LeftAfter > 0 && p.LeftAfter < t.Rounds {
			pl.Left = p.LeftAfter + 1
		}
		t.Players = append(t.Players, pl)
	}
	points := make([]scoring.HalfPoints, len(t.Players)+1)
	for i, r := range rounds {
		if r.Number != i+1 {
			return nil, nil, fmt.Errorf("%v: round %d follows round %d: %w", r.At, r.Number, i, ftd.ErrInvalid)
		}
		played := map[int]bool{}
		var byes []tournament.Game
		for _, g := range r.Games {
			b, w := num[g.Black], num[g.White]
			for _, n := range []int{b, w} {
				if n != 0 && t.Players[n-1].WithdrawnBy(r.Number) {
					return nil, nil, fmt.Errorf("%v: %s is paired in round %d, but left after round %d: %w", g.At, t.Players[n-1].Name, r.Number, t.Players[n-1].Left-1, ftd.ErrInvalid)
				}
			}
			played[b], played[w] = true, true
			if g.IsBye() {
				byes = append(byes, tournament.Game{Round: r.Number, Black: b})
				points[b] += t.ByePoints
				continue
			}
			game := tournament.Game{Round: r.Number, Table: len(t.Round(r.Number)) + 1, Black: b, White: w}
			if g.HasResult {
				game.Result = &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal}
				addResult(points, b, w, g.BlackDiscs, g.WhiteDiscs)
			}
			t.Games = append(t.Games, game)
		}
		for _, bye := range byes {
			bye.Table = len(t.Round(r.Number)) + 1
			t.Games = append(t.Games, bye)
		}
		for n := range t.Players {
			p := &t.Players[n]
			if !played[n+1] && !p.WithdrawnBy(r.Number) {
				p.Absent = append(p.Absent, r.Number)
			}
		}
	}
	for _, st := range f.Standings {
		n := num[st.PlayerID]
		if published := scoring.HalfPoints(st.Points); published != points[n] {
			return nil, nil, fmt.Errorf("%v: %s: published score %v, but the games and byes give %v: %w", st.At, t.Players[n-1].Name, published, points[n], ftd.ErrInvalid)
		}
	}
	final, where, more := ftdFinalGames(f, num)
	notes = append(notes, more...)
	t.FinalGames = final
	inferred, err := InferFinal(t, func(seq int) string { return where[seq-1].at })
	if err != nil {
		return nil, nil, err
	}
	notes = append(notes, labelCategories(t, where, inferred)...)
	for _, g := range t.FinalGames {
		w := where[g.Seq-1]
		open := w.label == "" || strings.EqualFold(w.label, "open")
		switch {
		case g.Match == "":
		case !blockFits(w.block, g.Match):
			notes = append(notes, fmt.Sprintf("%s: in the file's round %s, but the games make it %s", w.at, w.name, g.Code()))
		case open != (g.Category == "") || !open && !strings.EqualFold(w.label, g.Category):
			notes = append(notes, fmt.Sprintf("%s: labelled %q in the file, but the games make it %s", w.at, w.label, g.Code()))
		}
	}
	if len(f.Standings) > 0 && len(rounds) > 0 {
		rows, err := t.Standings(len(rounds))
		if err != nil {
			return nil, nil, err
		}
		for i, r := range rows[:min(len(rows), len(f.Standings))] {
			if want := num[f.Standings[i].PlayerID]; r.Player != want {
				notes = append(notes, fmt.Sprintf("otd's Swiss standings (tie-breaks %s, BQ %s) are not the file's published order from place %d (%s; published: %s)",
					t.TieBreaks, t.BQ, i+1, t.Players[r.Player-1].Name, t.Players[want-1].Name))
				break
			}
		}
	}
	return t, notes, nil
}

// addResult adds the points of a game of b and w (numbers) with its discs.
func addResult(points []scoring.HalfPoints, b, w, bd, wd int) {
	switch {
	case bd > wd:
		points[b] += scoring.Point
	case wd > bd:
		points[w] += scoring.Point
	default:
		points[b] += scoring.Half
		points[w] += scoring.Half
	}
}

// finalPlace is where a final game is in the file: its round's name (SF),
// the block name blockFits knows (SF, 3-4, F), the label of its category,
// and a place for notes.
type finalPlace struct {
	name, block, label, at string
}

// ftdFinalGames returns the games of the final-phase rounds, in the order
// of the rounds and of the file, numbered 1, 2..., and where each is; games
// without a result are left out, with a note.
func ftdFinalGames(f *ftd.File, num map[int]int) ([]tournament.Game, []finalPlace, []string) {
	var rounds []ftd.Round
	for _, r := range f.Rounds {
		if r.Number >= 100 {
			rounds = append(rounds, r)
		}
	}
	slices.SortFunc(rounds, func(a, b ftd.Round) int { return a.Number - b.Number })
	var games []tournament.Game
	var places []finalPlace
	var notes []string
	for _, r := range rounds {
		name := f.Info.RoundNames[r.Number]
		if name == "" {
			name = strconv.Itoa(r.Number)
		}
		block := map[int]string{ftd.SemiFinals: "SF", ftd.ThirdPlace: "3-4", ftd.FinalMatch: "F"}[r.Number]
		for i, g := range r.Games {
			at := fmt.Sprintf("round %s, pair %d", name, i+1)
			if g.IsBye() || !g.HasResult {
				notes = append(notes, fmt.Sprintf("%s: no result (or a bye): not imported", at))
				continue
			}
			n := len(games) + 1
			games = append(games, tournament.Game{FinalRef: tournament.FinalRef{Game: n, Seq: n}, Black: num[g.Black], White: num[g.White],
				Result: &tournament.Result{Black: g.BlackDiscs, White: g.WhiteDiscs, Kind: tournament.Normal}})
			places = append(places, finalPlace{name: name, block: block, label: g.Category, at: at})
		}
	}
	return games, places, notes
}

// labelCategories names each category InferFinal made ("other",
// "other1"...) after the file's label of its games, when they all have the
// same one and no other category has it, and rewrites InferFinal's notes
// so.
func labelCategories(t *tournament.Tournament, where []finalPlace, notes []string) []string {
	for i := range t.Categories {
		old := t.Categories[i].Name
		labels := map[string]bool{}
		for _, g := range t.FinalGames {
			if g.Category == old {
				labels[where[g.Seq-1].label] = true
			}
		}
		if len(labels) != 1 {
			continue
		}
		var label string
		for l := range labels {
			label = strings.TrimSpace(l)
		}
		taken := slices.ContainsFunc(t.Categories, func(c tournament.Category) bool { return strings.EqualFold(c.Name, label) })
		if label == "" || strings.EqualFold(label, "open") || taken || strings.ContainsAny(label, ":,") {
			continue
		}
		t.Categories[i].Name = label
		for p := range t.Players {
			for k, c := range t.Players[p].Categories {
				if c == old {
					t.Players[p].Categories[k] = label
				}
			}
		}
		for k, g := range t.FinalGames {
			if g.Category == old {
				t.FinalGames[k].Category = label
			}
		}
		r := strings.NewReplacer(
			": the file does not say what they have in common (women, youth...)", ": the file labels their games "+strconv.Quote(label),
			old+":", label+":")
		for k, n := range notes {
			notes[k] = r.Replace(n)
		}
	}
	return notes
}
