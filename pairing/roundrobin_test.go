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
			rounds, err := RoundRobin(ids, 0)
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

// TestRoundRobinCycles: rounds beyond a cycle play the Berger table again,
// colours swapped in every second cycle. 2 players and 10 rounds are a
// 10-game match with alternating colours; n players and 2 cycles a double
// round robin: every pair meets once with each colour, and each player has
// as many blacks as whites.
func TestRoundRobinCycles(t *testing.T) {
	rounds, err := RoundRobin([]int{7, 9}, 10)
	if err != nil || len(rounds) != 10 {
		t.Fatalf("2 players, 10 rounds: %d rounds, %v", len(rounds), err)
	}
	for i, r := range rounds {
		want := Pair{Black: 7, White: 9}
		if i%2 == 1 {
			want = Pair{Black: 9, White: 7}
		}
		if len(r.Pairs) != 1 || r.Pairs[0] != want || r.Bye != 0 {
			t.Errorf("round %d: %v; want %v", i+1, r, want)
		}
	}
	for n := 3; n <= 8; n++ {
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i + 1
		}
		cycle, _ := RoundRobin(ids, 0)
		k := len(cycle)
		rounds, err := RoundRobin(ids, 3*k)
		if err != nil || len(rounds) != 3*k {
			t.Fatalf("%d players, %d rounds: %d rounds, %v", n, 3*k, len(rounds), err)
		}
		met, balance := map[Pair]int{}, map[int]int{}
		for _, r := range rounds[:2*k] {
			for _, p := range r.Pairs {
				met[p]++
				balance[p.Black]++
				balance[p.White]--
			}
		}
		for i := 1; i <= n; i++ {
			for j := i + 1; j <= n; j++ {
				if met[Pair{i, j}] != 1 || met[Pair{j, i}] != 1 {
					t.Errorf("%d players, double round robin: %d-%d met %d and %d times", n, i, j, met[Pair{i, j}], met[Pair{j, i}])
				}
			}
			if balance[i] != 0 {
				t.Errorf("%d players, double round robin: player %d blacks - whites = %d", n, i, balance[i])
			}
		}
		for i := range k { // the third cycle is the first again
			if rounds[2*k+i].String() != cycle[i].String() || rounds[i].String() != cycle[i].String() {
				t.Errorf("%d players: rounds %d and %d are %v and %v; want %v", n, i+1, 2*k+i+1, rounds[i], rounds[2*k+i], cycle[i])
			}
		}
	}
	if _, err := RoundRobin([]int{1, 2}, -1); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("-1 rounds: %v; want ErrInvalidInput", err)
	}
}

func TestRoundRobinErrors(t *testing.T) {
	for _, ids := range [][]int{nil, {1}, {1, 1}, {0, 2}, {-1, 2}} {
		if _, err := RoundRobin(ids, 0); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("RoundRobin(%v) err = %v, want ErrInvalidInput", ids, err)
		}
	}
}

func ExampleRoundRobin() {
	rounds, _ := RoundRobin([]int{1, 2, 3, 4, 5, 6}, 0)
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
