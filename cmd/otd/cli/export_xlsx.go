package cli

import "github.com/spf13/cobra"

// xlsxCommands are 'otd export xlsx' and 'otd export csv'.
func xlsxCommands(g *globals) []*cobra.Command { return nil }
