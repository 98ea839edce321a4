package elo_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/otd-project/otd/elo"
)

// Read a rating file as Papp writes it, and write it again with a player's
// rating corrected.
func Example() {
	const file = `%%Tournament: Club Open
%%Country: France

%_%      79, LEADER, Imre, GBR,  1, 40, 2157
%_% +     2, ARCHER, Ann, FRA,  0, 24, 0

%Round: 1

    79 (40)>(24)      2 B
`
	f, err := elo.Read(strings.NewReader(file))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Value("Tournament"))
	for _, p := range f.Standings {
		fmt.Printf("%d %s, %s (%s): %v points, %d discs\n", p.ID, p.Last, p.First, p.Country, p.Score, p.Discs)
	}
	for r, games := range f.Rounds {
		for _, g := range games {
			fmt.Printf("round %d: %d %d-%d %d\n", r+1, g.Black, g.BlackDiscs, g.WhiteDiscs, g.White)
		}
	}
	f.Standings[1].Rating = 1650
	if err := f.Write(os.Stdout); err != nil {
		fmt.Println(err)
	}

	_, err = elo.Read(strings.NewReader(strings.Replace(file, "(40)>(24)", "(40)<(24)", 1)))
	fmt.Println(err)
	// Output:
	// Club Open
	// 79 LEADER, Imre (GBR): 1 points, 40 discs
	// 2 ARCHER, Ann (FRA): 0 points, 24 discs
	// round 1: 79 40-24 2
	// %%Tournament: Club Open
	// %%Country: France
	//
	// %        ID, NAME, Firstname, COUNTRY, score, disc-count, rating
	// %_%      79, LEADER, Imre, GBR,  1, 40, 2157
	// %_% +     2, ARCHER, Ann, FRA,  0, 24, 1650
	//
	// %Round: 1
	//
	//     79 (40)>(24)      2 B
	// line 9: the discs do not match the sign between them: "    79 (40)<(24)      2 B": not a valid .ELO file
}
