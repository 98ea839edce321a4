package ftd

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/otd-project/otd/engine/transcript"
)

// Games returns the games of the file that have a transcript, as game
// records: each named by its round (the file's name for it, such as "SF",
// else its number) and table, with its players' full names, the event and
// its year, and the result the site recorded (Black's discs first), if any.
// A file without a transcript is an error: it has no game to verify.
func (f *File) Games() ([]transcript.Game, error) {
	var games []transcript.Game
	for _, r := range f.Rounds {
		round := f.Info.RoundNames[r.Number]
		if round == "" {
			round = strconv.Itoa(r.Number)
		}
		for i, g := range r.Games {
			if g.Transcript == "" || g.IsBye() {
				continue
			}
			where := fmt.Sprintf("round %s, table %d", round, i+1)
			game, err := transcript.ParseMoves(g.Transcript)
			if err != nil {
				return nil, fmt.Errorf("%v: %s: the transcript: %w", g.At, where, err)
			}
			b, _ := f.Player(g.Black)
			w, _ := f.Player(g.White)
			game.Name, game.Black, game.White, game.Event = where, b.FullName(), w.FullName(), f.Info.Name
			if y, err := strconv.Atoi(f.Info.Start[:min(4, len(f.Info.Start))]); err == nil {
				game.Year = y
			}
			if g.HasResult {
				game.Result = &transcript.Result{Black: g.BlackDiscs, White: g.WhiteDiscs}
			}
			games = append(games, game)
		}
	}
	if len(games) == 0 {
		return nil, errors.New("a FlipTheDisc file without a transcript: no game to verify")
	}
	return games, nil
}
