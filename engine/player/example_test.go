package player_test

import (
	"context"
	"fmt"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/player"
)

// Two built-in players play a game; otd owns the board and plays the moves.
func Example() {
	black, _ := player.New("greedy")
	white, _ := player.New("alphabeta:2")
	defer black.Close()
	defer white.Close()
	g, _ := player.NewGame(engine.Othello())
	for !g.Position.GameOver() {
		pl := black
		if g.Position.ToMove() == engine.White {
			pl = white
		}
		m, err := pl.Move(context.Background(), g, player.Clock{PerMove: time.Second})
		if err != nil {
			fmt.Println(err)
			return
		}
		g.Position, err = g.Position.Play(m)
		if err != nil {
			fmt.Println(pl.Name(), "played an illegal move:", err)
			return
		}
		g.Moves = append(g.Moves, m)
	}
	fmt.Println(black.Name(), "vs", white.Name(), "moves:", len(g.Moves) > 0, "final score is legal:", g.Position.FinalScore().Black+g.Position.FinalScore().White == 64)
	// Output: greedy vs alphabeta:2 moves: true final score is legal: true
}

// Solve gives the exact result of an endgame.
func ExampleSolve() {
	b, _ := engine.ParseBoard("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------") // FFO #40
	m, score, err := player.Solve(context.Background(), engine.Bitboard{Board: b, ToMove: engine.Black})
	fmt.Println(m, score, err)
	// Output: a2 38 <nil>
}
