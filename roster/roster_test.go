package roster_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/roster"
)

func utf16LE(s string) []byte {
	b := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func utf16BE(s string) []byte {
	b := []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

// TestRead reads players files as spreadsheets save them, and refuses those
// that do not fit with the line, the column and the kind of problem.
func TestRead(t *testing.T) {
	type player struct {
		name    string
		rating  int
		country string
		line    int
	}
	for _, tc := range []struct {
		name    string
		data    string
		sep     rune
		header  int      // the line of the header skipped, 0 if none
		players []player // nil: an error is expected
		allow   bool     // Options.AllowDuplicates
		cp1252  bool     // read as Windows-1252
		err     error
		errLine int
		errCol  int // 0: the line as a whole
	}{
		{name: "comma with header", data: "name,rating,country\n\"LEADER, Imre\",2150,GBR\nAnn,,\n", sep: ',', header: 1,
			players: []player{{"LEADER, Imre", 2150, "GBR", 2}, {"Ann", 0, "", 3}}},
		{name: "semicolon, BOM, CRLF, French header", data: "\ufeffNom;Classement;Pays\r\nLEADER, Imre;2150;GBR\r\nSMITH, Ben;1900;FR\r\n", sep: ';', header: 1,
			players: []player{{"LEADER, Imre", 2150, "GBR", 2}, {"SMITH, Ben", 1900, "FR", 3}}},
		{name: "semicolon without header", data: "LEADER, Imre;2150;GBR\nSMITH, Ben;1900\n", sep: ';',
			players: []player{{"LEADER, Imre", 2150, "GBR", 1}, {"SMITH, Ben", 1900, "", 2}}},
		{name: "semicolon, two columns, names with a comma", data: "LEADER, Imre;2150\nSMITH, Ben;1900\n", sep: ';',
			players: []player{{"LEADER, Imre", 2150, "", 1}, {"SMITH, Ben", 1900, "", 2}}},
		{name: "tab, two columns, names with a comma", data: "LEADER, Imre\t2150\nSMITH, Ben\t\n", sep: '\t',
			players: []player{{"LEADER, Imre", 2150, "", 1}, {"SMITH, Ben", 0, "", 2}}},
		{name: "comma, a name with a semicolon in quotes", data: "\"A; B\",1500\nC,1400\n", sep: ',',
			players: []player{{"A; B", 1500, "", 1}, {"C", 1400, "", 2}}},
		{name: "semicolon, quoted field holding a semicolon", data: "\"A; B\";1500\nC;1400\n", sep: ';',
			players: []player{{"A; B", 1500, "", 1}, {"C", 1400, "", 2}}},
		{name: "tab, Hungarian header", data: "Név\tÉrtékszám\tOrszág\nKiss, Anna\t1800\tHUN\n", sep: '\t', header: 1,
			players: []player{{"Kiss, Anna", 1800, "HUN", 2}}},
		{name: "header of two unknown words", data: "Spelare;Ranking\nAnna;1800\n", sep: ';', header: 1,
			players: []player{{"Anna", 1800, "", 2}}},
		{name: "Excel sep= line", data: "sep=;\r\nNom;Elo\r\nA;1\r\n", sep: ';', header: 2,
			players: []player{{"A", 1, "", 3}}},
		{name: "one column of names with header", data: "Name\nAnn\nBen\n", sep: ',', header: 1,
			players: []player{{"Ann", 0, "", 2}, {"Ben", 0, "", 3}}},
		{name: "one column of names without header", data: "Ann\nBen\n", sep: ',',
			players: []player{{"Ann", 0, "", 1}, {"Ben", 0, "", 2}}},
		{name: "empty cells and blank lines", data: "Ann;1500;FR;;;\n\n;;;\n  \nBen;;;\n", sep: ';',
			players: []player{{"Ann", 1500, "FR", 1}, {"Ben", 0, "", 5}}},
		{name: "CR line ends", data: "name,rating\rAnn,1500\rBen,1400\r", sep: ',', header: 1,
			players: []player{{"Ann", 1500, "", 2}, {"Ben", 1400, "", 3}}},
		{name: "UTF-16 LE (Unicode text), tabs", data: string(utf16LE("Name\tRating\r\nMüller, Hans\t1850\r\n")), sep: '\t', header: 1,
			players: []player{{"Müller, Hans", 1850, "", 2}}},
		{name: "UTF-16 BE", data: string(utf16BE("Ann,1500\n")), sep: ',',
			players: []player{{"Ann", 1500, "", 1}}},
		{name: "a player with a wrong rating is no header", data: "\"NEW, Ned\",high,FR\n", err: roster.ErrRating, errLine: 1, errCol: 12},
		{name: "digits: no header", data: "Name 2,Rating\nAnn,1500\n", err: roster.ErrRating, errLine: 1, errCol: 8},

		{name: "too many columns", data: "Name;Rating;Country\nA;1;FR\nB;1;FR;Paris\n", err: roster.ErrColumns, errLine: 3, errCol: 8},
		{name: "unquoted comma in a name", data: "name,rating,country\nLEADER, Imre,2150,GBR\n", err: roster.ErrColumns, errLine: 2, errCol: 19},
		{name: "rating not a number", data: "Nom;Elo\nA;1.500\n", err: roster.ErrRating, errLine: 2, errCol: 3},
		{name: "duplicate name", data: "Ann Archer;1\nBen;2\n ann  ARCHER ;3\n", err: roster.ErrDuplicate, errLine: 3, errCol: 1},
		{name: "duplicate name, accents aside", data: "Müller, Jörg;1\nBen;2\nMULLER, JORG;3\n", err: roster.ErrDuplicate, errLine: 3, errCol: 1},
		{name: "duplicate name, ø and ł", data: "Ødegaard, Łucja;1\nodegaard, lucja;2\n", err: roster.ErrDuplicate, errLine: 2, errCol: 1},
		{name: "two people of one name, allowed", data: "Müller, Jörg;1\nMULLER, JORG;3\n", allow: true, sep: ';',
			players: []player{{"Müller, Jörg", 1, "", 1}, {"MULLER, JORG", 3, "", 2}}},
		{name: "bare quote", data: "name\nJan \"Flash\" Jansen\n", err: roster.ErrSyntax, errLine: 2, errCol: 5},
		{name: "unclosed quote", data: "name\n\"Ann,1500\nBen,1400\n", err: roster.ErrSyntax, errLine: 2},
		{name: "text after a closing quote", data: "name\n\"Ann\" Archer,1500\n", err: roster.ErrSyntax, errLine: 2, errCol: 5}, // the quote that closes too early
		// Excel's "CSV" on Windows in France: the code page's bytes (E9 é, F4 ô, FC ü, 80 €).
		{name: "not UTF-8: Windows-1252", data: "Nom;Classement;Pays\r\nJ\xe9r\xf4me;1500;FR\r\nM\xfcller \x80;;DE\r\n", sep: ';', header: 1, cp1252: true,
			players: []player{{"Jérôme", 1500, "FR", 2}, {"Müller €", 0, "DE", 3}}},
		{name: "UTF-16 of odd length", data: "\xff\xfeA\x00B", err: roster.ErrEncoding},
		{name: "header only", data: "Name;Rating;Country\n", err: roster.ErrEmpty},
		{name: "empty", data: "", err: roster.ErrEmpty},
		{name: "only a BOM and blank lines", data: "\ufeff\r\n\r\n;;\r\n", err: roster.ErrEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pf, err := roster.Read(strings.NewReader(tc.data), roster.Options{AllowDuplicates: tc.allow})
			if tc.err != nil {
				var pe *roster.ParseError
				if !errors.Is(err, tc.err) || !errors.As(err, &pe) || pe.Line != tc.errLine || pe.Col != tc.errCol {
					t.Fatalf("err = %#v (%v); want %v at line %d, column %d", pe, err, tc.err, tc.errLine, tc.errCol)
				}
				checkMessage(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if pf.Sep != tc.sep || pf.Header != tc.header || pf.Windows1252 != tc.cp1252 {
				t.Errorf("separator %q, header line %d, Windows-1252 %t; want %q, %d, %t", pf.Sep, pf.Header, pf.Windows1252, tc.sep, tc.header, tc.cp1252)
			}
			var got []player
			for _, p := range pf.Players {
				got = append(got, player{p.Name, p.Rating, p.Country, p.Line})
			}
			if len(got) != len(tc.players) {
				t.Fatalf("players %+v; want %+v", got, tc.players)
			}
			for i := range got {
				if got[i] != tc.players[i] {
					t.Errorf("player %d: %+v; want %+v", i+1, got[i], tc.players[i])
				}
			}
		})
	}
}

// TestReadColumns: a header names the columns, in any order (issue 30): all
// a championship needs of a player is read from one file; a column otd does
// not read, or one named twice, is refused with its name, line and column.
func TestReadColumns(t *testing.T) {
	data := "Team;Categories;born;WOF id;Women;Country;Rating;Name\n" +
		"Oranje;\"seniors;u20\";2009-05-01;5012;yes;NED;1850;DE JONG, Anna\n" +
		";;1961;;no;GER;;MÜLLER, Jörg\n" +
		"\n" +
		";seniors\n" // a line of empty cells but a category: no name
	pf, err := roster.Read(strings.NewReader(data), roster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []roster.Player{
		{Name: "DE JONG, Anna", Rating: 1850, Country: "NED", WOFID: 5012, Women: true, Born: "2009-05-01", Team: "Oranje", Categories: []string{"seniors", "u20"}, Line: 2},
		{Name: "MÜLLER, Jörg", Country: "GER", Born: "1961", Line: 3},
		{Categories: []string{"seniors"}, Line: 5},
	}
	if pf.Header != 1 || fmt.Sprintf("%+v", pf.Players) != fmt.Sprintf("%+v", want) {
		t.Errorf("header line %d, players\n%+v\nwant\n%+v", pf.Header, pf.Players, want)
	}

	gender, err := roster.Read(strings.NewReader("gender,name\nF,Ann\nm,Ben\nW,Cleo\n,Dan\n"), roster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, women := range []bool{true, false, true, false} {
		if p := gender.Players[i]; p.Women != women {
			t.Errorf("%s: women %t, want %t", p.Name, p.Women, women)
		}
	}

	for _, tc := range []struct {
		name, data, msg string
		err             error
		line, col       int
	}{
		{"unknown column", "name,rating,club,country\nAnn,1500,Paris,FRA\n", `line 1: column 3, "club", is not one otd reads: the columns are name, rating, country, wof_id, women, born, team, categories (women also as gender, F or W), in any order; rename the column or delete it`, roster.ErrColumn, 1, 13},
		{"unknown column, continental", "sep=;\nNom;Pays;Verein\nAnn;FRA;Paris\n", `line 2: column 3, "Verein", is not one otd reads`, roster.ErrColumn, 2, 10},
		{"a column twice", "name;women;gender\nAnn;yes;F\n", `line 1: column 3, "gender", is column 2, "women", again: keep one of the two`, roster.ErrColumn, 1, 12},
		{"no name", "rating,country,team\n1500,FRA,Paris\n", "line 1: no name column", roster.ErrColumn, 1, 0},
		{"women neither yes nor no", "name,women\nAnn,maybe\n", `line 2: women "maybe": yes or no (or empty)`, roster.ErrValue, 2, 5},
		{"gender", "name,gender\nAnn,X\n", `line 2: gender "X": F or W for a woman, M for a man (or empty)`, roster.ErrValue, 2, 5},
		{"WOF id", "wof_id,name\n12a,Ann\n", `line 2: WOF id "12a" is not a whole number`, roster.ErrValue, 2, 1},
		{"rating in its place", "born,rating,name\n2009,high,Ann\n", `line 2: rating "high" is not a whole number`, roster.ErrRating, 2, 6},
		{"more cells than columns", "name,born\nAnn,2009,FRA\n", "line 2: 3 columns; expected name, born: delete the other columns", roster.ErrColumns, 2, 10},
	} {
		_, err := roster.Read(strings.NewReader(tc.data), roster.Options{})
		var pe *roster.ParseError
		if !errors.Is(err, tc.err) || !errors.As(err, &pe) || pe.Line != tc.line || pe.Col != tc.col || !strings.HasPrefix(err.Error(), tc.msg) {
			t.Errorf("%s: %v; want %v at line %d, column %d: %s", tc.name, err, tc.err, tc.line, tc.col, tc.msg)
			continue
		}
		checkMessage(t, err)
	}
}

// checkMessage fails unless err is one line: "line N: ..." for a line of
// the file, what is wrong as it is for the file as a whole.
func checkMessage(t *testing.T, err error) {
	t.Helper()
	var pe *roster.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("%v (%T) is not a *ParseError", err, err)
	}
	msg := err.Error()
	if pe.Line != 0 && !strings.HasPrefix(msg, fmt.Sprintf("line %d: ", pe.Line)) || pe.Line == 0 && strings.HasPrefix(msg, "line ") || strings.Contains(msg, "\n") {
		t.Fatalf("message %q: want one line, starting with line %d", msg, pe.Line)
	}
}

// TestReadExample reads examples/players.csv, the file the README names.
func TestReadExample(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "examples", "players.csv"))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := roster.Read(bytes.NewReader(b), roster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if pf.Header != 1 || pf.Sep != ',' || len(pf.Players) != 10 || pf.Players[0].Name != "ARCHER, Ann" || pf.Players[0].Rating != 2150 {
		t.Errorf("examples/players.csv: header line %d, separator %q, %d players, first %+v", pf.Header, pf.Sep, len(pf.Players), pf.Players[0])
	}
}

// TestReadLimits: a players file stops at a line over 64 KiB (at once for an
// endless line, as /dev/zero's) and at more than 100,000 players.
func TestReadLimits(t *testing.T) {
	_, err := roster.Read(strings.NewReader("Ann,1500\r\nBen,1400\r\n"+strings.Repeat("x", 70_000)+"\r\n"), roster.Options{})
	var pe *roster.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, roster.ErrTooLarge) || pe.Line != 3 || pe.Col != 64<<10+1 || err.Error() != "line 3: longer than 64 KiB: not a players file (one player a line: name, rating, country)" {
		t.Errorf("a line of 70,000 bytes: %v, want ErrTooLarge at line 3, column 65537", err)
	}
	endless := &zeros{}
	if _, err := roster.Read(endless, roster.Options{}); !errors.As(err, &pe) || !errors.Is(err, roster.ErrTooLarge) || pe.Line != 1 || endless.read > 2<<20 {
		t.Errorf("an endless line: %v after %d bytes, want ErrTooLarge at line 1 within its first 64 KiB", err, endless.read)
	}

	var b strings.Builder
	b.WriteString("name,rating\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "P%d,%d\n", i, 1000+i%1000)
	}
	if pf, err := roster.Read(strings.NewReader(b.String()), roster.Options{}); err != nil || len(pf.Players) != 100_000 {
		t.Fatalf("a header and 100,000 players: %v", err)
	}
	b.WriteString("\nOne More,1500\n")
	_, err = roster.Read(strings.NewReader(b.String()), roster.Options{})
	if !errors.As(err, &pe) || !errors.Is(err, roster.ErrTooLarge) || pe.Line != 100_003 || !strings.Contains(err.Error(), "more than 100000 players") {
		t.Errorf("100,001 players: %v, want ErrTooLarge at line %d", err, 100_003)
	}
}

// zeros reads as /dev/zero does, counting the bytes read.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestAlreadyRegistered: the error of a player of the file already
// registered names the line, the player and how the name was registered.
func TestAlreadyRegistered(t *testing.T) {
	p := roster.Player{Name: "leader,   imre", Line: 2}
	err := p.AlreadyRegistered(11, "LEADER, Imre")
	var pe *roster.ParseError
	if !errors.Is(err, roster.ErrDuplicate) || !errors.As(err, &pe) || pe.Line != 2 ||
		!strings.HasPrefix(err.Error(), `line 2: "leader, imre" is already registered as player 11, as "LEADER, Imre" (duplicate name): delete the line`) {
		t.Errorf("%v", err)
	}
	if err := p.AlreadyRegistered(3, "leader, imre"); strings.Contains(err.Error(), ", as ") {
		t.Errorf("the same spelling said again: %v", err)
	}
}

// FuzzRead: any file is read or refused with a *ParseError of one line,
// never a panic; what is read is players, in file order, each on one line
// and under a distinct name. Seeds: testdata/fuzz/FuzzRead (moved with the
// reader from cmd/otd/cli, where it was FuzzParsePlayersCSV) and
// examples/players.csv.
func FuzzRead(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(f), "examples", "players.csv")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("\ufeffNom;Classement;Pays\r\nLEADER, Imre;2150;GBR\r\n"))
	f.Add(utf16LE("Name\tRating\r\nMüller, Hans\t1850\r\n"))
	f.Add([]byte("team;categories;born;wof_id;women;country;rating;name\nOranje;\"seniors;u20\";2009-05-01;5012;yes;NED;1850;DE JONG, Anna\n"))
	f.Add([]byte("gender,name,club\nF,Ann,Paris\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := roster.Read(bytes.NewReader(data), roster.Options{})
		if err != nil {
			checkMessage(t, err)
			return
		}
		if len(pf.Players) == 0 || !strings.ContainsRune(",;\t", pf.Sep) {
			t.Fatalf("%d players, separator %q", len(pf.Players), pf.Sep)
		}
		last, names := pf.Header, map[string]bool{}
		for _, p := range pf.Players {
			if p.Line <= last {
				t.Fatalf("player %q on line %d after line %d", p.Name, p.Line, last)
			}
			last = p.Line
			if strings.ContainsAny(p.Name, "\r\n") {
				t.Fatalf("name %q on more than one line", p.Name)
			}
			if k := txt.FoldName(p.Name); k != "" && names[k] {
				t.Fatalf("name %q twice", p.Name)
			} else {
				names[k] = true
			}
		}
	})
}
