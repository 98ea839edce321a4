package engine

import (
	"errors"
	"fmt"
	"testing"
)

// refBoard is the independent slow reference for the variants: a plain grid
// scanned square by square in the 8 directions, written from RULES.md section
// 1 and the Rules documentation without the engine's code.
type refBoard struct {
	n       int
	grid    [][]int // 0 empty, 1 black, 2 white, -1 not on the board
	toMove  int     // 1 black, 2 white
	placed  [3]int
	supply  int // 0: no limit
	reversi bool
}

func newRef(n int, stars, reversi bool, supply int) *refBoard {
	b := &refBoard{n: n, toMove: 1, supply: supply, reversi: reversi}
	b.grid = make([][]int, n)
	for r := range b.grid {
		b.grid[r] = make([]int, n)
	}
	if stars { // cut the corner and its two neighbours on the edges, at each corner
		for _, c := range [][2]int{{0, 0}, {1, 0}, {0, 1}} {
			for _, x := range []int{c[0], n - 1 - c[0]} {
				for _, y := range []int{c[1], n - 1 - c[1]} {
					b.grid[y][x] = -1
				}
			}
		}
	}
	if !reversi { // white on the top-left to bottom-right diagonal of the centre
		m := n/2 - 1
		b.grid[m][m], b.grid[m+1][m+1], b.grid[m+1][m], b.grid[m][m+1] = 2, 2, 1, 1
	}
	return b
}

func (b *refBoard) at(c, r int) int {
	if c < 0 || r < 0 || c >= b.n || r >= b.n {
		return -1
	}
	return b.grid[r][c]
}

// flips returns the discs that who flips by playing (c, r), and whether the
// move is legal.
func (b *refBoard) flips(c, r, who int) ([][2]int, bool) {
	if b.at(c, r) != 0 || (b.supply > 0 && b.placed[who] >= b.supply) {
		return nil, false
	}
	if b.reversi && b.placed[1]+b.placed[2] < 4 {
		m := b.n/2 - 1
		return nil, (c == m || c == m+1) && (r == m || r == m+1)
	}
	var all [][2]int
	for dc := -1; dc <= 1; dc++ {
		for dr := -1; dr <= 1; dr++ {
			var line [][2]int
			x, y := c+dc, r+dr
			for (dc != 0 || dr != 0) && b.at(x, y) == 3-who {
				line = append(line, [2]int{x, y})
				x, y = x+dc, y+dr
			}
			if len(line) > 0 && b.at(x, y) == who {
				all = append(all, line...)
			}
		}
	}
	return all, len(all) > 0
}

func (b *refBoard) moves(who int) [][2]int {
	var ms [][2]int
	for r := 0; r < b.n; r++ {
		for c := 0; c < b.n; c++ {
			if _, ok := b.flips(c, r, who); ok {
				ms = append(ms, [2]int{c, r})
			}
		}
	}
	return ms
}

func (b *refBoard) play(c, r int) *refBoard {
	f, _ := b.flips(c, r, b.toMove)
	nb := *b
	nb.grid = make([][]int, b.n)
	for i := range b.grid {
		nb.grid[i] = append([]int(nil), b.grid[i]...)
	}
	for _, s := range append(f, [2]int{c, r}) {
		nb.grid[s[1]][s[0]] = b.toMove
	}
	nb.placed[b.toMove]++
	nb.toMove = 3 - b.toMove
	return &nb
}

// follow returns the board after the engine's move m (a pass included).
func (b *refBoard) follow(m Point) *refBoard {
	if m == PassPoint {
		nb := *b
		nb.toMove = 3 - b.toMove
		return &nb
	}
	return b.play(int(m.Col), int(m.Row))
}

func xorshift(x *uint64) uint64 {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return *x
}

func (b *refBoard) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	ms := b.moves(b.toMove)
	if len(ms) == 0 {
		if depth == 1 || len(b.moves(3-b.toMove)) == 0 {
			return 1
		}
		return b.follow(PassPoint).perft(depth - 1)
	}
	var n uint64
	for _, m := range ms {
		n += b.play(m[0], m[1]).perft(depth - 1)
	}
	return n
}

func (b *refBoard) count(who int) int {
	n := 0
	for _, row := range b.grid {
		for _, v := range row {
			if v == who {
				n++
			}
		}
	}
	return n
}

// solve returns the disc difference (the side to move's discs less the
// opponent's) at the end of perfect play, by plain minimax.
func (b *refBoard) solve() int {
	ms := b.moves(b.toMove)
	if len(ms) == 0 {
		if len(b.moves(3-b.toMove)) == 0 {
			return b.count(b.toMove) - b.count(3-b.toMove)
		}
		return -b.follow(PassPoint).solve()
	}
	best := -1000
	for _, m := range ms {
		best = max(best, -b.play(m[0], m[1]).solve())
	}
	return best
}

func mustRules(t testing.TB, name string) Rules {
	t.Helper()
	r, err := ParseRules(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustGame(t testing.TB, name string) Position {
	t.Helper()
	g, err := NewPosition(mustRules(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func refFor(r Rules) *refBoard {
	return newRef(r.Size, r.Shape == EightStars, r.Start == ReversiStart, r.Supply)
}

// TestVariantPerft checks Game.Perft against the reference, depth by depth.
func TestVariantPerft(t *testing.T) {
	for _, tc := range []struct {
		rules    string
		maxDepth int
	}{
		{"othello:4", 14}, // the whole game tree
		{"othello:6", 8},
		{"othello:10", 8}, // 55180 at depth 7: the 8x8 count is 55092
		{"othello:16", 7},
		{"8stars", 8}, // 55136 at depth 7: the cut corners count already
		{"reversi", 9},
		{"reversi:4", 14},          // the whole tree, with the supply (8 each)
		{"othello+supply=5:4", 14}, // a supply that runs out
		{"reversi:6", 8},
		{"anti+reversi+8stars", 6},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			r := mustRules(t, tc.rules)
			g, err := NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			ref := refFor(r)
			for d := 1; d <= tc.maxDepth; d++ {
				if got, want := g.Perft(d), ref.perft(d); got != want {
					t.Errorf("perft(%d) = %d, reference %d", d, got, want)
				}
			}
		})
	}
}

// TestVariantPerftMidgame checks Game.Perft against the reference below
// positions of random games, where lines reach the edges and cut corners.
func TestVariantPerftMidgame(t *testing.T) {
	rng := uint64(7)
	for _, name := range []string{"othello:6", "othello:10", "8stars", "othello:12", "reversi+supply=30:8"} {
		t.Run(name, func(t *testing.T) {
			for game := range 4 {
				g := mustGame(t, name)
				ref := refFor(g.Rules())
				for ply := 0; ; ply++ {
					if ply%12 == 11 {
						if got, want := g.Perft(3), ref.perft(3); got != want {
							t.Fatalf("game %d ply %d %s: perft(3) = %d, reference %d", game, ply, g, got, want)
						}
					}
					ms := g.Moves()
					if len(ms) == 0 {
						break
					}
					m := ms[xorshift(&rng)%uint64(len(ms))]
					g, _ = g.Play(m)
					ref = ref.follow(m)
				}
			}
		})
	}
}

// TestVariantPerftStandard cross-checks Game on 8x8 Othello with the bitboard
// fast path and the published counts.
func TestVariantPerftStandard(t *testing.T) {
	g := mustGame(t, "othello")
	for d := 1; d <= 8; d++ {
		if got, want := g.Perft(d), Perft(Start(), d); got != want || want != perftCounts[d] {
			t.Errorf("Game perft(%d) = %d, fast path %d, published %d", d, got, want, perftCounts[d])
		}
	}
}

// TestVariantRandomGames plays random games of each rule set in Game and the
// reference side by side: the same legal moves, boards and scores.
func TestVariantRandomGames(t *testing.T) {
	rng := uint64(99)
	for _, name := range []string{"othello", "othello:6", "othello:12", "8stars", "reversi", "anti+reversi:10", "othello+supply=20:8"} {
		t.Run(name, func(t *testing.T) {
			for range 30 {
				g := mustGame(t, name)
				ref := refFor(g.Rules())
				for {
					ms := g.Moves()
					var want []Point
					for _, m := range ref.moves(ref.toMove) {
						want = append(want, Point{int8(m[0]), int8(m[1])})
					}
					if len(want) == 0 && len(ref.moves(3-ref.toMove)) > 0 {
						want = []Point{PassPoint}
					}
					if fmt.Sprint(ms) != fmt.Sprint(want) {
						t.Fatalf("%s: moves %v, reference %v", g, ms, want)
					}
					if len(ms) == 0 {
						break
					}
					m := ms[xorshift(&rng)%uint64(len(ms))]
					var err error
					if g, err = g.Play(m); err != nil {
						t.Fatalf("Play(%v): %v", m, err)
					}
					ref = ref.follow(m)
				}
				if s := g.Score(); s.Black != ref.count(1) || s.White != ref.count(2) || !g.GameOver() {
					t.Fatalf("%s: score %v, reference %d-%d", g, s, ref.count(1), ref.count(2))
				}
			}
		})
	}
}

func TestStandardGameMatchesPosition(t *testing.T) {
	g, p := mustGame(t, "othello"), Start()
	if g.String() != p.String() {
		t.Fatalf("start: Game %s, Position %s", g, p)
	}
	for _, sq := range []string{"f5", "d6", "c3", "d3", "c4"} {
		s, _ := ParseSquare(sq)
		q, _ := ParsePoint(sq)
		p, _ = p.Play(s)
		g, _ = g.Play(q)
	}
	if g.String() != p.String() || g.Score() != p.Score() || g.ToMove() != p.ToMove {
		t.Errorf("after five moves: Game %s %v, Position %s %v", g, g.Score(), p, p.Score())
	}
}

func TestEightStarsShape(t *testing.T) {
	g := mustGame(t, "8stars")
	want := "##------##" + "#--------#" + "----------" + "----------" + "----OX----" +
		"----XO----" + "----------" + "----------" + "#--------#" + "##------##"
	if g.String() != want || g.Rules().Squares() != 88 {
		t.Errorf("8stars board %s (%d squares), want %s (88)", g, g.Rules().Squares(), want)
	}
	// the cut corners: j1 is off the board, i2 (the star point) on it
	for sq, on := range map[string]bool{"a1": false, "b1": false, "a2": false, "c1": true, "b2": true, "j1": false, "i2": true, "j10": false, "h10": true} {
		p, _ := ParsePoint(sq)
		if got := g.Rules().Playable(int(p.Col), int(p.Row)); got != on {
			t.Errorf("Playable(%s) = %v, want %v", sq, got, on)
		}
	}
}

func TestParseRules(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Rules
		name string // String(); "" for in
	}{
		{"othello", Othello(), ""},
		{"OTHELLO:8", Othello(), "othello"},
		{"othello:6", Rules{Size: 6}, ""},
		{"anti", Rules{Size: 8, Winner: FewestDiscs}, ""},
		{"reversi", Rules{Size: 8, Start: ReversiStart, Supply: 32}, ""},
		{"reversi:6", Rules{Size: 6, Start: ReversiStart, Supply: 18}, ""},
		{"8stars", Rules{Size: 10, Shape: EightStars}, ""},
		{"reversi+8stars", Rules{Size: 10, Shape: EightStars, Start: ReversiStart, Supply: 44}, ""},
		{"8stars+anti", Rules{Size: 10, Shape: EightStars, Winner: FewestDiscs}, "anti+8stars"},
		{"reversi+supply=0:16", Rules{Size: 16, Start: ReversiStart}, ""},
		{"othello+supply=20", Rules{Size: 8, Supply: 20}, "supply=20"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseRules(tc.in)
			if err != nil || got != tc.want {
				t.Fatalf("ParseRules(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
			name := tc.name
			if name == "" {
				name = tc.in
			}
			if got.String() != name {
				t.Errorf("String() = %q, want %q", got.String(), name)
			}
			if back, err := ParseRules(got.String()); err != nil || back != got {
				t.Errorf("ParseRules(String()) = %+v, %v", back, err)
			}
		})
	}
	for _, bad := range []string{"", "chess", "othello:7", "othello:2", "othello:18", "othello:x", "8stars:8", "supply=-1", "anti+", "othello:"} {
		if _, err := ParseRules(bad); !errors.Is(err, ErrBadRules) {
			t.Errorf("ParseRules(%q) error = %v, want ErrBadRules", bad, err)
		}
	}
	if got := fmt.Sprint(EightStars, ReversiStart, FewestDiscs, Goal(5)); got != "8stars reversi fewest 5" {
		t.Errorf("names of the parts = %q", got)
	}
	if r, err := RulesFor("anti", 10); err != nil || r.String() != "anti:10" {
		t.Errorf(`RulesFor("anti", 10) = %v, %v`, r, err)
	}
}

func TestWinnerOf(t *testing.T) {
	for _, tc := range []struct {
		rules string
		s     Score
		want  string
	}{
		{"othello", Score{40, 24}, "black"},
		{"anti", Score{40, 24}, "white"},
		{"anti", Score{10, 20}, "black"},
		{"anti", Score{32, 32}, "tie"},
	} {
		c, ok := mustRules(t, tc.rules).WinnerOf(tc.s)
		got := c.String()
		if !ok {
			got = "tie"
		}
		if got != tc.want {
			t.Errorf("%s: WinnerOf(%v) = %s, want %s", tc.rules, tc.s, got, tc.want)
		}
	}
}

func TestGamePlayErrors(t *testing.T) {
	play := func(name string, moves ...string) (Position, error) {
		g := mustGame(t, name)
		var err error
		for _, m := range moves {
			p := PassPoint
			if m != "pass" {
				if p, err = ParsePoint(m); err != nil {
					t.Fatal(err)
				}
			}
			if g, err = g.Play(p); err != nil {
				return g, err
			}
		}
		return g, nil
	}
	for _, tc := range []struct {
		name  string
		rules string
		moves []string
		want  error
	}{
		{"occupied", "othello:6", []string{"c3"}, ErrOccupied},
		{"no flip", "othello:6", []string{"a1"}, ErrNoFlip},
		{"off the board", "8stars", []string{"a1"}, ErrOffBoard},
		{"past the size", "othello:6", []string{"g1"}, ErrOffBoard},
		{"pass with moves", "othello:6", []string{"pass"}, ErrPassWrong},
		{"reversi opening", "reversi", []string{"d4", "e5", "a1"}, ErrNotCentre},
		{"reversi after the opening", "reversi", []string{"d4", "e5", "e4", "d5", "a1"}, ErrNoFlip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := play(tc.rules, tc.moves...); !errors.Is(err, tc.want) {
				t.Errorf("error = %v, want %v", err, tc.want)
			}
		})
	}
}

// TestSupplyUsedUp: a player who has placed all their discs passes while the
// opponent can move.
func TestSupplyUsedUp(t *testing.T) {
	g := mustGame(t, "othello+supply=3:6")
	g.placed[Black] = 3
	if ms := g.Moves(); fmt.Sprint(ms) != "[pass]" || !g.MustPass() {
		t.Fatalf("moves without discs = %v, want [pass]", ms)
	}
	if _, err := g.Play(Point{3, 1}); !errors.Is(err, ErrMustPass) { // d2, legal with a disc
		t.Errorf("Play(d2) error = %v, want ErrMustPass", err)
	}
	g.placed[White] = 3
	if !g.GameOver() {
		t.Error("GameOver() = false with both supplies used up")
	}
	if _, err := g.Play(PassPoint); !errors.Is(err, ErrGameOver) {
		t.Errorf("Play(pass) error = %v, want ErrGameOver", err)
	}
}

func TestParsePoint(t *testing.T) {
	for in, want := range map[string]Point{"a1": {0, 0}, "J10": {9, 9}, "p16": {15, 15}, "f5": {5, 4}} {
		if got, err := ParsePoint(in); err != nil || got != want {
			t.Errorf("ParsePoint(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "a", "a0", "a17", "q1", "a01", "a+1", "a1x"} {
		if _, err := ParsePoint(bad); !errors.Is(err, ErrBadPoint) {
			t.Errorf("ParsePoint(%q) error = %v, want ErrBadPoint", bad, err)
		}
	}
	if s := (Point{9, 9}).String(); s != "j10" {
		t.Errorf("String() = %q", s)
	}
}
