package cli

import (
	"encoding/json"
	"time"

	"github.com/otd-project/otd/archive"
)

// The JSON of 'otd archive' (listed in jsonOutputs).

type archiveIndexJSON struct {
	Files     int                  `json:"files" doc:"the .ELO files of the folder and its subfolders"`
	Added     []string             `json:"added" doc:"the files whose tournament was added, by path below the folder"`
	Replaced  []string             `json:"replaced" doc:"the files whose content changed: their tournament replaced"`
	Removed   []string             `json:"removed" doc:"the files gone from the folder, or that can no longer be read: their tournament dropped"`
	Unchanged int                  `json:"unchanged" doc:"the files indexed before whose content is the same"`
	Games     int                  `json:"games" doc:"the games of the tournaments added and replaced"`
	NotRead   []archiveProblemJSON `json:"not_read" doc:"every file of the folder that was not read, with why: a copy of another file (copy_of), whose games count once, from that file; or a file refused, whose games are not in the archive"`
}

func newArchiveIndexJSON(r *archive.Report) archiveIndexJSON {
	j := archiveIndexJSON{Files: r.Files, Added: nonNil(r.Added), Replaced: nonNil(r.Replaced), Removed: nonNil(r.Removed),
		Unchanged: r.Unchanged, Games: r.Games, NotRead: []archiveProblemJSON{}}
	for _, p := range r.Problems {
		j.NotRead = append(j.NotRead, archiveProblemJSON{File: p.Path, Problem: p.Problem, CopyOf: p.CopyOf})
	}
	return j
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type archiveProblemJSON struct {
	File    string `json:"file" doc:"the file's path below the folder indexed"`
	Problem string `json:"problem" doc:"why otd could not read it: the line and what is wrong, or the contradiction; empty for a file read"`
	CopyOf  string `json:"copy_of,omitempty" doc:"for a copy (the same content or games as another file): the file whose games it repeats, which counts them once; left out for a file refused, whose games are not in the archive, and for a file read"`
	// SetAside: 'otd archive problems' only.
	SetAside []string `json:"set_aside,omitempty" doc:"in 'otd archive problems', for a file read: each contradiction its reading set aside rather than refuse the file (RULES.md section 8), with its line; its games are counted"`
}

type archiveSeenJSON struct {
	Name        string `json:"name" doc:"the name as the file writes it, SURNAME, First"`
	Country     string `json:"country" doc:"the country as the file writes it"`
	From        string `json:"from" doc:"the day of the first tournament that names the player so, YYYY-MM-DD"`
	To          string `json:"to" doc:"the day of the last, YYYY-MM-DD"`
	Tournaments int    `json:"tournaments" doc:"the tournaments that name the player so"`
}

type archivePersonJSON struct {
	WOFID   int               `json:"wof_id" doc:"the player's WOF id"`
	Name    string            `json:"name" doc:"the name of the player's latest tournament; empty for a player in games and no standings"`
	Country string            `json:"country" doc:"the country of the player's latest tournament"`
	Names   []archiveSeenJSON `json:"names" doc:"every name and country seen, the latest last"`
}

func newArchivePersonJSON(p archive.Person) archivePersonJSON {
	j := archivePersonJSON{WOFID: p.ID, Name: p.Latest().Name(), Country: p.Latest().Country, Names: []archiveSeenJSON{}}
	for _, s := range p.Names {
		j.Names = append(j.Names, archiveSeenJSON{s.Name(), s.Country, day(s.From), day(s.To), s.Tournaments})
	}
	return j
}

func day(t time.Time) string { return t.Format(time.DateOnly) }

type archiveHistoryJSON struct {
	Player      archivePersonJSON       `json:"player" doc:"the player"`
	Won         int                     `json:"won" doc:"games won, in every tournament"`
	Drawn       int                     `json:"drawn" doc:"games drawn"`
	Lost        int                     `json:"lost" doc:"games lost"`
	Tournaments []archiveAppearanceJSON `json:"tournaments" doc:"the player's tournaments, by day"`
}

type archiveAppearanceJSON struct {
	Tournament archiveTournamentJSON `json:"tournament" doc:"the tournament"`
	Rank       int                   `json:"rank,omitempty" doc:"the player's place in its published standings; left out if the player is in its games only"`
	Score      json.Number           `json:"score,omitempty" doc:"the player's score there"`
	Discs      int                   `json:"discs,omitempty" doc:"the player's disc total there"`
	Rating     int                   `json:"rating,omitempty" doc:"the rating the file publishes for the player; left out if none"`
	Won        int                   `json:"won" doc:"the player's games won in it"`
	Drawn      int                   `json:"drawn" doc:"drawn"`
	Lost       int                   `json:"lost" doc:"lost"`
}

func newArchiveHistoryJSON(h *archive.History) archiveHistoryJSON {
	j := archiveHistoryJSON{Player: newArchivePersonJSON(h.Person), Won: h.Won, Drawn: h.Drawn, Lost: h.Lost, Tournaments: []archiveAppearanceJSON{}}
	for _, a := range h.Tournaments {
		x := archiveAppearanceJSON{Tournament: newArchiveTournamentJSON(a.Summary), Won: a.Won, Drawn: a.Drawn, Lost: a.Lost}
		if e := a.Entry; e != nil {
			x.Rank, x.Score, x.Discs, x.Rating = e.Rank, json.Number(e.Score.String()), e.Discs, e.Rating
		}
		j.Tournaments = append(j.Tournaments, x)
	}
	return j
}

type archiveTournamentJSON struct {
	ID      int64  `json:"id" doc:"the tournament's id in the archive ('otd archive tournament ID')"`
	File    string `json:"file" doc:"its file's path below the folder indexed"`
	Name    string `json:"name" doc:"its name (%%Tournament; the file's name if none)"`
	Place   string `json:"place" doc:"where it was played (%%Country)"`
	Start   string `json:"start" doc:"its first day, YYYY-MM-DD: the rating list dates its games by it"`
	End     string `json:"end" doc:"its last day"`
	Rounds  int    `json:"rounds" doc:"its Swiss rounds"`
	Players int    `json:"players" doc:"the players of its standings"`
	Games   int    `json:"games" doc:"its rated games"`
}

func newArchiveTournamentJSON(s archive.Summary) archiveTournamentJSON {
	return archiveTournamentJSON{s.ID, s.File, s.Name, s.Place, day(s.Start), day(s.End), s.Rounds, s.Players, s.Games}
}

type archiveEntryJSON struct {
	Rank    int         `json:"rank" doc:"the place in the published standings"`
	WOFID   int         `json:"wof_id" doc:"the player's WOF id"`
	New     bool        `json:"new,omitempty" doc:"true if the file marks the player new to the rating list (+)"`
	Name    string      `json:"name" doc:"the name as the file writes it"`
	Country string      `json:"country" doc:"the country as the file writes it"`
	Score   json.Number `json:"score" doc:"the published score"`
	Discs   int         `json:"discs" doc:"the published disc total"`
	Rating  int         `json:"rating,omitempty" doc:"the published rating; left out if none"`
}

type archiveGameJSON struct {
	Round      int    `json:"round" doc:"the Swiss round; 0 for a game after the Swiss rounds (the final phase)"`
	Black      int    `json:"black" doc:"black's WOF id"`
	White      int    `json:"white" doc:"white's WOF id"`
	BlackDiscs *int   `json:"black_discs,omitempty" doc:"black's discs; left out when the file gives the result only"`
	WhiteDiscs *int   `json:"white_discs,omitempty" doc:"white's discs"`
	Result     string `json:"result" doc:"black's result: win, draw or loss"`
}

func newArchiveGameJSON(g archive.Game) archiveGameJSON {
	j := archiveGameJSON{Round: g.Round, Black: g.Black, White: g.White, Result: g.Result.String()}
	if g.HasDiscs {
		j.BlackDiscs, j.WhiteDiscs = &g.BlackDiscs, &g.WhiteDiscs
	}
	return j
}

type archiveTournamentShowJSON struct {
	Tournament archiveTournamentJSON `json:"tournament" doc:"the tournament"`
	Standings  []archiveEntryJSON    `json:"standings" doc:"its standings as published, in their order"`
	Games      []archiveGameJSON     `json:"games" doc:"its games: the Swiss rounds' in order, then those after them"`
}

func newArchiveTournamentShowJSON(t *archive.Tournament) archiveTournamentShowJSON {
	j := archiveTournamentShowJSON{Tournament: newArchiveTournamentJSON(archive.Summary{ID: t.ID, File: t.File, Name: t.Name, Place: t.Place,
		Start: t.Start, End: t.End, Rounds: t.Rounds, Players: len(t.Players), Games: len(t.Games)}), Standings: []archiveEntryJSON{}, Games: []archiveGameJSON{}}
	for _, e := range t.Players {
		j.Standings = append(j.Standings, archiveEntryJSON{e.Rank, e.ID, e.New, e.Name(), e.Country, json.Number(e.Score.String()), e.Discs, e.Rating})
	}
	for _, g := range t.Games {
		j.Games = append(j.Games, newArchiveGameJSON(g))
	}
	return j
}

type archivePlayedJSON struct {
	Tournament int64           `json:"tournament" doc:"the tournament's id in the archive"`
	Name       string          `json:"tournament_name" doc:"the tournament's name"`
	Start      string          `json:"start" doc:"the tournament's first day"`
	Game       archiveGameJSON `json:"game" doc:"the game"`
}

type archiveH2HJSON struct {
	A     archivePersonJSON   `json:"a" doc:"the first player named"`
	B     archivePersonJSON   `json:"b" doc:"the second"`
	Won   int                 `json:"won" doc:"the games a won against b"`
	Drawn int                 `json:"drawn" doc:"drawn"`
	Lost  int                 `json:"lost" doc:"lost"`
	Games []archivePlayedJSON `json:"games" doc:"their games, by day"`
}

func newArchiveH2HJSON(m *archive.Meetings) archiveH2HJSON {
	j := archiveH2HJSON{A: newArchivePersonJSON(m.A), B: newArchivePersonJSON(m.B), Won: m.Won, Drawn: m.Drawn, Lost: m.Lost, Games: []archivePlayedJSON{}}
	for _, p := range m.Games {
		j.Games = append(j.Games, archivePlayedJSON{p.Tournament, p.Name, day(p.Start), newArchiveGameJSON(p.Game)})
	}
	return j
}
