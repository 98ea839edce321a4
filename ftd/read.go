package ftd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/otd-project/otd/internal/txt"
)

// Read reads a FlipTheDisc tournament file of at most MaxSize bytes. A
// file it refuses gives a *ParseError wrapping ErrInvalid, with where:
// the line and column, and the path of the value ("rounds[3].pairing[2]").
// Keys the reader does not use are skipped, whatever they hold. The file is
// read as UTF-8 when it is valid UTF-8, else as Windows-1252
// (File.Windows1252), a byte-order mark at its start left out.
func Read(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, &ParseError{Err: fmt.Errorf("larger than %d MiB", MaxSize>>20)}
	}
	text, cp1252 := txt.Decode(data)
	data = []byte(text)
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil { // its syntax first: the offset of a syntax error is the file's
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, &ParseError{Pos: position(data, syn.Offset-1, ""), Err: fmt.Errorf("JSON syntax: %v", syn)}
		}
		return nil, &ParseError{Pos: position(data, int64(len(data)), ""), Err: errors.New("the file ends before the JSON does")}
	}
	rd := &reader{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	f, err := rd.file()
	if err != nil {
		return nil, err
	}
	if err := f.check(); err != nil {
		return nil, err
	}
	f.Windows1252 = cp1252
	return f, nil
}

// reader walks the JSON with a decoder, to know where each value starts.
type reader struct {
	data []byte
	dec  *json.Decoder
}

// position gives the line and column of byte off of data, after the
// spaces and the comma that may stand before a value there.
func position(data []byte, off int64, path string) Pos {
	off = min(max(off, 0), int64(len(data)))
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return Pos{Line: line, Column: col, Path: path}
}

// fail makes the error of a value at byte off.
func (rd *reader) fail(off int64, path string, format string, a ...any) error {
	return &ParseError{Pos: position(rd.data, off, path), Err: fmt.Errorf(format, a...)}
}

// jsonError turns an error of the decoder (the file's syntax is checked
// before: a value of the wrong type) into a *ParseError at the value that
// holds it, off.
func (rd *reader) jsonError(err error, off int64, path string) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		what := typ.Field
		if what == "" {
			what = "the value"
		}
		return rd.fail(off, path, "%s: expected a %s, found a JSON %s", what, typeName(typ.Type.String()), typ.Value)
	}
	return rd.fail(off, path, "%v", err)
}

func typeName(t string) string {
	switch strings.TrimPrefix(t, "*") {
	case "int":
		return "whole number"
	case "float64":
		return "number"
	case "string":
		return "string"
	case "[]string":
		return "list of strings"
	}
	return "JSON value of another kind"
}

// decode decodes the next value into v.
func (rd *reader) decode(v any, path string) error {
	off := rd.dec.InputOffset()
	if err := rd.dec.Decode(v); err != nil {
		return rd.jsonError(err, off, path)
	}
	return nil
}

// delim reads the delimiter want ('{' or '[') that must start a value.
func (rd *reader) delim(want json.Delim, path string) error {
	off := rd.dec.InputOffset()
	tok, err := rd.dec.Token()
	if err != nil {
		return rd.jsonError(err, off, path)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		kind := map[json.Delim]string{'{': "an object {...}", '[': "a list [...]"}[want]
		return rd.fail(off, path, "expected %s, found %s", kind, describe(tok))
	}
	return nil
}

func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		return map[json.Delim]string{'{': "an object", '[': "a list", '}': "'}'", ']': "']'"}[v]
	case string:
		return "a string"
	case nil:
		return "null"
	case bool:
		return "true or false"
	}
	return "a number"
}

// object reads an object, calling each with every key (the decoder then
// at its value, which each must read).
func (rd *reader) object(path string, each func(key string, off int64) error) error {
	if err := rd.delim('{', path); err != nil {
		return err
	}
	for rd.dec.More() {
		off := rd.dec.InputOffset()
		tok, err := rd.dec.Token()
		if err != nil {
			return rd.jsonError(err, off, path)
		}
		key, _ := tok.(string) // the decoder checks that keys are strings
		if err := each(key, rd.dec.InputOffset()); err != nil {
			return err
		}
	}
	return rd.end(path)
}

// list reads a list, calling each with every element's index and offset.
func (rd *reader) list(path string, each func(i int, off int64) error) error {
	if err := rd.delim('[', path); err != nil {
		return err
	}
	for i := 0; rd.dec.More(); i++ {
		if err := each(i, rd.dec.InputOffset()); err != nil {
			return err
		}
	}
	return rd.end(path)
}

// end reads the '}' or ']' that ends an object or a list.
func (rd *reader) end(path string) error {
	off := rd.dec.InputOffset()
	if _, err := rd.dec.Token(); err != nil {
		return rd.jsonError(err, off, path)
	}
	return nil
}

// skip reads a value the reader does not use.
func (rd *reader) skip(path string) error {
	var v json.RawMessage
	return rd.decode(&v, path)
}

// The file's records, as the JSON has them (null where a value may be missing).
type (
	jsonPlayer struct {
		ID         *int     `json:"id"`
		WOFID      *int     `json:"wof_id"`
		Surname    *string  `json:"surname"`
		Name       *string  `json:"name"`
		Rating     *int     `json:"rating"`
		Country    *string  `json:"country_code"`
		LeftAfter  *int     `json:"left_after_round"`
		Team       *string  `json:"team"`
		Categories []string `json:"categories"`
	}
	jsonStanding struct {
		PlayerID  *int     `json:"player_id"`
		Score     *float64 `json:"score"`
		MBQ       *float64 `json:"mbq"`
		LeftAfter *int     `json:"left_after_round"`
	}
	jsonSide struct {
		ID         *int    `json:"id"`
		Score      *int    `json:"score"`
		Result     *int    `json:"result"`
		Transcript *string `json:"transcript"`
		GameName   *string `json:"gameName"`
		Category   *string `json:"category"`
	}
	jsonInfo struct {
		ID         int     `json:"id"`
		Name       *string `json:"name"`
		City       *string `json:"city"`
		Country    *string `json:"country_code"`
		Rounds     *int    `json:"rounds"`
		Start      *string `json:"start_date"`
		End        *string `json:"end_date"`
		MBQCoef    any     `json:"mbq_coef"` // "6", 6 or null
		Finals     any     `json:"finals"`   // 1 or null
		RoundNames []struct {
			Round int    `json:"round"`
			Name  string `json:"round_name"`
		} `json:"roundNames"`
	}
)

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func num(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

// file reads the whole file.
func (rd *reader) file() (*File, error) {
	f := &File{}
	seen := map[string]bool{}
	err := rd.object("", func(key string, off int64) error {
		if seen[key] {
			return rd.fail(off, key, "%q appears twice", key)
		}
		seen[key] = true
		switch key {
		case "players_list":
			return rd.list(key, func(i int, off int64) error {
				path := fmt.Sprintf("players_list[%d]", i)
				var p jsonPlayer
				if err := rd.decode(&p, path); err != nil {
					return err
				}
				if p.ID == nil {
					return rd.fail(off, path, "a player without an \"id\"")
				}
				f.Players = append(f.Players, Player{ID: *p.ID, WOFID: num(p.WOFID), Surname: str(p.Surname), Name: str(p.Name),
					Rating: num(p.Rating), Country: str(p.Country), LeftAfter: num(p.LeftAfter), Team: str(p.Team),
					Categories: p.Categories, At: position(rd.data, off, path)})
				return nil
			})
		case "standings":
			return rd.list(key, func(i int, off int64) error {
				path := fmt.Sprintf("standings[%d]", i)
				var s jsonStanding
				if err := rd.decode(&s, path); err != nil {
					return err
				}
				if s.PlayerID == nil || s.Score == nil {
					return rd.fail(off, path, "a standing without \"player_id\" or \"score\"")
				}
				half := *s.Score * 2
				if half != math.Trunc(half) || half < 0 || half > 2*1000 {
					return rd.fail(off, path, "score %v: expected points in halves, such as 4 or 4.5", *s.Score)
				}
				st := Standing{PlayerID: *s.PlayerID, Points: int(half), LeftAfter: num(s.LeftAfter), At: position(rd.data, off, path)}
				if s.MBQ != nil {
					st.MBQ = *s.MBQ
				}
				f.Standings = append(f.Standings, st)
				return nil
			})
		case "rounds":
			return rd.list(key, func(i int, off int64) error {
				round, err := rd.round(fmt.Sprintf("rounds[%d]", i), off)
				f.Rounds = append(f.Rounds, round)
				return err
			})
		case "info":
			var in jsonInfo
			if err := rd.decode(&in, key); err != nil {
				return err
			}
			f.Info = Info{ID: in.ID, Name: str(in.Name), City: str(in.City), Country: str(in.Country), Rounds: num(in.Rounds),
				Start: str(in.Start), End: str(in.End), Finals: in.Finals != nil && in.Finals != false && in.Finals != 0.0}
			switch c := in.MBQCoef.(type) {
			case string:
				f.Info.MBQCoef = c
			case float64:
				f.Info.MBQCoef = strconv.FormatFloat(c, 'f', -1, 64)
			case nil:
			default:
				return rd.fail(off, "info.mbq_coef", "expected a number or null")
			}
			if len(in.RoundNames) > 0 {
				f.Info.RoundNames = map[int]string{}
				for _, n := range in.RoundNames {
					f.Info.RoundNames[n.Round] = n.Name
				}
			}
			return nil
		}
		return rd.skip(key)
	})
	if err != nil {
		return nil, err
	}
	for _, key := range []string{"players_list", "rounds"} {
		if !seen[key] {
			return nil, &ParseError{Err: fmt.Errorf("no %q: a FlipTheDisc tournament file has its players and rounds", key)}
		}
	}
	return f, nil
}

// round reads a round: its number and its pairings.
func (rd *reader) round(path string, off int64) (Round, error) {
	r := Round{At: position(rd.data, off, path)}
	hasNumber := false
	err := rd.object(path, func(key string, off int64) error {
		switch key {
		case "currentRound":
			hasNumber = true
			return rd.decode(&r.Number, path+".currentRound")
		case "pairing":
			label := ""
			return rd.list(path+".pairing", func(i int, off int64) error {
				at := fmt.Sprintf("%s.pairing[%d]", path, i)
				var raw json.RawMessage
				if err := rd.decode(&raw, at); err != nil {
					return err
				}
				if len(raw) > 0 && raw[0] == '"' {
					return json.Unmarshal(raw, &label) // a final phase's category, for the games after it
				}
				var pair []jsonSide
				if err := json.Unmarshal(raw, &pair); err != nil {
					if raw[0] == '[' {
						return rd.jsonError(err, off, at)
					}
					return rd.fail(off, at, "expected a pair [black, white] or a category's name")
				}
				if len(pair) != 2 || pair[0].ID == nil || pair[1].ID == nil {
					return rd.fail(off, at, "expected a pair of two players, each with an \"id\"")
				}
				g, err := game(pair[0], pair[1], label)
				if err != nil {
					return rd.fail(off, at, "%v", err)
				}
				g.At = position(rd.data, off, at)
				r.Games = append(r.Games, g)
				return nil
			})
		}
		return rd.skip(path + "." + key)
	})
	if err == nil && !hasNumber {
		err = rd.fail(off, path, "a round without \"currentRound\", its number")
	}
	return r, err
}

// game makes the game of a pair: black carries the result.
func game(black, white jsonSide, label string) (Game, error) {
	g := Game{Black: *black.ID, White: *white.ID, Category: label, Name: str(black.GameName), Transcript: str(black.Transcript)}
	if label == "" {
		g.Category = str(black.Category)
	}
	switch {
	case g.Black <= 0 || g.White <= 0 && g.White != -1:
		return g, fmt.Errorf("player id %d: expected a positive id (or -1 for the bye, second)", min(g.Black, g.White))
	case g.White == -1:
		g.White = 0
		if black.Result != nil || black.Score != nil {
			return g, errors.New("a bye with a result")
		}
		return g, nil
	case g.Black == g.White:
		return g, fmt.Errorf("player %d plays against themselves", g.Black)
	case black.Result == nil && black.Score == nil:
		return g, nil // not played yet
	case black.Result == nil || black.Score == nil:
		return g, errors.New("a score without a result code, or a result code without a score")
	}
	s, code := *black.Score, *black.Result
	if s < 0 || s > 64 {
		return g, fmt.Errorf("score %d: expected Black's discs, 0 to 64", s)
	}
	want := map[int]string{2: "a win", 1: "a draw", 0: "a loss"}
	if _, ok := want[code]; !ok {
		return g, fmt.Errorf("result %d: expected 2 (a win), 1 (a draw) or 0 (a loss)", code)
	}
	if got := map[bool]int{s > 32: 2, s == 32: 1, s < 32: 0}[true]; got != code {
		return g, fmt.Errorf("score %d-%d is %s, but the result code %d says %s", s, 64-s, want[got], code, want[code])
	}
	g.HasResult, g.BlackDiscs, g.WhiteDiscs = true, s, 64-s
	return g, nil
}

// check checks what the file says against itself: players known and
// listed once, each in one game of a Swiss round, rounds numbered once.
func (f *File) check() error {
	players := map[int]Player{}
	for _, p := range f.Players {
		if _, ok := players[p.ID]; ok {
			return &ParseError{Pos: p.At, Err: fmt.Errorf("player id %d is listed twice", p.ID)}
		}
		if p.ID <= 0 {
			return &ParseError{Pos: p.At, Err: fmt.Errorf("player id %d: expected a positive id", p.ID)}
		}
		players[p.ID] = p
	}
	standing := map[int]bool{}
	for _, s := range f.Standings {
		if _, ok := players[s.PlayerID]; !ok {
			return &ParseError{Pos: s.At, Err: fmt.Errorf("player id %d is not in players_list", s.PlayerID)}
		}
		if standing[s.PlayerID] {
			return &ParseError{Pos: s.At, Err: fmt.Errorf("player id %d is in the standings twice", s.PlayerID)}
		}
		standing[s.PlayerID] = true
	}
	numbers := map[int]bool{}
	for _, r := range f.Rounds {
		if r.Number < 1 {
			return &ParseError{Pos: r.At, Err: fmt.Errorf("round number %d: expected 1 or more", r.Number)}
		}
		if numbers[r.Number] {
			return &ParseError{Pos: r.At, Err: fmt.Errorf("round %d appears twice", r.Number)}
		}
		numbers[r.Number] = true
		swiss := r.Number < SemiFinals
		paired := map[int]bool{}
		for _, g := range r.Games {
			for _, id := range []int{g.Black, g.White} {
				if id == 0 {
					continue
				}
				if _, ok := players[id]; !ok {
					return &ParseError{Pos: g.At, Err: fmt.Errorf("player id %d is not in players_list", id)}
				}
				if swiss && paired[id] {
					return &ParseError{Pos: g.At, Err: fmt.Errorf("round %d: %s is paired twice", r.Number, players[id].FullName())}
				}
				paired[id] = true
			}
		}
	}
	return nil
}

// FullName is the player's name as the rating list writes it: "SURNAME,
// Name", or the surname alone.
func (p Player) FullName() string {
	if p.Name == "" {
		return p.Surname
	}
	return p.Surname + ", " + p.Name
}
