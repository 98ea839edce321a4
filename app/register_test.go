package app_test

import (
	"strings"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/archive"
)

// TestListedInputUnlisted: a player rated but not on the published list (a
// rating from games long ago, as 'otd rating --all' shows one) is
// registered without it, saying so; a listed one with it.
func TestListedInputUnlisted(t *testing.T) {
	in, note := app.ListedInput(archive.Listed{ID: 960, Name: "OLD, Timer", Country: "FRA", Rated: true, Rating: 3173.2, Unlisted: true})
	if in.Rating != 0 || !strings.Contains(note, "not on the published list") {
		t.Errorf("unlisted: %+v, %q; want no rating and why", in, note)
	}
	in, note = app.ListedInput(archive.Listed{ID: 79, Name: "LEADER, Imre", Country: "GBR", Rated: true, Rating: 2157.43})
	if in.Rating != 2157 || note != "" {
		t.Errorf("listed: %+v, %q; want rating 2157", in, note)
	}
}
