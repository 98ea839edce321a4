package transcript_test

import (
	"fmt"

	"github.com/otd-project/otd/engine/transcript"
)

func ExampleParseMoves() {
	g, err := transcript.ParseMoves("1. d3 c3 2. b3 d2 3. E1 D6 4. d7 e3 5. f4 64-0")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := transcript.Verify(g, nil)
	fmt.Println(len(g.Moves), "moves; over:", r.Over, "score:", r.Score, "agrees:", r.Agrees())

	g, _ = transcript.ParseMoves("f5 d6 c3 a1")
	fmt.Println(transcript.Verify(g, nil).Illegal)

	_, err = transcript.ParseMoves("f5 d6 c9")
	fmt.Println(err)
	// Output:
	// 9 moves; over: true score: 64-0 agrees: true
	// move 4, a1 by white: the move flips no disc
	// moves: line 1, column 7: expected a square a1..h8, a pass (pass, PS or --) or a final score such as 40-24, found "c9"
}

func ExampleParseSheet() {
	g, err := transcript.ParseSheet(`
   a  b  c  d  e  f  g  h
1
2                10
3        3  4  7  8  9
4        5  O  X  6
5           X  O  1
6           2
7
8
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := transcript.Verify(g, nil)
	fmt.Println(g.Moves)
	fmt.Println("legal:", r.Legal(), "discs:", r.Score, "to move:", r.Final.ToMove())
	// Output:
	// [f5 d6 c3 d3 c4 f4 e3 f3 g3 f2]
	// legal: true discs: 7-7 to move: black
}

func ExampleParsePGN() {
	games, err := transcript.ParsePGN(`[Event "World Championship - 1977"]
[Date "1977"]
[Black "Inoue Hiroshi"]
[White "Heiberg Thomas"]
[Result "34-30"]
1. F5 D6
2. C3 F3
3. F4 D3
4. C4 G6

[Black "Woch Alan"]
[White "Jacobs Carol"]
[Result "0-1"]

 1. f5 f6 2. e6 f4 {Jacobs Carol wins 16-48} 0-1
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range games {
		r := transcript.Verify(g, nil)
		fmt.Printf("%s: %s - %s, %d moves, claimed %v, over: %v\n", g.Name, g.Black, g.White, len(g.Moves), g.Result, r.Over)
	}
	_, err = transcript.ParsePGN("[Result \"40-24\"]\n1. f5 d6 33-31")
	fmt.Println(err)
	// Output:
	// line 1: Inoue Hiroshi - Heiberg Thomas, 8 moves, claimed 34-30, over: false
	// line 11: Woch Alan - Jacobs Carol, 4 moves, claimed 0-1 (White wins), over: false
	// pgn: line 2, column 10: expected the result of the [Result] tag on line 1, 40-24, found "33-31"
}
