package elo

import (
	"bufio"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/scoring"
)

// Otd is what an .ELO file cannot say and otd needs to rebuild the
// tournament exactly: the games that were not played (forfeits, byes), which
// the rating list must not count, how games ended, the rules, and the
// players' entries, absences and withdrawals. Ids are the file's.
type Otd struct {
	Rounds       int // rounds planned
	BQ           scoring.BQRule
	TimeDefault  scoring.TimePolicy
	ByePoints    scoring.HalfPoints
	TieBreaks    scoring.TieBreaks
	Players      map[int]Status // by id; players not listed entered for round 1 and played every round
	Forfeits     [][]Forfeit    // Forfeits[r-1]: round r's
	Byes         [][]int        // Byes[r-1]: the ids with round r's bye
	TimeDefaults [][]Forfeit    // Rounds[r-1] games that were time defaults
	// Names are the players' names as otd keeps them, by id, where the
	// standings line cannot hold them: a name with commas other than the one
	// after the surname ("SMITH, John, Jr.", written SMITH, John Jr.).
	Names map[int]string

	// Format is the format of otd's lines read (their "format" line): 0
	// for a file without one, whose lines are format 1's.
	Format int
	// The championship (format 2), each as otd's flags write it: the
	// event's city (its dates, country and director are the standard
	// header's %%Date, %%Country and %%Sender), the open's final phase
	// (--final; "" none), the categories, the teams' rules (--teams; ""
	// the default) and the youth's age limit (0: the default).
	City, Final, Teams string
	// NewIDs are the ids for new players the federation has from the WOF,
	// as --new-ids writes them ("" none).
	NewIDs     string
	Categories []Category
	YouthAge   int
	// Details are the players' births, teams and categories entered,
	// by id (format 2; nil: none, as Matches).
	Details map[int]Details
	// Numbers are the players' numbers in otd (their order of
	// registration), in the order of the standings lines (format 2; nil:
	// the standings' order).
	Numbers []int
	// Matches are the matches of the games after %%Added results, by their
	// place there (0 for the first): the phase's matches as otd played them
	// (format 2). A game without one was in no match.
	Matches map[int]Match
}

// OtdFormat is the format of the lines otd writes: 2 adds the
// championship's lines (city, new-ids, final, category, teams, youth-age,
// details, numbers, match) to format 1's (rounds, rules, player, name, forfeit,
// time-default, bye). A reader skips the lines it does not know.
const OtdFormat = 2

// Category is a category as otd's "category" line writes it.
type Category struct {
	Name             string
	Youth            bool   // its members are the youth, by the event's youth age (youth-age)
	BornFrom, BornTo int    // 0: no limit
	Final            string // its final phase's rules as --final writes them; "" none
}

// Details are a player's details that the standings line cannot hold.
type Details struct {
	Born       string   // as otd keeps it, a year (2009) or a date (2009-05-01); "": not given
	Team       string   // "": their country's
	Categories []string // entered by name
}

// Match is the match of a game after %%Added results: its category (""
// the open's), its match code (SF1, F, 3P, PO...) and its game in the
// match.
type Match struct {
	Category, Code string
	Game           int
}

// Status is a player's entry, withdrawal and absences, as otd keeps them.
type Status struct {
	FirstRound, Left int
	Absent           []int
	// NoID: the id is a stand-in, the player has no WOF id: otd wrote a
	// player without one with their tournament number before issue 21
	// (now with an id from the tournament's new-player range).
	NoID bool
}

// Forfeit is a forfeit (or, in TimeDefaults, a time default): the players
// paired and the colour that lost.
type Forfeit struct {
	Black, White int
	Loser        Color
}

// Color is a side of a game, as otd's lines write it.
type Color string

// Colours.
const (
	Black Color = "black"
	White Color = "white"
)

// Other is the other colour ("" for "").
func (c Color) Other() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return ""
}

// NewOtd returns otd's lines before any is read: the rules that a file
// without a rules line (or a rule it leaves out) is read with, otd's default
// rules (BQ nearest, a time default scored as the completed game, a bye of
// one point, tie-breaks points, BQ, discs), and no players listed.
func NewOtd() *Otd {
	return &Otd{BQ: scoring.BQRule{Kind: scoring.Nearest}, TimeDefault: scoring.TimeComplete, ByePoints: scoring.Point,
		TieBreaks: scoring.DefaultTieBreaks(), Players: map[int]Status{}, Names: map[int]string{}}
}

// SetDetails sets the details of player id.
func (o *Otd) SetDetails(id int, d Details) {
	if o.Details == nil {
		o.Details = map[int]Details{}
	}
	o.Details[id] = d
}

// SetMatch sets the match of the game after %%Added results at place i (0
// for the first).
func (o *Otd) SetMatch(i int, m Match) {
	if o.Matches == nil {
		o.Matches = map[int]Match{}
	}
	o.Matches[i] = m
}

// championship reports whether o has anything of format 2 to write.
func (o *Otd) championship() bool {
	return o.City != "" || o.NewIDs != "" || o.Final != "" || o.Teams != "" || len(o.Categories) > 0 || o.YouthAge != 0 || len(o.Details) > 0 || len(o.Matches) > 0 || len(o.Numbers) > 0
}

// word writes a value as one word of an otd line: as it is when it has
// no space, quote or backslash and is not empty, else quoted as a Go
// string (words reads it back).
func word(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"\\") || CheckText(s) != nil {
		return strconv.Quote(s)
	}
	return s
}

// words splits the text of an otd line into its words: runs of
// non-spaces, a quoted Go string (word) being one, and a key=value pair
// whose value is quoted one word too (its value unquoted).
func words(text string) ([]string, error) {
	var out []string
	for text = strings.TrimLeft(text, " \t"); text != ""; text = strings.TrimLeft(text, " \t") {
		end := strings.IndexAny(text, " \t")
		if end < 0 {
			end = len(text)
		}
		w := text[:end]
		if q := strings.IndexByte(w, '"'); q >= 0 {
			s, err := strconv.QuotedPrefix(text[q:])
			if err != nil {
				return nil, fmt.Errorf("otd line: %s: a quoted value is not closed", QuoteCut(text))
			}
			u, _ := strconv.Unquote(s)
			w, end = text[:q]+u, q+len(s)
		}
		out, text = append(out, w), text[end:]
	}
	return out, nil
}

// otdPrefix starts the comment lines that otd writes for its own import.
const otdPrefix = "% otd:"

// writeHead writes otd's lines after the standings: what they are for, the
// rules, the players' entries, absences and withdrawals, and the names the
// standings lines cannot hold, each once, in the order of the standings.
func (o *Otd) writeHead(bw *bufio.Writer, standings []Player) {
	fmt.Fprintf(bw, "\n%s these lines are for otd: forfeits and byes (not games for the rating list), entries, absences, withdrawals\n", otdPrefix)
	fmt.Fprintf(bw, "%s rounds %d\n", otdPrefix, o.Rounds)
	fmt.Fprintf(bw, "%s rules bq=%v time-default=%v bye-points=%v tiebreaks=%v\n", otdPrefix, o.BQ, o.TimeDefault, o.ByePoints, o.TieBreaks)
	var ids []int // a file listing an id twice is read, and refused when a tournament is built from it
	seen := map[int]bool{}
	for _, p := range standings {
		if !seen[p.ID] {
			seen[p.ID] = true
			ids = append(ids, p.ID)
		}
	}
	for _, id := range ids {
		st, ok := o.Players[id]
		if !ok {
			continue
		}
		fmt.Fprintf(bw, "%s player %d", otdPrefix, id)
		if st.FirstRound != 0 {
			fmt.Fprintf(bw, " first %d", st.FirstRound)
		}
		if st.Left != 0 {
			fmt.Fprintf(bw, " left %d", st.Left)
		}
		if len(st.Absent) > 0 {
			a := make([]string, len(st.Absent))
			for i, r := range st.Absent {
				a[i] = strconv.Itoa(r)
			}
			fmt.Fprintf(bw, " absent %s", strings.Join(a, ","))
		}
		if st.NoID {
			bw.WriteString(" no-id")
		}
		bw.WriteString("\n")
	}
	for _, id := range ids {
		if name, ok := o.Names[id]; ok {
			fmt.Fprintf(bw, "%s name %d %s\n", otdPrefix, id, strconv.Quote(name))
		}
	}
	if !o.championship() {
		return // format 1 says it all: no format line
	}
	fmt.Fprintf(bw, "%s format %d\n", otdPrefix, OtdFormat)
	if o.City != "" {
		fmt.Fprintf(bw, "%s city %s\n", otdPrefix, word(o.City))
	}
	if o.NewIDs != "" {
		fmt.Fprintf(bw, "%s new-ids %s\n", otdPrefix, word(o.NewIDs))
	}
	if o.Final != "" {
		fmt.Fprintf(bw, "%s final %s\n", otdPrefix, word(o.Final))
	}
	for _, c := range o.Categories {
		fmt.Fprintf(bw, "%s category %s", otdPrefix, word(c.Name))
		if c.Youth {
			bw.WriteString(" youth=yes")
		}
		if c.BornFrom != 0 {
			fmt.Fprintf(bw, " born-from=%d", c.BornFrom)
		}
		if c.BornTo != 0 {
			fmt.Fprintf(bw, " born-to=%d", c.BornTo)
		}
		if c.Final != "" {
			fmt.Fprintf(bw, " final=%s", word(c.Final))
		}
		bw.WriteString("\n")
	}
	if o.Teams != "" {
		fmt.Fprintf(bw, "%s teams %s\n", otdPrefix, word(o.Teams))
	}
	if o.YouthAge != 0 {
		fmt.Fprintf(bw, "%s youth-age %d\n", otdPrefix, o.YouthAge)
	}
	if len(o.Numbers) > 0 {
		fmt.Fprintf(bw, "%s numbers", otdPrefix)
		for _, n := range o.Numbers {
			fmt.Fprintf(bw, " %d", n)
		}
		bw.WriteString("\n")
	}
	for _, id := range ids {
		d, ok := o.Details[id]
		if !ok {
			continue
		}
		fmt.Fprintf(bw, "%s details %d", otdPrefix, id)
		if d.Born != "" {
			fmt.Fprintf(bw, " born=%s", word(d.Born))
		}
		if d.Team != "" {
			fmt.Fprintf(bw, " team=%s", word(d.Team))
		}
		for _, c := range d.Categories {
			fmt.Fprintf(bw, " category=%s", word(c))
		}
		bw.WriteString("\n")
	}
}

// writeMatch writes the otd line of the match of the game after %%Added
// results at place i (0 for the first), after its game line.
func (o *Otd) writeMatch(bw *bufio.Writer, i int) {
	if m, ok := o.Matches[i]; ok {
		fmt.Fprintf(bw, "%s match %s game=%d", otdPrefix, word(m.Code), m.Game)
		if m.Category != "" {
			fmt.Fprintf(bw, " category=%s", word(m.Category))
		}
		bw.WriteString("\n")
	}
}

// writeRound writes otd's lines of round r (1-based), after its games: its
// time defaults, forfeits and byes.
func (o *Otd) writeRound(bw *bufio.Writer, r int) {
	if r <= len(o.TimeDefaults) {
		for _, d := range o.TimeDefaults[r-1] {
			fmt.Fprintf(bw, "%s time-default %d %d %s\n", otdPrefix, d.Black, d.White, d.Loser)
		}
	}
	if r <= len(o.Forfeits) {
		for _, d := range o.Forfeits[r-1] {
			fmt.Fprintf(bw, "%s forfeit %d %d %s\n", otdPrefix, d.Black, d.White, d.Loser)
		}
	}
	if r <= len(o.Byes) {
		for _, id := range o.Byes[r-1] {
			fmt.Fprintf(bw, "%s bye %d\n", otdPrefix, id)
		}
	}
}

// read reads what follows "% otd:" on a line; round is the round section it
// is in (0 before the first), added the games read after %%Added results.
func (o *Otd) read(text string, round, added int) error {
	w := strings.Fields(text)
	if len(w) == 0 {
		return nil // the explanation line has words; an empty one says nothing
	}
	atoi := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("otd line: %s is not a whole number", QuoteCut(s))
		}
		return n, nil
	}
	inRound := func() error {
		if round == 0 {
			return fmt.Errorf("otd line: %s before the first %%Round line", QuoteCut(w[0]))
		}
		for len(o.Forfeits) < round {
			o.Forfeits, o.TimeDefaults, o.Byes = append(o.Forfeits, nil), append(o.TimeDefaults, nil), append(o.Byes, nil)
		}
		return nil
	}
	pair := func() (Forfeit, error) {
		if len(w) != 4 || w[3] != string(Black) && w[3] != string(White) {
			return Forfeit{}, fmt.Errorf("otd line: %s is: black-id white-id black|white (the colour that lost)", w[0])
		}
		b, e1 := atoi(w[1])
		wh, e2 := atoi(w[2])
		if e1 == nil {
			e1 = e2 // one error, one line
		}
		return Forfeit{b, wh, Color(w[3])}, e1
	}
	switch w[0] {
	case "rounds":
		if len(w) != 2 {
			return errors.New("otd line: rounds is: rounds N")
		}
		n, err := atoi(w[1])
		o.Rounds = n
		return err
	case "rules":
		for _, kv := range w[1:] {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "bq":
				o.BQ, err = scoring.ParseBQRule(v)
			case "time-default":
				o.TimeDefault, err = scoring.ParseTimePolicy(v)
			case "bye-points":
				o.ByePoints, err = scoring.ParseByePoints(v)
			case "tiebreaks":
				o.TieBreaks, err = scoring.ParseTieBreaks(v)
			default: // a rule of a later otd: the reader does without
			}
			if err != nil && len(v) > 80 { // the value, cut: no rule's is that long
				return fmt.Errorf("otd line: rules: %s=%s is not a rule", k, QuoteCut(v))
			}
			if err != nil {
				return fmt.Errorf("otd line: rules: %v", err)
			}
		}
	case "player":
		if len(w) < 2 {
			return errors.New("otd line: player is: player ID [first N] [left N] [absent N,N...] [no-id]")
		}
		id, err := atoi(w[1])
		if err != nil {
			return err
		}
		st := o.Players[id]
		for i := 2; i < len(w); i++ {
			switch {
			case w[i] == "no-id":
				st.NoID = true
			case i+1 < len(w) && (w[i] == "first" || w[i] == "left"):
				n, err := atoi(w[i+1])
				if err != nil {
					return err
				}
				if w[i] == "first" {
					st.FirstRound = n
				} else {
					st.Left = n
				}
				i++
			case i+1 < len(w) && w[i] == "absent":
				for _, a := range strings.Split(w[i+1], ",") {
					n, err := atoi(a)
					if err != nil {
						return err
					}
					st.Absent = append(st.Absent, n)
				}
				i++
			default:
				return fmt.Errorf("otd line: player %d: %s is not first N, left N, absent N,N... or no-id", id, QuoteCut(w[i]))
			}
		}
		o.Players[id] = st
	case "name":
		// name ID "the name, as a Go string": the name as otd keeps it.
		_, rest, _ := strings.Cut(strings.TrimSpace(text), "name")
		id, q, _ := strings.Cut(strings.TrimSpace(rest), " ")
		n, err := atoi(id)
		if err != nil {
			return err
		}
		name, err := strconv.Unquote(strings.TrimSpace(q))
		if err != nil {
			return fmt.Errorf("otd line: name is: name ID \"the name\" (quoted)")
		}
		if _, dup := o.Names[n]; dup {
			return fmt.Errorf("otd line: player id %d has two names", n)
		}
		o.Names[n] = name
	case "forfeit", "time-default":
		if err := inRound(); err != nil {
			return err
		}
		g, err := pair()
		if err != nil {
			return err
		}
		if w[0] == "forfeit" {
			o.Forfeits[round-1] = append(o.Forfeits[round-1], g)
		} else {
			o.TimeDefaults[round-1] = append(o.TimeDefaults[round-1], g)
		}
	case "bye":
		if err := inRound(); err != nil {
			return err
		}
		if len(w) != 2 {
			return errors.New("otd line: bye is: bye ID")
		}
		id, err := atoi(w[1])
		if err != nil {
			return err
		}
		o.Byes[round-1] = append(o.Byes[round-1], id)
	case "format", "city", "new-ids", "final", "category", "teams", "youth-age", "details", "numbers", "match":
		return o.readChampionship(text, added)
	default: // an explanation, or a line of a later otd
	}
	return nil
}

// readChampionship reads a line of format 2 (OtdFormat): the
// championship's.
func (o *Otd) readChampionship(text string, added int) error {
	w, err := words(text)
	if err != nil {
		return err
	}
	kind := w[0]
	// The line's key=value pairs after its first n words, each key one of
	// keys (a key of a later otd is skipped); a value may be given again
	// (category=).
	pairs := func(n int, keys ...string) (map[string][]string, error) {
		kv := map[string][]string{}
		for _, p := range w[min(n, len(w)):] {
			k, v, ok := strings.Cut(p, "=")
			if !ok {
				return nil, fmt.Errorf("otd line: %s: %s is not KEY=VALUE", kind, QuoteCut(p))
			}
			if slices.Contains(keys, k) {
				kv[k] = append(kv[k], v)
			}
		}
		return kv, nil
	}
	number := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("otd line: %s: %s is not a whole number", kind, QuoteCut(s))
		}
		return n, nil
	}
	one := func(usage string) (string, error) {
		if len(w) != 2 {
			return "", fmt.Errorf("otd line: %s is: %s %s", kind, kind, usage)
		}
		return w[1], nil
	}
	var v string
	switch kind {
	case "format":
		if v, err = one("N"); err == nil {
			o.Format, err = number(v)
		}
	case "city":
		o.City, err = one("CITY")
	case "new-ids":
		o.NewIDs, err = one("FROM-TO")
	case "final":
		o.Final, err = one("RULES")
	case "teams":
		o.Teams, err = one("RULES")
	case "youth-age":
		if v, err = one("AGE"); err == nil {
			o.YouthAge, err = number(v)
		}
	case "numbers":
		o.Numbers = o.Numbers[:0]
		for _, v := range w[1:] {
			n, err := number(v)
			if err != nil {
				return err
			}
			o.Numbers = append(o.Numbers, n)
		}
	case "category":
		if len(w) < 2 {
			return errors.New("otd line: category is: category NAME [youth=yes] [born-from=YEAR] [born-to=YEAR] [final=RULES]")
		}
		c := Category{Name: w[1]}
		kv, err := pairs(2, "youth", "born-from", "born-to", "final")
		for k, vs := range kv {
			switch k {
			case "youth":
				if c.Youth = vs[0] == "yes"; !c.Youth {
					err = fmt.Errorf("otd line: category: youth=%s: youth=yes or nothing", QuoteCut(vs[0]))
				}
			case "born-from":
				c.BornFrom, err = number(vs[0])
			case "born-to":
				c.BornTo, err = number(vs[0])
			case "final":
				c.Final = vs[0]
			}
			if err != nil {
				return err
			}
		}
		if err != nil {
			return err
		}
		o.Categories = append(o.Categories, c)
	case "details":
		if len(w) < 2 {
			return errors.New("otd line: details is: details ID [born=YEAR|DATE] [team=TEAM] [category=NAME]...")
		}
		id, err := number(w[1])
		if err != nil {
			return err
		}
		kv, err := pairs(2, "born", "team", "category")
		if err != nil {
			return err
		}
		d := Details{Categories: kv["category"]}
		if t := kv["team"]; len(t) > 0 {
			d.Team = t[0]
		}
		if b := kv["born"]; len(b) > 0 {
			d.Born = b[0]
		}
		o.SetDetails(id, d)
	case "match":
		if len(w) < 2 || added == 0 {
			return errors.New("otd line: match is: match CODE game=N [category=NAME], after its game after %%Added results")
		}
		m := Match{Code: w[1]}
		kv, err := pairs(2, "game", "category")
		if err != nil {
			return err
		}
		if c := kv["category"]; len(c) > 0 {
			m.Category = c[0]
		}
		if g := kv["game"]; len(g) > 0 {
			if m.Game, err = number(g[0]); err != nil {
				return err
			}
		}
		o.SetMatch(added-1, m)
	}
	return err
}
