package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"testing"
)

func TestSquare(t *testing.T) {
	for _, tc := range []struct {
		name string
		sq   Square
	}{{"a1", 0}, {"h1", 7}, {"a2", 8}, {"f5", 37}, {"H8", 63}, {"d3", 19}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSquare(tc.name)
			if err != nil || got != tc.sq {
				t.Fatalf("ParseSquare(%q) = %v, %v; want %v", tc.name, got, err, tc.sq)
			}
			if got.String() != string([]byte{tc.name[0] | 0x20, tc.name[1]}) {
				t.Errorf("String() = %q", got.String())
			}
		})
	}
	for _, bad := range []string{"", "i1", "a9", "a0", "f55", "5f"} {
		if _, err := ParseSquare(bad); !errors.Is(err, ErrBadSquare) {
			t.Errorf("ParseSquare(%q) error = %v, want ErrBadSquare", bad, err)
		}
	}
}

func TestStartMoves(t *testing.T) {
	p := Start()
	var got []string
	for _, m := range p.Moves() {
		got = append(got, m.String())
	}
	if fmt.Sprint(got) != "[d3 c4 f5 e6]" {
		t.Errorf("start moves = %v, want [d3 c4 f5 e6]", got)
	}
	if p.String() != "---------------------------OX------XO---------------------------" {
		t.Errorf("start board = %s", p.String())
	}
}

func TestPlayErrors(t *testing.T) {
	// White has only h1 on its row; black to move in a corner position.
	full, _ := ParseBoard("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-")
	// Black cannot move, white can (white h8? no: white has no discs) -> game over.
	blackOnly := Bitboard{Board: full}
	// A position where black must pass: black a1, white b1, c1 empty... black cannot move, white can.
	mustPass, _ := ParseBoard("OX-" + repeat('-', 61))
	for _, tc := range []struct {
		name string
		pos  Bitboard
		move Square
		want error
	}{
		{"occupied", Start(), SquareAt(3, 3), ErrOccupied},
		{"no flip", Start(), SquareAt(0, 0), ErrNoFlip},
		{"pass with moves", Start(), Pass, ErrPassWrong},
		{"game over", blackOnly, 63, ErrGameOver},
		{"pass at game over", blackOnly, Pass, ErrGameOver},
		{"must pass", Bitboard{Board: mustPass}, 2, ErrMustPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.pos.Play(tc.move); !errors.Is(err, tc.want) {
				t.Errorf("Play(%v) error = %v, want %v", tc.move, err, tc.want)
			}
		})
	}
	if !(Bitboard{Board: mustPass}).MustPass() {
		t.Error("MustPass() = false on a position where black has no move and white has")
	}
	if p, err := (Bitboard{Board: mustPass}).Play(Pass); err != nil || p.ToMove != White {
		t.Errorf("Play(Pass) = %v, %v", p.ToMove, err)
	}
}

func repeat(c byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// TestFlipsAgainstNaive compares the bitboard move generator and flips with a
// square-by-square implementation over random games.
func TestFlipsAgainstNaive(t *testing.T) {
	rng := uint64(12345)
	for game := 0; game < 2000; game++ {
		p := Start()
		for !p.GameOver() {
			own, opp := p.own()
			var naiveMoves uint64
			for s := Square(0); s < 64; s++ {
				if f := naiveFlips(own, opp, s); f != 0 && (own|opp)&s.Bit() == 0 {
					naiveMoves |= s.Bit()
					if got := FlipsOf(own, opp, s); got != f {
						t.Fatalf("FlipsOf(%s) on %s = %x, want %x", s, p.String(), got, f)
					}
				}
			}
			if got := p.LegalMoves(); got != naiveMoves {
				t.Fatalf("LegalMoves on %s = %x, want %x", p.String(), got, naiveMoves)
			}
			ms := p.Moves()
			rng ^= rng << 13
			rng ^= rng >> 7
			rng ^= rng << 17
			var err error
			if p, err = p.Play(ms[rng%uint64(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		if bl, wh := p.Count(); bits.OnesCount64(p.Empty()) != 64-bl-wh {
			t.Fatal("count mismatch")
		}
	}
}

func naiveFlips(p, o uint64, s Square) uint64 {
	var f uint64
	for dc := -1; dc <= 1; dc++ {
		for dr := -1; dr <= 1; dr++ {
			if dc == 0 && dr == 0 {
				continue
			}
			var line uint64
			c, r := s.Col()+dc, s.Row()+dr
			for c >= 0 && c < 8 && r >= 0 && r < 8 && o&SquareAt(c, r).Bit() != 0 {
				line |= SquareAt(c, r).Bit()
				c, r = c+dc, r+dr
			}
			if c >= 0 && c < 8 && r >= 0 && r < 8 && p&SquareAt(c, r).Bit() != 0 {
				f |= line
			}
		}
	}
	return f
}

func TestFinalScore(t *testing.T) {
	for _, tc := range []struct{ in, want Score }{
		{Score{34, 29}, Score{35, 29}},
		{Score{29, 34}, Score{29, 35}},
		{Score{31, 31}, Score{32, 32}},
		{Score{20, 0}, Score{64, 0}},
		{Score{32, 32}, Score{32, 32}},
	} {
		t.Run(tc.in.String(), func(t *testing.T) {
			if got := WithEmpties(tc.in); got != tc.want {
				t.Errorf("WithEmpties(%v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseScore(t *testing.T) {
	for in, want := range map[string]Score{"40-24": {40, 24}, " 32-32 ": {32, 32}, "64-0": {64, 0}, "33:31": {33, 31}, "75-25": {75, 25}, "256-0": {256, 0}} {
		if got, err := ParseScore(in); err != nil || got != want {
			t.Errorf("ParseScore(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "40", "40-", "-24", "257-0", "200-57", "a-b", "40--24", "40-24-0"} {
		if _, err := ParseScore(bad); !errors.Is(err, ErrBadScore) {
			t.Errorf("ParseScore(%q) error = %v, want ErrBadScore", bad, err)
		}
	}
}

func TestParseBoardRoundTrip(t *testing.T) {
	s := "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"
	b, err := ParseBoard(s)
	if err != nil || b.String() != s {
		t.Fatalf("ParseBoard round trip: %v, %v", b, err)
	}
	for _, bad := range []string{"", s[:63], s[:63] + "Z"} {
		if _, err := ParseBoard(bad); !errors.Is(err, ErrBadBoard) {
			t.Errorf("ParseBoard(%q) error = %v", bad, err)
		}
	}
}

func ExamplePosition_Play() {
	p := Start()
	for _, sq := range []string{"f5", "d6", "c3"} {
		s, _ := ParseSquare(sq)
		p, _ = p.Play(s)
	}
	fmt.Print(p.Diagram(p.LegalMoves()))
	fmt.Println(p.ToMove, "to move;", p.Score())
	// Output:
	//   a b c d e f g h
	// 1 . . . . . . . .
	// 2 . . . . . . . .
	// 3 . . X * . * . .
	// 4 . . . X X * . .
	// 5 . . . O X X * .
	// 6 . . . O . . . .
	// 7 . . . . . . . .
	// 8 . . . . . . . .
	// white to move; 5-2
}
