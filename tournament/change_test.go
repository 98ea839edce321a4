package tournament

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
)

// TestPayloadTags: every field of the audit trail's payload (Change and all
// it holds) has an explicit JSON name, so renaming a Go field cannot change
// the stored form and break the undo of rows already written.
func TestPayloadTags(t *testing.T) {
	text := reflect.TypeFor[encoding.TextMarshaler]()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.Implements(text) {
			return
		}
		seen[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Anonymous && f.Tag.Get("json") == "" { // flattened: its fields are named
				walk(f.Type)
				continue
			}
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == "" || name == "-" {
				t.Errorf("%v.%s has no JSON name", typ, f.Name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[Change]())
	if len(seen) < 6 {
		t.Errorf("only %d payload types checked", len(seen))
	}
}

// TestDecodeChangeV1 reads version-1 rows written by hand from the names of
// the stored form: a rename of a JSON name breaks this test.
func TestDecodeChangeV1(t *testing.T) {
	before := `{"players":[{"number":2,"name":"Ben","fed_id":77,"rating":1900,"country":"GB","first_round":1,"left":3,"absent":[2]}],` +
		`"games":[{"round":1,"table":2,"black":2,"white":0}],"results":[{"round":1,"table":1,"result":null}],` +
		`"settings":{"name":"Open","rounds":7,"system":"swiss","bq":"wof","time_default":"fixed","bye_points":0.5,"tiebreaks":"points,bq,h2h","first_round":"random","seed":9}}`
	after := `{"results":[{"round":1,"table":1,"result":{"black":40,"white":24,"kind":"time-default","loser":"white"}}],"finals":[{"round":0,"table":1,"black":1,"white":2,"result":{"black":33,"white":31,"kind":"normal"}}]}`
	c, err := DecodeChange(1, "result", "round 1 table 1", []byte(before), []byte(after))
	if err != nil {
		t.Fatal(err)
	}
	wantSettings := Settings{Name: "Open", Rounds: 7, System: Swiss, BQ: scoring.BQRule{Kind: scoring.WOF}, TimeDefault: scoring.TimeFixed,
		ByePoints: scoring.Half, TieBreaks: scoring.TieBreaks{scoring.ByPoints, scoring.ByBQ, scoring.ByH2H}, FirstRound: pairing.Random, Seed: 9}
	want := Change{Version: 1, Action: ActResult, Subject: "round 1 table 1",
		Before: State{Settings: &wantSettings,
			Players: []Player{{Number: 2, Name: "Ben", WOFID: 77, Rating: 1900, Country: "GB", FirstRound: 1, Left: 3, Absent: []int{2}}},
			Games:   []Game{{Round: 1, Table: 2, Black: 2}}, Results: []GameResult{{1, 1, nil}}},
		After: State{Results: []GameResult{{1, 1, &Result{Black: 40, White: 24, Kind: TimeDefault, Loser: White}}},
			// before issue 22, "finals": final games of no known match
			FinalGames: []Game{{FinalRef: FinalRef{Game: 1, Seq: 1}, Black: 1, White: 2, Result: &Result{Black: 33, White: 31, Kind: Normal}}}},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("DecodeChange:\n got %+v\nwant %+v", c, want)
	}
	// And what this otd writes reads back the same.
	b, _ := json.Marshal(want.Before)
	a, _ := json.Marshal(want.After)
	if back, err := DecodeChange(ChangeVersion, "result", "round 1 table 1", b, a); err != nil || !reflect.DeepEqual(back, want) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if _, err := DecodeChange(ChangeVersion+1, "result", "x", nil, nil); err == nil {
		t.Error("a newer version: no error")
	}
}

// TestUndoRefusesWhatChangedSince: a change is undone only while what it
// touched is as it left it, and what it would add back is not there again.
func TestUndoRefusesWhatChangedSince(t *testing.T) {
	tm := club(t, 3, 3)
	removal, err := tm.RemovePlayer(2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tm.AddPlayer(PlayerInput{Name: "Dee"}); err != nil {
		t.Fatal(err)
	}
	before := tm.clone()
	if _, err := tm.Undo(1, removal); !errors.Is(err, ErrChanged) {
		t.Errorf("undo of a removal after a later registration: %v", err)
	}
	if !reflect.DeepEqual(*tm, before) {
		t.Error("a refused undo changed the tournament")
	}
	edit, err := tm.EditPlayer(1, PlayerEdit{Rating: new(1234)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tm.EditPlayer(1, PlayerEdit{Country: new("FR")}); err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Undo(2, edit); !errors.Is(err, ErrChanged) {
		t.Errorf("undo of an edit after a later edit: %v", err)
	}
}

// TestNamesOneLine: a name is one line of text. A player's name has its
// runs of Unicode white space (line breaks, tabs, NEL, line and paragraph
// separators) made one space; any name with another control or format
// character (escapes, NUL, bidirectional overrides), invalid UTF-8 or over
// 200 characters is refused, and a tournament's name with any of them.
func TestNamesOneLine(t *testing.T) {
	for _, name := range []string{"A\x1b[31mB", "A\x00B", "A\u202eB", "A\u200bB\u0007", "A\xffB", strings.Repeat("x", 201)} {
		if _, err := club(t, 0, 3).AddPlayer(PlayerInput{Name: name}); !errors.Is(err, ErrInvalid) {
			t.Errorf("player %q: %v, want ErrInvalid", name, err)
		}
	}
	for _, name := range []string{"X\n%_% 1, FAKE", "A\rB", "A\tB", "A\u0085B", "A\u2028B", "A\u2029B", "A\x1b[31mB", "A\x00B", "A\u202eB", "A\xffB",
		strings.Repeat("x", 201)} {
		if err := DefaultSettings(name, 3).Check(); !errors.Is(err, ErrInvalid) {
			t.Errorf("tournament %q: %v, want ErrInvalid", name, err)
		}
	}
	for in, want := range map[string]string{"X\n%_% 1,  FAKE": "X %_% 1, FAKE", "A\u2028B": "A B", "A\u0085\tB": "A B",
		"SMITH, John, Jr. – Zoë Ågren 李": "SMITH, John, Jr. – Zoë Ågren 李"} {
		c, err := club(t, 0, 3).AddPlayer(PlayerInput{Name: in})
		if err != nil || c.After.Players[0].Name != want {
			t.Errorf("player %q: %+v, %v; want the name %q", in, c.After, err, want)
		}
	}
}
