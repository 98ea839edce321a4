package export

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/otd-project/otd/tournament"
	"github.com/xuri/excelize/v2"
)

// WriteXLSX writes the report of a tournament (Sheets) as an XLSX workbook,
// a sheet a table: numbers are number cells (points shown with one decimal,
// BQ with the decimals of the tournament's rule), days are date cells, text
// is text (TextCell: a name "=HYPERLINK(...)" is never a formula); the
// header row is bold and frozen, with an autofilter, and the columns are
// as wide as their cells.
func WriteXLSX(w io.Writer, t *tournament.Tournament) error {
	sheets, err := Sheets(t)
	if err != nil {
		return err
	}
	return WriteSheets(w, sheets)
}

// WriteSheets writes sheets as an XLSX workbook, a sheet a table, as
// WriteXLSX writes a tournament's: number, day and text cells, a bold and
// frozen header row with an autofilter, columns as wide as their cells.
func WriteSheets(w io.Writer, sheets []Sheet) error {
	f := excelize.NewFile()
	defer f.Close()
	st, err := newXLSXStyles(f)
	if err != nil {
		return err
	}
	for i, s := range sheets {
		if i == 0 {
			err = f.SetSheetName(f.GetSheetName(0), s.Name)
		} else {
			_, err = f.NewSheet(s.Name)
		}
		if err == nil {
			err = writeSheet(f, s, st)
		}
		if err != nil {
			return fmt.Errorf("xlsx sheet %s: %w", s.Name, err)
		}
	}
	if err := f.Write(w); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	return nil
}

// xlsxStyles are the style ids of a workbook: the header's, a day's, and a
// number's by its decimals.
type xlsxStyles struct {
	header, day int
	decimals    [3]int
}

func newXLSXStyles(f *excelize.File) (xlsxStyles, error) {
	var st xlsxStyles
	var err error
	style := func(s *excelize.Style) int {
		id, e := f.NewStyle(s)
		if err == nil {
			err = e
		}
		return id
	}
	format := func(s string) *excelize.Style { return &excelize.Style{CustomNumFmt: &s} }
	st.header = style(&excelize.Style{Font: &excelize.Font{Bold: true}})
	st.day = style(format("yyyy-mm-dd"))
	for d, s := range []string{"0", "0.0", "0.00"} {
		st.decimals[d] = style(format(s))
	}
	return st, err
}

// writeSheet streams a sheet's cells into the workbook's sheet of its name.
func writeSheet(f *excelize.File, s Sheet, st xlsxStyles) error {
	sw, err := f.NewStreamWriter(s.Name)
	if err != nil {
		return err
	}
	header := make([]any, len(s.Columns))
	width := make([]int, len(s.Columns))
	for i, c := range s.Columns {
		header[i] = excelize.Cell{StyleID: st.header, Value: c.Title}
		width[i] = utf8.RuneCountInString(c.Title) + 3 // the filter's button
	}
	rows := make([][]any, len(s.Rows))
	for r, row := range s.Rows {
		rows[r] = make([]any, len(row))
		for i, v := range row {
			cell := excelize.Cell{Value: v}
			text := cellText(v)
			switch v := v.(type) {
			case float64:
				d := s.Columns[i].Decimals
				cell.StyleID, text = st.decimals[d], fmt.Sprintf("%.*f", d, v)
			case time.Time:
				cell.StyleID = st.day
			case bool:
				text = strings.ToUpper(text)
			case string:
				cell.Value = text // through TextCell
				if v == "" {
					cell.Value = nil
				}
			}
			rows[r][i] = cell
			width[i] = max(width[i], utf8.RuneCountInString(text)+1)
		}
	}
	for i, w := range width {
		if err := sw.SetColWidth(i+1, i+1, float64(min(w, 60))); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	if err := sw.SetRow("A1", header); err != nil {
		return err
	}
	for r, row := range rows {
		if err := sw.SetRow(fmt.Sprintf("A%d", r+2), row); err != nil {
			return err
		}
	}
	last, err := excelize.CoordinatesToCellName(len(s.Columns), len(s.Rows)+1)
	if err != nil {
		return err
	}
	// The worksheet is still the stream writer's: the filter goes out with it.
	if err := f.AutoFilter(s.Name, "A1:"+last, nil); err != nil {
		return err
	}
	return sw.Flush()
}
