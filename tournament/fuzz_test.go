package tournament

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeChange: any audit row, however damaged, gives a change or an
// error, never a panic; and a change it reads, written back by this otd
// (version 1), reads and writes again to the same text.
func FuzzDecodeChange(f *testing.F) {
	f.Add(0, "player add", `{"Number":1,"Name":"Ann","ID":0,"Rating":2100,"Country":"FR","FirstRound":1,"Left":0,"Absent":null}`)
	f.Add(0, "result", `{"Round":1,"Table":2,"Result":{"Black":40,"White":24,"Kind":"normal","Loser":""}}`)
	f.Add(0, "round pair", `[{"Round":1,"Table":1,"Black":3,"White":1,"Result":null}]`)
	f.Add(0, "tournament new", `{"Name":"X","Rounds":3,"System":"swiss","BQ":"nearest","TimeDefault":"complete","ByeHalfPoints":2,"Tiebreaks":"points,bq,discs","FirstRound":"rating","Seed":5}`)
	f.Add(1, "settings", `{"settings":{"name":"Open","rounds":7,"system":"swiss","bq":"wof","time_default":"fixed","bye_points":0.5,"tiebreaks":"points,bq","first_round":"random","seed":9}}`)
	f.Add(1, "player remove", `{"players":[{"number":2,"name":"Ben","first_round":1}]}`)
	f.Fuzz(func(t *testing.T, version int, action, payload string) {
		c, err := DecodeChange(version, action, "subject", []byte(payload), nil)
		if err != nil {
			return
		}
		b, err := json.Marshal(c.Before)
		if err != nil {
			return // a settings value out of range has no text: this otd would refuse to write it
		}
		back, err := DecodeChange(ChangeVersion, string(c.Action), "subject", b, nil)
		if err != nil {
			t.Fatalf("%s: written back as %s, which does not read: %v", payload, b, err)
		}
		if again, err := json.Marshal(back.Before); err != nil || string(again) != string(b) {
			t.Fatalf("%s: written back as %s, read and written again as %s (%v)", payload, b, again, err)
		}
	})
}
