package transcript

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
)

// Sheet is a transcript sheet: the number of the move played on each square
// of a board of its rules, 0 for an empty square and for the starting
// squares. The zero value is an empty sheet of standard Othello. Sheets
// compare with ==.
type Sheet struct {
	Rules engine.Rules // the zero value: standard Othello
	cells [16 * 16]int16
}

// NewSheet returns an empty sheet of the board of r.
func NewSheet(r engine.Rules) Sheet {
	if r == (engine.Rules{}) {
		r = engine.Othello()
	}
	return Sheet{Rules: r}
}

// At returns the number written on p (0 for none, or a square off the board).
func (s Sheet) At(p engine.Point) int {
	if !s.rules().Playable(int(p.Col), int(p.Row)) {
		return 0
	}
	return int(s.cells[int(p.Row)*16+int(p.Col)])
}

// Set writes n on p; a square off the board is left alone.
func (s *Sheet) Set(p engine.Point, n int) {
	if s.rules().Playable(int(p.Col), int(p.Row)) {
		s.cells[int(p.Row)*16+int(p.Col)] = int16(n)
	}
}

func (s Sheet) rules() engine.Rules { return NewSheet(s.Rules).Rules }

// Squares returns the squares of the sheet's board, row by row from a1.
func (s Sheet) Squares() []engine.Point {
	r := s.rules()
	var ps []engine.Point
	for row := range r.Size {
		for col := range r.Size {
			if r.Playable(col, row) {
				ps = append(ps, engine.Point{Col: int8(col), Row: int8(row)})
			}
		}
	}
	return ps
}

// maxNumber returns the highest move number of the sheet's board: the squares
// empty at the start.
func (s Sheet) maxNumber() int {
	b, err := StartBoard(Game{Rules: s.rules(), Start: engine.Start()})
	if err != nil {
		return 0
	}
	return b.Empties()
}

// startDisc reports whether p holds a disc at the start of r.
func startDisc(r engine.Rules, p engine.Point) bool {
	b, err := StartBoard(Game{Rules: r, Start: engine.Start()})
	if err != nil {
		return false
	}
	_, ok := b.At(p)
	return ok
}

// SheetFromMoves numbers the squares of the moves played under r (passes
// take no number).
func SheetFromMoves(r engine.Rules, moves []engine.Point) Sheet {
	s := NewSheet(r)
	n := 0
	for _, m := range moves {
		if m != engine.PassPoint {
			n++
			s.Set(m, n)
		}
	}
	return s
}

// String writes the sheet as a grid with coordinates; the starting squares
// show their discs (X black, O white), empty squares a dot and the squares
// the board's shape cuts a #.
func (s Sheet) String() string {
	r := s.rules()
	start, _ := StartBoard(Game{Rules: r, Start: engine.Start()})
	lw, w := len(strconv.Itoa(r.Size)), max(3, len(strconv.Itoa(r.Squares()))+1)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", lw))
	for c := range r.Size {
		fmt.Fprintf(&b, "%*c", w, 'a'+c)
	}
	b.WriteByte('\n')
	for row := range r.Size {
		fmt.Fprintf(&b, "%*d", lw, row+1)
		for col := range r.Size {
			p := engine.Point{Col: int8(col), Row: int8(row)}
			cell := "."
			if n := s.At(p); n != 0 {
				cell = strconv.Itoa(n)
			} else if c, ok := start.At(p); ok {
				cell = "XO"[c : c+1]
			} else if !r.Playable(col, row) {
				cell = "#"
			}
			fmt.Fprintf(&b, "%*s", w, cell)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ProblemKind is a defect in the numbering of a sheet.
type ProblemKind int

// Kinds of numbering defects.
const (
	Missing ProblemKind = iota + 1 // no square holds the number
	Doubled                        // two or more squares hold it
)

// SheetProblem is the first number of a sheet that is missing or doubled.
type SheetProblem struct {
	Number  int
	Kind    ProblemKind
	Squares []engine.Point // where a doubled number stands
}

func (p SheetProblem) String() string {
	if p.Kind == Missing {
		return fmt.Sprintf("move %d is missing from the sheet", p.Number)
	}
	names := make([]string, len(p.Squares))
	for i, s := range p.Squares {
		names[i] = s.String()
	}
	return fmt.Sprintf("move %d is written on %d squares (%s)", p.Number, len(p.Squares), strings.Join(names, ", "))
}

// Moves returns the moves in number order up to the first missing or doubled
// number, and that problem if there is one. Numbers outside 1 to the board's
// empty squares are ignored.
func (s Sheet) Moves() ([]engine.Point, *SheetProblem) {
	top := s.maxNumber()
	at := make([][]engine.Point, top+1)
	last := 0
	for _, p := range s.Squares() {
		if n := s.At(p); n > 0 && n <= top {
			at[n] = append(at[n], p)
			last = max(last, n)
		}
	}
	moves := make([]engine.Point, 0, last)
	for n := 1; n <= last; n++ {
		switch len(at[n]) {
		case 0:
			return moves, &SheetProblem{Number: n, Kind: Missing}
		case 1:
			moves = append(moves, at[n][0])
		default:
			return moves, &SheetProblem{Number: n, Kind: Doubled, Squares: at[n]}
		}
	}
	return moves, nil
}

// Game returns the sheet as a game from the start of its rules.
func (s Sheet) Game() Game {
	moves, prob := s.Moves()
	sh := s
	g := newGame("sheet", s.rules())
	g.Moves, g.Sheet, g.Problem = moves, &sh, prob
	return g
}

// ParseSheet reads a transcript sheet of standard Othello: eight rows of
// eight cells, each the number (1-60) of the move played on that square, or
// blank, 0, ., - or _ for an empty square; the four starting squares may hold
// letters (X, O, B, W) or stay blank. Cells are separated by spaces, tabs,
// commas, semicolons or |. An optional header of column letters a-h and
// optional row labels 1-8 are skipped; with a header, cells left blank in
// space-aligned columns are read by their position under it. A claimed score
// (e.g. "40-24") may follow the grid.
func ParseSheet(text string) (Game, error) { return ParseSheetRules(text, engine.Othello()) }

// ParseSheetRules reads a transcript sheet of a board of rules r as
// ParseSheet does: Size rows of Size cells, numbers from 1 to the squares
// empty at the start, letters only on the starting discs, and # (or an empty
// cell) on a square the shape cuts.
func ParseSheetRules(text string, r engine.Rules) (Game, error) {
	if err := r.Validate(); err != nil {
		return Game{}, &ParseError{Format: SheetFormat, Expected: "valid rules", Found: err.Error(), Err: ErrUnsupported}
	}
	s := NewSheet(r)
	n, top := r.Size, s.maxNumber()
	var header []int // column positions of the letters in a header line
	row := 0
	var res *Result
	lastLine, lastCol := 1, 1 // the end of the last line read, for a short sheet
	grid := fmt.Sprintf("%d rows of %d cells", n, n)
	for li, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		t := strings.TrimSpace(line)
		perr := func(col int, expected, f string) error {
			return &ParseError{Format: SheetFormat, Line: li + 1, Column: col, Expected: expected, Found: f, Err: ErrSyntax}
		}
		tabRow := t == "" && row < n && strings.Count(line, "\t") == n-1                                          // n empty cells
		cutRow := r.Shape != engine.FullBoard && row < n && t != "" && t[0] == '#' && len(strings.Fields(t)) == n // a row of 8Stars, not a comment
		if !tabRow && !cutRow && (t == "" || t[0] == '#' || t[0] == '%') {
			continue
		}
		lastLine, lastCol = li+1, len(line)+1
		first := strings.Index(line, t) + 1 // the column of the first character
		switch {
		case isHeader(t, n):
			header = headerColumns(line, n)
			continue
		case row == n:
			if sc, err := engine.ParseScore(t); err == nil && res == nil && sc.Black+sc.White <= r.Squares() {
				res = &Result{Black: sc.Black, White: sc.White}
				continue
			}
			return Game{}, perr(first, fmt.Sprintf("nothing after the %d rows but a claimed score such as 40-24", n), found(t))
		}
		cells, cols := splitCells(line)
		aligned := header != nil && !strings.ContainsAny(line, cellSeps)
		if len(cells) > 0 && cells[0] == strconv.Itoa(row+1) && (len(cells) == n+1 || aligned && cols[0] < header[0]) {
			cells, cols = cells[1:], cols[1:] // a row label
		}
		if len(cells) != n && aligned {
			cells, cols = alignCells(cells, cols, header)
		}
		if len(cells) == n+1 && strings.Trim(cells[0], "0123456789") == "" && len(cells[0]) > 0 {
			return Game{}, perr(cols[0]+1, fmt.Sprintf("row label %d", row+1), found(cells[0]))
		}
		if len(cells) != n {
			return Game{}, perr(first, fmt.Sprintf("%d cells in row %d", n, row+1), fmt.Sprintf("%d cells", len(cells)))
		}
		for c, cell := range cells {
			p := engine.Point{Col: int8(c), Row: int8(row)}
			v, err := parseCell(cell, r, p, top)
			if err != "" {
				return Game{}, perr(cols[c]+1, err+" for "+p.String(), found(cell))
			}
			s.Set(p, v)
		}
		row++
	}
	if row == 0 {
		return Game{}, &ParseError{Format: SheetFormat, Line: lastLine, Column: lastCol, Expected: grid, Found: "no row", Err: ErrEmpty}
	}
	if row < n {
		return Game{}, &ParseError{Format: SheetFormat, Line: lastLine, Column: lastCol, Expected: grid, Found: fmt.Sprintf("%d rows", row), Err: ErrTruncated}
	}
	g := s.Game()
	g.Result = res
	return g, nil
}

// parseCell reads the cell of square p on the board of r whose numbers go up to top.
func parseCell(cell string, r engine.Rules, p engine.Point, top int) (int, string) {
	off := !r.Playable(int(p.Col), int(p.Row))
	switch strings.ToLower(cell) {
	case "", "0", ".", "-", "_":
		return 0, ""
	case "#":
		if off {
			return 0, ""
		}
		return 0, "a move number or an empty cell (# stands only on the squares the board cuts)"
	case "x", "o", "b", "w", "●", "○":
		if startDisc(r, p) {
			return 0, ""
		}
		return 0, "a move number (letters stand only on " + startSquares(r) + ")"
	}
	if off {
		return 0, "an empty cell or # (the board cuts this square)"
	}
	n, err := strconv.Atoi(cell)
	if err != nil || n < 0 || n > top {
		return 0, fmt.Sprintf("a move number 1-%d or an empty cell", top)
	}
	return n, ""
}

// startSquares names the squares of the starting discs of r.
func startSquares(r engine.Rules) string {
	m := r.Size/2 - 1
	var names []string
	for _, p := range []engine.Point{{Col: int8(m), Row: int8(m)}, {Col: int8(m + 1), Row: int8(m)}, {Col: int8(m), Row: int8(m + 1)}, {Col: int8(m + 1), Row: int8(m + 1)}} {
		if startDisc(r, p) {
			names = append(names, p.String())
		}
	}
	if len(names) == 0 {
		return "no square: the board starts empty"
	}
	return strings.Join(names, ", ")
}

// cellSeps are the separators of cells other than spaces.
const cellSeps = ",\t;|"

// isHeader reports whether t is a header of the n column letters from a, however separated.
func isHeader(t string, n int) bool {
	f := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r == ' ' || strings.ContainsRune(cellSeps, r) })
	return len(f) == n && strings.Join(f, "") == "abcdefghijklmnop"[:n]
}

func headerColumns(line string, n int) []int {
	var cols []int
	for i := 0; i < len(line); i++ {
		if c := line[i] | 0x20; c >= 'a' && c < 'a'+byte(n) {
			cols = append(cols, i)
		}
	}
	return cols
}

// splitCells splits a row into cells and their starting columns. With commas,
// tabs, semicolons or bars, empty fields are kept; otherwise cells are runs of
// non-space characters.
func splitCells(line string) ([]string, []int) {
	var cells []string
	var cols []int
	if i := strings.IndexAny(line, cellSeps); i >= 0 {
		sep := line[i]
		start := 0
		for j := 0; j <= len(line); j++ {
			if j == len(line) || line[j] == sep {
				cell := strings.TrimSpace(line[start:j])
				cells = append(cells, cell)
				cols = append(cols, start)
				start = j + 1
			}
		}
		if t := strings.TrimSpace(line); sep == '|' { // |a|b| style: drop the fields outside the outer bars
			if t[0] == '|' {
				cells, cols = cells[1:], cols[1:]
			}
			if t[len(t)-1] == '|' && len(cells) > 0 {
				cells, cols = cells[:len(cells)-1], cols[:len(cols)-1]
			}
		}
		return cells, cols
	}
	for i := 0; i < len(line); {
		if line[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		cells = append(cells, line[i:j])
		cols = append(cols, i)
		i = j
	}
	return cells, cols
}

// alignCells reads the tokens of a space-aligned row (starting at starts) by
// the header's column positions: each token goes to the column whose letter is
// nearest to the token's last character. It returns the cells and where each
// starts (a blank cell: under its letter).
func alignCells(tokens []string, starts []int, header []int) ([]string, []int) {
	cells := make([]string, len(header))
	cols := slices.Clone(header)
	for k, tok := range tokens {
		end := starts[k] + len(tok) - 1
		best := 0
		for c, h := range header {
			if abs(h-end) < abs(header[best]-end) {
				best = c
			}
		}
		if abs(header[best]-end) > 2 {
			continue // a row label or stray text outside the columns
		}
		if cells[best] != "" {
			return tokens, starts // two tokens under one letter: not aligned
		}
		cells[best], cols[best] = tok, starts[k]
	}
	return cells, cols
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// looksSheet reports whether text looks like a transcript sheet: at least
// four lines (the rows of the smallest board) of four or more cells, most of
// them numbers or empty.
func looksSheet(data []byte) bool {
	rows := 0
	for _, line := range strings.Split(string(data), "\n") {
		cells, _ := splitCells(line)
		nums := 0
		for _, c := range cells {
			if _, err := strconv.Atoi(c); err == nil || c == "." || c == "" || c == "-" || c == "#" {
				nums++
			}
		}
		if len(cells) >= 4 && nums >= 3 && 2*nums > len(cells) {
			rows++
		}
	}
	return rows >= 4
}
