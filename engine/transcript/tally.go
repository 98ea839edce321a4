package transcript

import (
	"errors"
	"fmt"
	"io"
)

// MaxProblems is how many problems a Tally keeps: the first found.
const MaxProblems = 10

// Tally is the verdict on a batch of games, each replayed against the
// result it records ('otd verify' of a batch or a database).
type Tally struct {
	Games       int // games read
	Legal       int // games whose every move is legal
	Illegal     int // games with an illegal move
	Agreeing    int // legal games whose recorded result agrees with the moves
	Disagreeing int // legal games whose recorded result does not
	NoResult    int // legal games with no result recorded, or one ended by time, resignation or agreement
	Problems    []Problem
}

// Problem is a game of a batch that is illegal or disagrees with its
// recorded result, and what is wrong, in words.
type Problem struct {
	Game Game
	What string
}

// Failed tells whether a game of the batch is illegal or disagrees with
// its recorded result.
func (t *Tally) Failed() bool { return t.Illegal > 0 || t.Disagreeing > 0 }

// Add replays game against its recorded result and counts it; the first
// MaxProblems problems are kept.
func (t *Tally) Add(game Game) {
	t.Games++
	r := Replay(game)
	r.Claimed = game.Result
	problem := ""
	switch {
	case !r.Legal():
		t.Illegal++
		problem = "illegal: " + r.Illegal.String()
	case r.Claimed == nil || r.Claimed.Ending != Normal:
		t.Legal++
		t.NoResult++
	case r.Agrees():
		t.Legal++
		t.Agreeing++
	default:
		t.Legal++
		t.Disagreeing++
		problem = fmt.Sprintf("recorded %s, but the moves give %s", r.Claimed, r.Score)
		if !r.Over {
			problem = fmt.Sprintf("recorded %s, but the game is unfinished (discs %s)", r.Claimed, r.Score)
		}
	}
	if problem != "" && len(t.Problems) < MaxProblems {
		t.Problems = append(t.Problems, Problem{game, problem})
	}
}

// VerifyAll tallies every game next returns, up to io.EOF; it stops at
// the first other error, returning it with the tally so far.
func VerifyAll(next func() (Game, error)) (Tally, error) {
	var t Tally
	for {
		game, err := next()
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return t, err
		}
		t.Add(game)
	}
}
