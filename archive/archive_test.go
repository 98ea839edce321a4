package archive_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/interchange"
	"github.com/otd-project/otd/rating"
)

// readELO reads a file as the archive does by default.
func readELO(name string, data []byte) (*archive.Tournament, error) {
	return archive.ReadELO(name, data, archive.Reading{}, interchange.ArchiveGames)
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// club is a small Papp file: two rounds, a game left out in a comment, and
// a final tied on the board that white did not go through ('>'). Its
// published scores and discs are the Swiss rounds' (Papp's).
const club = `%%Tournament: Club Open
%%Country: France
%%Date: 06/01/2024 - 07/01/2024

%_%      15, BLANC, Bob, FRA,  2, 77, 1650
%_%      79, LEADER, Imre, GBR,  1.5, 72, 2157
%_% +     2, ARCHER, Ann, FRA,  0.5, 56, 0
%_%      16, NOIR, Nina, BEL,  0, 51, 1500

%Round: 1
    79 (40)>(24)      2 B
    15 (33)>(31)     16 B
% 79 (64)<(00)    15 B

%Round: 2
     2 (32)=(32)     79 B
    16 (20)<(44)     15 B

%%Added results
    79 (32)>(32)      2 B
`

func TestFromELO(t *testing.T) {
	got, err := readELO("2024/club.ELO", []byte(club))
	if err != nil {
		t.Fatal(err)
	}
	want := &archive.Tournament{File: "2024/club.ELO", Name: "Club Open", Place: "France", Start: day("2024-01-06"), End: day("2024-01-07"), Rounds: 2,
		Players: []archive.Entry{
			{Rank: 1, ID: 15, Last: "BLANC", First: "Bob", Country: "FRA", Score: 4, Discs: 77, Rating: 1650},
			{Rank: 2, ID: 79, Last: "LEADER", First: "Imre", Country: "GBR", Score: 3, Discs: 72, Rating: 2157},
			{Rank: 3, ID: 2, New: true, Last: "ARCHER", First: "Ann", Country: "FRA", Score: 1, Discs: 56},
			{Rank: 4, ID: 16, Last: "NOIR", First: "Nina", Country: "BEL", Score: 0, Discs: 51, Rating: 1500},
		},
		Games: []archive.Game{
			{Round: 1, Black: 79, White: 2, HasDiscs: true, BlackDiscs: 40, WhiteDiscs: 24, Result: rating.Win},
			{Round: 1, Black: 15, White: 16, HasDiscs: true, BlackDiscs: 33, WhiteDiscs: 31, Result: rating.Win},
			{Round: 2, Black: 2, White: 79, HasDiscs: true, BlackDiscs: 32, WhiteDiscs: 32, Result: rating.Draw},
			{Round: 2, Black: 16, White: 15, HasDiscs: true, BlackDiscs: 20, WhiteDiscs: 44, Result: rating.Loss},
			{Round: 0, Black: 79, White: 2, HasDiscs: true, BlackDiscs: 32, WhiteDiscs: 32, Result: rating.Draw}, // a draw on the board
		}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	if n := want.Players[2].Name(); n != "ARCHER, Ann" {
		t.Errorf("Name() = %q", n)
	}
	gs := got.RatingGames()
	if len(gs) != 5 || gs[3] != (rating.Game{A: 16, B: 15, Result: rating.Loss, Date: day("2024-01-06")}) {
		t.Errorf("RatingGames() = %+v: want 5 games dated by the first day, black first", gs)
	}
}

func TestReadELORefuses(t *testing.T) {
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"no date", "%%Date: 06/01/2024 - 07/01/2024\n", "", "no %%Date line"},
		{"not a date", "06/01/2024 - 07/01/2024", "6 January 2024", `%%Date: "6 January 2024": not a day`},
		{"month 13", "06/01/2024 - 07/01/2024", "06/13/2024", "not a day"},
		{"backwards", "06/01/2024 - 07/01/2024", "07/01/2024 - 06/01/2024", "the last day is before the first"},
		// The reader's refusals ('otd import elo'), each naming the line.
		{"against themself", "15 (33)>(31)     16", "15 (33)>(31)     15", "line 12: player id 15 plays against themselves"},
		{"not in the standings", "16 (20)<(44)     15", "16 (20)<(44)     99", "line 17: player id 99 is not in the standings"},
		{"added against themself", "79 (32)>(32)      2 B", "2 (32)>(32)      2 B", "line 20: player id 2 plays against themselves"},
		{"sign against the discs", "79 (40)>(24)", "79 (40)<(24)", "line 11: the discs do not match the sign"},
		{"paired twice", "%Round: 2\n", "%Round: 2\n    79 (33)>(31)     16 B\n", "player id 79 has another game in the round"},
		{"published score", "FRA,  2, 77", "FRA,  2.5, 77", "BLANC, Bob: published score 2.5"},
		{"published discs", "FRA,  2, 77", "FRA,  2, 78", "BLANC, Bob: published disc total 78"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(club, c.from, c.to, 1)
			if text == club {
				t.Fatalf("%q is not in the file", c.from)
			}
			_, err := readELO("club.ELO", []byte(text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
	_, err := readELO("x.ELO", []byte("%%Date: 01/01/2024\n"))
	var pe *elo.ParseError
	if !errors.As(err, &pe) {
		t.Errorf("a file elo refuses: err = %v, want elo's *ParseError", err)
	}
}

func TestReadELODays(t *testing.T) {
	for _, c := range []struct{ date, start, end string }{
		{"06/01/2024", "2024-01-06", "2024-01-06"},
		{"6/1/2024", "2024-01-06", "2024-01-06"},
		{" 30/12/2023 - 02/01/2024 ", "2023-12-30", "2024-01-02"},
		{"2024-01-06", "2024-01-06", "2024-01-06"},
	} {
		text := strings.Replace(club, "06/01/2024 - 07/01/2024", c.date, 1)
		got, err := readELO("club.ELO", []byte(text))
		if err != nil {
			t.Errorf("%%%%Date: %s: %v", c.date, err)
			continue
		}
		if !got.Start.Equal(day(c.start)) || !got.End.Equal(day(c.end)) {
			t.Errorf("%%%%Date: %s: %v to %v, want %s to %s", c.date, got.Start, got.End, c.start, c.end)
		}
	}
	// No %%Tournament: the file's name.
	got, err := readELO("2024/20240106_Club.ELO", []byte(strings.Replace(club, "%%Tournament: Club Open\n", "", 1)))
	if err != nil || got.Name != "20240106_Club" {
		t.Errorf("no %%%%Tournament: name %q, %v; want the file's name", got.Name, err)
	}
}

// TestReadELOLenient: a file that contradicts itself, read as --lenient
// says; each game's result is the one its tournament counted: a result
// without discs by its sign, a tie in a round written '<' lost by black (a
// Japanese file's way), the final's tie a draw.
func TestReadELOLenient(t *testing.T) {
	text := strings.NewReplacer("79 (40)>(24)", "79 (40)<(24)", "15 (33)>(31)     16", "15 > 16", "2 (32)=(32)     79", "2 (32)<(32)     79").Replace(club)
	if _, err := readELO("club.ELO", []byte(text)); err == nil {
		t.Fatal("read without --lenient")
	}
	r := archive.Reading{Lenient: elo.Lenient{Sign: elo.SignSign, Totals: "games"}}
	got, err := archive.ReadELO("club.ELO", []byte(text), r, interchange.ArchiveGames)
	if err != nil {
		t.Fatal(err)
	}
	want := []archive.Game{
		{Round: 1, Black: 79, White: 2, Result: rating.Loss}, // the sign, without discs
		{Round: 1, Black: 15, White: 16, Result: rating.Win},
		{Round: 2, Black: 2, White: 79, HasDiscs: true, BlackDiscs: 32, WhiteDiscs: 32, Result: rating.Loss},
		{Round: 2, Black: 16, White: 15, HasDiscs: true, BlackDiscs: 20, WhiteDiscs: 44, Result: rating.Loss},
		{Round: 0, Black: 79, White: 2, HasDiscs: true, BlackDiscs: 32, WhiteDiscs: 32, Result: rating.Draw},
	}
	if !reflect.DeepEqual(got.Games, want) {
		t.Errorf("games\n%+v\nwant\n%+v", got.Games, want)
	}
	if s := r.String(); s != "sign=sign,totals=games" {
		t.Errorf("Reading.String() = %q", s)
	}
	if s := (archive.Reading{Lenient: elo.Lenient{Listed: "first"}, ByeDiscs: 40}).String(); s != "listed=first bye-discs=40" {
		t.Errorf("Reading.String() = %q", s)
	}
}

// TestReadELONoID: a player the file gives no id ("??????") is kept with
// their games, which the rating list cannot take.
func TestReadELONoID(t *testing.T) {
	text := strings.NewReplacer("%_%      16,", "%_% ??????,", "15 (33)>(31)     16", "15 (33)>(31) ??????", "16 (20)<(44)     15", "?????? (20)<(44) 15").Replace(club)
	got, err := readELO("club.ELO", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if e := got.Players[3]; e.ID != 0 || e.Last != "NOIR" {
		t.Errorf("standings line 4: %+v, want NOIR without an id", e)
	}
	if g := got.Games[1]; g.White != 0 || g.Black != 15 {
		t.Errorf("round 1's second game: %+v, want 15 against 0", g)
	}
	if n := len(got.RatingGames()); n != 3 {
		t.Errorf("%d rating games, want 3: the two of ?????? left out", n)
	}
	people, _ := (&archive.Folder{Tournaments: []*archive.Tournament{got}}).People(context.Background())
	if len(people) != 3 || people[0].ID != 2 {
		t.Errorf("people %+v, want 2, 15 and 79", people)
	}
}

func TestFolderPeople(t *testing.T) {
	a, _ := readELO("a.ELO", []byte(club))
	b, _ := readELO("b.ELO", []byte(strings.NewReplacer("06/01/2024 - 07/01/2024", "01/03/2024", "ARCHER, Ann, FRA", "ARCHER-SMITH, Ann, GBR").Replace(club)))
	c, err := readELO("c.ELO", []byte("%%Date: 01/02/2024\n%Round: 1\n99 (40)>(24) 79\n")) // no standings
	if err != nil {
		t.Fatal(err)
	}
	f := &archive.Folder{Tournaments: []*archive.Tournament{a, b, c}}
	people, err := f.People(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, p := range people {
		ids = append(ids, p.ID)
	}
	if want := []int{2, 15, 16, 79, 99}; !reflect.DeepEqual(ids, want) {
		t.Errorf("ids %v, want %v (99 plays in a game, in no standings)", ids, want)
	}
	ann := people[0]
	want := []archive.Seen{
		{Last: "ARCHER", First: "Ann", Country: "FRA", From: day("2024-01-06"), To: day("2024-01-06"), Tournaments: 1},
		{Last: "ARCHER-SMITH", First: "Ann", Country: "GBR", From: day("2024-03-01"), To: day("2024-03-01"), Tournaments: 1},
	}
	if !reflect.DeepEqual(ann.Names, want) || ann.Latest().Name() != "ARCHER-SMITH, Ann" {
		t.Errorf("player 2's names %+v, latest %q; want %+v, the latest last", ann.Names, ann.Latest().Name(), want)
	}
	if imre := people[3]; len(imre.Names) != 1 || imre.Names[0].Tournaments != 2 || !imre.Names[0].To.Equal(day("2024-03-01")) {
		t.Errorf("player 79's names %+v: want one, in 2 tournaments, to 2024-03-01", imre.Names)
	}
	if p := people[4]; len(p.Names) != 0 || p.Latest() != (archive.Seen{}) {
		t.Errorf("player 99: %+v, want no name", p)
	}
	some, _ := f.People(context.Background(), 79, 99, 1234)
	if len(some) != 2 || some[0].ID != 79 || some[1].ID != 99 {
		t.Errorf("People(79, 99, 1234) = %+v, want 79 and 99", some)
	}
}

// TestRate: a 3-1 head-to-head at equal weights is 1900 and 1700 (RULES.md
// section 8), and the names are the latest file's.
func TestRate(t *testing.T) {
	match := func(date, name string, games ...string) *archive.Tournament {
		text := "%%Date: " + date + "\n%_% 1, " + name + ", Ann, FRA\n%_% 2, BOND, Bea, GBR\n" // no score, no discs
		for i, g := range games {
			text += "%Round: " + string(rune('1'+i)) + "\n" + g + "\n"
		}
		tm, err := readELO(date, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	f := &archive.Folder{Tournaments: []*archive.Tournament{
		match("01/12/2024", "ARCHER", "1 (40)>(24) 2", "2 (40)>(24) 1"),
		match("15/12/2024", "ARCHER-SMITH", "1 (40)>(24) 2", "2 (24)<(40) 1"),
	}}
	l, err := archive.Rate(context.Background(), f, day("2025-01-01"), rating.Options{MinPart: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) != 2 {
		t.Fatalf("%d entries, want 2", len(l.Entries))
	}
	a, b := l.Entries[0], l.Entries[1]
	if a.ID != 1 || a.Name != "ARCHER-SMITH, Ann" || a.Country != "FRA" || a.Rank != 1 || b.Rank != 2 || b.Name != "BOND, Bea" {
		t.Errorf("entries %+v %+v", a, b)
	}
	if d := max(abs(a.Rating-1900), abs(b.Rating-1700)); d > 0.01 {
		t.Errorf("ratings %.3f and %.3f, want 1900 and 1700", a.Rating, b.Rating)
	}
	players := l.Players()
	if p := players[1]; !p.Rated || p.Name != "ARCHER-SMITH, Ann" || abs(p.Rating-1900) > 0.01 {
		t.Errorf("Players()[1] = %+v", p)
	}
	// Before her second tournament, the list names her as the first did.
	l, err = archive.Rate(context.Background(), f, day("2024-12-10"), rating.Options{MinPart: 2})
	if err != nil {
		t.Fatal(err)
	}
	if p := l.Players()[1]; p.Name != "ARCHER, Ann" {
		t.Errorf("at 2024-12-10: %+v, want ARCHER, Ann", p)
	}
}

func abs(x float64) float64 { return max(x, -x) }

func TestReadList(t *testing.T) {
	programs := "Rank,WOF id,Name,Country,Rating,Uncertainty,Games,Last tournament,Listed,Official\n" +
		"1,79,\"LEADER, Imre\",GBR,2157.43,45.2,1139,2024-10-26,true,true\n" +
		",12,\"'=SUM(A1), x\",FRA,,,3,2024-10-26,false,false\n" +
		",960,\"OLD, Timer\",FRA,3173.2,3910,20,1996-05-01,false,false\n"
	excel := "\uFEFFWOF id;Rating;Name;Country;Why not rated\n79;2157,43;LEADER, Imre;GBR;\n12;;'=SUM(A1), x;FRA;in a linked part of 1 player\n"
	want := map[int]archive.Listed{
		79: {ID: 79, Name: "LEADER, Imre", Country: "GBR", Rated: true, Rating: 2157.43},
		12: {ID: 12, Name: "=SUM(A1), x", Country: "FRA"},
	}
	unlisted := archive.Listed{ID: 960, Name: "OLD, Timer", Country: "FRA", Rated: true, Rating: 3173.2, Unlisted: true}
	for _, tc := range []struct{ name, text, why string }{{"programs", programs, ""}, {"excel", excel, "in a linked part of 1 player"}} {
		name := tc.name
		got, _, err := archive.ReadList(strings.NewReader(tc.text))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		w := want[12]
		w.Why = tc.why // the programs' list says none
		want[12] = w
		delete(want, 960)
		if tc.name == "programs" { // rated, not listed (--all)
			want[960] = unlisted
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
	}
	for _, c := range []struct{ name, text, want string }{
		{"no rating column", "WOF id,Name,Country\n79,x,GBR\n", `line 1: not a rating list of otd's: no column "Rating"`},
		{"bad id", "WOF id,Name,Country,Rating\nx79,x,GBR,2000\n", `line 2: not a rating list of otd's: WOF id "x79"`},
		{"bad rating", "WOF id,Name,Country,Rating\n79,x,GBR,high\n", `line 2: not a rating list of otd's: rating "high"`},
		{"twice", "WOF id,Name,Country,Rating\n79,x,GBR,2000\n79,y,GBR,2000\n", "line 3: not a rating list of otd's: WOF id 79 is on two lines"},
		{"empty", "", "line 1: not a rating list"},
	} {
		_, _, err := archive.ReadList(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, archive.ErrListFile) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// TestReadELOOtdLines: otd's lines of format 2 (issue 30: the championship,
// each final game's match) are comments to the archive. The file reads as
// club does, with the same players and games; its commented-out game is
// the one written as a game ("% 12 (24)<(40) 7", as some files leave a game
// out; club's "% 79 (64)<(00)    15 B" contradicts its sign and is none),
// none of otd's lines, though those have numbers and words ("final",
// "match") that label final blocks in other files; and otd's lines are read
// for what they say.
func TestReadELOOtdLines(t *testing.T) {
	otdLines := `% otd: rounds 2
% otd: format 2
% otd: city Utrecht
% otd: final top=2,bestof=1,third=0
% otd: category women final=top=2,bestof=1,third=0
% otd: category youth born-from=2012
% otd: teams best=2,exclude=youth
% otd: details 2 born=2012 category=women
% otd: details 16 born=1990 team="Tokyo Club"
% otd: numbers 2 1 4 3
% 12 (24)<(40) 7
`
	data := strings.Replace(club, "\n%Round: 1\n", "\n"+otdLines+"\n%Round: 1\n", 1)
	data = strings.Replace(data, "%%Added results\n    79 (32)>(32)      2 B\n", "%%Added results\n    79 (32)>(32)      2 B\n% otd: match F game=1\n", 1)
	got, err := readELO("2024/club.ELO", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want, err := readELO("2024/club.ELO", []byte(club))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with otd's lines\n%+v\nwant, as without\n%+v", got, want)
	}
	f, err := elo.Read(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, c := range f.Commented {
		lines = append(lines, c.Line)
	}
	commented := []int{1 + strings.Count(data[:strings.Index(data, "% 12 (24)<(40) 7")], "\n")}
	if !reflect.DeepEqual(lines, commented) {
		t.Errorf("commented-out games on lines %v; want %v", lines, commented)
	}
	o := f.Otd
	if o == nil || o.Format != 2 || o.City != "Utrecht" || o.Final != "top=2,bestof=1,third=0" || len(o.Categories) != 2 ||
		o.Categories[1] != (elo.Category{Name: "youth", BornFrom: 2012}) || o.Details[16].Team != "Tokyo Club" ||
		o.Matches[0] != (elo.Match{Code: "F", Game: 1}) || len(f.Added) != 1 || len(f.Rounds) != 2 {
		t.Errorf("otd's lines read as %+v, %d added games, %d rounds", o, len(f.Added), len(f.Rounds))
	}
}

// TestListName: the list writes "SURNAME, Given" (issue 32, point 3): the
// surname of the latest file up to the day in capitals, the given name as a
// file writes it in both cases where the latest writes it in one.
func TestListName(t *testing.T) {
	seen := func(last, first, d string) archive.Seen {
		return archive.Seen{Last: last, First: first, From: day(d), To: day(d)}
	}
	for _, c := range []struct {
		names []archive.Seen
		at    string
		want  string
	}{
		{[]archive.Seen{seen("FUKUCHI", "Keisuke", "2016-01-10"), seen("FUKUCHI", "keisuke", "2024-07-21")}, "2024-11-30", "FUKUCHI, Keisuke"},
		{[]archive.Seen{seen("Saeong", "Phuripat", "2024-05-01")}, "2024-11-30", "SAEONG, Phuripat"},
		{[]archive.Seen{seen("RYMAROWICZ", "PAWEL", "2024-05-01")}, "2024-11-30", "RYMAROWICZ, Pawel"},
		{[]archive.Seen{seen("Zieger", "bernd", "2024-05-01")}, "2024-11-30", "ZIEGER, Bernd"},
		{[]archive.Seen{seen("MUNKh-ERDENE", "ankh-amgalan", "2024-05-01")}, "2024-11-30", "MUNKH-ERDENE, Ankh-Amgalan"},
		{[]archive.Seen{seen("OUREGA ZIRIMBA", "A.f.", "2024-05-01")}, "2024-11-30", "OUREGA ZIRIMBA, A.f."}, // both cases: as written
		{[]archive.Seen{seen("OUREGA ZIRIMBA", "a.f.", "2024-05-01")}, "2024-11-30", "OUREGA ZIRIMBA, A.F."},
		{[]archive.Seen{seen("CHAN", "Alvin Chun Hei", "2020-05-01"), seen("CHAN", "ALVIN CHUN HEI", "2024-05-01")}, "2024-11-30", "CHAN, Alvin Chun Hei"},
		// A name taken after the day is not the list's; nor a given name
		// other than the latest's.
		{[]archive.Seen{seen("ARCHER", "ann", "2020-05-01"), seen("ARCHER-SMITH", "Anne", "2024-12-15")}, "2024-11-30", "ARCHER, Ann"},
		{[]archive.Seen{seen("DE MASI", "Luca", "2020-05-01")}, "2024-11-30", "DE MASI, Luca"},
	} {
		if got := (archive.Person{ID: 1, Names: c.names}).ListName(day(c.at)); got != c.want {
			t.Errorf("ListName(%v) = %q, want %q", c.names, got, c.want)
		}
	}
}
