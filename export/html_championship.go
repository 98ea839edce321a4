package export

import (
	"io"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

// WriteFinalWallSheet writes the wall sheet of round k of the final phase
// (app.FinalRound): each game's match and game number, black and white, in
// large type on A4.
func WriteFinalWallSheet(w io.Writer, t *tournament.Tournament, k int) error {
	page, err := app.FinalWallPage(t, k)
	if err != nil {
		return err
	}
	return executeHTML(w, "final-wall", page)
}
