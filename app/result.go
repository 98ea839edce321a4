package app

import (
	"context"

	"github.com/otd-project/otd/tournament"
)

// ResultEntry is a game's result as the director enters it: a Swiss
// round's game (Round, Table) or a final match's (Match, Table the game's
// number in it), recorded or, with Correct, corrected; with Repair (a
// round's game corrected) the rounds paired after it are paired again.
type ResultEntry struct {
	Round, Table int
	Match        string // "SF1", "women:F"; "": a round's game
	In           tournament.ResultInput
	Correct      bool
	Repair       bool
}

// EnterResult records or corrects the result e names ('otd result'):
// Record, Correct or RecordFinal.
func (d *Director) EnterResult(ctx context.Context, id int64, e ResultEntry) (Outcome, error) {
	switch {
	case e.Match != "":
		return d.RecordFinal(ctx, id, e.Match, e.Table, e.In, e.Correct)
	case e.Repair || e.Correct:
		return d.Correct(ctx, id, e.Round, e.Table, e.In, e.Repair)
	}
	return d.Record(ctx, id, e.Round, e.Table, e.In)
}
