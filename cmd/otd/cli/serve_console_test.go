package cli

import (
	"crypto/sha256"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
)

// startVenue runs 'otd serve --venue' on free ports of this computer and
// returns what it printed at start.
func startVenue(t *testing.T, db string) (out string, stop func()) {
	t.Helper()
	_, buf, cancel, done := startServe(t, db, serveOptions{Venue: true})
	return buf.String(), func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve --venue: %v", err)
		}
	}
}

// TestServeVenueConsole: serve --venue serves the console over HTTPS with a
// certificate whose fingerprint it prints, the same after a restart; its
// one-time link opens a session over HTTPS; the players' pages stay on
// HTTP.
func TestServeVenueConsole(t *testing.T) {
	db := clubPaired(t)
	var fingerprints []string
	for range 2 {
		out, stop := startVenue(t, db.path)
		fp := regexp.MustCompile(`(?m)^  ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$`).FindStringSubmatch(out)
		link := regexp.MustCompile(`https://127\.0\.0\.1:\d+/console/login\?once=[0-9a-f]{32}#sha256=[0-9A-F]{64}`).FindString(out)
		if fp == nil || link == "" || !strings.Contains(out, "http://127.0.0.1:") {
			stop()
			t.Fatalf("serve --venue printed no fingerprint, link or address:\n%s", out)
		}
		fingerprints = append(fingerprints, fp[1])
		if strings.ReplaceAll(fp[1], ":", "") != link[strings.Index(link, "#sha256=")+8:] {
			t.Errorf("the link's fingerprint %s is not the printed one %s", link, fp[1])
		}
		// The certificate served is the one whose fingerprint is printed.
		jar, _ := cookiejar.New(nil)
		var served string
		client := &http.Client{Jar: jar, Timeout: hang, Transport: &http.Transport{TLSClientConfig: &tls.Config{
			InsecureSkipVerify: true, // a self-signed certificate: checked by its fingerprint
			VerifyConnection: func(cs tls.ConnectionState) error {
				sum := sha256.Sum256(cs.PeerCertificates[0].Raw)
				served = fingerprint(sum)
				return nil
			}}}}
		page, err := client.Get(link)
		if err != nil {
			stop()
			t.Fatal(err)
		}
		body, _ := io.ReadAll(page.Body)
		page.Body.Close()
		if served != fp[1] {
			t.Errorf("the certificate served has fingerprint %s; printed %s", served, fp[1])
		}
		once := regexp.MustCompile(`name="once" value="([0-9a-f]{32})"`).FindSubmatch(body)
		if once == nil {
			stop()
			t.Fatalf("the one-time link's page has no form:\n%s", body)
		}
		base := link[:strings.Index(link, "/console/")]
		res, err := client.PostForm(base+"/console/login", map[string][]string{"once": {string(once[1])}})
		if err != nil {
			stop()
			t.Fatal(err)
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Table 1") || !strings.Contains(string(body), "(session ") {
			t.Errorf("the console after the one-time link: %d\n%s", res.StatusCode, body)
		}
		stop()
	}
	if fingerprints[0] != fingerprints[1] {
		t.Errorf("the certificate changed across restarts: %s, then %s", fingerprints[0], fingerprints[1])
	}
}
