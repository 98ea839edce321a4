package cli

import (
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/archive"
	"github.com/otd-project/otd/elo"
	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/export"
	"github.com/spf13/cobra"
	"time"
)

// The flags of verify, rating, archive index and problems, export elo and
// xlsx, and demo: each command hands its run function the options its
// line says, or refuses the line, before any database or file is opened.

func TestVerifyFlags(t *testing.T) {
	type o = verifyOptions
	anti6 := engine.Rules{Size: 6, Winner: engine.FewestDiscs}
	checkFlags(t, newVerifyCmd, []flagCase[o]{
		{args: []string{"verify"}, want: o{Files: []string{"-"}, At: -1}},
		{args: []string{"verify", "a.txt", "b.ggf", "--json"}, want: o{Files: []string{"a.txt", "b.ggf"}, At: -1, JSON: true}},
		{args: []string{"verify", "game.txt", "--claimed", "40-24", "--at", "4", "--svg", "-", "--force"},
			want: o{Files: []string{"game.txt"}, Claimed: &transcript.Result{Black: 40, White: 24}, At: 4, SVG: "-", Force: true}},
		{args: []string{"verify", "t.json", "--format", "FTD"}, want: o{Files: []string{"t.json"}, FTD: true, At: -1}},
		{args: []string{"verify", "g.pgn", "--format", "pgn"}, want: o{Files: []string{"g.pgn"}, Format: transcript.PGN, At: -1}},
		{args: []string{"verify", "--rules", "anti", "--size", "6", "g.txt"}, want: o{Files: []string{"g.txt"}, At: -1, Rules: &anti6}},
		{args: []string{"verify", "--rules", "anti:6", "g.txt"}, want: o{Files: []string{"g.txt"}, At: -1, Rules: &anti6}},
		{args: []string{"verify", "--format", "chess"}, code: exitUsage, err: "verify: --format: "},
		{args: []string{"verify", "--claimed", "forty"}, code: exitUsage, err: "verify: --claimed: "},
		{args: []string{"verify", "--rules", "anti:6", "--size", "8"}, code: exitUsage, err: "verify: give the board size once: --rules anti:6 or --size 8"},
		// 6x6 has 36 squares.
		{args: []string{"verify", "--size", "6", "--claimed", "30-10"}, code: exitUsage, err: "verify: --claimed 30-10: more discs than the 36 squares of"},
	})
}

func TestRatingFlags(t *testing.T) {
	type o = ratingOptions
	t.Setenv("OTD_ARCHIVE_DB", "wof.db")
	strict, err := archive.ParseReading("sign=discs", 40)
	if err != nil {
		t.Fatal(err)
	}
	excel, err := export.ExcelCSV("fr")
	if err != nil {
		t.Fatal(err)
	}
	checkFlags(t, newRatingCmd, []flagCase[o]{
		{args: []string{"rating"}, want: o{Archive: "wof.db"}},
		{args: []string{"rating", "--archive", "dir", "--lenient", "sign=discs", "--bye-discs", "40", "--all", "--country", "FR", "--json"},
			want: o{Archive: "dir", Reading: &strict, All: true, Country: "FRA", JSON: true}},
		// --bye-discs 0 is a bye's point alone; the files read as the list reads them.
		{args: []string{"rating", "--bye-discs", "0", "--min-part", "3"}, want: o{Archive: "wof.db", Reading: &archive.Reading{Lenient: elo.ListReading, ByeDiscs: -1}, MinPart: 3}},
		{args: []string{"rating", "--strict"}, want: o{Archive: "wof.db", Reading: &archive.Reading{}}},
		{args: []string{"rating", "--strict", "--lenient", "sign=discs"}, code: exitUsage, err: "one of --strict and --lenient"},
		{args: []string{"rating", "--excel"}, want: o{Archive: "wof.db", CSV: true, Format: excel}},
		{args: []string{"rating", "--xlsx", "list.xlsx", "--force"}, want: o{Archive: "wof.db", XLSX: "list.xlsx", Force: true}},
		{args: []string{"rating", "--json", "--csv"}, code: exitUsage, err: "rating: one of --json, --csv and --xlsx"},
		{args: []string{"rating", "--country", "Narnia"}, code: exitUsage, err: "rating: --country: "},
		{args: []string{"rating", "--bye-discs", "20"}, code: exitUsage, err: "--bye-discs 20: a bye counts 32 to 64 discs"},
		{args: []string{"rating", "--lenient", "sign=maybe"}, code: exitUsage, err: "sign=maybe"},
		{args: []string{"rating", "--at", "2025-13-01"}, code: exitUsage, err: "--at"},
		{args: []string{"rating", "list"}, code: exitUsage, err: `unknown command "list"`},
	})
}

// inArchive makes an archive command over the archive database FILE.db.
func inArchive[O any](newCmd func(*globals, *string, func(O) error) *cobra.Command) func(*globals, func(O) error) *cobra.Command {
	return func(g *globals, runF func(O) error) *cobra.Command {
		db := "FILE.db"
		return newCmd(g, &db, runF)
	}
}

func TestArchiveIndexFlags(t *testing.T) {
	type o = archiveIndexOptions
	totals, err := archive.ParseReading("totals=games", 0)
	if err != nil {
		t.Fatal(err)
	}
	checkFlags(t, inArchive(newArchiveIndexCmd), []flagCase[o]{
		{args: []string{"archive", "index", "wof"}, want: o{DB: "FILE.db", Dir: "wof", Options: archive.Options{Reading: archive.ListReading}}},
		{args: []string{"archive", "index", "wof", "--strict"}, want: o{DB: "FILE.db", Dir: "wof"}},
		{args: []string{"archive", "index", "wof", "--again", "--drop", "--json", "--lenient", "totals=games"},
			want: o{DB: "FILE.db", Dir: "wof", Options: archive.Options{Reading: totals, Again: true, Drop: true}, JSON: true}},
		{args: []string{"archive", "index", "wof", "--bye-discs", "64"}, want: o{DB: "FILE.db", Dir: "wof", Options: archive.Options{Reading: archive.Reading{Lenient: elo.ListReading, ByeDiscs: 64}}}},
		{args: []string{"archive", "index"}, code: exitUsage, err: "accepts 1 arg(s), received 0"},
		{args: []string{"archive", "index", "wof", "--bye-discs", "65"}, code: exitUsage, err: "--bye-discs 65"},
	})
}

func TestArchiveProblemsFlags(t *testing.T) {
	type o = archiveProblemsOptions
	checkFlags(t, inArchive(newArchiveProblemsCmd), []flagCase[o]{
		{args: []string{"archive", "problems"}, want: o{DB: "FILE.db"}},
		{args: []string{"archive", "problems", "--json"}, want: o{DB: "FILE.db", JSON: true}},
		{args: []string{"archive", "problems", "x"}, code: exitUsage, err: `unknown command "x"`},
	})
}

func TestExportELOFlags(t *testing.T) {
	type o = exportELOOptions
	checkFlags(t, newExportELOCmd, []flagCase[o]{
		{args: []string{"export", "elo", "out.ELO"}, want: o{Path: "out.ELO"}},
		{args: []string{"export", "elo", "-", "--force", "--sender", "Ann Archer", "--country", "FRA", "--start", "2026-11-21", "--end", "2026-11-22"},
			want: o{Path: "-", Force: true, Sender: "Ann Archer", Country: "FRA", Start: "2026-11-21", End: "2026-11-22"}},
		{args: []string{"export", "elo"}, code: exitUsage, err: "accepts 1 arg(s), received 0"},
	})
}

func TestExportXLSXFlags(t *testing.T) {
	type o = exportXLSXOptions
	checkFlags(t, newExportXLSXCmd, []flagCase[o]{
		{args: []string{"export", "xlsx", "open.xlsx"}, want: o{Path: "open.xlsx"}},
		{args: []string{"export", "xlsx", "open.xlsx", "--force"}, want: o{Path: "open.xlsx", Force: true}},
		{args: []string{"export", "xlsx", "a.xlsx", "b.xlsx"}, code: exitUsage, err: "accepts 1 arg(s), received 2"},
	})
}

func TestDemoFlags(t *testing.T) {
	type o = demoOptions
	type d = app.DemoOptions
	three := app.PlayOptions{Time: engine.TimeControl{Base: 3 * time.Second}, Concurrency: 2}
	checkFlags(t, newDemoCmd, []flagCase[o]{
		{args: []string{"demo"}, want: o{Demo: d{Players: 8, Rounds: 5, Seed: 1}, Play: three}},
		{args: []string{"demo", "--rounds", "7", "--time", "10s", "--concurrency", "1", "--seed", "9"},
			want: o{Demo: d{Players: 8, Rounds: 7, Seed: 9}, Play: app.PlayOptions{Time: engine.TimeControl{Base: 10 * time.Second}, Concurrency: 1}}},
		// Simulated: no engine plays, no time control is read.
		{args: []string{"demo", "--simulated", "--players", "24", "--rounds", "9", "--db", "demo.db"},
			want: o{Demo: d{Players: 24, Rounds: 9, Seed: 1, Simulated: true}, Explicit: true}},
		// A championship: 19 engines and 13 rounds unless told.
		{args: []string{"demo", "--championship"}, want: o{Demo: d{Players: 19, Rounds: 13, Seed: 1, Championship: true}, Play: three}},
		{args: []string{"demo", "--championship", "--rounds", "3", "--players", "6"}, want: o{Demo: d{Players: 6, Rounds: 3, Seed: 1, Championship: true}, Play: three}},
		{args: []string{"demo", "--simulated", "--championship"}, code: exitUsage, err: "demo: --championship is played by engines: leave out --simulated"},
		{args: []string{"demo", "--players", "9"}, code: exitUsage, err: "demo: --players 2 to 8 (19 with --championship, 1000 with --simulated)"},
		{args: []string{"demo", "--simulated", "--players", "4", "--rounds", "5"}, code: exitUsage, err: "fewer rounds than players"},
		{args: []string{"demo", "--time", "soon"}, code: exitUsage, err: "--time: "},
	})
}
