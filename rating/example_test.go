package rating_test

import (
	"fmt"
	"time"

	"github.com/otd-project/otd/rating"
)

// A 3-1 head-to-head at equal weights gives 1900 and 1700 (RULES.md section
// 8); parts of 2 are rated here (Options.MinPart), the WOF rates parts of 10.
func Example() {
	day := time.Date(2024, 11, 9, 0, 0, 0, 0, time.UTC)
	var games []rating.Game
	for _, r := range []rating.Result{rating.Win, rating.Win, rating.Loss, rating.Win} {
		games = append(games, rating.Game{A: 1001, B: 1002, Result: r, Date: day})
	}
	list, err := rating.Compute(games, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), rating.Options{MinPart: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range list.Players {
		fmt.Printf("%d %.0f +/- %.0f listed %v official %v\n", p.ID, p.Rating, p.Uncertainty, p.Listed, p.Official)
	}
	list, _ = rating.Compute(games, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), rating.Options{})
	p, _ := list.Player(1001)
	fmt.Println(p.Rated, p.Why)
	// Output:
	// 1001 1900 +/- 210 listed true official false
	// 1002 1700 +/- 210 listed true official false
	// false in a linked part of 2 players (10 needed): no result linked to a rated player: a draw against one, or a win against one and a loss against another, would link them
}
