// Command otd is the Othello tournament director.
package main

import (
	"os"

	"github.com/otd-project/otd/cmd/otd/cli"
)

func main() { os.Exit(cli.Main()) }
