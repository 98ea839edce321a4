package scoring_test

import (
	"fmt"

	"github.com/otd-project/otd/scoring"
)

func ExampleScoreGame() {
	rules := scoring.Rules{} // the defaults: time defaults completed, a bye 1 point and 32 discs
	for _, r := range []scoring.Result{
		{BlackDiscs: 40, WhiteDiscs: 22}, // two empty squares
		{BlackDiscs: 30, WhiteDiscs: 30}, // a tie with empties
		{Kind: scoring.TimeDefault, Outcome: scoring.WhiteWins, BlackDiscs: 36, WhiteDiscs: 28}, // White wins on time
		{Kind: scoring.Forfeit, Outcome: scoring.BlackWins},
		{Kind: scoring.Bye},
	} {
		s, err := scoring.ScoreGame(r, rules)
		fmt.Println(s, err)
	}
	_, err := scoring.ScoreGame(scoring.Result{Outcome: scoring.BlackWins, BlackDiscs: 30, WhiteDiscs: 34}, rules)
	fmt.Println(err)
	// Output:
	// 42-22 (1-0) <nil>
	// 32-32 (0.5-0.5) <nil>
	// 31-33 (0-1) <nil>
	// 32-32 (1-0) <nil>
	// 32-32 (1-0) <nil>
	// 30-34 is white wins, not black wins: outcome does not fit the result
}

// The worked example of RULES.md: A beats B 33-31 in round 1 and has the bye
// in round 2; B beats C in round 2. With c = 6, BQ(A) = 33 + 32 + 6 x (1 + 2) = 83.
func ExampleEvent_Standings() {
	const A, B, C = 1, 2, 3
	ev := scoring.Event{
		Rounds:  2,
		Rules:   scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Fixed, C: 6}},
		Players: []scoring.Player{{ID: A}, {ID: B}, {ID: C}},
		Games: []scoring.Game{
			{Round: 1, Black: A, White: B, Result: scoring.Result{BlackDiscs: 33, WhiteDiscs: 31}},
			{Round: 1, Black: C, Result: scoring.Result{Kind: scoring.Bye}},
			{Round: 2, Black: B, White: C, Result: scoring.Result{BlackDiscs: 40, WhiteDiscs: 24}},
			{Round: 2, Black: A, Result: scoring.Result{Kind: scoring.Bye}},
		},
	}
	rows, err := ev.Standings()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rows {
		fmt.Printf("%d. player %d: %v points, BQ %v, %d discs\n", r.Rank, r.Player, r.Points, r.BQ, r.Discs)
	}
	// Output:
	// 1. player 1: 2 points, BQ 83, 65 discs
	// 2. player 2: 1 points, BQ 89, 71 discs
	// 3. player 3: 1 points, BQ 68, 56 discs
}

func ExampleParseBQRule() {
	for _, s := range []string{"nearest", "wof", "exact", "6", "seven"} {
		r, err := scoring.ParseBQRule(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		num, den := scoring.Rules{BQ: r}.Constant(13)
		fmt.Printf("%v: c = %d/%d for 13 rounds\n", r, num, den)
	}
	// Output:
	// nearest: c = 5/1 for 13 rounds
	// wof: c = 6/1 for 13 rounds
	// exact: c = 64/13 for 13 rounds
	// 6: c = 6/1 for 13 rounds
	// bq "seven": want nearest, wof, exact or a whole number 0 to 64
}

func ExampleParseTieBreaks() {
	ts, _ := scoring.ParseTieBreaks("japanese")
	fmt.Println(ts)
	_, err := scoring.ParseTieBreaks("points,elo")
	fmt.Println(err)
	// Output:
	// wins,diff,h2h
	// tie-breaks "points,elo": want a comma-separated list of points, bq, discs, h2h, wins, diff (each once) or japanese
}

func ExampleBQ_Round() {
	// Exact BQ: c = 64/7 for a 7-round event; player 2 lost 31-33 to player 1.
	ev := scoring.Event{Rounds: 7, Rules: scoring.Rules{BQ: scoring.BQRule{Kind: scoring.Exact}},
		Players: []scoring.Player{{ID: 1}, {ID: 2}},
		Games:   []scoring.Game{{Round: 1, Black: 1, White: 2, Result: scoring.Result{BlackDiscs: 33, WhiteDiscs: 31}}}}
	rows, _ := ev.Standings()
	num, den := rows[1].BQ.Rat()
	fmt.Println(rows[1].BQ, rows[1].BQ.Round(), num, den)
	// Output: 40.14 40 281 7
}
