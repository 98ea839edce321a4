package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/otd-project/otd/internal/testenv"
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

// TestParsePlayersCSV reads players files as spreadsheets save them, and
// refuses those that do not fit with the line and the kind of problem.
func TestParsePlayersCSV(t *testing.T) {
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
		err     error
		errLine int
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
		{name: "tab, Hungarian header not in the word list", data: "Név\tÉrtékszám\tOrszág\nKiss, Anna\t1800\tHUN\n", sep: '\t', header: 1,
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
		{name: "a player with a wrong rating is no header", data: "\"NEW, Ned\",high,FR\n", err: errCSVRating, errLine: 1},
		{name: "digits: no header", data: "Name 2,Rating\nAnn,1500\n", err: errCSVRating, errLine: 1},

		{name: "too many columns", data: "Name;Rating;Country\nA;1;FR\nB;1;FR;Paris\n", err: errCSVColumns, errLine: 3},
		{name: "unquoted comma in a name", data: "name,rating,country\nLEADER, Imre,2150,GBR\n", err: errCSVColumns, errLine: 2},
		{name: "rating not a number", data: "Nom;Elo\nA;1.500\n", err: errCSVRating, errLine: 2},
		{name: "duplicate name", data: "Ann Archer;1\nBen;2\n ann  ARCHER ;3\n", err: errDuplicateName, errLine: 3},
		{name: "bare quote", data: "name\nJan \"Flash\" Jansen\n", err: errCSVSyntax, errLine: 2},
		{name: "unclosed quote", data: "name\n\"Ann,1500\nBen,1400\n", err: errCSVSyntax, errLine: 2},
		{name: "text after a closing quote", data: "name\n\"Ann\" Archer,1500\n", err: errCSVSyntax, errLine: 2},
		{name: "not UTF-8 (Windows-1252)", data: "name\nAnn\nM\xfcller\n", err: errCSVEncoding, errLine: 3},
		{name: "UTF-16 of odd length", data: "\xff\xfeA\x00B", err: errCSVEncoding},
		{name: "header only", data: "Name;Rating;Country\n", err: errCSVEmpty},
		{name: "empty", data: "", err: errCSVEmpty},
		{name: "only a BOM and blank lines", data: "\ufeff\r\n\r\n;;\r\n", err: errCSVEmpty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pf, err := parsePlayersCSV("p.csv", []byte(tc.data))
			if tc.err != nil {
				var fe *playersFileError
				if !errors.Is(err, tc.err) || !errors.As(err, &fe) || fe.Line != tc.errLine {
					t.Fatalf("err = %v; want %v at line %d", err, tc.err, tc.errLine)
				}
				if msg := err.Error(); !strings.HasPrefix(msg, "p.csv: ") || strings.Contains(msg, "\n") {
					t.Errorf("message %q: want one line starting with the file's name", msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if pf.Sep != tc.sep || pf.Header != tc.header {
				t.Errorf("separator %q, header line %d; want %q, %d", pf.Sep, pf.Header, tc.sep, tc.header)
			}
			var got []player
			for _, p := range pf.Players {
				got = append(got, player{p.Name, p.Rating, p.Country, p.line})
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

// TestExamplePlayersCSV reads examples/players.csv, the file the README names.
func TestExamplePlayersCSV(t *testing.T) {
	pf, err := readPlayersCSV(filepath.Join(testenv.RepoRoot(t), "examples", "players.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if pf.Header != 1 || pf.Sep != ',' || len(pf.Players) != 10 || pf.Players[0].Name != "ARCHER, Ann" || pf.Players[0].Rating != 2150 {
		t.Errorf("examples/players.csv: header line %d, separator %q, %d players, first %+v", pf.Header, pf.Sep, len(pf.Players), pf.Players[0])
	}
}

// FuzzParsePlayersCSV: any file is read or refused with one line naming it,
// never a panic; what is read is players, in file order, each on one line
// and under a distinct name. Seeds: testdata/fuzz/FuzzParsePlayersCSV and
// examples/players.csv.
func FuzzParsePlayersCSV(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(f), "examples", "players.csv")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("\ufeffNom;Classement;Pays\r\nLEADER, Imre;2150;GBR\r\n"))
	f.Add(utf16LE("Name\tRating\r\nMüller, Hans\t1850\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := parsePlayersCSV("f.csv", data)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "f.csv: ") || strings.Contains(msg, "\n") {
				t.Fatalf("message %q: want one line starting with the file's name", msg)
			}
			return
		}
		if len(pf.Players) == 0 || !strings.ContainsRune(",;\t", pf.Sep) {
			t.Fatalf("%d players, separator %q", len(pf.Players), pf.Sep)
		}
		last, names := pf.Header, map[string]bool{}
		for _, p := range pf.Players {
			if p.line <= last {
				t.Fatalf("player %q on line %d after line %d", p.Name, p.line, last)
			}
			last = p.line
			if strings.ContainsAny(p.Name, "\r\n") {
				t.Fatalf("name %q on more than one line", p.Name)
			}
			if k := nameKey(p.Name); k != "" && names[k] {
				t.Fatalf("name %q twice", p.Name)
			} else {
				names[k] = true
			}
		}
	})
}
