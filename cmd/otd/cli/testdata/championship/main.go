// Command championship writes the 13 rounds of the script
// testdata/script/championship.txtar, between its two marker lines: each
// round's pairing, forced with --manual, and its 20 results, from the
// design the script's comments state. Run it from cmd/otd/cli with 'go
// generate'. It writes the input only: the values the script expects are
// worked out by hand in its comments, from RULES.md.
//
// The design. The top group, players 1-14, plays a round robin (Berger's
// circle): with T(i) = player i+1 for i = 0..12, round r+1 (r = 0..12)
// pairs T(i) with T((2r - i) mod 13) and T(r) with player 14. The X group,
// players 15-27 (X(i) = 15+i), and the Y group, players 28-40 (Y(i) =
// 28+i), each play the round robin of 13 players by the same table, and
// the two players it leaves out in round r+1, X(r) and Y(r), meet.
//
// The results: in the top group the lower number wins 40-24, but for the
// games of topGames; in X and Y, X(i) beats X(j) 40-24 when (j - i) mod 13
// is 1 to 6; X(r) beats Y(r) 40-24 for r = 0..5, loses for r = 6..10, and
// draws 32-32 for r = 11 and 12.
//
// The colours: in a round robin of 13, i has black against j when (j - i)
// mod 13 is odd; T(r) has black against player 14, and X(r) against Y(r),
// when r is even.
package main

import (
	"fmt"
	"log"
	"os"
	"strings"
)

const (
	script = "testdata/script/championship.txtar"
	begin  = "# --- The 13 rounds: written by testdata/championship ('go generate'); do not edit. ---\n"
	end    = "# --- The end of the 13 rounds. ---\n"
)

// topGames are the top group's games that the lower number does not win
// 40-24: the discs of the lower number, then the higher's, and why.
var topGames = map[[2]int]struct {
	lo, hi int
	why    string
}{
	{1, 6}:   {24, 40, "6 beats 1"},
	{3, 6}:   {32, 32, "3 and 6 draw"},
	{2, 7}:   {24, 40, "7 beats 2"},
	{4, 5}:   {32, 32, "4 and 5 draw"},
	{3, 8}:   {32, 32, "3 and 8 draw"},
	{12, 14}: {32, 32, "12 and 14 draw"},
	{11, 14}: {32, 32, "11 and 14 draw"},
	{6, 13}:  {50, 14, "6 beats 13 50-14"},
	{4, 12}:  {44, 20, "4 beats 12 44-20"},
	{2, 5}:   {44, 20, "2 beats 5 44-20"},
}

// game is a game of the design: black, white and their discs.
type game struct{ black, white, bd, wd int }

func mod13(n int) int { return ((n % 13) + 13) % 13 }

// circle returns round r's pairs of the round robin of 13 among players
// base+0..base+12, each as black-white, and the player left out.
func circle(r, base int) (pairs [][2]int, out int) {
	for k := 1; k <= 6; k++ {
		i, j := mod13(r+k), mod13(r-k)
		if mod13(j-i)%2 == 0 {
			i, j = j, i
		}
		pairs = append(pairs, [2]int{base + i, base + j})
	}
	return pairs, base + r
}

// result gives the discs of a and b in their game.
func result(a, b int) (int, int) {
	lo, hi := min(a, b), max(a, b)
	da, db := 40, 24 // the top group: the lower number wins
	if g, ok := topGames[[2]int{lo, hi}]; ok {
		da, db = g.lo, g.hi
	}
	if hi > 14 { // X or Y: the cycle, or the cross game
		i, j := (a-15)%13, (b-15)%13
		switch {
		case (a <= 27) != (b <= 27) && i >= 11:
			return 32, 32
		case (a <= 27) != (b <= 27):
			if (a <= 27) == (i <= 5) {
				return 40, 24
			}
			return 24, 40
		case mod13(j-i) <= 6:
			return 40, 24
		}
		return 24, 40
	}
	if a != lo {
		da, db = db, da
	}
	return da, db
}

// round returns the 20 games of round r+1, the top group's first, then
// X's, Y's and the cross game.
func round(r int) []game {
	top, t := circle(r, 1)
	x, xr := circle(r, 15)
	y, yr := circle(r, 28)
	first := [2]int{t, 14}
	cross := [2]int{xr, yr}
	if r%2 == 1 {
		first, cross = [2]int{14, t}, [2]int{yr, xr}
	}
	var games []game
	for _, p := range append(append(append(append([][2]int{first}, top...), x...), y...), cross) {
		b, w := result(p[0], p[1])
		games = append(games, game{p[0], p[1], b, w})
	}
	return games
}

func rounds() string {
	var s strings.Builder
	s.WriteString(begin)
	for r := range 13 {
		games := round(r)
		var forced, notes []string
		for _, g := range games {
			forced = append(forced, fmt.Sprintf("--force %d-%d", g.black, g.white))
			if t, ok := topGames[[2]int{min(g.black, g.white), max(g.black, g.white)}]; ok {
				notes = append(notes, t.why)
			}
		}
		fmt.Fprintf(&s, "\n# Round %d", r+1)
		if len(notes) > 0 {
			fmt.Fprintf(&s, ": %s", strings.Join(notes, ", "))
		}
		fmt.Fprintf(&s, "\notd round pair --manual %s\n", strings.Join(forced, " "))
		for i, g := range games {
			fmt.Fprintf(&s, "otd result %d %d %d-%d\n", r+1, i+1, g.bd, g.wd)
		}
	}
	s.WriteString(end)
	return s.String()
}

func main() {
	b, err := os.ReadFile(script)
	if err != nil {
		log.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		log.Fatalf("%s: the marker lines %q and %q are not found, in that order", script, begin, end)
	}
	text = text[:i] + rounds() + text[j+len(end):]
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		log.Fatal(err)
	}
}
