package tournament

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestParseBorn reads births as directors write them: a year or a date of
// the calendar, kept as given; anything else is refused, saying why and what
// to give.
func TestParseBorn(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Born
		err  string // part of the error; "" for none
	}{
		{in: "2009", want: Born{Year: 2009}},
		{in: " 2009 ", want: Born{Year: 2009}},
		{in: "2009-05-01", want: Born{Year: 2009, Month: 5, Day: 1}},
		{in: "2008-02-29", want: Born{Year: 2008, Month: 2, Day: 29}}, // a leap year
		{in: "1900", want: Born{Year: 1900}},
		{in: "2100-12-31", want: Born{Year: 2100, Month: 12, Day: 31}},
		{in: "2009-02-30", err: `born "2009-02-30": February 2009 has no day 30: give a year (2009) or a date (2009-05-01)`},
		{in: "2009-02-29", err: "February 2009 has no day 29"}, // not a leap year
		{in: "2009-04-31", err: "April 2009 has no day 31"},
		{in: "2009-13-01", err: `born "2009-13-01": not a date`},
		{in: "2009-5-1", err: `born "2009-5-1": a date is written with a 4-digit year, 2-digit month and day`},
		{in: "09", err: `born "09": not a year or a date`},
		{in: "209", err: "not a year or a date"},
		{in: "abcd", err: "not a year"},
		{in: "01/05/2009", err: "not a year or a date"},
		{in: "", err: "not a year or a date"},
		{in: "1899", err: `born "1899": a year of birth from 1900 to 2100`},
		{in: "2101-01-01", err: "a year of birth from 1900 to 2100"},
	} {
		got, err := ParseBorn(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseBorn(%q): %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrInvalid)):
			t.Errorf("ParseBorn(%q): %v, %v; want an invalid error with %q", tc.in, got, err, tc.err)
		case got != tc.want:
			t.Errorf("ParseBorn(%q) = %+v; want %+v", tc.in, got, tc.want)
		}
	}
}

// TestBornForms writes a birth as given, in text and in the audit trail's
// JSON (a year as the number otd wrote before dates, a date as a string),
// and reads it back.
func TestBornForms(t *testing.T) {
	for _, tc := range []struct {
		b          Born
		text, date string
		json       string
	}{
		{Born{}, "", "", "0"},
		{Born{Year: 2009}, "2009", "", "2009"},
		{Born{Year: 2009, Month: 5, Day: 1}, "2009-05-01", "2009-05-01", `"2009-05-01"`},
	} {
		if s := tc.b.String(); s != tc.text {
			t.Errorf("%+v: String %q; want %q", tc.b, s, tc.text)
		}
		if d := tc.b.Date(); d != tc.date {
			t.Errorf("%+v: Date %q; want %q", tc.b, d, tc.date)
		}
		j, err := json.Marshal(tc.b)
		if err != nil || string(j) != tc.json {
			t.Errorf("%+v: JSON %s, %v; want %s", tc.b, j, err, tc.json)
		}
		var back Born
		if err := json.Unmarshal([]byte(tc.json), &back); err != nil || back != tc.b {
			t.Errorf("JSON %s reads %+v, %v; want %+v", tc.json, back, err, tc.b)
		}
	}
	var p Player // an audit row of otd before dates: the year, a number
	if err := json.Unmarshal([]byte(`{"number":3,"name":"Kid","first_round":1,"born":2011}`), &p); err != nil || p.Born != (Born{Year: 2011}) {
		t.Errorf("an old row reads born %+v, %v; want the year 2011", p.Born, err)
	}
	for _, bad := range []string{`"2009-02-30"`, `true`} {
		if err := json.Unmarshal([]byte(bad), &p.Born); err == nil {
			t.Errorf("JSON %s reads %+v; want an error", bad, p.Born)
		}
	}
	if j, _ := json.Marshal(Player{Number: 1, Name: "A"}); strings.Contains(string(j), "born") {
		t.Errorf("a player without a birth writes %s; want no born", j)
	}
}
