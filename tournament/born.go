package tournament

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Born is a player's birth as the director gave it: a year (2009) or a date
// (2009-05-01); the zero value is not given. The categories by age and the
// youth rule (RULES.md section 7) go by its Year alone.
type Born struct {
	Year  int
	Month time.Month // 0: only the year was given
	Day   int
}

// BornIn is a birth given as year y alone (0: not given).
func BornIn(y int) Born { return Born{Year: y} }

// Years of birth otd takes.
const (
	bornFirst = 1900
	bornLast  = 2100
)

// ParseBorn reads a birth as a director gives it: a year (2009) or a date
// (2009-05-01), kept as given.
func ParseBorn(s string) (Born, error) {
	s = strings.TrimSpace(s)
	bad := func(why string) (Born, error) {
		return Born{}, invalidf("born %q: %s: give a year (2009) or a date (2009-05-01)", s, why)
	}
	switch {
	case len(s) == 4:
		y, err := strconv.Atoi(s)
		if err != nil || y < 0 {
			return bad("not a year")
		}
		return BornIn(y).checked(s)
	case len(s) == 10 && s[4] == '-' && s[7] == '-':
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			if y, m, ok := yearMonth(s); ok {
				return bad(fmt.Sprintf("%s %d has no day %s", m, y, s[8:]))
			}
			return bad("not a date")
		}
		return Born{Year: d.Year(), Month: d.Month(), Day: d.Day()}.checked(s)
	case strings.Count(s, "-") == 2:
		return bad("a date is written with a 4-digit year, 2-digit month and day")
	}
	return bad("not a year or a date")
}

// yearMonth reads the year and month of a date whose day is wrong.
func yearMonth(s string) (int, time.Month, bool) {
	y, err := strconv.Atoi(s[:4])
	m, err2 := strconv.Atoi(s[5:7])
	if err != nil || err2 != nil || m < 1 || m > 12 {
		return 0, 0, false
	}
	return y, time.Month(m), true
}

// check refuses a birth outside the years otd takes (s is as given).
func (b Born) check(s string) error {
	if b.Year < bornFirst || b.Year > bornLast {
		return invalidf("born %q: a year of birth from %d to %d (0: not given)", s, bornFirst, bornLast)
	}
	return nil
}

// checked is b, or the error of check.
func (b Born) checked(s string) (Born, error) {
	if err := b.check(s); err != nil {
		return Born{}, err
	}
	return b, nil
}

// IsZero reports whether the birth was not given.
func (b Born) IsZero() bool { return b == Born{} }

// String is the birth as given: "2009", "2009-05-01", or "" if not given.
func (b Born) String() string {
	switch {
	case b.IsZero():
		return ""
	case b.Month == 0:
		return fmt.Sprintf("%04d", b.Year)
	}
	return fmt.Sprintf("%04d-%02d-%02d", b.Year, int(b.Month), b.Day)
}

// Date is the date of birth, "" if only the year (or nothing) was given.
func (b Born) Date() string {
	if b.Month == 0 {
		return ""
	}
	return b.String()
}

// MarshalText writes the birth as given (String).
func (b Born) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText reads a birth with ParseBorn ("": not given).
func (b *Born) UnmarshalText(text []byte) (err error) {
	*b = Born{}
	if len(text) > 0 {
		*b, err = ParseBorn(string(text))
	}
	return err
}

// MarshalJSON writes a year as a number (as otd before dates wrote it), a
// date as a string.
func (b Born) MarshalJSON() ([]byte, error) {
	if b.Month == 0 {
		return json.Marshal(b.Year)
	}
	return json.Marshal(b.String())
}

// UnmarshalJSON reads a year (a number) or a date (a string).
func (b *Born) UnmarshalJSON(data []byte) error {
	var y int
	if err := json.Unmarshal(data, &y); err == nil {
		*b = BornIn(y)
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("born: %s: a year or a date", data)
	}
	return b.UnmarshalText([]byte(s))
}
