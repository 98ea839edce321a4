package tournament

import (
	"encoding"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

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
	want.Version = ChangeVersion
	r, err := NewAuditRow(want)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := r.Entry(); err != nil || !reflect.DeepEqual(back.Change, want) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if _, err := DecodeChange(ChangeVersion+1, "result", "x", nil, nil); err == nil {
		t.Error("a newer version: no error")
	}
	if _, err := DecodeChange(1, "result", "x", nil, []byte(`{"notes":["a"]}`)); err == nil {
		t.Error("notes in a version-1 row: no error")
	}
	if _, err := DecodeChange(2, "result", "x", []byte(`{"actor":{"kind":"worker"}}`), nil); err == nil {
		t.Error("an actor on the before side: no error")
	}
}

// TestDecodeChangeV2 reads a version-2 row written by hand: the after side
// carries the actor and the notes, the subject is the subject whatever it
// holds ("Smith; Jr"), and a side of nothing but the actor is read too.
func TestDecodeChangeV2(t *testing.T) {
	after := `{"results":[{"round":1,"table":1,"result":{"black":40,"white":24,"kind":"normal"}}],` +
		`"actor":{"kind":"report","side":"black","game":"round 1 table 1","address":"192.168.1.7"},"notes":["round 2 was paired on the result before this correction","it stands"]}`
	c, err := DecodeChange(2, "result correct", "round 1 table 1 (1 Smith; Jr - 2 Bob)", []byte(`{"results":[{"round":1,"table":1,"result":null}]}`), []byte(after))
	if err != nil {
		t.Fatal(err)
	}
	want := Change{Version: 2, Action: ActResultCorrect, Subject: "round 1 table 1 (1 Smith; Jr - 2 Bob)",
		Before: State{Results: []GameResult{{1, 1, nil}}},
		After:  State{Results: []GameResult{{1, 1, &Result{Black: 40, White: 24, Kind: Normal}}}},
		Notes:  []string{"round 2 was paired on the result before this correction", "it stands"},
		Actor:  Actor{Kind: ByReport, Side: Black, Game: "round 1 table 1", Address: "192.168.1.7"},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("DecodeChange:\n got %+v\nwant %+v", c, want)
	}
	c, err = DecodeChange(2, "round unpair", "round 2", []byte(`{"games":[{"round":2,"table":1,"black":1,"white":2}]}`), []byte(`{"actor":{"kind":"worker","name":"w1@host"}}`))
	if err != nil || !c.After.IsZero() || !reflect.DeepEqual(c.Actor, Actor{Kind: ByWorker, Name: "w1@host"}) {
		t.Errorf("an after side of the actor alone: %+v, %v", c, err)
	}
	// Without an actor or notes, the after side of nothing is nothing.
	if r, err := NewAuditRow(Change{Version: ChangeVersion, Action: ActRoundUnpair, Subject: "round 2", Before: c.Before}); err != nil || r.After != nil {
		t.Errorf("NewAuditRow: after %q, %v; want nothing", r.After, err)
	}
}

// TestActorString: an actor in words, as 'otd log' shows it.
func TestActorString(t *testing.T) {
	for _, tc := range []struct {
		a    Actor
		want string
	}{
		{Actor{}, "-"},
		{Actor{Kind: ByCommandLine, Name: "alice"}, "command line (alice)"},
		{Actor{Kind: ByCommandLine}, "command line"},
		{Actor{Kind: ByWorker, Name: "w1@host"}, "worker w1@host"},
		{Actor{Kind: ByConsole, Session: "3f2a"}, "console session 3f2a"},
		{Actor{Kind: ByConsole, Session: "3f2a", Name: "alice"}, "console session 3f2a of alice"},
		{Actor{Kind: ByReport, Side: Black, Game: "round 3 table 2", Address: "192.168.1.7"}, "report: black of round 3 table 2 from 192.168.1.7"},
		{Actor{Kind: ByReport, Session: "3f2a", Reports: []Reported{
			{Black, "192.168.1.7", time.Date(2026, 11, 21, 14, 2, 11, 0, time.UTC), "", false, false},
			{White, "192.168.1.9", time.Date(2026, 11, 21, 14, 2, 40, 0, time.UTC), "", false, false}}},
			"report: black from 192.168.1.7 at 14:02:11, white from 192.168.1.9 at 14:02:40; approved by console session 3f2a"},
		{Actor{Kind: ByReport, Reports: []Reported{{White, "10.0.0.2", time.Date(2026, 11, 21, 9, 0, 5, 0, time.UTC), "", false, false}}}, "report: white from 10.0.0.2 at 09:00:05"},
		{Actor{Kind: ByReport, Session: "3f2a", Reports: []Reported{
			{Black, "10.0.0.4", time.Date(2026, 11, 21, 14, 2, 11, 0, time.UTC), "40-24", false, true},
			{White, "10.0.0.5", time.Date(2026, 11, 21, 14, 2, 40, 0, time.UTC), "24-40", false, false}}},
			"report: black from 10.0.0.4 at 14:02:11 (40-24, chosen), white from 10.0.0.5 at 14:02:40 (24-40); approved by console session 3f2a"},
		// A report with moves says so; a console session says how it logged in.
		{Actor{Kind: ByReport, Session: "3f2a", Login: "password from 127.0.0.1", Reports: []Reported{
			{Black, "10.0.0.4", time.Date(2026, 11, 21, 14, 2, 11, 0, time.UTC), "40-24", true, false},
			{White, "10.0.0.5", time.Date(2026, 11, 21, 14, 2, 40, 0, time.UTC), "40-24", false, false}}},
			"report: black from 10.0.0.4 at 14:02:11 (40-24 with moves), white from 10.0.0.5 at 14:02:40 (40-24); approved by console session 3f2a (password from 127.0.0.1)"},
		{Actor{Kind: ByConsole, Session: "9063", Login: "one-time link from 192.168.1.20"}, "console session 9063 (one-time link from 192.168.1.20)"},
		// The director entered the result over the players' reports.
		{Actor{Kind: ByConsole, Session: "9063", Login: "password from 127.0.0.1", Reports: []Reported{
			{Black, "10.0.0.4", time.Date(2026, 11, 21, 14, 2, 11, 0, time.UTC), "40-24", false, false},
			{White, "10.0.0.4", time.Date(2026, 11, 21, 14, 2, 40, 0, time.UTC), "call", false, false}}},
			"console session 9063 (password from 127.0.0.1) entered the result; reports: black from 10.0.0.4 at 14:02:11 (40-24), white from 10.0.0.4 at 14:02:40 (call)"},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("%+v: %q; want %q", tc.a, got, tc.want)
		}
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
