package cli

import (
	"context"
	"crypto/tls"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/web"
)

// serveHTTPSListen is the port the director's console answers on over
// HTTPS by default, on --listen's host.
const serveHTTPSListen = ""

// venueFlags adds serve's flags of the venue: --venue, --https-listen.
func venueFlags(cmd *cobra.Command, o *serveOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.Venue, "venue", false, "the players report their results from their phones (the slips' stubs) and the director's console answers at /console (HTTPS to other devices); opens the database for writing")
	f.StringVar(&o.HTTPSListen, "https-listen", o.HTTPSListen, "with --venue: the `HOST:PORT` of the console over HTTPS (default: --listen's host, port 8443)")
}

// httpsListen is the address the console's HTTPS answers on: o's, else
// --listen's host with port 8443.
func httpsListen(o serveOptions) string {
	if o.HTTPSListen != "" {
		return o.HTTPSListen
	}
	h, _, err := net.SplitHostPort(o.Listen)
	if err != nil {
		h = ""
	}
	return net.JoinHostPort(h, "8443")
}

// serveConsole serves the director's console (handler h, whose plain
// HTTP server is plain, listening on plainAddr) over HTTPS with the tournament's self-signed
// certificate (made on first use, kept in its venue keys), and prints how
// to open it: on this computer, and on a tablet by a one-time link (with
// its QR code if o.QR) and the certificate's fingerprint to check. The
// server's end is sent on done.
func serveConsole(ctx context.Context, g *globals, d *app.Director, id int64, h *web.Server, plain *http.Server, plainAddr *net.TCPAddr, o serveOptions, done chan<- error) (*http.Server, error) {
	listen := httpsListen(o)
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, usageErrorf("serve: --https-listen %s: %w", listen, err)
	}
	urls, local := playerURLs(ln.Addr().(*net.TCPAddr))
	var hosts []string
	for i, u := range urls {
		p, _ := url.Parse(u)
		hosts = append(hosts, p.Hostname())
		urls[i] = "https://" + p.Host
	}
	now := time.Now
	if g.Now != nil {
		now = g.Now
	}
	cert, sum, err := d.ConsoleCertificate(ctx, id, hosts, now())
	if err != nil {
		ln.Close()
		return nil, err
	}
	srv := &http.Server{
		Handler:           h,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: plain.ReadHeaderTimeout,
		ReadTimeout:       plain.ReadTimeout,
		WriteTimeout:      plain.WriteTimeout,
		IdleTimeout:       plain.IdleTimeout,
		MaxHeaderBytes:    plain.MaxHeaderBytes,
		ErrorLog:          log.New(g.Stderr, "otd serve (https): ", 0),
	}
	fp := fingerprint(sum)
	if a := plainAddr; a.IP.IsLoopback() || a.IP.IsUnspecified() {
		fmt.Fprintf(g.Stdout, "The director's console on this computer: http://127.0.0.1:%d/console\n", a.Port)
	}
	fmt.Fprintf(g.Stdout, "On a tablet, over HTTPS: its certificate's SHA-256 fingerprint is\n  %s\n", fp)
	fmt.Fprintln(g.Stdout, "(check it in the browser's certificate view before you log in). A one-time link opens one session:")
	for _, u := range urls {
		// The fragment is not sent: it shows the fingerprint to check.
		link := u + h.LoginLink() + "#sha256=" + strings.ReplaceAll(fp, ":", "")
		fmt.Fprintf(g.Stdout, "  %s\n", link)
		if o.QR {
			if err := writeQR(txt.Raw(g.Stdout), link); err != nil {
				ln.Close()
				return nil, err
			}
		}
	}
	if local {
		fmt.Fprintln(g.Stdout, "Only this computer can open it: --https-listen 0.0.0.0:8443 answers a tablet.")
	}
	go func() { done <- srv.ServeTLS(ln, "", "") }()
	return srv, nil
}

// fingerprint writes a certificate's SHA-256 as browsers show it: pairs of
// hexadecimal digits, colon-separated.
func fingerprint(sum [32]byte) string {
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}
