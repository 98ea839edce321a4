package tournament

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/pairing"
	"github.com/otd-project/otd/scoring"
)

// System is how rounds are paired.
type System string

// Pairing systems. A round robin pairs by Berger tables (pairing.RoundRobin):
// rounds beyond a cycle play the table again, colours swapped in every second
// cycle.
const (
	Swiss      System = "swiss"
	RoundRobin System = "roundrobin"
)

// ParseSystem reads a pairing system: swiss or roundrobin.
func ParseSystem(s string) (System, error) {
	switch System(s) {
	case Swiss, RoundRobin:
		return System(s), nil
	}
	return "", invalidf("system %q: swiss or roundrobin", s)
}

// MarshalText writes the system as ParseSystem reads it.
func (s System) MarshalText() ([]byte, error) {
	if _, err := ParseSystem(string(s)); err != nil {
		return nil, err
	}
	return []byte(s), nil
}

// UnmarshalText reads the system with ParseSystem.
func (s *System) UnmarshalText(b []byte) (err error) {
	*s, err = ParseSystem(string(b))
	return err
}

// Settings are a tournament's rules. Each option is typed and written as text
// (TextMarshaler) in the database and the audit trail; the JSON names are the
// audit trail's and must not change (ChangeVersion).
type Settings struct {
	Name        string             `json:"name"`
	Rounds      int                `json:"rounds"` // rounds planned
	System      System             `json:"system"`
	BQ          scoring.BQRule     `json:"bq"`
	TimeDefault scoring.TimePolicy `json:"time_default"`
	ByePoints   scoring.HalfPoints `json:"bye_points"` // scoring.Point or scoring.Half
	// ByeDiscs are the discs a bye (and a forfeit win) counts: 0 for
	// otd's 32 (scoring.Rules.ByeDiscs), 40 for Papp's 40-24,
	// scoring.NoByeDiscs for a bye's point alone (an imported file's).
	ByeDiscs   int                `json:"bye_discs,omitempty"`
	TieBreaks  scoring.TieBreaks  `json:"tiebreaks"`
	FirstRound pairing.FirstRound `json:"first_round"`
	Seed       uint64             `json:"seed"` // seed of every random choice in the pairing
	// Pairing is the Swiss cost model; absent from settings written before
	// it was one (audit version 1), which read as plain, the model they used.
	Pairing PairingModel `json:"pairing,omitempty"`
	// Variant is the rule set of the games (board size and shape, start,
	// goal, disc supply: engine.Rules); the zero value, as in settings
	// written before variants, is standard Othello (GameRules).
	Variant engine.Rules `json:"rules,omitzero"`
	// Time is the engines' time control for the games otd plays itself
	// (Director.PlayRound); zero: DefaultTime.
	Time engine.TimeControl `json:"time,omitzero"`

	// The championship (RULES.md section 7): the open's final phase after
	// the Swiss, the categories (each with a ranking and perhaps a final
	// phase of its own), and how teams are ranked.
	Final      FinalRules `json:"final,omitzero"`
	Categories []Category `json:"categories,omitempty"`
	TeamRules  TeamRules  `json:"teams,omitzero"`
	// YouthAge is the youth's age limit: a youth is at most this old in the
	// event's year (RULES.md section 7); 0: DefaultYouthAge.
	YouthAge int `json:"youth_age,omitempty"`

	// What the rating list and the reports say of the event; any may be empty.
	Start    Date   `json:"start,omitzero"`
	End      Date   `json:"end,omitzero"`
	City     string `json:"city,omitempty"`
	Country  string `json:"country,omitempty"` // a 2- or 3-letter code
	Director string `json:"director,omitempty"`
	// NewIDs are the WOF ids that the rating file ('otd export elo') gives
	// the players without one: the range of ids for new players that the
	// WOF gives the sending federation (Papp's zone-insertion), from the
	// first not yet given; zero: none set.
	NewIDs IDRange `json:"new_ids,omitzero"`
	// VenueApproval: what becomes of two reports from the venue that
	// agree: recorded at once, or held for the director; "" is auto.
	VenueApproval VenueApproval `json:"venue_approval,omitempty"`
}

// IDRange is a range of WOF ids, From to To, both included; To 0: no end.
type IDRange struct{ From, To int }

// ParseIDRange reads a range written FROM-TO or FROM ("" is none).
func ParseIDRange(s string) (IDRange, error) {
	if s == "" {
		return IDRange{}, nil
	}
	from, to, ranged := strings.Cut(s, "-")
	var r IDRange
	var err error
	if r.From, err = strconv.Atoi(strings.TrimSpace(from)); err == nil && ranged {
		r.To, err = strconv.Atoi(strings.TrimSpace(to))
	}
	switch {
	case err != nil || r.From < 1 || ranged && r.To < r.From:
		return IDRange{}, invalidf("--new-ids %q: the new-player ids your federation has from the WOF, from the first not yet given, FROM-TO (50321-59999) or FROM", s)
	case r.From > maxFedID || r.To > maxFedID:
		return IDRange{}, invalidf("--new-ids %q: a WOF id is at most %d", s, maxFedID)
	}
	return r, nil
}

// IsZero reports whether r is no range.
func (r IDRange) IsZero() bool { return r == IDRange{} }

// String gives the range as ParseIDRange reads it: "50321-59999", "50321",
// "" for none.
func (r IDRange) String() string {
	switch {
	case r.IsZero():
		return ""
	case r.To == 0:
		return strconv.Itoa(r.From)
	}
	return fmt.Sprintf("%d-%d", r.From, r.To)
}

// Contains reports whether id is in the range.
func (r IDRange) Contains(id int) bool {
	return !r.IsZero() && id >= r.From && (r.To == 0 || id <= r.To)
}

// MarshalText writes the range as ParseIDRange reads it.
func (r IDRange) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads the range with ParseIDRange.
func (r *IDRange) UnmarshalText(b []byte) (err error) {
	*r, err = ParseIDRange(string(b))
	return err
}

// Date is a day of the calendar, written YYYY-MM-DD; the zero Date is none.
type Date struct{ t time.Time }

// ParseDate reads a date written YYYY-MM-DD ("" is no date).
func ParseDate(s string) (Date, error) {
	if s == "" {
		return Date{}, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, invalidf("date %q: write it YYYY-MM-DD, e.g. 2026-11-21", s)
	}
	return Date{t}, nil
}

// DayOf is the day of t (in t's location).
func DayOf(t time.Time) Date {
	return Date{time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)}
}

// IsZero reports whether d is no date.
func (d Date) IsZero() bool { return d.t.IsZero() }

// String gives the date as YYYY-MM-DD, "" for none.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return d.t.Format(time.DateOnly)
}

// Time gives the date as midnight UTC of that day.
func (d Date) Time() time.Time { return d.t }

// MarshalText writes the date as ParseDate reads it.
func (d Date) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads the date with ParseDate.
func (d *Date) UnmarshalText(b []byte) (err error) {
	*d, err = ParseDate(string(b))
	return err
}

// DefaultSettings are the settings of a new tournament where none are given.
func DefaultSettings(name string, rounds int) Settings {
	return Settings{Name: name, Rounds: rounds, System: Swiss, BQ: scoring.BQRule{Kind: scoring.Nearest},
		TimeDefault: scoring.TimeComplete, ByePoints: scoring.Point, TieBreaks: scoring.DefaultTieBreaks(),
		FirstRound: pairing.ByRating, Seed: 1, Pairing: PairingPapp, Variant: engine.Othello()}
}

// GameRules returns the rule set of the games: Variant, or standard Othello.
func (s Settings) GameRules() engine.Rules {
	if s.Variant == (engine.Rules{}) {
		return engine.Othello()
	}
	return s.Variant
}

// Check checks the settings: a name, 1 to 99 rounds, and every option in its range.
func (s Settings) Check() error {
	if err := checkName("tournament", s.Name); err != nil {
		return err
	}
	if s.Rounds < 1 || s.Rounds > 99 {
		return invalidf("--rounds %d: a tournament has 1 to 99 rounds", s.Rounds)
	}
	if _, err := ParseSystem(string(s.System)); err != nil {
		return fmt.Errorf("--%w", err)
	}
	if _, err := s.FirstRound.MarshalText(); err != nil {
		return invalidf("--first-round: %w", err)
	}
	if len(s.TieBreaks) == 0 {
		return invalidf("--tiebreaks: an empty chain")
	}
	if m, err := ParsePairingModel(string(s.Pairing)); err != nil {
		return err
	} else if s.Pairing != "" && m != s.Pairing {
		return invalidf("--pairing %q: write it %q", string(s.Pairing), string(m))
	}
	if s.ByePoints != scoring.Point && s.ByePoints != scoring.Half {
		return invalidf("--bye-points %v: a bye is worth 1 or 0.5 points", s.ByePoints)
	}
	if s.Variant != (engine.Rules{}) {
		if err := s.Variant.Validate(); err != nil {
			return invalidf("--rules: %w", err)
		}
	}
	if s.Time != (engine.TimeControl{}) {
		if err := s.Time.Valid(); err != nil {
			return invalidf("--time: %w", err)
		}
	}
	if err := s.Rules().Validate(); err != nil {
		return invalidf("%w", err)
	}
	if !s.Start.IsZero() && !s.End.IsZero() && s.End.Time().Before(s.Start.Time()) {
		return invalidf("--end %s is before --start %s", s.End, s.Start)
	}
	for _, f := range []struct{ what, v string }{{"city", s.City}, {"director", s.Director}} {
		if f.v != "" {
			if err := checkName(f.what, f.v); err != nil {
				return err
			}
		}
	}
	if _, err := ParseIDRange(s.NewIDs.String()); err != nil {
		return err
	}
	if s.VenueApproval != "" {
		if _, err := ParseVenueApproval(string(s.VenueApproval)); err != nil {
			return err
		}
	}
	if c, err := NormalizeCountry(s.Country); err != nil {
		return fmt.Errorf("--%w", err)
	} else if c != s.Country {
		return invalidf("--country %q: write it %q", s.Country, c)
	}
	return s.checkChampionship()
}

// Rules returns the scoring rules of the settings.
func (s Settings) Rules() scoring.Rules {
	return scoring.Rules{BQ: s.BQ, TimeDefault: s.TimeDefault, ByePoints: s.ByePoints, ByeDiscs: s.ByeDiscs, TieBreaks: s.TieBreaks,
		Squares: s.GameRules().Squares(), Anti: s.GameRules().Winner == engine.FewestDiscs}
}

// ChangeSettings replaces the settings with s. The name, the dates, city,
// country and director, the new-player ids, the number of rounds (not below
// those paired), the BQ rule and the tie-breaks may change at any time, since
// standings and reports are computed from them; the options that decide
// pairings and recorded scores (system, first round, seed, the pairing's cost
// model, time-default policy, bye points) only until round 1 is paired.
func (t *Tournament) ChangeSettings(s Settings) (Change, error) {
	if err := s.Check(); err != nil {
		return Change{}, err
	}
	old := t.Settings
	if t.Paired() > 0 {
		if s.Rounds < t.Paired() {
			return Change{}, invalidf("--rounds %d: %d rounds are paired already", s.Rounds, t.Paired())
		}
		fixed := func(name string, same bool, why string) error {
			if same {
				return nil
			}
			return fmt.Errorf("--%s: %w: %s, so it changes only until round 1 is paired", name, ErrSettingFixed, why)
		}
		for _, err := range []error{
			fixed("system", s.System == old.System, "it decides the pairings"),
			fixed("first-round", s.FirstRound == old.FirstRound, "it decides round 1's pairing"),
			fixed("seed", s.Seed == old.Seed, "it decides the pairings' random choices"),
			fixed("pairing", s.Pairing.String() == old.Pairing.String(), "it decides the pairings"),
			fixed("bye-points", s.ByePoints == old.ByePoints, "it decides the byes' points, which every pairing since round 1 was made on"),
			fixed("rules", s.GameRules() == old.GameRules(), "it decides the games played and their scores"),
		} {
			if err != nil {
				return Change{}, err
			}
		}
	}
	if s.TimeDefault != old.TimeDefault {
		// The policy decides only the scores of time defaults, as they are
		// recorded: it changes until the first is.
		for _, g := range t.Games {
			if g.Result != nil && g.Result.Kind == TimeDefault {
				return Change{}, fmt.Errorf("--time-default %s: %w: it decides how a time default is scored, and round %d table %d has one recorded (%s) under %s; it changes only until the first time default is recorded",
					s.TimeDefault, ErrSettingFixed, g.Round, g.Table, g.Result, old.TimeDefault)
			}
		}
	}
	if s.GameRules() != old.GameRules() {
		for _, p := range t.Players {
			if e, err := ParseEngine(p.Engine); err == nil {
				if err := e.Plays(s.GameRules()); err != nil {
					return Change{}, fmt.Errorf("--rules %s: player %d (%s): %w", s.GameRules(), p.Number, p.Name, err)
				}
			}
		}
	}
	t.Settings = s
	return t.change(ActSettings, "settings", State{Settings: &old}, State{Settings: &s}), nil
}

// PairingModel is the Swiss pairing's cost model (RULES.md section 4): a
// preset, papp (Papp 1.37's weights, the default) or plain (Papp's without
// elitism, with the float compensation given to every player floating back:
// otd's model before issue 10), and the weights changed from it, written
// "papp" or "papp,same_colour=10,elitism=none,country=2/1/0". Lists (colour,
// gap, country, elitism) are slash-separated, indexed by |blacks - whites|,
// by the gap in half-points from 1, and by round from 1; their last entry
// holds beyond them. The empty model is plain: settings written before the
// model was a setting paired with it.
type PairingModel string

// Pairing presets.
const (
	PairingPapp  PairingModel = "papp"
	PairingPlain PairingModel = "plain"
)

// pairingKeys are the weights of a model, in the order they are written.
var pairingKeys = []pairingKey{
	{name: "rematch", doc: "a rematch, per earlier meeting, colours reversed", one: func(w *pairing.Weights) *int64 { return &w.Rematch }},
	{name: "rematch_same", doc: "a rematch, per earlier meeting, same colours (Papp's infinity)", one: func(w *pairing.Weights) *int64 { return &w.RematchSame }},
	{name: "rematch_previous", doc: "more for a rematch (or the bye) of the previous round", one: func(w *pairing.Weights) *int64 { return &w.RematchPrevious }},
	{name: "second_bye", doc: "the bye again, per earlier bye (Papp's infinity)", one: func(w *pairing.Weights) *int64 { return &w.SecondBye }},
	{name: "colour", doc: "per player, by |blacks - whites| after the game, from 0", list: func(w *pairing.Weights) *[]int64 { return &w.Colour }},
	{name: "same_colour", doc: "per player, the colour of the previous round again", one: func(w *pairing.Weights) *int64 { return &w.SameColour }},
	{name: "gap", doc: "by the score gap in half-points, from 1", list: func(w *pairing.Weights) *[]int64 { return &w.Gap }},
	{name: "float_repeat", doc: "per player floating the same way as last time", one: func(w *pairing.Weights) *int64 { return &w.FloatRepeat }},
	{name: "float_back", doc: "off per player floating back (the compensation)", one: func(w *pairing.Weights) *int64 { return &w.FloatBack }},
	{name: "float_back_always", doc: "1: every float back is compensated; 0 (Papp): only one that undoes round r-1, from round 3", flag: func(w *pairing.Weights) *bool { return &w.FloatBackAlways }},
	{name: "absent_as_bye", doc: "1 (Papp): a round not played counts as a bye for second_bye (and rematch_previous if it was the previous round)", flag: func(w *pairing.Weights) *bool { return &w.AbsentAsBye }},
	{name: "country", doc: "compatriots, by round from 1", list: func(w *pairing.Weights) *[]int64 { return &w.Country }},
	{name: "elitism", doc: "x (score + score) x gap / 2, by round from 1; none: off", list: func(w *pairing.Weights) *[]int64 { return &w.Elitism }},
}

// pairingKey is a weight of a model as its text names it: a number (one), a
// list (list) or 0/1 (flag).
type pairingKey struct {
	name, doc string
	one       func(*pairing.Weights) *int64
	list      func(*pairing.Weights) *[]int64
	flag      func(*pairing.Weights) *bool
}

// ParsePairingModel reads a model: a preset (papp or plain), then
// ,name=value for each weight changed. It returns the model written the
// canonical way (only the weights that differ from the preset, in a fixed
// order).
func ParsePairingModel(s string) (PairingModel, error) {
	w, preset, err := PairingModel(s).parse()
	if err != nil {
		return "", err
	}
	return format(preset, w), nil
}

// Weights returns the model's weights.
func (m PairingModel) Weights() (pairing.Weights, error) {
	w, _, err := m.parse()
	return w, err
}

// Preset returns the preset the model starts from: papp or plain.
func (m PairingModel) Preset() PairingModel {
	_, p, err := m.parse()
	if err != nil {
		return ""
	}
	return p
}

func (m PairingModel) parse() (pairing.Weights, PairingModel, error) {
	fields := strings.Split(string(m), ",")
	preset := PairingModel(strings.ToLower(strings.TrimSpace(fields[0])))
	var w pairing.Weights
	switch preset {
	case "", PairingPlain:
		preset, w = PairingPlain, pairing.Plain()
	case PairingPapp:
		w = pairing.Papp()
	default:
		return w, "", invalidf("--pairing %q: start with a preset, papp or plain", string(m))
	}
	for _, f := range fields[1:] {
		name, value, ok := strings.Cut(strings.TrimSpace(f), "=")
		i := slices.IndexFunc(pairingKeys, func(k pairingKey) bool { return k.name == strings.TrimSpace(name) })
		if !ok || i < 0 {
			return w, "", invalidf("--pairing %q: %q: want name=value, the names: %s", string(m), f, pairingNames())
		}
		k, value := pairingKeys[i], strings.TrimSpace(value)
		bad := func() error {
			return invalidf("--pairing %q: %s=%s: want %s", string(m), k.name, value, map[bool]string{true: "a number", false: "numbers separated by /"}[k.one != nil])
		}
		switch {
		case k.flag != nil:
			switch value {
			case "0", "false":
				*k.flag(&w) = false
			case "1", "true":
				*k.flag(&w) = true
			default:
				return w, "", invalidf("--pairing %q: %s=%s: want 0 or 1", string(m), k.name, value)
			}
		case k.one != nil:
			x, err := strconv.ParseInt(value, 10, 64)
			if err != nil {
				return w, "", bad()
			}
			*k.one(&w) = x
		case value == "none" || value == "":
			*k.list(&w) = nil
		default:
			var xs []int64
			for _, v := range strings.Split(value, "/") {
				x, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
				if err != nil {
					return w, "", bad()
				}
				xs = append(xs, x)
			}
			*k.list(&w) = xs
		}
	}
	if err := w.Validate(); err != nil {
		return w, "", invalidf("--pairing %q: %w", string(m), err)
	}
	return w, preset, nil
}

func pairingNames() string {
	var names []string
	for _, k := range pairingKeys {
		names = append(names, k.name)
	}
	return strings.Join(names, ", ")
}

// format writes weights w as preset and the weights that differ from it.
func format(preset PairingModel, w pairing.Weights) PairingModel {
	base, _, _ := preset.parse()
	out := string(preset)
	b := PairingWeightList(base)
	for _, k := range PairingWeightList(w) {
		if b[slices.IndexFunc(b, func(x PairingWeight) bool { return x.Name == k.Name })].Value != k.Value {
			out += "," + k.Name + "=" + k.Value
		}
	}
	return PairingModel(out)
}

// PairingWeight is one weight of a model, written as ParsePairingModel reads it.
type PairingWeight struct {
	Name, Value, Doc string
}

// PairingWeightList lists every weight of w, in the order of the model's text.
func PairingWeightList(w pairing.Weights) []PairingWeight {
	var out []PairingWeight
	for _, k := range pairingKeys {
		var v string
		switch {
		case k.flag != nil:
			v = map[bool]string{true: "1", false: "0"}[*k.flag(&w)]
		case k.one != nil:
			v = strconv.FormatInt(*k.one(&w), 10)
		case len(*k.list(&w)) == 0:
			v = "none"
		default:
			var xs []string
			for _, x := range *k.list(&w) {
				xs = append(xs, strconv.FormatInt(x, 10))
			}
			v = strings.Join(xs, "/")
		}
		out = append(out, PairingWeight{k.name, v, k.doc})
	}
	return out
}

// String gives the model as ParsePairingModel reads it ("plain" for the empty model).
func (m PairingModel) String() string {
	if m == "" {
		return string(PairingPlain)
	}
	return string(m)
}

// MarshalText writes the model as ParsePairingModel reads it.
func (m PairingModel) MarshalText() ([]byte, error) {
	if _, _, err := m.parse(); err != nil {
		return nil, err
	}
	return []byte(m.String()), nil
}

// UnmarshalText reads the model with ParsePairingModel.
func (m *PairingModel) UnmarshalText(b []byte) (err error) {
	*m, err = ParsePairingModel(string(b))
	return err
}
