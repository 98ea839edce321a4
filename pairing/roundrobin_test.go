package pairing

import (
	"errors"
	"fmt"
	"testing"
)

func TestRoundRobin(t *testing.T) {
	for n := 2; n <= 16; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ids := make([]int, n)
			for i := range ids {
				ids[i] = 10 + i
			}
			rounds, err := RoundRobin(ids)
			if err != nil {
				t.Fatal(err)
			}
			if want := n - 1 + n%2; len(rounds) != want {
				t.Fatalf("%d rounds, want %d", len(rounds), want)
			}
			met := map[[2]int]int{}
			balance, byes := map[int]int{}, map[int]int{}
			for _, r := range rounds {
				seen := map[int]bool{}
				if r.Bye != 0 {
					seen[r.Bye] = true
				}
				for _, p := range r.Pairs {
					if seen[p.Black] || seen[p.White] {
						t.Fatalf("round %v: a player twice", r)
					}
					seen[p.Black], seen[p.White] = true, true
					met[[2]int{min(p.Black, p.White), max(p.Black, p.White)}]++
					balance[p.Black]++
					balance[p.White]--
				}
				if len(seen) != n {
					t.Fatalf("round %v: %d players, want %d", r, len(seen), n)
				}
				byes[r.Bye]++
			}
			if len(met) != n*(n-1)/2 {
				t.Errorf("%d distinct pairs, want %d", len(met), n*(n-1)/2)
			}
			for pair, k := range met {
				if k != 1 {
					t.Errorf("%v met %d times", pair, k)
				}
			}
			for id, b := range balance {
				if b < -1 || b > 1 {
					t.Errorf("player %d: blacks - whites = %d", id, b)
				}
			}
			if n%2 == 1 && len(byes) != n {
				t.Errorf("byes %v: want one each", byes)
			}
		})
	}
}

func TestRoundRobinErrors(t *testing.T) {
	for _, ids := range [][]int{nil, {1}, {1, 1}, {0, 2}, {-1, 2}} {
		if _, err := RoundRobin(ids); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("RoundRobin(%v) err = %v, want ErrInvalidInput", ids, err)
		}
	}
}

func ExampleRoundRobin() {
	rounds, _ := RoundRobin([]int{1, 2, 3, 4, 5, 6})
	for i, r := range rounds {
		fmt.Println(i+1, r)
	}
	// Output:
	// 1 1-6 2-5 3-4
	// 2 6-4 5-3 1-2
	// 3 2-6 3-1 4-5
	// 4 6-5 1-4 2-3
	// 5 3-6 4-2 5-1
}
