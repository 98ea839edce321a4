package elo_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/scoring"
)

// club is a file with a line of every kind that Write writes: the header of
// Papp's files, a new player ("+"), half points, otd's lines (the rules, an
// entry, a withdrawal with an absence, players without a WOF id, a name with
// two commas, a time default, a forfeit, a bye) and a tied added game. Its
// lines need not agree with each other: that is for whoever builds a
// tournament from it. (AddedFrom is what Read finds in clubText; Write does
// not use it.)
func club() *elo.File {
	return &elo.File{
		Header: []elo.Header{{"Tournament", "Club"}, {"Country", "France"}, {"Date", "21/11/2026 - 22/11/2026"},
			{"Sender", "Ann Archer"}, {"Creator", "otd test"}, {"CreationDate", "2026/11/22 18:05"}},
		Standings: []elo.Player{
			{ID: 79, Last: "LEADER", First: "Imre", Country: "GBR", Score: 3, Discs: 74, Rating: 2157},
			{ID: 2, New: true, Last: "SMITH", First: "John Jr.", Country: "FRA", Score: 2, Discs: 88},
			{ID: 5, New: true, Last: "DANE", First: "Di", Country: "FRA", Score: 1, Discs: 32},
			{ID: 4, New: true, Last: "COLE", First: "Cy", Country: "FRA", Discs: 62},
		},
		Rounds:    [][]elo.Game{{{Black: 79, BlackDiscs: 40, White: 2, WhiteDiscs: 24}}, {{Black: 4, BlackDiscs: 30, White: 79, WhiteDiscs: 34}, {Black: 2, BlackDiscs: 45, White: 5, WhiteDiscs: 19}}},
		Added:     []elo.Game{{Black: 79, BlackDiscs: 32, White: 2, WhiteDiscs: 32}},
		AddedFrom: []elo.Source{{Line: 37}}, // where clubText has it
		Otd: &elo.Otd{Rounds: 3, BQ: scoring.BQRule{Kind: scoring.WOF}, TimeDefault: scoring.TimeComplete, ByePoints: scoring.Half,
			TieBreaks: scoring.DefaultTieBreaks(),
			Players:   map[int]elo.Status{2: {NoID: true}, 5: {FirstRound: 2, NoID: true}, 4: {Left: 3, Absent: []int{1}, NoID: true}},
			Names:     map[int]string{2: "SMITH, John, Jr."},
			Forfeits:  [][]elo.Forfeit{nil, {{Black: 4, White: 2, Loser: elo.White}}}, Byes: [][]int{{5}, nil},
			TimeDefaults: [][]elo.Forfeit{nil, {{Black: 2, White: 5, Loser: elo.White}}}},
	}
}

// clubText is club's file, written by hand in the layout of Papp's files
// (src/elo.c): scores " 1.5" ("%2d" and ".5"), ids "%6d" after the mark,
// discs "(%02d)", a blank line after %%Sender and around each %Round line;
// otd's lines after the standings, and after each round's games.
const clubText = `%%Tournament: Club
%%Country: France
%%Date: 21/11/2026 - 22/11/2026
%%Sender: Ann Archer

%%Creator: otd test
%%CreationDate: 2026/11/22 18:05

%        ID, NAME, Firstname, COUNTRY, score, disc-count, rating
%_%      79, LEADER, Imre, GBR,  1.5, 74, 2157
%_% +     2, SMITH, John Jr., FRA,  1, 88, 0
%_% +     5, DANE, Di, FRA,  0.5, 32, 0
%_% +     4, COLE, Cy, FRA,  0, 62, 0

% otd: these lines are for otd: forfeits and byes (not games for the rating list), entries, absences, withdrawals
% otd: rounds 3
% otd: rules bq=wof time-default=complete bye-points=0.5 tiebreaks=points,bq,discs
% otd: player 2 no-id
% otd: player 5 first 2 no-id
% otd: player 4 left 3 absent 1 no-id
% otd: name 2 "SMITH, John, Jr."

%Round: 1

    79 (40)>(24)      2 B
% otd: bye 5

%Round: 2

     4 (30)<(34)     79 B
     2 (45)>(19)      5 B
% otd: time-default 2 5 white
% otd: forfeit 4 2 white

%%Added results

    79 (32)=(32)      2 B
`

// TestWrite writes club as clubText, and reads clubText back as club.
func TestWrite(t *testing.T) {
	var b bytes.Buffer
	if err := club().Write(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != clubText {
		t.Errorf("the file is\n%s\nwant\n%s", got, clubText)
	}
	f, err := elo.Read(strings.NewReader(clubText))
	if err != nil {
		t.Fatal(err)
	}
	if want := club(); !reflect.DeepEqual(content(f), want) {
		t.Errorf("read back:\n%+v\n%+v\nwant\n%+v\n%+v", f, f.Otd, want, want.Otd)
	}
	if v := f.Value("sender"); v != "Ann Archer" {
		t.Errorf("Value(sender) = %q", v)
	}
}

// TestReadPapp reads a file as Papp and other programs write it: blank
// lines, separators, comments, CRLF, a rating "-" (not rated), a draw
// without "B", a tied final-phase game written '<' for who went through, no
// otd lines.
func TestReadPapp(t *testing.T) {
	const file = "%%Tournament: X\r\n%_%______\r\n%_%  +   1, A, B, C, 0.5, 32, 2000\r\n%_%      2, D, E, F, 0.5, 32, -\r\n" +
		"% a comment\r\n%Round: 1\r\n1 (32)=(32) 2\r\n%%Added results\r\n  2 ( 32)<( 32)  1 B  \r\n"
	f, err := elo.Read(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	want := &elo.File{
		Header:         []elo.Header{{"Tournament", "X"}},
		HeaderLines:    []int{1},
		StandingsLines: []int{3, 4},
		GameLines:      [][]int{{7}},
		RoundFrom:      []elo.Source{{Line: 6, Block: "1"}},
		Standings: []elo.Player{{ID: 1, New: true, Last: "A", First: "B", Country: "C", Score: 1, Discs: 32, Rating: 2000},
			{ID: 2, Last: "D", First: "E", Country: "F", Score: 1, Discs: 32}},
		Rounds:    [][]elo.Game{{{Black: 1, BlackDiscs: 32, White: 2, WhiteDiscs: 32}}},
		Added:     []elo.Game{{Black: 2, BlackDiscs: 32, White: 1, WhiteDiscs: 32, Loser: elo.Black}},
		AddedFrom: []elo.Source{{Line: 9}},
	}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("read %+v; want %+v", f, want)
	}
}

// TestReadRefuses: a malformed file is refused with a *ParseError wrapping
// ErrInvalid, at the line and the column of the problem (0: the line as a
// whole), in one line that says what is wrong and quotes the line.
// TestReadFigures: the figures of a standings line are what the columns'
// names say (a comment "% ID, NAME, ..., score, BQ" as the WOF archive's
// files write it), a figure that is not a number is read as not given and
// quoted in Unread, and a decimal comma is read with the figure after it.
func TestReadFigures(t *testing.T) {
	for _, tc := range []struct {
		name, header, line string
		want               elo.Player
	}{
		{"a BQ column, a score with a bonus", "% ID, NAME, Firstname, COUNTRY, score, BQ", "%_%  120034, DE GRAAF, Wendy, NL, 5+2, 468",
			elo.Player{ID: 120034, Last: "DE GRAAF", First: "Wendy", Country: "NL", NoScore: true, NoDiscs: true, Unread: `"5+2"`}},
		{"a BQ column", "% ID, NAME, Firstname, COUNTRY, score, BQ", "%_%  120237, WEIJERS, Thieu, NL, 2, 259",
			elo.Player{ID: 120237, Last: "WEIJERS", First: "Thieu", Country: "NL", Score: 2 * scoring.Point, NoDiscs: true}},
		{"an MBQ column in the score's", "% ID, FAMILY NAME, Firstname, COUNTRY, Score MBQ", "%_% 250006, LEONG, Chee Kit, SGP, 4 439",
			elo.Player{ID: 250006, Last: "LEONG", First: "Chee Kit", Country: "SGP", Score: 4 * scoring.Point, NoDiscs: true}},
		{"a rank", "% ID, Family_Name, Firstname, COUNTRY, Rank", "%_%  250174, Samuel, Henry Kurniawan, SGP, 5-8",
			elo.Player{ID: 250174, Last: "Samuel", First: "Henry Kurniawan", Country: "SGP", NoScore: true, NoDiscs: true}},
		{"a decimal comma, a space", "", "%_% 250006, LEONG, Chee Kit, SGP, 4,5 439.0",
			elo.Player{ID: 250006, Last: "LEONG", First: "Chee Kit", Country: "SGP", Score: 4*scoring.Point + scoring.Half, Discs: 439}},
		{"a rating not a number", "", "%_%  11, ONE, Ann, FRA, 1, 40, 2000x",
			elo.Player{ID: 11, Last: "ONE", First: "Ann", Country: "FRA", Score: scoring.Point, Discs: 40, Unread: `"2000x"`}},
		{"decorated", "", "%_%   4074,  OH, Joung-mok, {Korea}, 5 pts, [246]",
			elo.Player{ID: 4074, Last: "OH", First: "Joung-mok", Country: "{Korea}", NoScore: true, NoDiscs: true, Unread: `"5 pts", "[246]"`}},
	} {
		file := "%%Tournament: Club\n" + tc.header + "\n" + tc.line + "\n%Round: 1\n  11 (40)>(24)   22 B\n"
		f, err := elo.Read(strings.NewReader(file))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(f.Standings) != 1 || f.Standings[0] != tc.want {
			t.Errorf("%s: %+v; want %+v", tc.name, f.Standings, tc.want)
		}
	}
}

func TestReadRefuses(t *testing.T) {
	const good = `%%Tournament: Club
%_%  11, ONE, Ann, FRA, 1, 40, 2000
%_%  22, TWO, Bob, FRA, 0, 24, 1900
%Round: 1
  11 (40)>(24)   22 B
`
	for _, tc := range []struct {
		name, file string
		line, col  int
		want       string
	}{
		{"garbled game", strings.Replace(good, "(40)>(24)", "(40)?(24)", 1), 5, 0, `line 5: a game line is: black-id (discs)<(discs) white-id B: "  11 (40)?(24)   22 B": not a valid .ELO file`},
		{"sign", strings.Replace(good, "(40)>(24)", "(40)<(24)", 1), 5, 10, "line 5: the discs do not match the sign between them"},
		{"too many discs", strings.Replace(good, "(40)>(24)", "(50)>(24)", 1), 5, 10, "line 5: the discs add up to 74, more than the board's 64 squares"},
		{"standings line", strings.Replace(good, ", ONE, Ann, FRA, 1, 40, 2000", ", ONE", 1), 2, 0, "line 2: a standings line is %_% id, surname, first name, country, score, discs, rating"},
		{"id", strings.Replace(good, "%_%  11,", "%_%  X1,", 1), 2, 6, "line 2: the id is a number"},
		{"no games", "%%Tournament: Club\n", 0, 0, "no game and no %Round line: not a valid .ELO file"},
		{"binary", "\x00\x01\x02PK\x03\x04", 1, 0, "line 1: a game line is"},
		{"otd colour", good + "% otd: forfeit 11 22 grey\n", 6, 0, "line 6: otd line: forfeit is: black-id white-id black|white"},
		{"otd before a round", strings.Replace(good, "%Round: 1", "% otd: bye 22\n%Round: 1", 1), 4, 0, `line 4: otd line: "bye" before the first %Round line`},
		{"otd number", good + "% otd: rounds x\n", 6, 0, `line 6: otd line: "x" is not a whole number`},
		{"otd rules", good + "% otd: rules bq=papp\n", 6, 0, `line 6: otd line: rules: bq "papp"`},
		{"otd rules long", good + "% otd: rules tiebreaks=" + strings.Repeat("0", 1000) + "\n", 6, 0, `line 6: otd line: rules: tiebreaks="` + strings.Repeat("0", 80) + `…" is not a rule`},
		{"otd name twice", good + "% otd: name 11 \"A\"\n% otd: name 11 \"B\"\n", 7, 0, "line 7: otd line: player id 11 has two names"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := elo.Read(strings.NewReader(tc.file))
			var pe *elo.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, elo.ErrInvalid) || pe.Line != tc.line || pe.Col != tc.col {
				t.Fatalf("Read: %#v (%v); want line %d, column %d, wrapping ErrInvalid", pe, err, tc.line, tc.col)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("Read: %q; want one line starting %q", msg, tc.want)
			}
		})
	}
	// The good file is read, so that each case above fails for its own reason.
	if _, err := elo.Read(strings.NewReader(good)); err != nil {
		t.Fatal(err)
	}
}

// TestReadConverted reads the layout of the converted files of the WOF
// archive (the WOC 1988-1990 files, "scraped from worldothello.org WOC
// history"): standings without a rating, "%Round 1" without a colon, the
// final games in labelled blocks "%Round SF1", "%Round 3P", "%Round F" (and
// "%Round: 3-4", as RULES.md section 7 writes it), which are added results
// with their block's label; a game line written as a comment (as WOC 2025
// writes a player's 13 games) is read for what it says, and a "%Round"
// line with other words ("%Round 1 Semi-finals", CIC 2015) is a comment.
func TestReadConverted(t *testing.T) {
	const file = "%%Tournament: WOC_1988\n%_%    300, TAMENORI, hideshi, ?, 13.5, 655\n%_%     73, BRIGHTWELL, graham, ?, 10.5, 659\n" +
		"%Round 1\n    300 (44)>(20)     73 \n%    73 (41)>(23) 300  B\n%Round 1 Semi-finals\n" +
		"%Round SF1\n     73 (64)>(00)    300 \n%Round: 3-4\n    300 (32)=(32)     73\n%Round F\n    300 (41)>(23)     73\n"
	f, err := elo.Read(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	want := &elo.File{
		Header:      []elo.Header{{"Tournament", "WOC_1988"}},
		HeaderLines: []int{1},
		Standings: []elo.Player{{ID: 300, Last: "TAMENORI", First: "hideshi", Country: "?", Score: 27, Discs: 655},
			{ID: 73, Last: "BRIGHTWELL", First: "graham", Country: "?", Score: 21, Discs: 659}},
		Rounds:         [][]elo.Game{{{Black: 300, BlackDiscs: 44, White: 73, WhiteDiscs: 20}}},
		StandingsLines: []int{2, 3},
		GameLines:      [][]int{{5}},
		RoundFrom:      []elo.Source{{Line: 4, Block: "1"}},
		Added: []elo.Game{{Black: 73, BlackDiscs: 64, White: 300}, {Black: 300, BlackDiscs: 32, White: 73, WhiteDiscs: 32},
			{Black: 300, BlackDiscs: 41, White: 73, WhiteDiscs: 23}},
		AddedFrom: []elo.Source{{Line: 9, Block: "SF1"}, {Line: 11, Block: "3-4"}, {Line: 13, Block: "F"}},
		Commented: []elo.Commented{{Line: 6, Game: elo.Game{Black: 73, BlackDiscs: 41, White: 300, WhiteDiscs: 23}}},
	}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("read\n%+v\nwant\n%+v", f, want)
	}
}

// TestReadLongLine: a line over 64 KiB is refused with its number and the
// limit (not bufio.Scanner's "token too long"); a line of 64 KiB is read.
func TestReadLongLine(t *testing.T) {
	const head = "%%Tournament: Club\n%_%  +    1, ONE, Ann, FRA, 1, 40, 0\n%_%  +    2, TWO, Bob, FRA, 0, 24, 0\n"
	const round = "%Round: 1\n     1 (40)>(24)      2 B\n"
	long := func(n int) string { return "% " + strings.Repeat("x", n-2) }
	for _, tc := range []struct {
		name, file, want string
	}{
		{"64 KiB", head + long(elo.MaxLine) + "\n" + round, ""},
		{"64 KiB CRLF", head + long(elo.MaxLine) + "\r\n" + round, ""},
		{"64 KiB + 1", head + long(elo.MaxLine+1) + "\n" + round, "line 4: longer than 64 KiB"},
		{"64 KiB + 1 last", head + round + long(elo.MaxLine+1), "line 6: longer than 64 KiB"},
		{"1 MiB", head + long(1<<20) + "\n" + round, "line 4: longer than 64 KiB"},
		{"1 MiB game line", head + round + strings.Repeat("1", 1<<20), "line 6: longer than 64 KiB"},
		{"long bad line", head + round + strings.Repeat("z", 60000) + "\n", "line 6: a game line is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := elo.Read(strings.NewReader(tc.file))
			if tc.want == "" {
				if err != nil {
					t.Errorf("Read: %v", err)
				}
				return
			}
			if !errors.Is(err, elo.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read: %v; want %q", err, tc.want)
			}
			if err != nil && (strings.Contains(err.Error(), "token too long") || len(err.Error()) > 300) {
				t.Errorf("Read: %d bytes: %.300q", len(err.Error()), err)
			}
		})
	}
}

// TestWritePapp: reading a file written by Papp and writing it again gives
// Papp's header and standings lines byte for byte (blank lines aside) and its
// game lines but for runs of blanks, so that Write writes the layout the
// rating list takes. Papp writes a tied final-phase game '<' or '>' for who
// went through (WOC 2016), Write '='.
func TestWritePapp(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testenv.SharedData(t), "othello-tournaments-wof-elo", "raw", "*.ELO"))
	if err != nil {
		t.Fatal(err)
	}
	papp := 0
	for _, path := range files {
		orig, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(orig), "%%Creator: PAPP") {
			continue
		}
		papp++
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := elo.Read(bytes.NewReader(orig))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := f.Write(&b); err != nil {
				t.Fatal(err)
			}
			want, got := nonBlank(string(orig)), nonBlank(b.String())
			if len(got) != len(want) {
				t.Fatalf("%d lines written, %d in the original", len(got), len(want))
			}
			for i := range want {
				g, w := got[i], want[i]
				if !strings.HasPrefix(w, "%") { // a game line: Papp 1.36 and 1.37 space draws differently
					g, w = strings.Join(strings.Fields(g), " "), strings.Join(strings.Fields(w), " ")
				}
				if g != w && !(tiedFinal[filepath.Base(path)] && (strings.Contains(w, ")<(") || strings.Contains(w, ")>("))) {
					t.Errorf("line %d: %q; the original has %q", i+1, got[i], want[i])
				}
			}
		})
	}
	if papp < 5 {
		t.Errorf("%d files written by Papp; want at least 5", papp)
	}
}

// tiedFinal: the files with a tied final-phase game that Papp wrote '<' for who went through.
var tiedFinal = map[string]bool{"20161102_WOC_2016.ELO": true}

// nonBlank returns the lines of s that are not blank.
func nonBlank(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r", ""), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestTiedFinals: WOC 2016 has three tied final-phase games (lines 685,
// 688 and 691), two of them written by Papp '<' (line 685: STENBERG v DONG,
// DONG, white, went through to the women's final, as line 694 shows) and '>'
// (line 691: WILLIAM v STENBERG, black went through) for who went through,
// and one '=' (line 688, game 1 of a best-of-3 semi-final). Read takes all
// three as ties, keeping the colour that did not go through (Loser: black,
// white, none), and Write writes each as it was.
func TestTiedFinals(t *testing.T) {
	path := filepath.Join(testenv.SharedData(t), "othello-tournaments-wof-elo", "raw", "20161102_WOC_2016.ELO")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elo.Read(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var ties []string
	for i, g := range f.Added {
		if g.BlackDiscs == g.WhiteDiscs {
			ties = append(ties, fmt.Sprintf("line %d: %d-%d loser %q", f.AddedFrom[i].Line, g.Black, g.White, g.Loser))
		}
	}
	want := []string{`line 685: 1375-7107 loser "black"`, `line 688: 4097-5537 loser ""`, `line 691: 4130-1375 loser "white"`}
	if !slices.Equal(ties, want) {
		t.Errorf("tied added games %q; want %q", ties, want)
	}
	var w bytes.Buffer
	if err := f.Write(&w); err != nil {
		t.Fatal(err)
	}
	_, added, _ := strings.Cut(w.String(), "%%Added results")
	for _, line := range []string{"  1375 (32)<(32)   7107 B", "  4097 (32)=(32)   5537 B", "  4130 (32)>(32)   1375 B"} {
		if !strings.Contains(added, line) {
			t.Errorf("the added results written lack %q:\n%s", line, added)
		}
	}
}

// TestMetaHeaders: the header lines as in the real files, one day or
// several, "??" where Papp writes it for a value not given.
func TestMetaHeaders(t *testing.T) {
	day := time.Date(2025, 9, 21, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		m    elo.Meta
		want []elo.Header
	}{
		{elo.Meta{Tournament: "42nd Belgian championship", Country: "Belgium", Start: day, End: day, Sender: "SCHOTTE Tom", Creator: "otd"},
			[]elo.Header{{"Tournament", "42nd Belgian championship"}, {"Country", "Belgium"}, {"Date", "21/09/2025"}, {"Sender", "SCHOTTE Tom"}, {"Creator", "otd"}}},
		{elo.Meta{Tournament: "Club", Creator: "otd", Created: day.Add(22*time.Hour + 29*time.Minute)},
			[]elo.Header{{"Tournament", "Club"}, {"Country", "??"}, {"Date", "??"}, {"Sender", "??"}, {"Creator", "otd"}, {"CreationDate", "2025/09/21 22:29"}}},
		{elo.Meta{Tournament: "Open", Start: day, End: day.AddDate(0, 0, 2), Country: " ", Creator: "otd"},
			[]elo.Header{{"Tournament", "Open"}, {"Country", "??"}, {"Date", "21/09/2025 - 23/09/2025"}, {"Sender", "??"}, {"Creator", "otd"}}},
	} {
		if got := tc.m.Headers(); !slices.Equal(got, tc.want) {
			t.Errorf("Headers() = %v; want %v", got, tc.want)
		}
	}
}

// TestWriteRefusesLineBreaks: a header value or a name with a line break or
// a control character would inject lines into the file (a fake standings
// line, a fake %Round): Write refuses it with ErrValue and writes nothing,
// whatever way it reached the File (the command line refuses them when
// typed; a database written by other means need not have).
func TestWriteRefusesLineBreaks(t *testing.T) {
	header := func(key, v string) func(f *elo.File) {
		return func(f *elo.File) {
			for i := range f.Header {
				if f.Header[i].Key == key {
					f.Header[i].Value = v
				}
			}
		}
	}
	for _, tc := range []struct {
		name string
		edit func(f *elo.File)
		want string
	}{
		{"tournament LF", header("Tournament", "X\n%_%      9, FAKE, Fay, FRA, 9, 64, 2900\n%Round: 1"), `header Tournament "X\n%_%`},
		{"tournament CR", header("Tournament", "X\r%Round: 3"), "U+000D"},
		{"sender NEL", header("Sender", "Ann\u0085%Round: 1"), "U+0085"},
		{"country LS", header("Country", "France\u2028%Round: 1"), "U+2028"},
		{"creator ESC", header("Creator", "otd \x1b[2J"), "U+001B"},
		{"tournament bidi", header("Tournament", "Club \u202eNEPO"), "U+202E"},
		{"tournament NUL", header("Tournament", "Club\x00"), "U+0000"},
		{"tournament not UTF-8", header("Tournament", "Club \xff"), "not valid UTF-8"},
		{"header key colon", func(f *elo.File) { f.Header[0].Key = "Tour: nament" }, "header key"},
		{"header key of the added results", func(f *elo.File) { f.Header[0].Key = "Added results0" }, "the line that starts the added results"},
		{"surname LF", func(f *elo.File) { f.Standings[1].Last = "SMITH\n%_%      9, FAKE, Fay, FRA, 9, 64, 2900" }, "player id 2"},
		{"otd name LF", func(f *elo.File) { f.Otd.Names[2] = "SMITH, John,\n%_%      9, FAKE, Fay, FRA, 9, 64, 2900" }, "player id 2"},
		{"country comma", func(f *elo.File) { f.Standings[1].Country = "F,R" }, "a comma in a field"},
		{"first name comma", func(f *elo.File) { f.Standings[0].First = "Imre, Jr." }, "a comma in a field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := club()
			tc.edit(f)
			var b bytes.Buffer
			err := f.Write(&b)
			if !errors.Is(err, elo.ErrValue) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Write: %v; want an error with %q wrapping ErrValue", err, tc.want)
			}
			if b.Len() != 0 {
				t.Errorf("Write wrote %d bytes before refusing", b.Len())
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("the error has a line break: %q", err)
			}
		})
	}
	for _, s := range []string{"Club", "Paris Open 2026", "Müller, Jürgen", "東京"} {
		if err := elo.CheckText(s); err != nil {
			t.Errorf("CheckText(%q): %v", s, err)
		}
	}
}

// TestQuoteCut: a value is quoted as %q does, and cut to 80 characters of
// the quoted form with "…", never inside an escape.
func TestQuoteCut(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Club", `"Club"`},
		{"a\nb", `"a\nb"`},
		{strings.Repeat("A", 80), `"` + strings.Repeat("A", 80) + `"`},
		{strings.Repeat("A", 81), `"` + strings.Repeat("A", 80) + `…"`},
		{strings.Repeat("é", 100), `"` + strings.Repeat("é", 80) + `…"`},
		{strings.Repeat("A", 79) + "\n" + strings.Repeat("B", 10), `"` + strings.Repeat("A", 79) + `…"`},
	} {
		if got := elo.QuoteCut(tc.in); got != tc.want {
			t.Errorf("QuoteCut(%.20q…) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// content is f without where things are in the file read.
func content(f *elo.File) *elo.File {
	g := *f
	g.HeaderLines, g.StandingsLines, g.GameLines, g.RoundFrom, g.UnroundedFrom = nil, nil, nil, nil, nil
	if len(g.AddedFrom) == 0 {
		g.AddedFrom = nil
	}
	return &g
}

// TestOtdChampionshipLines: otd's lines of format 2 (the championship, each
// added game's match) are written after format 1's, a value with a space
// or a quote quoted as a Go string, and read back as written; the
// WOF's lines (standings and games) are club's, unchanged. None of otd's
// lines is a commented-out game or labels a block, though "final" and
// "match" do in other files.
func TestOtdChampionshipLines(t *testing.T) {
	f := club()
	o := f.Otd
	o.City, o.NewIDs, o.Final, o.Teams, o.YouthAge = "Den Haag", "50000-59999", "top=2,bestof=1,third=0", "best=2,exclude=youth 15", 14
	o.Categories = []elo.Category{{Name: "women", Final: "top=2,bestof=1"}, {Name: "youth 15", BornFrom: 2012, BornTo: 2015}, {Name: "youth", Youth: true, Final: "top=4"}}
	o.SetDetails(2, elo.Details{Born: "2012-02-29", Team: `Club "A"=1,2`, Categories: []string{"women", "youth 15"}})
	o.SetDetails(4, elo.Details{Team: "-"})
	o.Numbers = []int{3, 1, 4, 2}
	o.SetMatch(0, elo.Match{Category: "youth 15", Code: "F", Game: 1})
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"% otd: format 2\n% otd: city \"Den Haag\"\n% otd: new-ids 50000-59999\n% otd: final top=2,bestof=1,third=0\n",
		"% otd: category women final=top=2,bestof=1\n% otd: category \"youth 15\" born-from=2012 born-to=2015\n% otd: category youth youth=yes final=top=4\n% otd: teams \"best=2,exclude=youth 15\"\n",
		"% otd: details 2 born=2012-02-29 team=\"Club \\\"A\\\"=1,2\" category=women category=\"youth 15\"\n% otd: details 4 team=-\n",
		"    79 (32)=(32)      2 B\n% otd: match F game=1 category=\"youth 15\"\n",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("the file has no lines\n%s\nfile:\n%s", line, b.String())
		}
	}
	var wof []string // the lines that the WOF's readers read: none of otd's
	for _, l := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(l, "% otd:") {
			wof = append(wof, l)
		}
	}
	var plain bytes.Buffer
	if err := (&elo.File{Header: f.Header, Standings: f.Standings, Rounds: f.Rounds, Added: f.Added}).Write(&plain); err != nil {
		t.Fatal(err)
	}
	// (otd's lines after the standings start with a blank line of their own)
	if got, want := strings.Join(wof, "\n"), plain.String(); got != strings.Replace(want, "\n\n%Round: 1", "\n\n\n%Round: 1", 1) {
		t.Errorf("the WOF's lines:\n%s\nwant\n%s", got, want)
	}
	g, err := elo.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	o.Format = elo.OtdFormat
	if !reflect.DeepEqual(g.Otd, o) || len(g.Commented) != 0 || len(g.Added) != 1 || len(g.Rounds) != 2 {
		t.Errorf("read back:\n%+v\n%d commented games, %d added, %d rounds\nwant\n%+v", g.Otd, len(g.Commented), len(g.Added), len(g.Rounds), o)
	}
}
