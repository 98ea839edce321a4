package cli

import (
	"context"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/export"
	"github.com/otd-project/otd/tournament"
)

// roundSlipsOptions are what 'round slips' is told: the round (Final: of
// the final phase), the table, the slips to a page, serve's address and
// the file.
type roundSlipsOptions struct {
	app.SlipsOptions
	Output string
	Force  bool
}

func newRoundSlipsCmd(g *globals, runF func(roundSlipsOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o roundSlipsOptions) error { return runRoundSlips(g, o) }
	}
	o := roundSlipsOptions{Output: "-", SlipsOptions: app.SlipsOptions{PerPage: 2}}
	cmd := &cobra.Command{
		Use:   "slips [R | FK] [--table T] [--url URL]",
		Short: "Write the result slips of a round: an HTML page to print on A4, a slip a table",
		Long: `slips writes the result slips of a round as an HTML page to print on A4 and
cut: one slip for every game to be played (none for a bye, a forfeit or an
absent player, whom the wall sheet lists), --per-page 2 or 4 to a sheet. A
slip names the event, the round (or the final match and game) and the table,
both players with their colours, and has boxes for the discs and both
signatures, and the QR code of the game's page on 'otd serve' with its
address printed under it. Below, a stub for each side to tear off and give
its player: the QR code of the page where that side reports the result from
a phone on 'otd serve --venue', with its code printed under it
(XXXX-XXXX-XXXXX, to type on the home page or as URL/r/XXXXXXXXXXXXX). The
stubs are printed always, so that the venue can be turned on later; a code
opens one side of one game, and dies once its result is recorded. A code is
tied to its game's table, its side and the game's two players: pairing the
round anew changes only the codes of the games whose table, players or
colours changed (print those slips again: --table T; the others' codes stay
the same).

R is a round of the Swiss; FK (F1, F2, ...) is round K of the final phase,
its games and the categories' as 'otd final show --print --round K' lists
them, numbered as tables 1, 2, ... in that order. The default is the last
paired round: the final phase's once it has started. --table T writes the
one slip again.

--url is where 'otd serve' answers the players' phones, as it prints it
('otd serve --listen 0.0.0.0:8080' gives the addresses of this computer); by
default the address 'otd serve' announces without --listen, which only this
computer can open. The page goes to standard output, or with --output to FILE
(an existing file is replaced only with --force).`,
		Example: "  otd round slips --url http://192.168.1.20:8080/ --output slips.html\n  otd round slips 3 --table 7 --output r3t7.html\n  otd round slips F2 --per-page 4 --output final-round-2.html",
		Args:    argsUsage(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				k, final := strings.CutPrefix(strings.ToUpper(args[0]), "F")
				n, err := strconv.Atoi(k)
				switch {
				case err != nil || n < 1:
					return usageErrorf("round slips: R is a round number (3), or F and a round of the final phase (F2), not %q", args[0])
				case final:
					o.Final = n
				default:
					o.Round = n
				}
			}
			if o.PerPage != 2 && o.PerPage != 4 {
				return usageErrorf("round slips: --per-page is 2 or 4, not %d", o.PerPage)
			}
			if o.Table < 0 {
				return usageErrorf("round slips: --table is a table number, from 1, not %d", o.Table)
			}
			if !cmd.Flags().Changed("url") {
				a, _ := net.ResolveTCPAddr("tcp", serveListen)
				urls, _ := playerURLs(a) // serve.go
				o.URL = urls[0]
			}
			if u, err := url.Parse(o.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return usageErrorf("round slips: --url is the address 'otd serve' prints, such as http://192.168.1.20:8080/, not %q", o.URL)
			}
			if o.Force && o.Output == "-" {
				return usageErrorf("round slips: --force goes with --output FILE")
			}
			return runF(o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.Table, "table", 0, "write the slip of table `T` only")
	f.StringVar(&o.URL, "url", "", "the `URL` 'otd serve' answers on (default: the one it announces without --listen)")
	f.IntVar(&o.PerPage, "per-page", o.PerPage, "slips to a sheet of A4: 2 or 4")
	f.StringVar(&o.Output, "output", o.Output, "write the page to `FILE` (- standard output)")
	f.BoolVar(&o.Force, "force", false, "with --output: replace FILE if it exists")
	return cmd
}

// runRoundSlips writes the result slips of a round, each with its
// players' report stubs.
func runRoundSlips(g *globals, o roundSlipsOptions) error {
	d, id, done, err := g.event()
	if err != nil {
		return err
	}
	defer done()
	page, err := d.Slips(context.Background(), id, o.SlipsOptions)
	if err != nil {
		return err
	}
	if err := writeOutput(g, o.Output, o.Force, func(w io.Writer) error { return export.WriteSlips(w, page) }); err != nil {
		return err
	}
	wrote(g, o.Output, "%s to %s (their QR codes open %s)", tournament.Plural(page.Slips.Count(), "result slip"), o.Output, o.URL)
	return nil
}
