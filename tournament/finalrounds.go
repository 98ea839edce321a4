package tournament

import "slices"

// FinalRounds groups the final games into the rounds of the final phase,
// as 'final next' pairs them: a round is the next game of every match not
// decided yet, across the open's and the categories' phases (semi-finals'
// games 1, then their games 2, then the final and the 3rd-place game...).
// It is worked out from the games in the order paired: a round goes on
// while the games are those FinalNext would pair after the games before the
// round, with their results. So a game paired early, while another match's
// game was still being played, is in the round of that match's next game.
// Games whose match was not found (an imported file's) make one round
// together.
func (t *Tournament) FinalRounds() [][]Game {
	var rounds [][]Game
	var next []string // the matches the current round pairs
	for i, g := range t.FinalGames {
		if n := len(rounds); n > 0 {
			last := rounds[n-1]
			switch {
			case g.Match == "" && last[0].Match == "":
				rounds[n-1] = append(last, g)
				continue
			case g.Match != "" && slices.Contains(next, g.Code()):
				next = slices.DeleteFunc(next, func(c string) bool { return c == g.Code() })
				rounds[n-1] = append(last, g)
				continue
			}
		}
		rounds = append(rounds, []Game{g})
		next = t.pairedAfter(i)
		next = slices.DeleteFunc(next, func(c string) bool { return c == g.Code() })
	}
	return rounds
}

// pairedAfter gives the matches (their codes) that FinalNext pairs after
// the first n final games, with their results; none if it pairs nothing.
func (t *Tournament) pairedAfter(n int) []string {
	tmp := *t
	tmp.FinalGames = slices.Clone(t.FinalGames[:n])
	c, err := tmp.FinalNext(FinalOptions{})
	if err != nil {
		return nil
	}
	var codes []string
	for _, g := range c.After.FinalGames {
		codes = append(codes, g.Code())
	}
	return codes
}
