package pairing

import "fmt"

// RoundRobin returns the rounds of a round robin among the players with the
// given IDs, in seeding order, by Berger tables: everyone meets everyone once
// in n-1 rounds (n rounds for an odd n, each with one bye). The first-named
// player of each Berger pair has Black, which balances colours: every player
// ends with |blacks - whites| <= 1.
func RoundRobin(ids []int) ([]Pairing, error) {
	seen := map[int]bool{}
	for _, id := range ids {
		if id <= 0 || seen[id] {
			return nil, fmt.Errorf("%w: player ID %d in a round robin", ErrInvalidInput, id)
		}
		seen[id] = true
	}
	if len(ids) < 2 {
		return nil, fmt.Errorf("%w: a round robin needs 2 players, not %d", ErrInvalidInput, len(ids))
	}
	n := len(ids) + len(ids)%2 // with a dummy, n, for an odd field
	half := n / 2
	pairs := make([][2]int, half) // Berger numbers 1..n
	for i := range pairs {
		pairs[i] = [2]int{i + 1, n - i}
	}
	rounds := make([]Pairing, n-1)
	for r := range rounds {
		for _, q := range pairs {
			switch {
			case q[0] > len(ids):
				rounds[r].Bye = ids[q[1]-1]
			case q[1] > len(ids):
				rounds[r].Bye = ids[q[0]-1]
			default:
				rounds[r].Pairs = append(rounds[r].Pairs, Pair{ids[q[0]-1], ids[q[1]-1]})
			}
		}
		// The next round: every number but n moves on by n/2 (mod n-1), and n
		// changes colour.
		for i, q := range pairs {
			for k, x := range q {
				if x != n {
					q[k] = (x-1+half)%(n-1) + 1
				}
			}
			if q[0] == n || q[1] == n {
				q[0], q[1] = q[1], q[0]
			}
			pairs[i] = q
		}
	}
	return rounds, nil
}
