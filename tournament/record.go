package tournament

import (
	"encoding"
	"encoding/json"
	"fmt"

	"github.com/otd-project/otd/scoring"
)

// SettingsVersion is the version of the settings' record that this otd
// writes (EncodeSettings): the JSON form of Settings, the audit trail's. A
// store keeps the record whole, so that a new setting is a field of
// Settings and nothing in the store. Version 1 is the record a store's
// migration made of the columns it kept the settings in until schema 17
// (SQLite) and 4 (PostgreSQL), which DecodeSettings still reads.
const SettingsVersion = 2

// EncodeSettings gives the settings' record, of SettingsVersion.
func EncodeSettings(s Settings) ([]byte, error) { return json.Marshal(s) }

// DecodeSettings reads a settings' record of version v.
func DecodeSettings(v int, b []byte) (Settings, error) {
	var s Settings
	switch v {
	case SettingsVersion:
		if err := unmarshal(b, &s); err != nil {
			return s, fmt.Errorf("settings: %w", err)
		}
		return s, nil
	case 1:
		var r settingsV1
		if err := unmarshal(b, &r); err != nil {
			return s, fmt.Errorf("settings: %w", err)
		}
		return r.settings()
	}
	return s, fmt.Errorf("settings of version %d: this otd reads up to %d: upgrade otd", v, SettingsVersion)
}

// settingsV1 is the settings' record of version 1: each column of the
// tournament table until schema 17 (SQLite) and 4 (PostgreSQL) under its
// name, as it held it: each option as its text (TextMarshaler), the bye as
// its half-points, the seed as a signed integer, categories and teams as
// JSON text ("" for none).
type settingsV1 struct {
	Name          string `json:"name"`
	Rounds        int    `json:"rounds"`
	System        string `json:"system"`
	BQ            string `json:"bq"`
	TimeDefault   string `json:"time_default"`
	ByeHalfPoints int    `json:"bye_half_points"`
	TieBreaks     string `json:"tiebreaks"`
	FirstRound    string `json:"first_round"`
	Seed          int64  `json:"seed"`
	Start         string `json:"start_date"`
	End           string `json:"end_date"`
	City          string `json:"city"`
	Country       string `json:"country"`
	Director      string `json:"director"`
	Pairing       string `json:"pairing"`
	Rules         string `json:"rules"`
	TimeControl   string `json:"time_control"`
	NewIDs        string `json:"new_ids"`
	Final         string `json:"final"`
	Categories    string `json:"categories"`
	Teams         string `json:"teams"`
	ByeDiscs      int    `json:"bye_discs"`
}

func (r settingsV1) settings() (Settings, error) {
	s := Settings{Name: r.Name, Rounds: r.Rounds, ByePoints: scoring.HalfPoints(r.ByeHalfPoints), ByeDiscs: r.ByeDiscs, Seed: uint64(r.Seed),
		City: r.City, Country: r.Country, Director: r.Director}
	for _, f := range []struct {
		column, text string
		u            encoding.TextUnmarshaler
	}{{"system", r.System, &s.System}, {"bq", r.BQ, &s.BQ}, {"time_default", r.TimeDefault, &s.TimeDefault},
		{"tiebreaks", r.TieBreaks, &s.TieBreaks}, {"first_round", r.FirstRound, &s.FirstRound},
		{"start_date", r.Start, &s.Start}, {"end_date", r.End, &s.End}, {"pairing", r.Pairing, &s.Pairing}, {"rules", r.Rules, &s.Variant},
		{"time_control", r.TimeControl, &s.Time}, {"new_ids", r.NewIDs, &s.NewIDs}, {"final", r.Final, &s.Final}} {
		if err := f.u.UnmarshalText([]byte(f.text)); err != nil {
			return s, fmt.Errorf("settings: %s: %w", f.column, err)
		}
	}
	for _, c := range []struct {
		column, text string
		v            any
	}{{"categories", r.Categories, &s.Categories}, {"teams", r.Teams, &s.TeamRules}} {
		if c.text != "" {
			if err := json.Unmarshal([]byte(c.text), c.v); err != nil {
				return s, fmt.Errorf("settings: %s: %w", c.column, err)
			}
		}
	}
	return s, nil
}
