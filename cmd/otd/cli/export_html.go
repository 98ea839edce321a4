package cli

import "github.com/spf13/cobra"

// htmlCommands are 'otd export html' and 'otd export svg'.
func htmlCommands(g *globals) []*cobra.Command { return nil }
