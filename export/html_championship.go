package export

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/otd-project/otd/tournament"
)

// HTMLPhase is a final phase as the page shows it: its qualifiers, matches
// and games.
type HTMLPhase struct {
	Title   string   // "" for the open's, the category's name
	Notes   []string // the rules, the qualifiers, a tie across the last place, why it is not played
	Matches []HTMLMatch
	Games   []HTMLFinalGame
}

// HTMLMatch is a match of a final phase: A the higher seed, the score in
// points A-B ("1.5-1.5"), the winner once decided ("3 Cy Cole") and how,
// when not on points.
type HTMLMatch struct {
	Match, A, B, Score, Winner, How string
}

// HTMLFinalGame is a game of a final phase: Black and White are "12 Ann
// Archer"; Moves tells whether otd played it (its moves are recorded).
type HTMLFinalGame struct {
	Seq, Round, Game             int
	Category                     string // "" the open
	Label                        string // the match in its phase: "Semi-final 1", "Final"
	Match                        string // the match in the event: "Semi-final 1", "women: Final"
	Link                         string // a page of the game, if any (otd serve's viewer)
	BlackNumber, WhiteNumber     int
	Black, White                 string
	BlackName, WhiteName, Result string
	Moves                        bool
}

// HTMLRanking is a ranking after the Swiss: the final ranking or a
// category's.
type HTMLRanking struct {
	Class, Title, Note string // Class: the table's, final-ranking or category
	Rows               []HTMLRankRow
}

// HTMLRankRow is a place of an HTMLRanking.
type HTMLRankRow struct {
	Rank, Number, SwissRank int
	Name, Country, Points   string
	Final, Withdrawn        bool
}

// HTMLTeam is a team of the team ranking: Counted is its members counted,
// "3 Cy Cole (9); 4 Di Dane (8.5)".
type HTMLTeam struct {
	Rank, Members         int
	Name, Points, Counted string
}

// HTMLFinalWall is the wall sheet of a round of the final phase.
type HTMLFinalWall struct {
	Round int
	Games []HTMLFinalGame
}

// championshipPage adds a championship's parts to the results page: the
// final phases, the final ranking, the categories, the teams.
func championshipPage(t *tournament.Tournament, page *HTMLPage) error {
	if !Championship(t) {
		return nil
	}
	phases, err := Phases(t)
	if err != nil {
		return err
	}
	games := FinalGames(t, t.FinalGames)
	for _, ph := range phases {
		hp := HTMLPhase{Title: ph.Category, Notes: phaseNotes(t, ph)}
		for _, m := range ph.Matches {
			hm := HTMLMatch{Match: MatchLabel("", m.Code), A: numbered(t, m.A), B: numbered(t, m.B), Score: m.APoints.String() + "-" + m.BPoints.String(), How: m.How}
			if m.Decided() {
				hm.Winner = numbered(t, m.Winner)
			}
			hp.Matches = append(hp.Matches, hm)
		}
		for _, g := range games {
			if g.Category == ph.Category {
				hp.Games = append(hp.Games, g)
			}
		}
		page.Final = append(page.Final, hp)
	}
	if hasOpenFinal(t) {
		rows, over, err := FinalRanking(t)
		if err != nil {
			return err
		}
		r := HTMLRanking{Class: "final-ranking", Title: "Final ranking", Rows: htmlRankRows(t, rows),
			Note: "The places of the final phase, then the Swiss standings' order."}
		if !over {
			r.Note = "Provisional: the final phase is not over. Meanwhile the Swiss standings' order."
		}
		page.FinalRanking = &r
	}
	if !hasTeams(t) {
		return nil
	}
	for _, c := range t.Categories {
		rows, ph, err := CategoryRanking(t, c.Name)
		if err != nil {
			return err
		}
		r := HTMLRanking{Class: "category", Title: c.Name, Rows: htmlRankRows(t, rows), Note: "By the Swiss standings."}
		switch {
		case ph.Over:
			r.Note = "The places of its final phase, then the Swiss standings' order."
		case ph.Skipped != "":
			r.Note = "By the Swiss standings; its final phase is not played: " + ph.Skipped + "."
		case !ph.Rules.IsZero():
			r.Note = "By the Swiss standings until its final phase is over."
		}
		page.Categories = append(page.Categories, r)
	}
	teams, err := t.Teams()
	if err != nil {
		return err
	}
	for _, tm := range teams {
		page.Teams = append(page.Teams, HTMLTeam{Rank: tm.Rank, Members: len(tm.Members), Name: tm.Name, Points: tm.Points.String(), Counted: countedText(t, tm)})
	}
	page.TeamRule = fmt.Sprintf("Each team's points are the sum of its best %s' Swiss points; equal points share a place.", tournament.Plural(cmp.Or(t.TeamRules.Best, 3), "member"))
	if len(t.TeamRules.Exclude) > 0 {
		page.TeamRule += " Not counted: the members of " + strings.Join(t.TeamRules.Exclude, ", ") + "."
	}
	return nil
}

// phaseNotes says what a final phase is: its rules, its qualifiers, a tie
// across the last place, why it is not played or when it begins.
func phaseNotes(t *tournament.Tournament, ph tournament.FinalPhase) []string {
	if ph.Rules.IsZero() {
		return []string{"Games played after the Swiss (a file's added results), their matches not known."}
	}
	notes := []string{"Rules: " + ph.Rules.String() + "."}
	var seeds, tied []string
	for i, n := range ph.Seeds {
		seeds = append(seeds, fmt.Sprintf("%d. %s", i+1, numbered(t, n)))
	}
	for _, n := range ph.Tied {
		tied = append(tied, numbered(t, n))
	}
	switch {
	case ph.Skipped != "":
		notes = append(notes, "Not played: "+ph.Skipped+".")
	case len(ph.Matches) == 0 && len(ph.Seeds) == 0:
		notes = append(notes, fmt.Sprintf("After the Swiss (round %d of %d finished).", t.Finished(), t.Rounds))
	default:
		notes = append(notes, "Qualified: "+strings.Join(seeds, ", ")+".")
	}
	if len(tied) > 0 {
		notes = append(notes, "Tied on points across the last place: "+strings.Join(tied, ", ")+".")
	}
	return notes
}

// numbered writes a player "12 Ann Archer".
func numbered(t *tournament.Tournament, n int) string {
	return strconv.Itoa(n) + " " + t.Players[n-1].Name
}

func htmlRankRows(t *tournament.Tournament, rows []RankRow) []HTMLRankRow {
	out := make([]HTMLRankRow, len(rows))
	for i, r := range rows {
		p := t.Players[r.Player-1]
		out[i] = HTMLRankRow{Rank: r.Rank, Number: r.Player, SwissRank: r.SwissRank, Name: p.Name, Country: p.Country, Points: r.Points.String(),
			Final: r.Final, Withdrawn: r.Withdrawn}
	}
	return out
}

// FinalGames gives final games as the pages show them, each with its
// round of the final phase.
func FinalGames(t *tournament.Tournament, games []tournament.Game) []HTMLFinalGame {
	rounds := FinalRoundOf(t)
	out := make([]HTMLFinalGame, len(games))
	for i, g := range games {
		h := HTMLFinalGame{Seq: g.Seq, Round: rounds[g.Seq], Game: g.Game, Category: g.Category,
			Label: MatchLabel("", g.Match), Match: MatchLabel(g.Category, g.Match),
			BlackNumber: g.Black, WhiteNumber: g.White, Black: numbered(t, g.Black), White: numbered(t, g.White),
			BlackName: t.Players[g.Black-1].Name, WhiteName: t.Players[g.White-1].Name}
		if g.Result != nil {
			h.Result, h.Moves = g.Result.String(), g.Result.Moves != ""
		}
		out[i] = h
	}
	return out
}

// FinalRound gives round k (from 1) of the final phase
// (tournament.FinalRounds): its games in the order paired.
func FinalRound(t *tournament.Tournament, k int) (HTMLFinalWall, error) {
	rounds := t.FinalRounds()
	if k < 1 || k > len(rounds) {
		if len(rounds) == 0 {
			return HTMLFinalWall{}, fmt.Errorf("final round %d: %w: no final game is paired ('otd final start' pairs the first)", k, tournament.ErrNoRound)
		}
		return HTMLFinalWall{}, fmt.Errorf("final round %d: %w (the final phase has rounds 1 to %d)", k, tournament.ErrNoRound, len(rounds))
	}
	return HTMLFinalWall{Round: k, Games: FinalGames(t, rounds[k-1])}, nil
}

// WriteFinalWallSheet writes the wall sheet of round k of the final phase
// (FinalRound): each game's match and game number, black and white, in
// large type on A4.
func WriteFinalWallSheet(w io.Writer, t *tournament.Tournament, k int) error {
	wall, err := FinalRound(t, k)
	if err != nil {
		return err
	}
	return executeHTML(w, "final-wall", HTMLPage{Name: t.Name, About: about(t), FinalWall: &wall})
}
