package cli

import "github.com/spf13/cobra"

// exportCommands are the writers of 'otd export' besides elo: the
// spreadsheet and CSV files (export_xlsx.go), the HTML page and the board
// pictures (export_html.go).
func exportCommands(g *globals) []*cobra.Command {
	return append(xlsxCommands(g), htmlCommands(g)...)
}
