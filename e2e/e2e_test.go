//go:build e2e

// Package e2e checks what a person opens, in the programs they open it
// with: the spreadsheet in LibreOffice, the HTML page and the wall sheet in
// Chromium (on screen and printed to PDF), the board pictures in Chromium,
// and the pages of 'otd serve' in Chromium, live (serve_test.go).
// Run by `make e2e`, which installs them (not part of `make test`):
//
//	go test -tags e2e ./e2e/...
//
// Screenshots and PDFs are left in $E2E_OUT (default: a temporary folder)
// for a person to look at.
package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/otd-project/otd/internal/testenv"
)

// names of the event's players: a script, a formula, accents, a long name.
var names = []string{
	"ARCHER, Ann", "<script>alert(1)</script>", `=HYPERLINK("http://example.com","click")`, "Müller, Jürgen",
	"BROOK, Bob", "COLE, Cy", "DANE, Di", "EAST, Eve", "FAWN, Fay", "GRAY, Gus", "HILL, Hal",
	"Kashiwabara Takuji Alexander Longname",
}

// standing is a line of `otd standings --json`.
type standing struct {
	Rank, Number int
	Name         string
	Country      string
	Points, BQ   json.Number
	Discs, Games int
}

// env is what the checks share: the otd binary, the event's database, the
// output folder.
type env struct {
	t        *testing.T
	otd, db  string
	dir, out string
}

func (e *env) run(args ...string) []byte {
	e.t.Helper()
	cmd := exec.Command(e.otd, append([]string{"--db", e.db}, args...)...)
	cmd.Dir = e.dir
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		e.t.Fatalf("otd %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr)
	}
	return out
}

// tool returns the path of a program, or skips (fails under CI) without it.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		testenv.Missing(t, name+" ('make e2e' installs it)")
	}
	return p
}

// build builds otd for t; the event's database is event.db in a
// temporary folder.
func build(t *testing.T) *env {
	dir := t.TempDir()
	e := &env{t: t, otd: filepath.Join(dir, "otd"), db: filepath.Join(dir, "event.db"), dir: dir, out: os.Getenv("E2E_OUT")}
	if e.out == "" {
		e.out = t.TempDir()
	}
	if err := os.MkdirAll(e.out, 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", e.otd, "./cmd/otd")
	build.Dir = testenv.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return e
}

// setup builds otd and runs a 4-round Swiss event of the twelve players
// through its commands: results from a formula, a time default and a
// forfeit.
func setup(t *testing.T) *env {
	e := build(t)
	e.run("tournament", "new", "E2E Open <2026>", "--rounds", "4", "--start", "2026-11-21", "--city", "Lyon", "--country", "FR")
	for i, n := range names {
		e.run("player", "add", n, "--rating", strconv.Itoa(2000-37*i), "--country", []string{"FR", "JP", "DE", "GB"}[i%4])
	}
	for r := 1; r <= 4; r++ {
		e.run("round", "pair")
		var games []struct {
			Table int  `json:"table"`
			Bye   bool `json:"bye"`
		}
		if err := json.Unmarshal(e.run("round", "show", "--json"), &games); err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if g.Bye {
				continue
			}
			args := []string{"result", strconv.Itoa(r), strconv.Itoa(g.Table)}
			switch b := 20 + (7*r+11*g.Table)%25; {
			case r == 2 && g.Table == 1:
				args = append(args, "--forfeit", "white")
			case r == 3 && g.Table == 2:
				args = append(args, "19-5", "--time-default", "black")
			default:
				args = append(args, fmt.Sprintf("%d-%d", b, 64-b))
			}
			e.run(args...)
		}
	}
	return e
}

func TestEndToEnd(t *testing.T) {
	e := setup(t)
	var want []standing
	if err := json.Unmarshal(e.run("standings", "--json"), &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(names) {
		t.Fatalf("%d players in the standings; want %d", len(want), len(names))
	}
	t.Logf("screenshots and PDFs in %s", e.out)
	t.Run("xlsx", func(t *testing.T) { checkXLSX(t, e) })
	t.Run("html", func(t *testing.T) { checkHTML(t, e, want) })
	t.Run("wall", func(t *testing.T) { checkWall(t, e, want) })
	t.Run("svg", func(t *testing.T) { checkSVG(t, e) })
	t.Run("serve", func(t *testing.T) { checkServe(t, e) })
	t.Run("championship", func(t *testing.T) { checkChampionship(t, e) })
	t.Run("rating", func(t *testing.T) { checkRating(t, e) })
}

// checkRating opens the rating list's workbook (of the WOF archive's 2024
// files, at 2025-01-01) with LibreOffice and finds in it what
// `otd rating --csv` gives: the same players, in the same order, with the
// same figures.
func checkRating(t *testing.T, e *env) {
	archive := filepath.Join(e.dir, "archive.db")
	e.run("archive", "index", filepath.Join(testenv.SharedData(t), "wof-archive", "2024"), "--archive-db", archive)
	xlsx := filepath.Join(e.out, "rating.xlsx")
	e.run("rating", "--at", "2025-01-01", "--archive", archive, "--xlsx", xlsx, "--force")
	want, err := csv.NewReader(bytes.NewReader(e.run("rating", "--at", "2025-01-01", "--archive", archive, "--csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := readCSV(t, soleCSV(t, e, xlsx, "rating"))
	if len(want) < 100 || len(got) != len(want) {
		t.Fatalf("the workbook has %d rows; otd rating --csv %d (want 100 or more)", len(got), len(want))
	}
	for r := range want {
		for j := range want[r] {
			if j >= len(got[r]) || !sameValue(want[r][j], got[r][j]) && !shownRounded(want[r][j], got[r][j]) && !strings.EqualFold(want[r][j], got[r][j]) {
				t.Fatalf("row %d, column %q: %q in the XLSX; otd rating --csv gives %q", r, want[0][j], got[r][min(j, len(got[r])-1)], want[r][j])
			}
		}
	}
}

// shownRounded reports whether a cell shows a number rounded to a whole
// (the sheet shows a rating as the WOF's list does, 2997 for 2997.35).
func shownRounded(want, got string) bool {
	w, err1 := strconv.ParseFloat(want, 64)
	g, err2 := strconv.Atoi(got)
	return err1 == nil && err2 == nil && float64(g) == math.Round(w)
}

// soleCSV converts the first sheet of a workbook to CSV with LibreOffice and
// returns the file's path.
func soleCSV(t *testing.T, e *env, xlsx, name string) string {
	csvDir := filepath.Join(e.out, name+"-csv")
	cmd := exec.Command(tool(t, "soffice"), "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.Join(e.dir, "lo-profile"),
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false", "--outdir", csvDir, xlsx)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	return filepath.Join(csvDir, strings.TrimSuffix(filepath.Base(xlsx), ".xlsx")+".csv")
}

// checkXLSX converts every sheet of the workbook to CSV with LibreOffice and
// finds in its Standings sheet what `otd standings --csv` gives: the same
// players in the same order with the same numbers, and names as text (the
// formula not run: with or without the CSV's protective quote).
func checkXLSX(t *testing.T, e *env) {
	csvDir := convertXLSX(t, e, "event")
	got := readCSV(t, filepath.Join(csvDir, "event-Standings.csv"))
	want, err := csv.NewReader(bytes.NewReader(e.run("standings", "--csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range got[0] {
		col[strings.ToLower(strings.TrimSpace(h))] = i
	}
	synonyms := map[string][]string{"number": {"number", "no", "no.", "#"}, "bq": {"bq"}}
	if len(got) != len(want) {
		t.Fatalf("the Standings sheet has %d rows; otd standings --csv %d", len(got), len(want))
	}
	for j, h := range want[0] {
		if h == "withdrawn" {
			continue // written as the sheet likes it
		}
		i, ok := -1, false
		for _, s := range append(synonyms[h], h) {
			if i, ok = col[s]; ok {
				break
			}
		}
		if !ok {
			t.Errorf("the Standings sheet has no column %q: %q", h, got[0])
			continue
		}
		for r := 1; r < len(want); r++ {
			// The sheet may keep the CSV's protective quote, or not.
			w, g := want[r][j], got[r][i]
			if !sameValue(w, g) && !sameValue(strings.TrimPrefix(w, "'"), g) {
				t.Errorf("Standings row %d, %s: %q in the XLSX; otd standings --csv gives %q", r, h, g, want[r][j])
			}
		}
	}
}

// convertXLSX writes the workbook of e's event to NAME.xlsx and converts
// every sheet to CSV with LibreOffice: the folder of the files,
// NAME-SHEET.csv.
func convertXLSX(t *testing.T, e *env, name string) string {
	soffice := tool(t, "soffice")
	xlsx := filepath.Join(e.out, name+".xlsx")
	e.run("export", "xlsx", "--force", xlsx)
	csvDir := filepath.Join(e.out, name+"-csv")
	// Filter options: comma, quote, UTF-8, from line 1, ..., as shown, ...,
	// -1: every sheet to its own file, NAME-SHEET.csv.
	cmd := exec.Command(soffice, "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.Join(e.dir, "lo-profile"),
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1", "--outdir", csvDir, xlsx)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	return csvDir
}

// sameValue compares a cell: numbers to 0.005 (the sheet may show BQ
// with its rule's decimals), text exactly.
func sameValue(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 == nil && err2 == nil {
		return x-y < 0.005 && y-x < 0.005
	}
	return a == b
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// chromium runs headless Chromium with args on a file or a URL.
func chromium(t *testing.T, e *env, file string, args ...string) []byte {
	t.Helper()
	bin := tool(t, "chromium")
	args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
		"--user-data-dir=" + filepath.Join(e.dir, "chromium")}, args...)
	if !strings.Contains(file, "://") {
		file = "file://" + file
	}
	cmd := exec.Command(bin, append(args, file)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// screenshot renders file (or a URL) at width x height and returns the picture.
func screenshot(t *testing.T, e *env, file, png string, width, height int) image.Image {
	t.Helper()
	chromium(t, e, file, fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+png)
	return readPNG(t, png)
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// inked reports whether a picture has dark pixels (text was drawn).
func inked(img image.Image) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0x4000 {
				return true
			}
		}
	}
	return false
}

var (
	rowRE  = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`)
)

// tableRows gives the text of the cells of the table of class class in the
// DOM Chromium serialized.
func tableRows(t *testing.T, dom, class string) [][]string {
	t.Helper()
	start := strings.Index(dom, `<table class="`+class+`"`)
	if start < 0 {
		t.Fatalf("no table %q in the DOM", class)
	}
	dom = dom[start:]
	dom = dom[:strings.Index(dom, "</table>")]
	var rows [][]string
	for _, r := range rowRE.FindAllStringSubmatch(dom, -1) {
		var cells []string
		for _, c := range cellRE.FindAllStringSubmatch(r[1], -1) {
			cells = append(cells, html.UnescapeString(c[1]))
		}
		rows = append(rows, cells)
	}
	return rows
}

// checkPDF prints file to PDF and checks that every page is A4 (595 x 842
// points) and that the text has every name.
func checkPDF(t *testing.T, e *env, file, pdf string, want []standing) {
	t.Helper()
	chromium(t, e, file, "--no-pdf-header-footer", "--print-to-pdf="+pdf)
	b, err := os.ReadFile(pdf)
	if err != nil {
		t.Fatal(err)
	}
	boxes := regexp.MustCompile(`/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]`).FindAllSubmatch(b, -1)
	if len(boxes) == 0 {
		t.Fatalf("%s: no /MediaBox", pdf)
	}
	for _, m := range boxes {
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		if w < 594 || w > 597 || h < 841 || h > 843.5 {
			t.Errorf("%s: a page of %s x %s points; A4 is 595 x 842", pdf, m[1], m[2])
		}
	}
	t.Logf("%s: %d pages", pdf, len(boxes))
	out, err := exec.Command(tool(t, "pdftotext"), "-enc", "UTF-8", pdf, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, s := range want {
		if !strings.Contains(text, strings.Join(strings.Fields(s.Name), " ")) {
			t.Errorf("%s: %q is not in the printed text", pdf, s.Name)
		}
	}
}

// checkHTML renders the results page on a phone and a desk, reads its text
// back from Chromium's DOM and finds the standings, and prints it on A4.
func checkHTML(t *testing.T, e *env, want []standing) {
	page := filepath.Join(e.out, "results.html")
	e.run("export", "html", "--force", page)
	dom := string(chromium(t, e, page, "--dump-dom"))
	if strings.Contains(dom, "<script") {
		t.Error("the page's DOM has a script element")
	}
	if !strings.Contains(dom, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("the player named <script>alert(1)</script> is not text in the page")
	}
	rows := tableRows(t, dom, "standings")
	if len(rows) != len(want)+1 {
		t.Fatalf("the page's standings have %d rows; want %d", len(rows)-1, len(want))
	}
	for i, s := range want {
		w := []string{strconv.Itoa(s.Rank), strconv.Itoa(s.Number), s.Name, s.Country, s.Points.String(), s.BQ.String(), strconv.Itoa(s.Discs), strconv.Itoa(s.Games)}
		if strings.Join(rows[i+1], "|") != strings.Join(w, "|") {
			t.Errorf("standings row %d: the page shows %q; otd standings --json gives %q", i+1, rows[i+1], w)
		}
	}
	for _, size := range [][2]int{{390, 844}, {1280, 900}} {
		img := screenshot(t, e, page, filepath.Join(e.out, fmt.Sprintf("results-%dx%d.png", size[0], size[1])), size[0], size[1])
		if b := img.Bounds(); b.Dx() != size[0] || !inked(img) {
			t.Errorf("the %dx%d screenshot is %v, inked %v", size[0], size[1], b, inked(img))
		}
	}
	checkPDF(t, e, page, filepath.Join(e.out, "results.pdf"), want)
}

// checkWall renders the wall sheet of the last round and prints it: every
// player is on it, twice (by name, by table; the bye once by table).
func checkWall(t *testing.T, e *env, want []standing) {
	wall := filepath.Join(e.out, "wall.html")
	e.run("round", "show", "--print", "--output", wall, "--force")
	dom := string(chromium(t, e, wall, "--dump-dom"))
	byName := tableRows(t, dom, "by-name")
	if len(byName) != len(want)+1 {
		t.Errorf("the wall sheet lists %d players by name; want %d", len(byName)-1, len(want))
	}
	for i := 2; i < len(byName); i++ {
		if strings.ToLower(byName[i-1][0]) > strings.ToLower(byName[i][0]) {
			t.Errorf("by name: %q before %q", byName[i-1][0], byName[i][0])
		}
	}
	if img := screenshot(t, e, wall, filepath.Join(e.out, "wall.png"), 794, 1123); !inked(img) {
		t.Error("the wall sheet's screenshot is blank")
	}
	checkPDF(t, e, wall, filepath.Join(e.out, "wall.pdf"), want)
}

// checkSVG renders the board before an illegal move and checks the pixels
// where the picture must have a black disc, a white disc, the red cross
// and an empty green square; then a game otd played, drawn by export svg.
func checkSVG(t *testing.T, e *env) {
	rec := filepath.Join(e.dir, "bad.txt")
	if err := os.WriteFile(rec, []byte("f5 d6 c3 a1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(e.out, "illegal.svg")
	cmd := exec.Command(e.otd, "verify", rec, "--svg", svg, "--force")
	if out, err := cmd.Output(); err == nil || !strings.Contains(string(out), "Illegal: move 4") {
		t.Fatalf("otd verify: %v\n%s", err, out)
	}
	img := screenshot(t, e, svg, filepath.Join(e.out, "illegal.png"), 432, 504)
	// Square centres: 24 + 48 x column + 24. Sample right of the number.
	at := func(sq string) color.Color {
		c, r := int(sq[0]-'a'), int(sq[1]-'1')
		return img.At(48+48*c+15, 48+48*r)
	}
	is := func(sq string, c color.Color, want string, ok func(r, g, b uint32) bool) {
		r, g, b, _ := c.RGBA()
		if !ok(r>>8, g>>8, b>>8) {
			t.Errorf("%s: the picture shows rgb(%d,%d,%d); want %s", sq, r>>8, g>>8, b>>8, want)
		}
	}
	is("c3", at("c3"), "a black disc", func(r, g, b uint32) bool { return r < 40 && g < 40 && b < 40 })
	is("d6", at("d6"), "a white disc", func(r, g, b uint32) bool { return r > 215 && g > 215 && b > 215 })
	is("h8", at("h8"), "an empty green square", func(r, g, b uint32) bool { return g > r+40 && g > b+40 })
	is("a1", img.At(48, 48), "the red cross", func(r, g, b uint32) bool { return r > 150 && g < 60 && b < 60 })

	// A game otd played: two built-in engines.
	e2 := *e
	e2.db = filepath.Join(e.dir, "engines.db")
	e2.run("tournament", "new", "Engines", "--rounds", "1")
	e2.run("player", "add", "Greedy", "--engine", "builtin:greedy")
	e2.run("player", "add", "Random", "--engine", "builtin:random")
	e2.run("round", "pair")
	e2.run("round", "play", "--time", "10s")
	board := filepath.Join(e.out, "game.svg")
	e2.run("export", "svg", "--round", "1", "--table", "1", "--force", board)
	img = screenshot(t, e, board, filepath.Join(e.out, "game.png"), 432, 504)
	if !inked(img) {
		t.Error("the game's picture is blank")
	}
}
