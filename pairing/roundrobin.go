package pairing

import "fmt"

// RoundRobin returns the first rounds of a round robin among the players
// with the given IDs, in seeding order, by Berger tables: everyone meets
// everyone once in a cycle of n-1 rounds (n rounds for an odd n, each with one
// bye). The first-named player of each Berger pair has Black, which balances
// colours: every player ends a cycle with |blacks - whites| <= 1. Rounds
// beyond a cycle play the table again, colours swapped in every second cycle:
// 2 players and 10 rounds are a 10-game match, colours alternating; 6 players
// and 10 rounds a double round robin, each pair meeting once with each colour.
// rounds 0 is one cycle.
func RoundRobin(ids []int, rounds int) ([]Pairing, error) {
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
	if rounds < 0 {
		return nil, fmt.Errorf("%w: a round robin of %d rounds", ErrInvalidInput, rounds)
	}
	n := len(ids) + len(ids)%2 // with a dummy, n, for an odd field
	half := n / 2
	pairs := make([][2]int, half) // Berger numbers 1..n
	for i := range pairs {
		pairs[i] = [2]int{i + 1, n - i}
	}
	cycle := make([]Pairing, n-1)
	for r := range cycle {
		for _, q := range pairs {
			switch {
			case q[0] > len(ids):
				cycle[r].Bye = ids[q[1]-1]
			case q[1] > len(ids):
				cycle[r].Bye = ids[q[0]-1]
			default:
				cycle[r].Pairs = append(cycle[r].Pairs, Pair{ids[q[0]-1], ids[q[1]-1]})
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
	if rounds == 0 {
		return cycle, nil
	}
	out := make([]Pairing, rounds)
	for r := range out {
		out[r] = cycle[r%len(cycle)]
		if r/len(cycle)%2 == 1 {
			out[r] = Pairing{Bye: out[r].Bye, Pairs: make([]Pair, len(out[r].Pairs))}
			for i, p := range cycle[r%len(cycle)].Pairs {
				out[r].Pairs[i] = Pair{Black: p.White, White: p.Black}
			}
		}
	}
	return out, nil
}
