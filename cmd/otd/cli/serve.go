package cli

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/web"
	"github.com/spf13/cobra"
	"rsc.io/qr"
)

// serveOptions are what 'otd serve' is told: the address to Listen on,
// whether to print QR codes, and with Venue the players' reports and the
// director's console, over HTTPS on HTTPSListen too (serve_console.go).
type serveOptions struct {
	Listen      string
	QR          bool
	Venue       bool
	HTTPSListen string
}

// serveListen is the address 'otd serve' answers on by default.
const serveListen = "127.0.0.1:8080"

func newServeCmd(g *globals, runF func(serveOptions) error) *cobra.Command {
	if runF == nil {
		runF = func(o serveOptions) error { return runServe(g, o) }
	}
	o := serveOptions{Listen: serveListen, HTTPSListen: serveHTTPSListen}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the pairings, standings and crosstable to the players' phones, live",
		Long: `serve answers, on the venue's network, the pages players ask for: the
current round's pairings with a search by name ("table 7, black, against
12 Ann Archer"), the standings, the crosstable, each round, each
player's games, and a viewer that steps through a game otd played (engine
rounds), move by move. A championship's pages follow its final phase: the
home page shows the final phase's current round, /final every match and
game and the final ranking, /categories each category's ranking, /teams
the team ranking; a final game otd played has its viewer too. They read on
a phone, fetch nothing from the internet and work without JavaScript; with
it, an open page reloads itself within a second of a result entered with
'otd result' in another terminal.
The pages are in English, French or Japanese, as the browser asks or as the
reader picks on the page (/?lang=fr, /?lang=ja, /?lang=en; a cookie
remembers it); names are never translated.

With --venue the players report their results from their phones: each
slip of 'otd round slips' has a stub per side whose QR code (or the code
printed under it, typed on the home page) opens that side's page: the game,
the players and their colours, a form for the discs and, if they wish, the
moves (checked at once: a contradiction is refused with the reason). When
both sides report the same result it is recorded, as 'otd result' records it
(or held for the director with 'otd tournament edit --venue-approval
director'); 'otd log' says which side reported from which address and when.
Differing reports, two from one address, and a call for the director (a time
default, a forfeit) wait for the director. A code opens one side of one game:
a wrong one answers "unknown code", and guesses are slowed per address and
overall; a code dies once its game's result is recorded, or when its round
is paired anew and its game's table, players or colours changed. Writes from another site are refused. The database is then
opened for writing; one serve runs one tournament.

The director runs the event from the console, at /console on the same
server: every table's state, results entered or corrected, the players'
reports approved or rejected, players withdrawn or marked absent, the next
round paired (with round explain's reasons), slips and the wall sheet
printed, the last change undone; a report shows on it as it comes. Over
plain HTTP it answers this computer only; a tablet opens it over HTTPS
(--https-listen, by default port 8443 on --listen's host) with a
self-signed certificate kept in the database, whose SHA-256 fingerprint
serve prints with a one-time login link (and its QR code): check the
fingerprint in the browser's certificate view. The director's password
('otd tournament edit --director-password-file FILE') logs in too. See
docs/venue.md.

Without --venue the database is opened read-only: no page changes anything. serve may run
as a user who may not write it (a read-only file or folder): its pages then
change once the command that changed it has ended ('otd result' at once, a
'round play' at its end). serve listens
on this computer only (127.0.0.1) unless --listen names another address:
--listen 0.0.0.0:8080 answers every network this computer is on, and serve
prints the addresses to give to the players, each with a QR code for their
phones' cameras when standard output is a terminal (--qr=false: none).
Ctrl-C stops it.`,
		Example: "  otd serve\n  otd serve --listen 0.0.0.0:8080\n  otd serve --listen 0.0.0.0:8080 --qr=false > serve.log\n  otd serve --listen 0.0.0.0:8080 --venue\n  otd round slips --url http://192.168.1.20:8080/ --output slips.html",
		Args:    argsUsage(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("qr") {
				o.QR = isTerminal(g.Stdout)
			}
			if cmd.Flags().Changed("https-listen") && !o.Venue {
				return usageErrorf("serve: --https-listen is the director's console's: add --venue")
			}
			return runF(o)
		},
	}
	cmd.Flags().StringVar(&o.Listen, "listen", o.Listen, "the `HOST:PORT` to answer on (0.0.0.0:8080: every network of this computer)")
	cmd.Flags().BoolVar(&o.QR, "qr", false, "print a QR code of each address (default: when standard output is a terminal)")
	venueFlags(cmd, &o)
	return cmd
}

// runServe serves the pages until Ctrl-C (or SIGTERM).
func runServe(g *globals, o serveOptions) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, g, o)
}

// serve serves the pages of the tournament the command acts on (target: the
// current one when it starts, kept whatever 'tournament use' does) on
// o.Listen until ctx ends, printing the addresses (with their QR codes if
// o.QR); with o.Venue the players report through them and the director's
// console answers too.
func serve(ctx context.Context, g *globals, o serveOptions) error {
	listen, showQR := o.Listen, o.QR
	d, closeDB, err := g.open(dbOptions{readOnly: !o.Venue})
	if err != nil {
		return err
	}
	defer closeDB()
	id, err := g.target(ctx, d)
	if err != nil {
		return err
	}
	t, err := d.Tournament(ctx, id)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return usageErrorf("serve: --listen %s: %w", listen, err)
	}
	addrs, local := playerURLs(ln.Addr().(*net.TCPAddr))
	var opts []web.Option
	mode := "read-only"
	if o.Venue {
		opts, mode = append(opts, web.WithVenue(d, addrs[0])), "the venue is on: the players report their results with the codes of their slips"
	}
	if g.Now != nil {
		opts = append(opts, web.WithClock(g.Now))
	}
	h, err := web.New(ctx, d, id, opts...)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second, // the update streams set their own
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          log.New(g.Stderr, "otd serve: ", 0),
	}
	fmt.Fprintf(g.Stdout, "Serving %s, %s. Give the players:\n", t.Name, mode)
	for _, u := range addrs {
		fmt.Fprintf(g.Stdout, "  %s\n", u)
		if showQR {
			if err := writeQR(txt.Raw(g.Stdout), u); err != nil {
				return err
			}
		}
	}
	if local {
		fmt.Fprintln(g.Stdout, "Only this computer can open it: --listen 0.0.0.0:8080 answers the players' phones.")
	}
	done := make(chan error, 2)
	servers := []*http.Server{srv}
	if o.Venue {
		tlsSrv, err := serveConsole(ctx, g, d, id, h, srv, ln.Addr().(*net.TCPAddr), o, done)
		if err != nil {
			return err
		}
		servers = append(servers, tlsSrv)
	}
	fmt.Fprintln(g.Stdout, "Ctrl-C stops.")
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	cancel() // the update streams end
	shut, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	for _, srv := range servers {
		if err := srv.Shutdown(shut); err != nil {
			return fmt.Errorf("serve: stopping: %w", err)
		}
	}
	return nil
}

// playerURLs gives the addresses of a server listening on a: every
// address of this computer's networks if a is unspecified (0.0.0.0, ::),
// and whether only this computer can reach them (loopback).
func playerURLs(a *net.TCPAddr) (urls []string, local bool) {
	port := strconv.Itoa(a.Port)
	url := func(ip net.IP) string { return "http://" + net.JoinHostPort(ip.String(), port) + "/" }
	if !a.IP.IsUnspecified() {
		return []string{url(a.IP)}, a.IP.IsLoopback()
	}
	addrs, _ := net.InterfaceAddrs()
	for _, ad := range addrs {
		if n, ok := ad.(*net.IPNet); ok && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() && (n.IP.To4() != nil || a.IP.To4() == nil) {
			urls = append(urls, url(n.IP))
		}
	}
	if len(urls) == 0 {
		return []string{url(net.IPv4(127, 0, 0, 1))}, true
	}
	return urls, false
}

// writeQR draws text's QR code on a terminal: two rows of modules a line
// (half blocks), black on white whatever the terminal's colours, with the
// quiet zone of 4 modules the standard asks for.
func writeQR(w io.Writer, text string) error {
	code, err := qr.Encode(text, qr.L)
	if err != nil {
		return fmt.Errorf("serve: the QR code of %s: %w", text, err)
	}
	const quiet = 4
	var b strings.Builder
	for y := -quiet; y < code.Size+quiet; y += 2 {
		b.WriteString("  \x1b[30;107m") // black on bright white
		for x := -quiet; x < code.Size+quiet; x++ {
			// Black is false outside the code: the quiet zone.
			b.WriteString([]string{" ", "▀", "▄", "█"}[bit(code.Black(x, y))|bit(code.Black(x, y+1))<<1])
		}
		b.WriteString("\x1b[0m\n")
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}
