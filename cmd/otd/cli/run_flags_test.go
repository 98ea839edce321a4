package cli

import (
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
	"github.com/spf13/cobra"
)

// The commands' flags and arguments, read into their options with no
// database opened (checkFlags): the expected options are what each
// command's help says its flags mean.

func TestFinalNextFlags(t *testing.T) {
	type o = finalNextOptions
	type f = tournament.FinalOptions
	verb := func(v string) func(*globals, func(o) error) *cobra.Command {
		return func(g *globals, runF func(o) error) *cobra.Command { return newFinalNextCmd(g, v, runF) }
	}
	checkFlags(t, verb("next"), []flagCase[o]{
		{args: []string{"final", "next"}, want: o{FinalOptions: f{Black: map[string]int{}}}},
		{args: []string{"final", "next", "--black", "SF1=12", "--black", " women:F =3"},
			want: o{FinalOptions: f{Black: map[string]int{"SF1": 12, "women:F": 3}}}},
		{args: []string{"final", "next", "--black", "SF1"}, code: exitUsage,
			err: `final next: --black "SF1": write the match's code and the player who has black, e.g. SF1=12`},
		{args: []string{"final", "next", "--black", "F=0"}, code: exitUsage, err: `--black "F=0"`},
		{args: []string{"final", "next", "--black", "F=x"}, code: exitUsage, err: `--black "F=x"`},
		{args: []string{"final", "next", "now"}, code: exitUsage, err: `unknown command "now"`},
	})
	checkFlags(t, verb("start"), []flagCase[o]{
		{args: []string{"final", "start"}, want: o{Start: true, FinalOptions: f{Black: map[string]int{}}}},
		{args: []string{"final", "start", "--black", "PO=7"}, want: o{Start: true, FinalOptions: f{Black: map[string]int{"PO": 7}}}},
		{args: []string{"final", "start", "--black", "=7x"}, code: exitUsage, err: `final start: --black "=7x"`},
	})
}

func TestCategoryAddFlags(t *testing.T) {
	type o = categoryAddOptions
	type c = tournament.Category
	single := tournament.FinalRules{Qualifiers: 4, BestOf: 1, Third: 1, Level: tournament.LevelSeed, Colour: tournament.ColourLot} // RULES.md section 7: single games among the top 4
	checkFlags(t, newCategoryAddCmd, []flagCase[o]{
		{args: []string{"category", "add", "women", "--final", "single"}, want: o{c{Name: "women", Final: single}}},
		{args: []string{"category", "add", "youth", "--born-from", "2008"}, want: o{c{Name: "youth", BornFrom: 2008}}},
		{args: []string{"category", "add", "seniors", "--born-to", "1966", "--final", "none"}, want: o{c{Name: "seniors", BornTo: 1966}}},
		{args: []string{"category", "add", "open", "--final", "woc"}, want: o{c{Name: "open", Final: tournament.WOCFinal}}},
		{args: []string{"category", "add", "women", "--final", "knockout"}, code: exitUsage, err: "knockout"},
		{args: []string{"category", "add", "youth", "--born-from", "soon"}, code: exitUsage, err: `"soon"`},
		{args: []string{"category", "add"}, code: exitUsage, err: "accepts 1 arg(s), received 0"},
	})
}

func TestTeamsFlags(t *testing.T) {
	checkFlags(t, newTeamsCmd, []flagCase[teamsOptions]{
		{args: []string{"teams"}, want: teamsOptions{}},
		{args: []string{"teams", "--json"}, want: teamsOptions{JSON: true}},
		{args: []string{"teams", "FRA"}, code: exitUsage, err: `unknown command "FRA"`},
	})
}

// TestRoundReportFlags: round check and explain read the round R alike;
// without it, the last round paired.
func TestRoundReportFlags(t *testing.T) {
	type o = roundOptions
	for name, newCmd := range map[string]func(*globals, func(o) error) *cobra.Command{"check": newRoundCheckCmd, "explain": newRoundExplainCmd} {
		t.Run(name, func(t *testing.T) {
			checkFlags(t, newCmd, []flagCase[o]{
				{args: []string{"round", name}, want: o{Last: true}},
				{args: []string{"round", name, "3", "--json"}, want: o{Round: 3, JSON: true}},
				{args: []string{"round", name, "x"}, code: exitUsage, err: "round " + name + `: R is a round number, not "x"`},
				{args: []string{"round", name, "1", "2"}, code: exitUsage, err: "accepts at most 1 arg(s), received 2"},
			})
		})
	}
}

func TestBackupFlags(t *testing.T) {
	type o = backupOptions
	const pg = "postgres://otd:secret@db.example.org/federation"
	checkFlags(t, newBackupCmd, []flagCase[o]{
		{args: []string{"backup", "paris-open-round3.db"}, want: o{File: "paris-open-round3.db"}},
		{args: []string{"backup", "/media/usb/club-saturday.db", "--force"}, want: o{File: "/media/usb/club-saturday.db", Force: true}},
		{args: []string{"backup", "-"}, want: o{File: "-"}},
		{args: []string{"backup", "--to", pg}, want: o{To: pg}},
		{args: []string{"backup", "--to", "copy.db", "--force"}, want: o{To: "copy.db", Force: true}},
		// A postgres:// URL for FILE is a database to copy into.
		{args: []string{"backup", pg}, want: o{To: pg}},
		{args: []string{"backup"}, code: exitUsage, err: "accepts 1 arg(s), received 0"},
		{args: []string{"backup", "--to", pg, "copy.db"}, code: exitUsage, err: `"copy.db"`},
		{args: []string{"backup", "a.db", "b.db"}, code: exitUsage, err: "accepts 1 arg(s), received 2"},
	})
}

func TestRestoreFlags(t *testing.T) {
	type o = restoreOptions
	checkFlags(t, newRestoreCmd, []flagCase[o]{
		{args: []string{"restore", "paris-open-round3.db"}, want: o{Backup: "paris-open-round3.db"}},
		{args: []string{"restore", "postgres://otd@db.example.org/federation"}, want: o{Backup: "postgres://otd@db.example.org/federation"}},
		{args: []string{"restore"}, code: exitUsage, err: "accepts 1 arg(s), received 0"},
		{args: []string{"restore", "a.db", "b.db"}, code: exitUsage, err: "accepts 1 arg(s), received 2"},
		{args: []string{"restore", "a.db", "--force"}, code: exitUsage, err: "unknown flag: --force"},
	})
}

func TestWorkerFlags(t *testing.T) {
	type o = workerOptions
	type w = app.WorkOptions
	checkFlags(t, newWorkerCmd, []flagCase[o]{
		{args: []string{"worker"}, want: o{WorkOptions: w{Concurrency: 1}}},
		{args: []string{"worker", "--name", "rack1"}, want: o{WorkOptions: w{Concurrency: 1}, Name: "rack1"}},
		{args: []string{"worker", "--concurrency", "2", "--engines", "Edax=/opt/edax/nboard", "--engines", "Rhino 2=/usr/games/gtp-rhino -l 2"},
			want: o{WorkOptions: w{Engines: []string{"Edax=/opt/edax/nboard", "Rhino 2=/usr/games/gtp-rhino -l 2"}, Concurrency: 2}}},
		{args: []string{"worker", "--concurrency", "64"}, want: o{WorkOptions: w{Concurrency: 64}}},
		{args: []string{"worker", "--concurrency", "0"}, code: exitUsage, err: "worker: --concurrency 0: 1 to 64 games at once"},
		{args: []string{"worker", "--concurrency", "65"}, code: exitUsage, err: "worker: --concurrency 65: 1 to 64 games at once"},
		{args: []string{"worker", "now"}, code: exitUsage, err: `unknown command "now"`},
	})
}

func TestServeFlags(t *testing.T) {
	type o = serveOptions
	checkFlags(t, newServeCmd, []flagCase[o]{
		// No QR code by default where standard output is no terminal.
		{args: []string{"serve"}, want: o{Listen: "127.0.0.1:8080"}},
		{args: []string{"serve", "--listen", "0.0.0.0:8080", "--qr"}, want: o{Listen: "0.0.0.0:8080", QR: true}},
		{args: []string{"serve", "--listen", "0.0.0.0:8080", "--qr=false"}, want: o{Listen: "0.0.0.0:8080"}},
		{args: []string{"serve", "--venue"}, want: o{Listen: "127.0.0.1:8080", Venue: true}},
		{args: []string{"serve", "--listen"}, code: exitUsage, err: "flag needs an argument: --listen"},
		{args: []string{"serve", "--venue"}, want: o{Listen: "127.0.0.1:8080", Venue: true}},
		{args: []string{"serve", "--venue", "--listen", "0.0.0.0:8080", "--https-listen", "0.0.0.0:9443"}, want: o{Listen: "0.0.0.0:8080", Venue: true, HTTPSListen: "0.0.0.0:9443"}},
		{args: []string{"serve", "--https-listen", "0.0.0.0:9443"}, code: exitUsage, err: "serve: --https-listen is the director's console's: add --venue"},
		{args: []string{"serve", "now"}, code: exitUsage, err: `unknown command "now"`},
	})
}
