package cli

import (
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

func TestResultMovesFlags(t *testing.T) {
	type o = resultOptions
	type in = tournament.ResultInput
	checkFlags(t, newResultCmd, []flagCase[o]{
		// The moves may give the score.
		{args: []string{"result", "3", "1", "--moves", "f5d6c3"}, want: o{Round: 3, Table: 1, Moves: "f5d6c3"}},
		{args: []string{"result", "SF1", "2", "36-28", "--transcript", "sf1.ggf", "--game", "2"},
			want: o{Match: "SF1", Table: 2, In: in{Black: 36, White: 28, HasScore: true}, Transcript: "sf1.ggf", Game: 2}},
		{args: []string{"result", "1", "1", "30-34", "--moves", "f5", "--override", "sheet torn", "--correct"},
			want: o{Round: 1, Table: 1, In: in{Black: 30, White: 34, HasScore: true}, Moves: "f5", Override: "sheet torn", Correct: true}},
		{args: []string{"result", "1", "1", "--moves", "f5", "--transcript", "a.txt"}, code: exitUsage, err: "--moves or with --transcript, not both"},
		{args: []string{"result", "1", "1", "40-24", "--game", "2"}, code: exitUsage, err: "--game picks a game of a --transcript file"},
		{args: []string{"result", "1", "1", "--transcript", "a.txt", "--game", "0"}, code: exitUsage, err: "--game is a game's number in the file, from 1"},
		{args: []string{"result", "1", "1", "40-24", "--override", "x"}, code: exitUsage, err: "--override records a result its moves contradict"},
		{args: []string{"result", "1", "1", "40-24", "--moves", "f5", "--correct", "--repair"}, code: exitUsage, err: "--repair corrects a result without its moves"},
	})
}

func TestRoundSlipsFlags(t *testing.T) {
	type o = roundSlipsOptions
	type s = app.SlipsOptions
	const serve = "http://127.0.0.1:8080/" // what 'otd serve' announces without --listen
	checkFlags(t, newRoundSlipsCmd, []flagCase[o]{
		{args: []string{"round", "slips"}, want: o{SlipsOptions: s{PerPage: 2, URL: serve}, Output: "-"}},
		{args: []string{"round", "slips", "3", "--table", "7", "--url", "http://10.0.0.2:8080/", "--per-page", "4", "--output", "s.html"},
			want: o{SlipsOptions: s{Round: 3, Table: 7, PerPage: 4, URL: "http://10.0.0.2:8080/"}, Output: "s.html"}},
		{args: []string{"round", "slips", "f2"}, want: o{SlipsOptions: s{Final: 2, PerPage: 2, URL: serve}, Output: "-"}},
		{args: []string{"round", "slips", "0"}, code: exitUsage, err: `R is a round number (3), or F and a round of the final phase (F2), not "0"`},
		{args: []string{"round", "slips", "--per-page", "3"}, code: exitUsage, err: "--per-page is 2 or 4, not 3"},
		{args: []string{"round", "slips", "--url", "10.0.0.2:8080"}, code: exitUsage, err: "--url is the address 'otd serve' prints"},
		{args: []string{"round", "slips", "--force"}, code: exitUsage, err: "--force goes with --output FILE"},
	})
}
