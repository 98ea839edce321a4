package interchange

// The WOF archive's reading of an .ELO file (archive.Build), and a
// director's tournament as the archive takes one.

import (
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/rating"
	"github.com/otd-project/otd/tournament"
)

// ArchiveGames is the archive's Build: it builds the tournament of an .ELO
// file as 'otd import elo' does (FromELOWith with the file's own rules,
// ELOSettings, the reading's --lenient and --bye-discs; the tournament
// validated), so that a file is in the archive exactly when it can be
// imported, and returns its Swiss rounds, its rated games and the
// contradictions the reading set aside, each with its line. A name otd
// refuses is cleaned, not refused: a bad name must not drop a file's games
// (the archive cleans its entries' names itself).
func ArchiveGames(f *elo.File, title string, r archive.Reading) (int, []archive.Game, []string, error) {
	s := tournament.DefaultSettings(title, 1)
	s.ByeDiscs = r.ByeDiscs
	l := r.Lenient
	l.Names = "clean"
	tm, _, setAside, err := fromELO(f, ELOSettings(f, s), l)
	if err == nil {
		err = tm.Validate()
	}
	if err != nil {
		return 0, nil, nil, err
	}
	return tm.Rounds, ratedGames(tm, func(p tournament.Player) int { return p.WOFID }), setAside, nil
}

// ToArchive makes the archive's tournament of a director's tournament,
// played on the day at, for the rating list's preview: its players by WOF
// id (id gives one to each player: their WOF id, or for a player without
// one an id no player of the archive has), and every game with a result, as
// archive.ReadELO takes an .ELO file's.
func ToArchive(tm *tournament.Tournament, at time.Time, id func(tournament.Player) int) *archive.Tournament {
	t := &archive.Tournament{Name: tm.Name, Start: at, End: at, Rounds: tm.Rounds}
	for _, p := range tm.Players {
		t.Players = append(t.Players, archive.Entry{Rank: p.Number, ID: id(p), Last: p.Name, Country: p.Country, Rating: p.Rating})
	}
	t.Games = ratedGames(tm, id)
	return t
}

// ratedGames are the rated games of a tournament: its rounds' and its final
// phase's (Round 0) with a result, the byes and forfeits left out; the
// players by id(player).
func ratedGames(tm *tournament.Tournament, id func(tournament.Player) int) []archive.Game {
	var gs []archive.Game
	add := func(round, black, white int, res *tournament.Result) {
		if res == nil || res.Kind == tournament.Forfeit || white == 0 {
			return
		}
		g := archive.Game{Round: round, Black: id(tm.Players[black-1]), White: id(tm.Players[white-1]), HasDiscs: res.Kind != tournament.NoDiscs,
			Result: ratedResult(*res, round == 0)}
		if g.HasDiscs {
			g.BlackDiscs, g.WhiteDiscs = res.Black, res.White
		}
		gs = append(gs, g)
	}
	for _, g := range tm.Games {
		add(g.Round, g.Black, g.White, g.Result)
	}
	for _, g := range tm.FinalGames {
		add(0, g.Black, g.White, g.Result)
	}
	return gs
}

// ratedResult is black's result of a game as the rating list takes it (see
// archive.ReadELO); final: a game of the final phase.
func ratedResult(r tournament.Result, final bool) rating.Result {
	loser := r.Loser
	if final && r.Kind == tournament.Normal {
		loser = "" // a tie on the board that a rule settled
	}
	switch {
	case loser == tournament.White:
		return rating.Win
	case loser == tournament.Black:
		return rating.Loss
	case r.Kind == tournament.NoDiscs || r.Black == r.White:
		return rating.Draw
	case r.Black > r.White:
		return rating.Win
	}
	return rating.Loss
}

var _ archive.Build = ArchiveGames
