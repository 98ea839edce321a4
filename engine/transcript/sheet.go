package transcript

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/otd-project/otd/engine"
)

// Sheet is a transcript sheet: the number of the move played on each square
// (a1..h8), 0 for an empty square and for the four starting squares.
type Sheet [64]int

const centre = uint64(1)<<27 | 1<<28 | 1<<35 | 1<<36 // d4 e4 d5 e5

// SheetFromMoves numbers the squares of the moves played (passes take no number).
func SheetFromMoves(moves []engine.Move) Sheet {
	var s Sheet
	n := 0
	for _, m := range moves {
		if !m.IsPass() {
			n++
			s[m.Square()] = n
		}
	}
	return s
}

// String writes the sheet as an 8x8 grid with coordinates; the starting
// squares show their discs (X black, O white), empty squares a dot.
func (s Sheet) String() string {
	var b strings.Builder
	b.WriteString("   a  b  c  d  e  f  g  h\n")
	start := engine.Start()
	for r := 0; r < 8; r++ {
		b.WriteByte('1' + byte(r))
		for c := 0; c < 8; c++ {
			sq := engine.SquareAt(c, r)
			cell := "."
			if n := s[sq]; n != 0 {
				cell = strconv.Itoa(n)
			} else if col, ok := start.At(sq); ok {
				cell = "XO"[col : col+1]
			}
			fmt.Fprintf(&b, "%3s", cell)
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
	Squares []engine.Square // where a doubled number stands
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
// number, and that problem if there is one. Numbers outside 1-60 are ignored.
func (s Sheet) Moves() ([]engine.Move, *SheetProblem) {
	var at [61][]engine.Square
	last := 0
	for sq, n := range s {
		if n > 0 && n <= 60 {
			at[n] = append(at[n], engine.Square(sq))
			last = max(last, n)
		}
	}
	moves := make([]engine.Move, 0, last)
	for n := 1; n <= last; n++ {
		switch len(at[n]) {
		case 0:
			return moves, &SheetProblem{Number: n, Kind: Missing}
		case 1:
			moves = append(moves, engine.MoveAt(at[n][0]))
		default:
			return moves, &SheetProblem{Number: n, Kind: Doubled, Squares: at[n]}
		}
	}
	return moves, nil
}

// Game returns the sheet as a game from the standard start.
func (s Sheet) Game() Game {
	moves, prob := s.Moves()
	sh := s
	return Game{Name: "sheet", Start: engine.Start(), Moves: moves, Sheet: &sh, Problem: prob}
}

// ParseSheet reads a transcript sheet: eight rows of eight cells, each the
// number (1-60) of the move played on that square, or blank, 0, ., - or _ for
// an empty square; the four starting squares may hold letters (X, O, B, W) or
// stay blank. Cells are separated by spaces, tabs, commas, semicolons or |.
// An optional header of column letters a-h and optional row labels 1-8 are
// skipped; with a header, cells left blank in space-aligned columns are read
// by their position under it. A claimed score (e.g. "40-24") may follow the grid.
func ParseSheet(text string) (Game, error) {
	var s Sheet
	var header []int // column positions of a..h in a header line
	row := 0
	var res *Result
	lastLine, lastCol := 1, 1 // the end of the last line read, for a short sheet
	for li, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		t := strings.TrimSpace(line)
		perr := func(col int, expected, f string) error {
			return &ParseError{Format: SheetFormat, Line: li + 1, Column: col, Expected: expected, Found: f, Err: ErrSyntax}
		}
		tabRow := t == "" && row < 8 && strings.Count(line, "\t") == 7 // eight empty cells
		if !tabRow && (t == "" || t[0] == '#' || t[0] == '%') {
			continue
		}
		lastLine, lastCol = li+1, len(line)+1
		first := strings.Index(line, t) + 1 // the column of the first character
		switch {
		case isHeader(t):
			header = headerColumns(line)
			continue
		case row == 8:
			if sc, err := engine.ParseScore(t); err == nil && res == nil {
				res = &Result{Black: sc.Black, White: sc.White}
				continue
			}
			return Game{}, perr(first, "nothing after the 8 rows but a claimed score such as 40-24", found(t))
		}
		cells, cols := splitCells(line)
		aligned := header != nil && !strings.ContainsAny(line, cellSeps)
		if len(cells) > 0 && cells[0] == strconv.Itoa(row+1) && (len(cells) == 9 || aligned && cols[0] < header[0]) {
			cells, cols = cells[1:], cols[1:] // a row label
		}
		if len(cells) != 8 && aligned {
			cells, cols = alignCells(cells, cols, header)
		}
		if len(cells) == 9 && strings.Trim(cells[0], "0123456789") == "" && len(cells[0]) > 0 {
			return Game{}, perr(cols[0]+1, fmt.Sprintf("row label %d", row+1), found(cells[0]))
		}
		if len(cells) != 8 {
			return Game{}, perr(first, fmt.Sprintf("8 cells in row %d", row+1), fmt.Sprintf("%d cells", len(cells)))
		}
		for c, cell := range cells {
			sq := engine.SquareAt(c, row)
			n, err := parseCell(cell, centre&sq.Bit() != 0)
			if err != "" {
				return Game{}, perr(cols[c]+1, err+" for "+sq.String(), found(cell))
			}
			s[sq] = n
		}
		row++
	}
	if row == 0 {
		return Game{}, &ParseError{Format: SheetFormat, Line: lastLine, Column: lastCol, Expected: "8 rows of 8 cells", Found: "no row", Err: ErrEmpty}
	}
	if row < 8 {
		return Game{}, &ParseError{Format: SheetFormat, Line: lastLine, Column: lastCol, Expected: "8 rows of 8 cells", Found: fmt.Sprintf("%d rows", row), Err: ErrTruncated}
	}
	g := s.Game()
	g.Result = res
	return g, nil
}

func parseCell(cell string, isCentre bool) (int, string) {
	switch strings.ToLower(cell) {
	case "", "0", ".", "-", "_":
		return 0, ""
	case "x", "o", "b", "w", "●", "○":
		if isCentre {
			return 0, ""
		}
		return 0, "a move number (letters stand only on d4, e4, d5, e5)"
	}
	n, err := strconv.Atoi(cell)
	if err != nil || n < 0 || n > 60 {
		return 0, "a move number 1-60 or an empty cell"
	}
	return n, ""
}

// cellSeps are the separators of cells other than spaces.
const cellSeps = ",\t;|"

// isHeader reports whether t is a header of column letters a-h, however separated.
func isHeader(t string) bool {
	f := strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r == ' ' || strings.ContainsRune(cellSeps, r) })
	return len(f) == 8 && strings.Join(f, "") == "abcdefgh"
}

func headerColumns(line string) []int {
	var cols []int
	for i := 0; i < len(line); i++ {
		if c := line[i] | 0x20; c >= 'a' && c <= 'h' {
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
// eight lines with eight or more cells, most of them numbers.
func looksSheet(data []byte) bool {
	rows := 0
	for _, line := range strings.Split(string(data), "\n") {
		cells, _ := splitCells(line)
		nums := 0
		for _, c := range cells {
			if _, err := strconv.Atoi(c); err == nil || c == "." || c == "" || c == "-" {
				nums++
			}
		}
		if len(cells) >= 8 && nums >= 5 {
			rows++
		}
	}
	return rows >= 8
}
