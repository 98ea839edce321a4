package ftd_test

import (
	"fmt"
	"strings"

	"github.com/otd-project/otd/ftd"
)

func ExampleRead() {
	f, err := ftd.Read(strings.NewReader(`{"players_list": [{"id": 7, "surname": "LEADER", "name": "Imre"}, {"id": 9, "surname": "HAND", "name": "David"}],
 "rounds": [{"currentRound": 1, "pairing": [[{"id": 7, "score": 40, "result": 2, "transcript": null}, {"id": 9}]]},
            {"currentRound": 2, "pairing": [[{"id": 9, "score": null, "result": null}, {"id": 7}]]}],
 "info": {"name": "Club", "rounds": 2}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range f.Rounds {
		for _, g := range r.Games {
			b, _ := f.Player(g.Black)
			w, _ := f.Player(g.White)
			if g.HasResult {
				fmt.Printf("round %d: %s - %s %d-%d\n", r.Number, b.FullName(), w.FullName(), g.BlackDiscs, g.WhiteDiscs)
			} else {
				fmt.Printf("round %d: %s - %s, no result yet\n", r.Number, b.FullName(), w.FullName())
			}
		}
	}
	_, err = ftd.Read(strings.NewReader(`{"players_list": [{"id": 7}], "rounds": [{"currentRound": 1, "pairing": [[{"id": 7}, {"id": 8}]]}]}`))
	fmt.Println(err)
	// Output:
	// round 1: LEADER, Imre - HAND, David 40-24
	// round 2: HAND, David - LEADER, Imre, no result yet
	// line 1, column 74: rounds[0].pairing[0]: player id 8 is not in players_list: not a valid FlipTheDisc tournament file
}
